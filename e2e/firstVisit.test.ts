// What a first visit meets, in Chromium on one server: at most one interruption at a time (the
// event pop-up, the operator's banner, the bell's badge, the bookmark hint, the gift button, in
// that order, each waiting for the one before to go); the gift button clear of the phone menu's
// Log in; at 1280×800 the sidebar's Log in in view with every group open, and a tool's action
// button whole under a banner; a toast with an action staying until it is followed or closed.
import os from 'node:os';
import path from 'node:path';
import { messageSendRequest } from '@quire/contracts';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertBanner } from '../apps/server/src/db/bannersRepo.js';
import { storeActivitySettings } from '../apps/server/src/services/activitySettings.js';
import { sendMessage } from '../apps/server/src/services/messages.js';
import { makePdf } from '../apps/server/test/fixtures.js';
import { createAccount } from '../apps/server/src/services/accounts.js';
import { E2E_PASSWORD, startE2e, type E2e } from './browser.js';

let e2e: E2e;
let pdf: string;
beforeAll(async () => {
  e2e = await startE2e();
  pdf = await makePdf(path.join(os.tmpdir(), `quire-first-visit-${process.pid}.pdf`), 3, 'First');
});
afterAll(() => e2e.stop());

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(os.tmpdir(), `quire-first-visit-${name}.png`) });

async function publishBanner(title: string) {
  const now = Math.floor(Date.now() / 1000);
  await insertBanner(e2e.quire.ctx.db, {
    id: title,
    title,
    jump_url: '/pricing',
    display_start: now - 60,
    display_end: now + 3600,
    created_at: Date.now(),
  });
}

/** Whether two elements' boxes overlap (false when either is not shown). */
async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) return false;
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

/** The element fully inside the viewport and the one the page shows at its centre. */
const inView = (element: Locator) =>
  element.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const shown = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth && !!shown && el.contains(shown);
  });

describe('the phone menu', () => {
  it('keeps its Log in clear of the gift button, on the marketing pages and in the app', async () => {
    for (const [pathname, menu, drawer] of [
      ['/', '.header-menu-button', '.mobile-drawer'],
      ['/app/home', '.app-topbar button[aria-label="Menu"]', '[data-testid="sidebar"]'],
    ] as const) {
      const page = await e2e.open(pathname, PHONE);
      const gift = page.getByTestId('activity-box');
      await gift.waitFor();
      await page.locator(menu).click();
      const login = page.locator(drawer).getByTestId('login-button');
      await login.scrollIntoViewIfNeeded();
      await shot(page, `menu-${pathname === '/' ? 'home' : 'app'}-390`);
      expect(await overlap(login, gift), pathname).toBe(false);
      expect(await inView(login), pathname).toBe(true);
      await page.context().close();
    }
  });
});

describe('the sidebar at 1280×800', () => {
  it('keeps Log in in view with every group open', async () => {
    const page = await e2e.open('/app/merge-pdf', DESKTOP);
    const sidebar = page.getByTestId('sidebar');
    await sidebar.getByTestId('login-button').waitFor();
    const closed = sidebar.locator('button.nav-item[aria-expanded="false"]');
    while ((await closed.count()) > 0) await closed.first().click();
    expect(await sidebar.locator('button.nav-item[aria-expanded="true"]').count()).toBe(5);
    await shot(page, 'sidebar-1280');
    expect(await inView(sidebar.getByTestId('login-button'))).toBe(true);
    await page.context().close();
  });
});

describe('one interruption at a time', () => {
  it('shows a tool’s action button whole under a top banner, at the top and scrolled', async () => {
    await publishBanner('Under the banner');
    const page = await e2e.open('/app/merge-pdf', DESKTOP);
    await page.getByTestId('top-banner').waitFor();
    await page.getByTestId('file-input').setInputFiles([pdf, pdf]);
    const run = page.getByTestId('run-tool');
    await expect.poll(() => run.isEnabled(), { timeout: 30_000 }).toBe(true);
    await shot(page, 'banner-action-1280');
    expect(await inView(run)).toBe(true);
    await page.mouse.wheel(0, 2000);
    await expect.poll(() => page.evaluate(() => scrollY)).toBeGreaterThan(0);
    expect(await inView(run)).toBe(true);
    await page.context().close();
  });

  it('shows the event, then the banner, the badge, the bookmark hint and the gift, each once the one before goes', async () => {
    await storeActivitySettings(e2e.quire.ctx, { reward_tokens: 0, invite_cap: 0, adv_popshow: 1, adv_img: '/favicon.svg', adv_url: '' });
    await sendMessage(
      e2e.quire.ctx,
      undefined,
      messageSendRequest.parse({ template_type: 1, audience: 'everyone', title: 'Hello, everyone' }),
    );
    const page = await e2e.open('/app/home', DESKTOP);
    const shown = async () => {
      const found: string[] = [];
      for (const [name, selector] of [
        ['event', '[data-testid="activity-dialog"]'],
        ['banner', '[data-testid="top-banner"]'],
        ['badge', '[data-testid="message-badge"]:visible'],
        ['bookmark', '[data-testid="bookmark-hint"]'],
        ['gift', '[data-testid="activity-box"]'],
      ] as const)
        if ((await page.locator(selector).count()) > 0) found.push(name);
      return found;
    };
    await page.getByTestId('activity-dialog').waitFor();
    await page.waitForLoadState('networkidle');
    await shot(page, 'first-1280');
    expect(await shown()).toEqual(['event']);
    await page.getByTestId('activity-close').click();
    await expect.poll(shown).toEqual(['banner']);
    await page.getByTestId('top-banner-close').click();
    await expect.poll(shown).toEqual(['badge']);
    // Read: the count stays in the bell's name until then, the badge is the one shown.
    await page.locator('[data-testid="message-bell"]:visible').click();
    await page.getByTestId('message-mark-all').click();
    await page.keyboard.press('Escape');
    await expect.poll(shown).toEqual(['bookmark']);
    await page.getByTestId('bookmark-hint-close').click();
    await expect.poll(shown).toEqual(['gift']);
    await page.context().close();
  });
});

describe('a toast with an action', () => {
  it('stays until it is followed or closed, and is said politely', async () => {
    // The event of the test before no longer pops up over the page.
    await storeActivitySettings(e2e.quire.ctx, { reward_tokens: 0, invite_cap: 0, adv_popshow: 0, adv_img: '', adv_url: '' });
    await createAccount(e2e.quire.ctx, 'toast@example.org', E2E_PASSWORD, 'free');
    const context = await e2e.browser.newContext({ viewport: DESKTOP });
    const login = await context.request.post(`${e2e.quire.url}/api/account/v1/login`, {
      data: { email: 'toast@example.org', password: E2E_PASSWORD },
    });
    expect((await login.json()).code).toBe(0);
    const page = await context.newPage();
    await page.clock.install();
    await page.goto(`${e2e.quire.url}/app/rotate-pdf`);
    await page.getByTestId('avatar-button').first().waitFor();
    await page.getByTestId('file-input').setInputFiles(pdf);
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 90_000 });
    await page.getByTestId('save-to-cloud').click();
    await page.getByTestId('picker-confirm').click();
    const toast = page.getByTestId('toast').filter({ has: page.getByTestId('toast-link') });
    await toast.waitFor();
    expect(await toast.getAttribute('role')).toBe('status');
    // Far past the 3 and 4 s of the others: still there.
    await page.clock.fastForward(30_000);
    await page.clock.runFor(1000);
    expect(await toast.count()).toBe(1);
    await toast.getByRole('button').click();
    await toast.waitFor({ state: 'detached' });
    await page.context().close();
  });
});
