// Conversions to PDF as a user does them, in Chromium: Word to PDF, and JPG to PDF with the images
// put in order by dragging and the page options chosen. Downloads are checked with poppler.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { download, startE2e, tmpDir, type E2e } from './browser.js';
import { makePdf, npages } from '../apps/server/test/fixtures.js';
import { encodePng, makeImagePdf, screenshotRaster } from '../apps/server/test/imageFixtures.js';
import { imagesOf, makeBmp, makeImage, pageSizes } from '../apps/server/test/convertFixtures.js';

const office = path.resolve(import.meta.dirname, '../test-corpus/office');

let e2e: E2e;
const dir = tmpDir('convert');
const file = (name: string) => path.join(dir, name);
const text = (pdf: string) => execFileSync('pdftotext', ['-enc', 'UTF-8', pdf, '-']).toString();

beforeAll(async () => {
  e2e = await startE2e();
  await makeImage(file('wide.jpg'), 300, 100);
  await makeImage(file('tall.png'), 100, 300);
  makeBmp(file('square.bmp'), 150, 150);
});
afterAll(async () => {
  await e2e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ready = (page: Page, n: number) =>
  expect.poll(() => page.locator('[data-testid="file-item"][data-state="ossSuccessful"]').count(), { timeout: 30_000 }).toBe(n);

describe('Word to PDF in the browser', () => {
  it('converts a DOCX and downloads a PDF that keeps its text', async () => {
    const page = await e2e.open('/app/word-to-pdf');
    expect(await page.locator('h1').first().textContent()).toBe('Word to PDF');
    await page.getByTestId('file-input').setInputFiles(path.join(office, 'hdr-header-footer.docx'));
    await ready(page, 1);
    await page.screenshot({ path: file('word-to-pdf.png') });
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    const out = await download(page, 'download', dir);
    expect(path.basename(out)).toBe('hdr-header-footer.pdf');
    expect(npages(out)).toBe(2);
    expect(text(out)).toContain('Header for section-1');
    await page.context().close();
  });

  it('asks for the password of a locked spreadsheet right after upload, refuses a wrong one when converting, then converts', async () => {
    const page = await e2e.open('/app/excel-to-pdf');
    await page.getByTestId('file-input').setInputFiles(path.join(office, 'password.xls'));
    await page.locator('[data-testid="file-item"][data-state="encrypted"]').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('password-error').count()).toBe(0);
    await page.screenshot({ path: file('locked-xls.png') });
    // Only LibreOffice can check the password: a wrong one is taken until the conversion refuses it.
    await page.getByTestId('password-input').fill('not-it');
    await page.getByTestId('password-submit').click();
    await ready(page, 1);
    await page.getByTestId('run-tool').click();
    await expect.poll(() => page.getByTestId('password-error').textContent(), { timeout: 60_000 }).toMatch(/incorrect password/i);
    expect(await page.locator('[data-testid="file-item"][data-state="encrypted"]').count()).toBe(1);
    await page.getByTestId('password-input').fill('password');
    await page.getByTestId('password-submit').click();
    await ready(page, 1);
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    const out = await download(page, 'download', dir);
    expect(path.basename(out)).toBe('password.pdf');
    expect(npages(out)).toBeGreaterThan(0);
    await page.context().close();
  });

  it('converts several documents at once into a zip of PDFs', async () => {
    const page = await e2e.open('/app/word-to-pdf');
    await page.getByTestId('file-input').setInputFiles([path.join(office, 'Word95.doc'), path.join(office, 'unicode.odt')]);
    await ready(page, 2);
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    const zip = await download(page, 'download-all', dir);
    expect(execFileSync('unzip', ['-Z1', zip]).toString().trim().split('\n').sort()).toEqual(['Word95.pdf', 'unicode.pdf']);
    await page.context().close();
  });

  it('refuses an image on the Word page by its extension', async () => {
    const page = await e2e.open('/app/word-to-pdf');
    await page.getByTestId('file-input').setInputFiles(file('wide.jpg'));
    await expect.poll(() => page.getByTestId('toast').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('file-item').count()).toBe(0);
    await page.context().close();
  });
});

describe('JPG to PDF in the browser', () => {
  it('takes images in the order they are dragged into, on the page size, orientation and margin chosen', async () => {
    const page = await e2e.open('/app/jpg-to-pdf');
    await page.getByTestId('file-input').setInputFiles([file('wide.jpg'), file('tall.png'), file('square.bmp')]);
    await ready(page, 3);
    // The square goes first.
    await page.getByTestId('file-item').nth(2).dragTo(page.getByTestId('file-item').nth(0));
    await expect
      .poll(() => page.locator('[data-testid="file-item"] .file-name').allTextContents())
      .toEqual(['square.bmp', 'wide.jpg', 'tall.png']);
    await page.getByTestId('page-size-letter').click();
    await page.getByTestId('orientation-portrait').click();
    await page.getByTestId('margin-large').click();
    await page.getByTestId('page-preview').waitFor();
    await page.screenshot({ path: file('jpg-to-pdf.png') });
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    const out = await download(page, 'download', dir);
    expect(pageSizes(out)).toEqual([
      [612, 792],
      [612, 792],
      [612, 792],
    ]);
    expect(imagesOf(out).map((i) => [i.page, i.width, i.height])).toEqual([
      [1, 150, 150],
      [2, 300, 100],
      [3, 100, 300],
    ]);
    await page.context().close();
  });

  it('refuses an image over 20 MB before uploading it, with the spec message', async () => {
    fs.writeFileSync(file('huge.jpg'), Buffer.alloc(21 * 1024 * 1024));
    const page = await e2e.open('/app/jpg-to-pdf');
    await page.getByTestId('file-input').setInputFiles(file('huge.jpg'));
    await expect.poll(() => page.getByTestId('toast').first().textContent()).toContain('Image size too large, should be less than 20MB.');
    expect(await page.getByTestId('file-item').count()).toBe(0);
    await page.context().close();
  });

  it('offers the format pages of the same tool, listed under Convert or not', async () => {
    const page = await e2e.open('/app/png-to-pdf');
    expect(await page.locator('h1').first().textContent()).toBe('PNG to PDF');
    expect(await page.getByTestId('file-input').getAttribute('accept')).toContain('.tiff');
    await page.context().close();
  });
});

describe('PDF to images in the browser', () => {
  it('renders each page in the format and resolution chosen, downloaded as a zip', async () => {
    await makePdf(file('letter.pdf'), 2, 'Letter', [612, 792]);
    const page = await e2e.open('/app/pdf-to-jpg');
    expect(await page.locator('h1').first().textContent()).toBe('PDF to JPG');
    await page.getByTestId('file-input').setInputFiles(file('letter.pdf'));
    await ready(page, 1);
    await page.getByTestId('format-png').click();
    await page.getByTestId('dpi-72').click();
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    const zip = await download(page, 'download-all', dir);
    expect(execFileSync('unzip', ['-Z1', zip]).toString().trim().split('\n')).toEqual(['letter-1.png', 'letter-2.png']);
    const png = execFileSync('unzip', ['-p', zip, 'letter-2.png']);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([612, 792]);
    await page.context().close();
  });

  it('extracts the images of a PDF', async () => {
    await makeImagePdf(file('pictures.pdf'), [{ kind: 'png', bytes: encodePng(screenshotRaster(64, 48)) }]);
    const page = await e2e.open('/app/extract-images-from-pdf');
    await page.getByTestId('file-input').setInputFiles(file('pictures.pdf'));
    await ready(page, 1);
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    const out = await download(page, 'download', dir);
    expect(path.basename(out)).toBe('pictures-1.png');
    const png = fs.readFileSync(out);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([64, 48]);
    await page.context().close();
  });
});
