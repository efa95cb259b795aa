// A marketing slug's landing page in Chromium: its heading, steps and FAQ at desktop and phone
// widths, the FAQ opened from the keyboard, and a file chosen in its upload box arriving in the tool.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2e, tmpDir, type E2e } from './browser.js';

const PNG = path.join(import.meta.dirname, '../test-corpus/images/test-pattern.png');
const english = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '../apps/web/src/i18n/locales/en-us.json'), 'utf8'));
const dir = tmpDir('landing');
let e2e: E2e;

beforeAll(async () => {
  e2e = await startE2e();
}, 60_000);
afterAll(async () => e2e?.stop());

describe('landing pages', () => {
  for (const width of [1280, 390]) {
    it(`shows the page at ${width} px, its FAQ opened from the keyboard`, async () => {
      const page = await e2e.open('/png-to-pdf', { width, height: 900 });
      const landing = page.getByTestId('landing-page');
      await landing.waitFor();
      expect(await landing.getByRole('heading', { level: 1 }).textContent()).toBe('PNG to PDF Converter');
      expect(await page.title()).toBe('PNG to PDF Converter · Quire');
      expect(await landing.locator('.landing-steps li').count()).toBe(3);
      // The server's copy of the page is gone once the app runs: one h1 on the page.
      expect(await page.locator('h1').count()).toBe(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      const question = landing.locator('details summary').first();
      const answer = landing.locator('details p').first();
      expect(await answer.isVisible()).toBe(false);
      await question.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => answer.isVisible()).toBe(true);
      expect(await answer.textContent()).toContain('Each image becomes a page');
      await page.screenshot({ path: path.join(dir, `png-to-pdf-${width}.png`), fullPage: true });
      await page.context().close();
    });
  }

  it('opens the tool with the file chosen in its upload box, in the page’s language', async () => {
    const page = await e2e.open('/de/png-to-pdf', { width: 1280, height: 900 });
    await page.getByTestId('landing-file').setInputFiles(PNG);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/de/app/png-to-pdf');
    const item = page.getByTestId('file-item');
    await expect.poll(() => item.count()).toBe(1);
    expect(await item.textContent()).toContain('test-pattern.png');
    await expect.poll(() => item.getAttribute('data-state'), { timeout: 20_000 }).toBe('ossSuccessful');
    await page.context().close();
  });

  it('links related pages and all tools, each a page of its own', async () => {
    const page = await e2e.open('/pdf-to-tiff', { width: 1280, height: 900 });
    await page.getByTestId('related-page').first().click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/pdf-to-png');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('PDF to PNG Converter');
    await page.getByRole('link', { name: 'See all tools' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/all-tools');
    // The all-tools page is loaded on demand: the address changes before its heading shows.
    const heading = page.getByRole('heading', { level: 1 });
    await expect.poll(() => heading.textContent(), { timeout: 15_000 }).toBe('All PDF and image tools');
    expect(await page.getByTestId('tool-category').count()).toBeGreaterThan(3);
    // The meta description follows the page moved to, as the server writes it into that page's HTML.
    const description = () => page.locator('meta[name="description"]').getAttribute('content');
    expect(await page.locator('meta[name="description"]').count()).toBe(1);
    await expect.poll(description).toBe(english['landing.allTools.metaDescription']);
    await page.evaluate(() => {
      history.pushState(null, '', '/app/home');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect.poll(description).toBe(english['landing.home.metaDescription']);
    await page.context().close();
  });
});
