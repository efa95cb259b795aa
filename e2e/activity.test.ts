// The activity dialog in Chromium, on one server: the floating box is shown on ordinary pages and
// hidden on the AI pages and the editor; the free kind embeds the referral page with a loading state
// until it has loaded, then the invite link, and closes by the page's close message (not by one the
// page itself posts); ai-read?activity=free opens it for an account without VIP only; an invite
// link's code reaches the sign-up; the event
// pops up once, not again within 7 days, and again after 8 (the page's clock); 'No Events Currently'
// without an event. Screenshots go to QUIRE_SHOTS when it is set.
import type { ActivitySettings } from '@quire/contracts';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../apps/server/src/services/accounts.js';
import { storeActivitySettings } from '../apps/server/src/services/activitySettings.js';
import { referralInfo } from '../apps/server/src/services/referrals.js';
import { findAccountByEmail } from '../apps/server/src/db/accountsRepo.js';
import { pendingReferral } from '../apps/server/src/db/referralsRepo.js';
import { E2E_PASSWORD, startE2e, type E2e } from './browser.js';

const DAY_MS = 24 * 3600_000;
const NO_EVENT = { adv_popshow: 0, adv_url: '', adv_img: '' } as const;

let e2e: E2e;
beforeAll(async () => {
  e2e = await startE2e();
});
afterAll(() => e2e.stop());

const settle = (s: Partial<ActivitySettings>) =>
  storeActivitySettings(e2e.quire.ctx, { reward_tokens: 0, invite_cap: 0, ...NO_EVENT, ...s });
const shot = async (page: Page, name: string) => {
  if (process.env.QUIRE_SHOTS) await page.screenshot({ path: `${process.env.QUIRE_SHOTS}/${name}.png` });
};

async function newPage(viewport = { width: 1280, height: 800 }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await e2e.browser.newContext({ viewport });
  // The desktop's bookmark hint, closed before: it would hold the gift button back (one interruption at a time).
  await context.addInitScript(() => localStorage.setItem('quire.bookmarkHint.dismissed', '1'));
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('page error:', e));
  return { context, page };
}

/** A new account on `plan`, signed in (the browser keeps the session cookie), at /app/home. */
async function signedIn(email: string, plan: 'free' | 'premium', viewport?: { width: number; height: number }) {
  await createAccount(e2e.quire.ctx, email, E2E_PASSWORD, plan);
  const { context, page } = await newPage(viewport);
  const login = await context.request.post(`${e2e.quire.url}/api/account/v1/login`, { data: { email, password: E2E_PASSWORD } });
  expect((await login.json()).code).toBe(0);
  await page.goto(`${e2e.quire.url}/app/home`);
  await page.getByTestId('avatar-button').first().waitFor();
  return { context, page };
}

describe('activity dialog', () => {
  it('shows the floating box on ordinary pages, not on the AI pages and the editor', async () => {
    await settle({});
    const { context, page } = await newPage();
    for (const shown of ['/', '/app/home', '/app/merge-pdf', '/de/app/home']) {
      await page.goto(e2e.quire.url + shown);
      await page.getByTestId('activity-box').waitFor();
    }
    for (const hidden of [
      '/app/chat-pdf',
      '/app/ai-read',
      '/app/ai-proofread',
      '/app/ai-translator',
      '/app/pdf-editor',
      '/fr/app/chat-pdf',
    ]) {
      await page.goto(e2e.quire.url + hidden);
      await page.locator('h1').first().waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.getByTestId('activity-box').count(), hidden).toBe(0);
    }
    await context.close();
  });

  it('opens the free kind with a loading state, then the invite link; the page closes it by its message', async () => {
    await settle({ reward_tokens: 500 });
    const { context, page } = await signedIn('inviter@example.org', 'free');
    // The referral page's call waits until the test lets it through: the loading state is seen.
    let letThrough = () => {};
    const held = new Promise<void>((r) => {
      letThrough = r;
    });
    await context.route('**/api/account/v1/referral', async (route) => {
      if (route.request().frame() !== page.mainFrame()) await held;
      await route.continue();
    });
    await page.getByTestId('activity-box').click();
    const dialog = page.getByTestId('activity-dialog');
    await dialog.waitFor();
    await page.getByTestId('activity-loading').waitFor();
    expect(await page.getByTestId('activity-tab-free').getAttribute('aria-selected')).toBe('true');
    letThrough();
    const frame = page.frameLocator('[data-testid="activity-frame"]');
    const link = frame.getByTestId('activity-invite-link');
    await link.waitFor();
    await page.getByTestId('activity-loading').waitFor({ state: 'detached' });
    expect(await link.inputValue()).toMatch(new RegExp(`^${e2e.quire.ctx.config.publicUrl}/\\?invite=[A-Z2-9]{10}$`));
    expect(await frame.getByText('you both get 500 AI tokens.').count()).toBe(1);
    expect(await frame.getByTestId('activity-friends').textContent()).toBe('0');
    await shot(page, 'activity-free-1280');

    // A close message that is not the embedded page's own leaves the dialog open.
    await page.evaluate(() => window.postMessage('quire:activity-close', window.location.origin));
    await page.waitForTimeout(300);
    expect(await dialog.isVisible()).toBe(true);
    await frame.getByTestId('activity-page-close').click();
    await dialog.waitFor({ state: 'detached' });

    // The event tab: no event yet.
    await page.getByTestId('activity-box').click();
    await page.getByTestId('activity-tab-event').click();
    await page.getByTestId('activity-no-events').filter({ hasText: 'No Events Currently' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });

    // ai-read?activity=free opens the free kind by itself, with no floating box there.
    await page.goto(`${e2e.quire.url}/app/ai-read?activity=free`);
    await frame.getByTestId('activity-invite-link').waitFor();
    expect(await page.getByTestId('activity-box').count()).toBe(0);
    await context.close();
  });

  it('offers no free kind to a VIP account: ai-read?activity=free opens nothing, the box shows the event kind', async () => {
    const { context, page } = await signedIn('vip@example.org', 'premium');
    await page.goto(`${e2e.quire.url}/app/ai-read?activity=free`);
    await page.locator('h1').first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('activity-dialog').count()).toBe(0);
    await page.goto(`${e2e.quire.url}/app/home`);
    await page.getByTestId('activity-box').click();
    await page.getByTestId('activity-no-events').waitFor();
    expect(await page.getByTestId('activity-tab-free').count()).toBe(0);
    await context.close();
  });

  it('pops the event up once, not again within 7 days, and again after 8; its image links to the event', async () => {
    await settle({ reward_tokens: 500, adv_popshow: 1, adv_img: '/favicon.svg', adv_url: 'https://example.org/sale' });
    const { context, page } = await newPage();
    await context.clock.install();
    await page.goto(`${e2e.quire.url}/`);
    const dialog = page.getByTestId('activity-dialog');
    await dialog.waitFor();
    expect(await page.getByTestId('activity-ad').getAttribute('href')).toBe('https://example.org/sale');
    expect(await page.getByTestId('activity-ad-image').getAttribute('src')).toBe('/favicon.svg');
    await shot(page, 'activity-event-1280');
    // A visitor is offered no free kind.
    expect(await page.getByTestId('activity-tab-free').count()).toBe(0);
    await page.getByTestId('activity-close').click();
    await dialog.waitFor({ state: 'detached' });

    const staysAway = async () => {
      await page.reload();
      await page.getByTestId('activity-box').waitFor();
      await page.waitForLoadState('networkidle');
      expect(await dialog.count()).toBe(0);
    };
    await staysAway();
    await context.clock.setSystemTime(Date.now() + 6 * DAY_MS);
    await staysAway();
    await context.clock.setSystemTime(Date.now() + 8 * DAY_MS);
    await page.reload();
    await dialog.waitFor();
    await context.close();
  });

  it("carries an invite link's code to the sign-up, across pages, and forgets it once sent", async () => {
    await settle({ reward_tokens: 500 });
    const inviter = await createAccount(e2e.quire.ctx, 'linker@example.org', E2E_PASSWORD, 'free');
    const { invite_code } = await referralInfo(e2e.quire.ctx, inviter);
    const { context, page } = await newPage();
    await page.goto(`${e2e.quire.url}/?invite=${invite_code}`);
    await page.getByTestId('activity-box').waitFor();
    await page.goto(`${e2e.quire.url}/pricing`);
    await page.getByTestId('login-button').click();
    const dialog = page.getByTestId('signin-dialog');
    await dialog.getByTestId('auth-tab-register').click();
    await dialog.getByLabel('Email').fill('invited@example.org');
    await dialog.getByLabel('Password').fill(E2E_PASSWORD);
    await dialog.getByTestId('register-submit').click();
    await dialog.getByTestId('auth-mailed').waitFor();
    const friend = (await findAccountByEmail(e2e.quire.ctx.db, 'invited@example.org'))!;
    expect((await pendingReferral(e2e.quire.ctx.db, friend.id))?.inviter_id).toBe(inviter.id);
    expect(await page.evaluate(() => localStorage.getItem('quire.invite'))).toBeNull();
    await context.close();
  });

  it('fits a 390 px phone: the box in its corner, the free dialog without sideways scrolling', async () => {
    await settle({ reward_tokens: 500 });
    const { context, page } = await signedIn('phone@example.org', 'free', { width: 390, height: 800 });
    const box = (await page.getByTestId('activity-box').boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await page.getByTestId('activity-box').click();
    const frame = page.frameLocator('[data-testid="activity-frame"]');
    await frame.getByTestId('activity-invite-link').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await frame.locator('html').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await shot(page, 'activity-free-390');

    // Right to left: the box in the other corner, the page's texts in Arabic.
    await page.goto(`${e2e.quire.url}/ar/app/home`);
    const rtlBox = (await page.getByTestId('activity-box').boundingBox())!;
    expect(rtlBox.x).toBeLessThan(100);
    await page.getByTestId('activity-box').click();
    await frame.getByText('رابط الدعوة الخاص بك').waitFor();
    await shot(page, 'activity-free-ar-390');
    await context.close();
  });
});
