// Tool pages that never lose work and check files at once, in Chromium: the leave-confirm dialog,
// the file list kept through Back and a reload, refusals on the file card, thumbnails, the result page.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusRoot } from '../apps/server/test/corpusSupport.js';
import { makePdf } from '../apps/server/test/fixtures.js';
import { download, startE2e, tmpDir, type E2e } from './browser.js';

let e2e: E2e;
const dir = tmpDir('pages');
const file = (name: string) => path.join(dir, name);

const MAX_PAGES = 5;
/** More than the 20 files per upload the product recommends. */
const MANY = 24;

beforeAll(async () => {
  e2e = await startE2e({ maxPages: MAX_PAGES });
  await makePdf(file('alpha.pdf'), 2, 'Alpha');
  await makePdf(file('beta.pdf'), 3, 'Beta');
  await makePdf(file('long.pdf'), MAX_PAGES + 1, 'Long');
  fs.writeFileSync(file('empty.pdf'), '');
  const jpeg = fs.readFileSync(path.join(corpusRoot, 'images', 'concert.jpg'));
  fs.writeFileSync(file('cut.jpg'), jpeg.subarray(0, jpeg.length >> 2));
  fs.writeFileSync(file('whole.jpg'), jpeg);
  for (let n = 1; n <= MANY; n++) await makePdf(file(`many-${String(n).padStart(2, '0')}.pdf`), 1, `Many ${n}`);
  // 50 MB: an incompressible attachment behind one page.
  await makePdf(file('fifty.pdf'), 1, 'Fifty', undefined, crypto.randomBytes(50 * 1024 * 1024));
});
afterAll(async () => {
  await e2e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const items = (page: Page) => page.getByTestId('file-item');
const readyItems = (page: Page) => page.locator('[data-testid="file-item"][data-state="ossSuccessful"]');
const path0 = (page: Page) => new URL(page.url()).pathname;

describe('leaving a tool page', () => {
  it('asks before a link in the app drops the list; Stay keeps it, Leave empties it', async () => {
    const page = await e2e.open('/de/app/merge-pdf');
    await page.getByTestId('file-input').setInputFiles([file('alpha.pdf'), file('beta.pdf')]);
    await expect.poll(() => readyItems(page).count(), { timeout: 30_000 }).toBe(2);

    await page.getByTestId('sidebar').locator('a[href="/de/app/home"]').click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    expect(await dialog.locator('h2').textContent()).toBe('Diese Seite verlassen?');
    await page.getByTestId('confirm-cancel').click();
    await dialog.waitFor({ state: 'detached' });
    expect(path0(page)).toBe('/de/app/merge-pdf');
    expect(await items(page).count()).toBe(2);

    await page.getByTestId('sidebar').locator('a[href="/de/app/home"]').click();
    await page.getByTestId('confirm-ok').click();
    await expect.poll(() => path0(page)).toBe('/de/app/home');
    await page.goBack();
    await page.getByTestId('dropzone').waitFor();
    expect(await items(page).count()).toBe(0);
    await page.context().close();
  });

  it('keeps the list through Back, Forward and a reload, which the browser asks about first', async () => {
    const page = await e2e.open('/app/home');
    await page.goto(`${e2e.quire.url}/app/merge-pdf`);
    await page.getByTestId('file-input').setInputFiles([file('beta.pdf'), file('alpha.pdf')]);
    await expect.poll(() => readyItems(page).count(), { timeout: 30_000 }).toBe(2);
    // Reordered, so the order kept is the list's, not the upload's.
    await page.getByTestId('remove-file').first().click();
    await page.getByTestId('file-input').setInputFiles([file('beta.pdf')]);
    await expect.poll(() => readyItems(page).count(), { timeout: 30_000 }).toBe(2);

    await page.goBack();
    await expect.poll(() => path0(page)).toBe('/app/home');
    await page.goForward();
    await expect.poll(() => readyItems(page).count()).toBe(2);
    expect(await page.locator('[data-testid="file-item"] .file-name').allTextContents()).toEqual(['alpha.pdf', 'beta.pdf']);

    const asked: string[] = [];
    page.on('dialog', (d) => {
      asked.push(d.type());
      void d.accept();
    });
    await page.reload();
    await expect.poll(() => readyItems(page).count()).toBe(2);
    expect(asked).toEqual(['beforeunload']);
    // The restored files are the uploads on the server: the tool runs on them.
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    await page.context().close();
  });
});

describe('files checked at upload', () => {
  const card = (page: Page, name: string) => page.locator('[data-testid="file-item"]', { hasText: name });

  it('shows an empty file and one over the page limit as refused on their cards, with the limit named', async () => {
    const page = await e2e.open('/app/merge-pdf');
    await page.getByTestId('file-input').setInputFiles([file('empty.pdf'), file('long.pdf'), file('alpha.pdf')]);
    await expect.poll(() => card(page, 'empty.pdf').getAttribute('data-state'), { timeout: 30_000 }).toBe('damaged');
    expect(await card(page, 'empty.pdf').locator('.file-status').textContent()).toBe('The file is empty.');
    await expect.poll(() => card(page, 'long.pdf').getAttribute('data-state'), { timeout: 30_000 }).toBe('damaged');
    expect(await card(page, 'long.pdf').locator('.file-status').textContent()).toBe(
      `This document is over your plan's limit of ${MAX_PAGES} pages.`,
    );
    await expect.poll(() => card(page, 'alpha.pdf').getAttribute('data-state'), { timeout: 30_000 }).toBe('ossSuccessful');
    // Nothing to retry: another upload of the same file would be refused the same way.
    expect(await page.getByTestId('retry-upload').count()).toBe(0);
    await page.context().close();
  });

  it('shows a damaged image as damaged before any tool runs', async () => {
    const page = await e2e.open('/app/jpg-to-pdf');
    await page.getByTestId('file-input').setInputFiles([file('cut.jpg'), file('whole.jpg')]);
    await expect.poll(() => card(page, 'cut.jpg').getAttribute('data-state'), { timeout: 30_000 }).toBe('damaged');
    expect(await card(page, 'cut.jpg').locator('.file-status').textContent()).toBe(
      'The file is damaged or in a format that cannot be read.',
    );
    await expect.poll(() => card(page, 'whole.jpg').getAttribute('data-state'), { timeout: 30_000 }).toBe('ossSuccessful');
    await page.context().close();
  });
});

describe('thumbnails', () => {
  const downloads = (page: Page) => {
    const seen: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/file/download')) seen.push(r.url());
    });
    return seen;
  };

  it('warns about more than 20 files, and opens only the PDFs whose cards are near the view', async () => {
    const page = await e2e.open('/app/merge-pdf', { width: 1280, height: 800 });
    const fetched = downloads(page);
    const names = Array.from({ length: MANY }, (_, i) => file(`many-${String(i + 1).padStart(2, '0')}.pdf`));
    await page.getByTestId('file-input').setInputFiles(names);
    await expect
      .poll(() => page.getByTestId('toast').allTextContents())
      .toContain(`You added ${MANY} files. At most 20 files per upload are recommended: smaller batches upload and process faster.`);
    await expect.poll(() => readyItems(page).count(), { timeout: 60_000 }).toBe(MANY);
    const drawn = page.locator('[data-testid="page-thumb"][data-drawn="yes"]');
    await expect.poll(() => drawn.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    const opened = fetched.length;
    expect(opened).toBeLessThan(MANY);
    // Scrolled to the end, the last card's page is drawn too.
    await items(page).last().scrollIntoViewIfNeeded();
    await expect.poll(() => items(page).last().locator('[data-drawn="yes"]').count(), { timeout: 30_000 }).toBe(1);
    expect(fetched.length).toBeGreaterThan(opened);
    await page.context().close();
  });

  it('holds the place with a spinner until the page is drawn; a 50 MB PDF shows its first page soon after upload', async () => {
    const page = await e2e.open('/app/merge-pdf');
    // The file's bytes are held back until the spinner has been seen.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/file/download*', async (route) => {
      await held;
      await route.continue();
    });
    // The server sends byte ranges of an upload: pdf.js fetches what page 1 needs, not 50 MB.
    const rangeBytes: number[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/file/download') && r.status() === 206) rangeBytes.push(Number(r.headers()['content-length']));
    });
    await page.getByTestId('file-input').setInputFiles([file('fifty.pdf')]);
    await expect.poll(() => readyItems(page).count(), { timeout: 120_000 }).toBe(1);
    const thumb = page.getByTestId('page-thumb');
    await thumb.locator('.spinner').waitFor();
    expect(await thumb.getAttribute('data-drawn')).toBe('no');
    const started = Date.now();
    release();
    await expect.poll(() => thumb.getAttribute('data-drawn'), { timeout: 30_000 }).toBe('yes');
    console.log(`50 MB PDF: first page drawn ${Date.now() - started} ms after its upload was ready`);
    expect(await thumb.locator('.spinner').count()).toBe(0);
    expect(rangeBytes.length).toBeGreaterThan(0);
    expect(rangeBytes.reduce((sum, n) => sum + n, 0)).toBeLessThan(5 * 1024 * 1024);
    await page.context().close();
  });
});

describe('the result page', () => {
  it('previews the first page, says how long results are kept, and continues with another tool without a download', async () => {
    const page = await e2e.open('/app/merge-pdf');
    let downloads = 0;
    page.on('download', () => downloads++);
    await page.getByTestId('file-input').setInputFiles([file('alpha.pdf'), file('beta.pdf')]);
    await expect.poll(() => readyItems(page).count(), { timeout: 30_000 }).toBe(2);
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    await expect.poll(() => page.getByTestId('result-preview').locator('[data-drawn="yes"]').count(), { timeout: 30_000 }).toBe(1);
    await expect
      .poll(() => page.getByTestId('retention').textContent())
      .toBe(`Results stay on the server for ${e2e.quire.ctx.config.retentionHours} h, then they are deleted. Delete now`);

    await page.getByTestId('continue-with').selectOption('split-pdf');
    await expect.poll(() => path0(page)).toBe('/app/split-pdf');
    await expect.poll(() => readyItems(page).count(), { timeout: 30_000 }).toBe(1);
    expect(await items(page).first().locator('.file-name').textContent()).toBe('alpha-merged.pdf');
    expect(await items(page).first().locator('.file-meta').textContent()).toContain('5 pages');
    expect(downloads).toBe(0);
    await page.context().close();
  });

  it('names the zip after the first file and the tool, and deletes the results on request', async () => {
    const page = await e2e.open('/app/compress-pdf');
    await page.getByTestId('file-input').setInputFiles([file('beta.pdf'), file('alpha.pdf')]);
    await expect.poll(() => readyItems(page).count(), { timeout: 30_000 }).toBe(2);
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    expect(path.basename(await download(page, 'download-all', dir))).toBe('beta-compress.zip');

    const link = await page.getByTestId('download').first().getAttribute('href');
    expect((await page.request.get(e2e.quire.url + link!)).status()).toBe(200);
    await page.getByTestId('delete-now').click();
    await expect.poll(() => page.getByTestId('retention').textContent()).toBe('Your results were deleted from the server.');
    expect(await page.getByTestId('download').count()).toBe(0);
    const gone = await (await page.request.get(e2e.quire.url + link!)).json();
    expect(gone.code).toBe(2405);
    await page.context().close();
  });
});
