// The message centre in Chromium: an operator sends from /admin; a user sees the bell's badge,
// opens the popover, switches tabs, filters Unread, opens an item (read, the badge goes down, its
// link followed), marks all read and opens the history; a visitor on a phone sees a message to
// everyone, and nothing scrolls sideways. Screenshots go to QUIRE_SHOTS when it is set.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../apps/server/src/services/accounts.js';
import { E2E_PASSWORD, signInByDialog, startE2e, type E2e } from './browser.js';

const OPERATOR = 'otto@example.org';
const USER = 'uma@example.org';

let e2e: E2e;

beforeAll(async () => {
  e2e = await startE2e();
  await createAccount(e2e.quire.ctx, OPERATOR, E2E_PASSWORD, 'free', 'operator');
  await createAccount(e2e.quire.ctx, USER, E2E_PASSWORD, 'free');
});
afterAll(() => e2e.stop());

const shot = async (page: Page, name: string) => {
  if (process.env.QUIRE_SHOTS) await page.screenshot({ path: `${process.env.QUIRE_SHOTS}/${name}.png` });
};

/** The bell the page shows (the header's, or the phone's top bar's). */
const bell = (page: Page) => page.locator('[data-testid="message-bell"]:visible');
const badge = (page: Page) => page.locator('[data-testid="message-badge"]:visible');
const titles = (where: Locator) => where.locator('.message-title').allTextContents();

async function send(
  operator: Page,
  fields: {
    kind?: string;
    audience?: string;
    plan?: string;
    email?: string;
    title: string;
    remark?: string;
    link?: string;
    image?: string;
  },
) {
  const form = operator.getByTestId('admin-messages');
  await form.getByTestId('message-kind').selectOption(fields.kind ?? '1');
  await form.getByTestId('message-audience').selectOption(fields.audience ?? 'everyone');
  if (fields.plan) await form.getByTestId('message-plan').selectOption(fields.plan);
  if (fields.email) await form.getByTestId('message-email').fill(fields.email);
  await form.getByTestId('message-title').fill(fields.title);
  await form.getByTestId('message-remark').fill(fields.remark ?? '');
  await form.getByTestId('message-link').fill(fields.link ?? '');
  await form.getByTestId('message-image').fill(fields.image ?? '');
  const before = await form.getByTestId('admin-message').count();
  await form.getByTestId('message-send').click();
  await expect.poll(() => form.getByTestId('admin-message').count()).toBe(before + 1);
}

describe('the message centre', () => {
  it('an operator sends; a user reads under the bell, marks read, and sees the history', async () => {
    const operator = await e2e.open('/admin', { width: 1280, height: 900 });
    await operator.getByTestId('admin-signed-out').getByRole('button', { name: 'Sign in' }).click();
    await signInByDialog(operator, OPERATOR, E2E_PASSWORD);
    await send(operator, {
      title: 'Welcome to the message centre',
      remark: 'News about Quire shows here.',
      link: '/pricing',
      image: '/favicon.svg',
    });
    await send(operator, { kind: '2', audience: 'plan', plan: 'free', title: 'Maintenance tonight', remark: 'From 22:00 to 23:00.' });
    await send(operator, { audience: 'account', email: USER, title: 'Your files are ready' });
    await send(operator, { kind: '2', audience: 'plan', plan: 'premium', title: 'Premium only' });
    expect(await operator.getByTestId('admin-message-reads').allTextContents()).toEqual([
      'Read by 0',
      'Read by 0',
      'Read by 0',
      'Read by 0',
    ]);

    const user = await e2e.open('/', { width: 1280, height: 900 });
    await user.getByTestId('login-button').click();
    await signInByDialog(user, USER, E2E_PASSWORD);
    await expect.poll(() => badge(user).textContent()).toBe('3');
    expect(await bell(user).getAttribute('aria-label')).toBe('Notifications: 3 unread');

    await bell(user).click();
    const popover = user.getByTestId('message-popover');
    await popover.waitFor();
    expect(await popover.getByTestId('message-tab-messages').textContent()).toBe('Messages2');
    expect(await popover.getByTestId('message-tab-system').textContent()).toBe('System notices1');
    await expect.poll(() => titles(popover)).toEqual(['Your files are ready', 'Welcome to the message centre']);
    const welcome = popover.getByTestId('message-item').nth(1);
    expect(await welcome.locator('.message-remark').textContent()).toBe('News about Quire shows here.');
    expect(await welcome.locator('.message-image').getAttribute('src')).toBe('/favicon.svg');
    expect(await welcome.locator('.message-time').textContent()).toMatch(/now|minute/);
    await shot(user, 'messages-popover-1280');
    // Escape closes, and the focus is back on the bell.
    await user.keyboard.press('Escape');
    await popover.waitFor({ state: 'detached' });
    expect(await user.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('message-bell');
    await user.keyboard.press('Enter');
    await popover.waitFor();

    await popover.getByTestId('message-tab-system').click();
    await expect.poll(() => titles(popover)).toEqual(['Maintenance tonight']);
    await popover.getByTestId('message-tab-messages').click();
    // The one without a link: read on a click, the badge one down, still listed under All.
    await popover.getByTestId('message-item').first().click();
    await expect.poll(() => badge(user).textContent()).toBe('2');
    expect(await popover.getByTestId('message-item').first().getAttribute('data-read')).toBe('1');
    await popover.getByTestId('message-filter-unread').click();
    await expect.poll(() => titles(popover)).toEqual(['Welcome to the message centre']);
    // The one with a link: read, and its page opens.
    await popover.getByTestId('message-item').first().click();
    await expect.poll(() => new URL(user.url()).pathname).toBe('/pricing');
    await expect.poll(() => badge(user).textContent()).toBe('1');

    await bell(user).click();
    await popover.getByTestId('message-mark-all').click();
    await expect.poll(() => badge(user).count()).toBe(0);
    expect(await popover.getByTestId('message-tab-system').textContent()).toBe('System notices');
    await popover.getByTestId('message-history').click();
    const history = user.getByTestId('message-history-dialog');
    await history.waitFor();
    await expect.poll(() => titles(history)).toEqual(['Your files are ready', 'Maintenance tonight', 'Welcome to the message centre']);
    await shot(user, 'messages-history-1280');
    await user.keyboard.press('Escape');
    await history.waitFor({ state: 'detached' });

    // The notice page, in the app's shell, with its bell in the sidebar.
    await user.goto(`${e2e.quire.url}/app/message`);
    const page = user.getByTestId('message-page');
    await expect.poll(() => titles(page)).toEqual(['Your files are ready', 'Welcome to the message centre']);
    expect(await badge(user).count()).toBe(0);
    await shot(user, 'messages-page-1280');

    await operator.reload();
    await expect
      .poll(() => operator.getByTestId('admin-message-reads').allTextContents())
      .toEqual(['Read by 0', 'Read by 1', 'Read by 1', 'Read by 1']);
    await operator.getByTestId('message-delete').first().click();
    await expect.poll(() => operator.getByTestId('admin-message').count()).toBe(3);
    await user.context().close();
    await operator.context().close();
  });

  it('a visitor on a phone sees a message to everyone under the bell, and nothing scrolls sideways', async () => {
    const phone = await e2e.open('/', { width: 390, height: 844 });
    await expect.poll(() => badge(phone).textContent()).toBe('1');
    await bell(phone).click();
    const popover = phone.getByTestId('message-popover');
    await popover.waitFor();
    await expect.poll(() => titles(popover)).toEqual(['Welcome to the message centre']);
    const box = await popover.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(phone, 'messages-popover-390');
    await popover.getByTestId('message-item').first().click();
    await expect.poll(() => new URL(phone.url()).pathname).toBe('/pricing');
    await expect.poll(() => badge(phone).count()).toBe(0);
    // Read here, it stays read for this browser: its client signature is kept.
    await phone.goto(`${e2e.quire.url}/app/home`);
    await bell(phone).waitFor();
    await bell(phone).click();
    await expect.poll(() => popover.getByTestId('message-item').first().getAttribute('data-read')).toBe('1');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(phone, 'messages-app-390');
    // Another browser is another visitor: the message is unread there.
    const other = await e2e.open('/', { width: 390, height: 844 });
    await expect.poll(() => badge(other).textContent()).toBe('1');
  });
});
