// The home page's chrome: the signed-out header on one line at every width (a menu below 1024 px); the bookmark hint
// on a desktop's home pages, Ctrl+D (Cmd+D on a Mac), gone for good once closed or once the keys are
// pressed, never on a phone.
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../apps/server/test/fixtures.js';
import { startE2e, type E2e } from './browser.js';

let e2e: E2e;
beforeAll(async () => {
  e2e = await startE2e();
});
afterAll(() => e2e.stop());

const MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Safari/537.36';

describe('the signed-out header', () => {
  it('fits on one line from a tablet to a desktop: its links from 1024 px, a menu below', async () => {
    for (const width of [800, 1024, 1280, 1440]) {
      const page = await e2e.open('/', { width, height: 800 });
      await page.locator('h1').first().waitFor();
      expect(await page.locator('.site-header').evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      if (width >= 1024) {
        const button = await page.getByTestId('login-button').boundingBox();
        expect(button!.x + button!.width).toBeLessThanOrEqual(width);
      } else expect(await page.locator('.header-menu-button').isVisible()).toBe(true);
      await page.context().close();
    }
  });
});

describe('the bookmark hint', () => {
  it('shows Ctrl + D on a desktop’s home, and stays closed once closed', async () => {
    const page = await e2e.open('/', { width: 1280, height: 900 });
    const hint = page.getByTestId('bookmark-hint');
    await hint.waitFor();
    expect(await hint.textContent()).toContain('Ctrl + D');
    await page.screenshot({ path: path.join(os.tmpdir(), 'quire-bookmark-hint-1280.png') });
    await page.getByTestId('bookmark-hint-close').click();
    await hint.waitFor({ state: 'detached' });
    await page.goto(`${e2e.quire.url}/app/home`);
    await page.locator('h1').waitFor();
    expect(await hint.count()).toBe(0);
    await page.context().close();
  });

  it('says Cmd + D on a Mac, and goes once the keys are pressed', async () => {
    const context = await e2e.browser.newContext({ viewport: { width: 1440, height: 900 }, userAgent: MAC });
    const page = await context.newPage();
    await page.goto(`${e2e.quire.url}/app/home`);
    const hint = page.getByTestId('bookmark-hint');
    await hint.waitFor();
    expect(await hint.textContent()).toContain('Cmd + D');
    await page.keyboard.press('Meta+d');
    await hint.waitFor({ state: 'detached' });
    await page.reload();
    await page.locator('h1').waitFor();
    expect(await hint.count()).toBe(0);
    await context.close();
  });

  it('never shows on a phone', async () => {
    const context = await e2e.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    await page.goto(`${e2e.quire.url}/`);
    await page.locator('h1').waitFor();
    expect(await page.getByTestId('bookmark-hint').count()).toBe(0);
    await context.close();
  });
});

describe('the language picked', () => {
  it('is remembered: an address without a language opens in it, until another is picked', async () => {
    const page = await e2e.open('/app/home', { width: 1280, height: 900 });
    await page.locator('h1').waitFor();
    await page.getByTestId('language-switcher').first().selectOption('de');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/de/app/home');
    // A bookmark without a language, in the same browser: German, its query kept.
    await page.goto(`${e2e.quire.url}/app/merge-pdf?from=bookmark`);
    await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe('/de/app/merge-pdf?from=bookmark');
    // German's texts load on demand: the page's language follows once they are in.
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('de');
    // English picked again: unprefixed addresses stay English.
    await page.getByTestId('language-switcher').first().selectOption('');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/app/merge-pdf');
    await page.goto(`${e2e.quire.url}/app/home`);
    await page.locator('h1').waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/home');
    // Another browser has picked nothing: English.
    const other = await e2e.open('/app/home', { width: 1280, height: 900 });
    await other.locator('h1').waitFor();
    expect(new URL(other.url()).pathname).toBe('/app/home');
    await page.context().close();
    await other.context().close();
  });
});

describe('sizes by language', () => {
  it('writes a file’s size in French octets (Ko) on a French page, in KB on an English one', async () => {
    const pdf = await makePdf(path.join(os.tmpdir(), `quire-size-${process.pid}.pdf`), 2, 'Size');
    for (const [pathname, unit] of [
      ['/fr/app/merge-pdf', /^\d+(,\d)? Ko/],
      ['/app/merge-pdf', /^\d+(\.\d)? KB/],
    ] as const) {
      const page = await e2e.open(pathname, { width: 1280, height: 900 });
      await page.getByTestId('file-input').setInputFiles(pdf);
      await expect.poll(() => page.locator('.file-meta').first().textContent()).toMatch(unit);
      await page.context().close();
    }
  });
});
