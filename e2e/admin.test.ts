// The operator's page, the pricing page and the header's account corner as users meet them in
// Chromium: an operator changes a plan and the user sees it after Refresh; the prices of each
// language; a session token in the address signs the page in and leaves the address bar.
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../apps/server/src/services/accounts.js';
import { cloudFileRow } from '../apps/server/test/harness.js';
import { startE2e, type E2e, OPERATOR_CONTACT } from './browser.js';

const OPERATOR = 'olga@example.org';
const USER = 'una@example.org';
const PASSWORD = 'long enough password';

let e2e: E2e;

beforeAll(async () => {
  e2e = await startE2e({ operatorContact: OPERATOR_CONTACT });
  await createAccount(e2e.quire.ctx, OPERATOR, PASSWORD, 'free', 'operator');
  await createAccount(e2e.quire.ctx, USER, PASSWORD, 'free');
});
afterAll(() => e2e.stop());

/** A file kept in the account's document cloud, as the cloud's table records it (the list counts those). */
async function keepInCloud(email: string, name: string, size: number): Promise<void> {
  const { db } = e2e.quire.ctx;
  const { id } = await db.selectFrom('accounts').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  await db
    .insertInto('cloud_files')
    .values(cloudFileRow(id, `${id}-${name}`, name, size))
    .execute();
}

async function signIn(page: Page, email: string): Promise<void> {
  const dialog = page.getByTestId('signin-dialog');
  await dialog.waitFor();
  await dialog.getByLabel('Email', { exact: true }).fill(email);
  await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await dialog.getByTestId('signin-submit').click();
  await dialog.waitFor({ state: 'detached' });
}

/** Text of the element, its blanks (Intl's no-break spaces among them) made plain spaces. */
const textOf = async (page: Page, testId: string) => ((await page.getByTestId(testId).first().textContent()) ?? '').replace(/\s+/g, ' ');

describe("the operator's page", () => {
  it("changes a user's plan, which the user's avatar menu shows after Refresh", async () => {
    const user = await e2e.open('/');
    await user.getByTestId('login-button').click();
    await signIn(user, USER);
    await user.getByTestId('avatar-button').click();
    const menu = user.getByTestId('account-menu');
    expect(await menu.getByTestId('plan-label').textContent()).toBe('Free');
    expect(await menu.getByTestId('buy-premium').getAttribute('href')).toBe('/pricing');
    expect(await menu.getByTestId('buy-ai').count()).toBe(1);
    expect(await menu.getByTestId('admin-link').count()).toBe(0);
    // Not an operator: the page is not there for this user, and the server refuses its calls.
    await user.goto(`${e2e.quire.url}/admin`);
    await user.getByTestId('admin-not-found').waitFor();
    const code = await user.evaluate(async () => ((await (await fetch('/api/account/v1/admin/users')).json()) as { code: number }).code);
    expect(code).toBe(3015);

    const operator = await e2e.open('/admin');
    await operator.getByTestId('admin-signed-out').getByRole('button', { name: 'Sign in' }).click();
    await signIn(operator, OPERATOR);
    await operator.getByTestId('admin-search').fill('UNA@');
    const row = operator.locator(`[data-testid="admin-user"][data-email="${USER}"]`);
    await row.waitFor();
    await expect.poll(() => operator.getByTestId('admin-user').count()).toBe(1);
    expect(await operator.getByTestId('admin-range').textContent()).toBe('1–1 of 1');
    expect(await row.getByTestId('admin-cloud').textContent()).toBe('0 files, 0 B');
    await keepInCloud(USER, 'kept.pdf', 1024 * 1024);
    await keepInCloud(USER, 'notes.txt', 512 * 1024);
    await operator.getByTestId('admin-search').fill('una@');
    await expect.poll(() => row.getByTestId('admin-cloud').textContent()).toBe('2 files, 1.5 MB');
    if (process.env.QUIRE_SHOTS) await operator.screenshot({ path: `${process.env.QUIRE_SHOTS}/admin-1440.png`, fullPage: true });
    await row.getByTestId('admin-plan').selectOption('premium');
    await expect.poll(() => operator.getByText(`${USER} is now on Premium.`).count()).toBeGreaterThan(0);
    await expect
      .poll(
        async () => (await e2e.quire.ctx.db.selectFrom('accounts').select('plan').where('email', '=', USER).executeTakeFirstOrThrow()).plan,
      )
      .toBe('premium');
    await expect.poll(() => operator.getByRole('status').first().textContent()).toContain(`${USER} is now on Premium.`);
    const stored = await e2e.quire.ctx.db.selectFrom('accounts').select('plan').where('email', '=', USER).executeTakeFirstOrThrow();
    expect(stored.plan).toBe('premium');

    await user.goto(`${e2e.quire.url}/`);
    await user.getByTestId('avatar-button').click();
    await user.getByTestId('refresh-button').click();
    await expect.poll(() => user.getByTestId('plan-label').textContent()).toBe('Premium');
    expect(await user.getByTestId('buy-premium').count()).toBe(0);
    expect(await user.getByTestId('buy-ai').count()).toBe(1);
    // The Pro badge beside the avatar's button.
    expect(await user.locator('.avatar-anchor', { has: user.getByTestId('avatar-button') }).textContent()).toBe('UPro');
    // Both plans at once (the product's "AI and pro"): both labels, nothing left to buy.
    await row.getByTestId('admin-plan').selectOption('premium_ai');
    await operator.getByText(`${USER} is now on Premium + AI.`).waitFor();
    await user.getByTestId('refresh-button').click();
    await expect.poll(() => user.getByTestId('plan-label').allTextContents()).toEqual(['Premium', 'AI Upgraded']);
    expect(await user.getByTestId('buy-ai').count()).toBe(0);
    await row.getByTestId('admin-plan').selectOption('premium');

    // On a phone each account is a card that fits the screen.
    await operator.setViewportSize({ width: 390, height: 844 });
    const box = await row.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    expect(
      await row
        .locator('td')
        .nth(1)
        .evaluate((td) => getComputedStyle(td, '::before').content),
    ).toBe('"Plan"');
    if (process.env.QUIRE_SHOTS) await operator.screenshot({ path: `${process.env.QUIRE_SHOTS}/admin-390.png`, fullPage: true });
    await user.context().close();
    await operator.context().close();
  });
});

describe('the pricing page', () => {
  it("shows the spec's prices in English, the Spanish fallback and euros in German, and whom to ask", async () => {
    e2e.quire.ctx.config.operatorContact = '';
    const en = await e2e.open('/pricing');
    await en.getByTestId('premium-yearly').waitFor();
    expect(await textOf(en, 'premium-yearly')).toBe('$39.99');
    expect(await textOf(en, 'premium-monthly')).toBe('or $5.99 billed monthly');
    expect(await textOf(en, 'premium-per-month')).toBe('About $3.33 per month, billed yearly');
    expect(await en.getByTestId('plan-premium').textContent()).toContain('Save 58%');
    expect(await textOf(en, 'ai-monthly')).toBe('$9.90');
    expect(await en.getByTestId('plan-free').textContent()).toContain('Files up to 20 MB');
    await expect.poll(() => textOf(en, 'buy')).toBe('Ask the operator of this Quire server');

    const es = await e2e.open('/es/pricing');
    await expect.poll(() => textOf(es, 'premium-yearly')).toBe('39,95 US$');
    expect(await textOf(es, 'premium-monthly')).toContain('5,95 US$');
    expect(await textOf(es, 'premium-per-month')).toContain('3,33 US$');

    e2e.quire.ctx.config.operatorContact = 'sales@example.org';
    const de = await e2e.open('/de/pricing');
    await expect.poll(() => textOf(de, 'premium-yearly')).toBe('48 €');
    expect(await textOf(de, 'premium-monthly')).toContain('6 €');
    expect(await textOf(de, 'ai-monthly')).toBe('8 €');
    expect(await textOf(de, 'ai-yearly')).toContain('62 €');
    await expect.poll(() => de.getByTestId('buy').first().getAttribute('href')).toBe('mailto:sales@example.org');
    // The header's Pricing opens in a new tab, in the page's language.
    const link = de.locator('.site-header').getByTestId('pricing-link');
    expect(await link.getAttribute('href')).toBe('/de/pricing');
    expect(await link.getAttribute('target')).toBe('_blank');
    for (const page of [en, es, de]) await page.context().close();
  });

  it('marks the plan a signed-in user has instead of offering it', async () => {
    const page = await e2e.open('/pricing');
    await page.getByTestId('login-button').click();
    await signIn(page, USER);
    await page.getByTestId('plan-premium').getByTestId('your-plan').waitFor();
    expect(await page.getByTestId('plan-premium').getByTestId('buy').count()).toBe(0);
    expect(await page.getByTestId('plan-ai').getByTestId('buy').count()).toBe(1);
    expect(await page.getByTestId('plan-free').getByTestId('your-plan').count()).toBe(0);
    await page.context().close();
  });
});

describe('a session token in the address', () => {
  it('signs the page in, leaves the address bar and stays in the cookie', async () => {
    await e2e.quire.ctx.db.updateTable('accounts').set({ plan: 'premium' }).where('email', '=', USER).execute();
    const res = await fetch(`${e2e.quire.url}/api/account/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: USER, password: PASSWORD }),
    });
    const session = ((await res.json()) as { data: { token: string } }).data.token;
    // The address takes a session link made for it (single use, short-lived), not a session's own token.
    const link = await fetch(`${e2e.quire.url}/api/account/v1/session-link`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session}` },
      body: '{}',
    });
    const { token } = ((await link.json()) as { data: { token: string } }).data;
    const page = await e2e.open(`/app/home?tab=recent&token=${token}#top`, { width: 390, height: 844 });
    // On a phone the top bar shows the avatar with its Pro badge.
    await page.getByTestId('phone-avatar').waitFor();
    expect(await page.locator('.avatar-anchor', { has: page.getByTestId('phone-avatar') }).textContent()).toBe('UPro');
    const url = new URL(page.url());
    expect(url.searchParams.get('token')).toBeNull();
    expect(url.search).toBe('?tab=recent');
    expect(url.hash).toBe('#top');
    // Replaced, not pushed: Back leads to the blank tab the page opened in, not to the token.
    expect(await page.evaluate(() => window.history.length)).toBe(2);
    await page.goto(`${e2e.quire.url}/`);
    await page.getByTestId('phone-avatar').waitFor();
    await page.getByTestId('phone-avatar').click();
    await page.locator('.mobile-drawer').getByTestId('avatar-button').waitFor();
    // Signed in, the header names the workspace Home.
    await page.setViewportSize({ width: 1440, height: 900 });
    expect(await page.getByTestId('header-home').textContent()).toBe('Home');
    await page.context().close();
  });
});

describe('top banners', () => {
  it('an operator publishes one; every page shows it within its window, a closed one stays closed, a withdrawn one goes', async () => {
    const operator = await e2e.open('/admin', { width: 1280, height: 900 });
    await operator.getByTestId('admin-signed-out').getByRole('button', { name: 'Sign in' }).click();
    await signIn(operator, OPERATOR);
    // The form's window: from now, for a week.
    await operator.getByTestId('banner-title').fill('Chat with your PDFs is here');
    await operator.getByTestId('banner-link').fill('/pricing');
    await operator.getByTestId('banner-publish').click();
    const listed = operator.getByTestId('admin-banner');
    await expect.poll(() => listed.textContent()).toContain('Live');
    const published = Date.now();

    const visitor = await e2e.open('/', { width: 1280, height: 900 });
    const banner = visitor.getByTestId('top-banner');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('Chat with your PDFs is here');
    await visitor.screenshot({ path: path.join(os.tmpdir(), 'quire-top-banner-1280.png') });
    await banner.getByRole('link').click();
    await expect.poll(() => new URL(visitor.url()).pathname).toBe('/pricing');
    await visitor.getByTestId('top-banner-close').click();
    await banner.waitFor({ state: 'detached' });
    await visitor.goto(`${e2e.quire.url}/app/home`);
    await visitor.locator('h1').waitFor();
    expect(await banner.count()).toBe(0);

    // Another visitor, on a phone, in the app's shell.
    const phone = await e2e.open('/app/home', { width: 390, height: 844 });
    await phone.getByTestId('top-banner').waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // The page's clock decides the window: eight days on, and an hour before it began, it is not shown.
    for (const at of [published + 8 * 24 * 3600_000, published - 3600_000]) {
      const context = await e2e.browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.clock.setFixedTime(at);
      await page.goto(`${e2e.quire.url}/`);
      await page.locator('h1').waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.getByTestId('top-banner').count()).toBe(0);
      await context.close();
    }

    await operator.getByTestId('banner-withdraw').click();
    await expect.poll(() => listed.count()).toBe(0);
    const late = await e2e.open('/', { width: 1280, height: 900 });
    await late.locator('h1').waitFor();
    await late.waitForLoadState('networkidle');
    expect(await late.getByTestId('top-banner').count()).toBe(0);
  });
});
