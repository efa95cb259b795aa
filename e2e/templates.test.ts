// The template gallery in Chromium against the real server: browse a category, search, sort, open a
// preview with its pages drawn, download (the bytes the API sends), and "Use this template" going
// to the editor with the template's id; each counts a use, which the page and the gallery show.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formFields } from '../apps/server/test/editFixtures.js';
import { download, startE2e, tmpDir, type E2e } from './browser.js';

const dir = tmpDir('templates');
/** Screenshots at both widths, kept for a look (QUIRE_SHOTS names the folder). */
const shots = process.env.QUIRE_SHOTS ?? dir;
let e2e: E2e;

beforeAll(async () => {
  execFileSync('node', [path.resolve(import.meta.dirname, '../scripts/build-templates.mjs')], { stdio: 'ignore' });
  e2e = await startE2e();
}, 120_000);
afterAll(async () => {
  await e2e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const cardIds = (page: Page) =>
  page.getByTestId('template-card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-template-id')));
/** Waits until the thumbnails in view have loaded (those below load lazily, as they come near). */
const thumbnailsLoaded = (page: Page) =>
  page.waitForFunction(() =>
    [...document.querySelectorAll<HTMLImageElement>('.template-card img')]
      .filter((img) => img.getBoundingClientRect().top < window.innerHeight)
      .every((img) => img.naturalWidth > 0),
  );

describe('the template gallery', () => {
  it("is where the sidebar's Template and the header's Templates lead", async () => {
    const page = await e2e.open('/app/home', { width: 1280, height: 900 });
    await page.getByTestId('sidebar').getByRole('link', { name: 'Templates' }).click();
    await page.getByTestId('template-categories').waitFor();
    expect(new URL(page.url()).pathname).toBe('/template');
    // German's header links are longer: at 1440 px they fit one line (narrower, they move into the menu).
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${e2e.quire.url}/de/`);
    await page.getByTestId('header-templates').click();
    await page.getByTestId('template-categories').waitFor();
    expect(new URL(page.url()).pathname).toBe('/de/template');
    await page.context().close();
  });

  it('browses a category, searches and sorts', async () => {
    const page = await e2e.open('/template', { width: 1280, height: 900 });
    await page.getByTestId('template-category-invoices').waitFor();
    await expect.poll(() => page.getByTestId('template-card').count()).toBe(24);
    await thumbnailsLoaded(page);
    await page.screenshot({ path: path.join(shots, 'templates-gallery-1280.png') });

    await page.getByTestId('template-category-resumes').click();
    await expect.poll(() => cardIds(page)).toHaveLength(5);
    expect(page.url()).toContain('cat=resumes');
    await page.getByTestId('template-sort').selectOption('name');
    await expect
      .poll(() => cardIds(page))
      .toEqual(['classic-resume', 'executive-resume', 'graduate-resume', 'modern-resume', 'developer-resume']);

    await page.getByTestId('template-category-invoices').click();
    await page.getByTestId('template-search').fill('vat');
    await page.getByTestId('template-search').press('Enter');
    await expect.poll(() => cardIds(page)).toEqual(['vat-invoice']);
    await page.getByTestId('template-search').fill('no such template anywhere');
    await page.getByTestId('template-search').press('Enter');
    await page.getByTestId('template-none').waitFor();

    // All 30: two pages of 24.
    await page.goto(`${e2e.quire.url}/template`);
    await expect.poll(() => page.getByTestId('template-card').count()).toBe(24);
    await page.getByTestId('template-next').click();
    await expect.poll(() => page.getByTestId('template-card').count()).toBe(6);
    await page.context().close();
  });

  it('opens a preview, downloads the PDF, and uses the template in the editor; the count rises', async () => {
    const page = await e2e.open('/template?cat=certificates', { width: 1280, height: 900 });
    await page.locator('[data-template-id="gift-certificate"]').click();
    await page.getByTestId('template-title').waitFor();
    expect(new URL(page.url()).pathname).toBe('/template/certificates/gift-certificate/gift-certificate/certificates');
    expect(await page.getByTestId('template-title').textContent()).toBe('Gift certificate');
    await page.locator('[data-testid="page-thumb"][data-drawn="yes"]').waitFor({ timeout: 30_000 });
    await page.screenshot({ path: path.join(shots, 'templates-preview-1280.png') });
    expect(await page.getByTestId('template-uses').textContent()).toContain('Used 0 times');

    const saved = await download(page, 'template-download', dir);
    const api = Buffer.from(
      await (await fetch(`${e2e.quire.url}/api/templates/v1/download-file?template_id=gift-certificate`)).arrayBuffer(),
    );
    expect(fs.readFileSync(saved).equals(api)).toBe(true);
    await expect.poll(() => page.getByTestId('template-uses').textContent()).toContain('Used 1 time');

    const counted = page.waitForResponse((r) => r.url().includes('/api/templates/v1/add-num'));
    // Caught as it is reached: until the editor is built, an unknown path moves on to the home page.
    let editor: URL | undefined;
    const reached = page.waitForURL((url) => {
      if (url.pathname === '/app/pdf-editor') editor = url;
      return editor !== undefined;
    });
    await Promise.all([reached, page.getByTestId('template-use').click()]);
    expect(editor?.searchParams.get('template_id')).toBe('gift-certificate');
    expect((await (await counted).json()).data.uses).toBe(2);

    // The gallery shows the count, and the most used comes first.
    await page.goto(`${e2e.quire.url}/template?cat=certificates`);
    const first = page.getByTestId('template-card').first();
    await expect.poll(() => first.getAttribute('data-template-id')).toBe('gift-certificate');
    expect(await first.getByTestId('template-card-uses').textContent()).toBe('Used 2 times');
    await page.context().close();
  });

  it('fits a phone, in another language', async () => {
    const page = await e2e.open('/de/template', { width: 390, height: 844 });
    await page.getByTestId('template-category-invoices').waitFor();
    // The German messages load after the first paint.
    await expect.poll(() => page.getByTestId('template-category-invoices').textContent()).toContain('Rechnungen');
    await thumbnailsLoaded(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: path.join(shots, 'templates-gallery-390.png') });
    await page.getByTestId('template-card').first().click();
    await page.locator('[data-testid="page-thumb"][data-drawn="yes"]').first().waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: path.join(shots, 'templates-preview-390.png'), fullPage: true });
    await page.context().close();
  });
});

describe('a template in the editor', () => {
  it('opens a form template from its preview in the editor, fills it and exports it', async () => {
    const page = await e2e.open('/template?cat=forms', { width: 1280, height: 900 });
    await page.locator('[data-template-id="registration-form"]').click();
    await page.getByTestId('template-use').click();
    await page.getByTestId('editor').waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).pathname).toBe('/app/pdf-editor');
    const field = page.locator('[data-testid="form-input"][data-field="full_name"]');
    await field.waitFor({ timeout: 30_000 });
    await field.fill('Grace Hopper');
    await field.press('Tab');
    if (shots) await page.screenshot({ path: path.join(shots, 'template-in-editor-1280.png') });
    const exported = await download(page, 'editor-export', dir);
    const fields = new Map(formFields(exported).map((f) => [f.name, f.value]));
    expect(fields.get('full_name')).toBe('Grace Hopper');
    expect(fields.has('email')).toBe(true);
    await page.context().close();
  }, 120_000);
});
