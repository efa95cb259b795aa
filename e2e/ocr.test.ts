// OCR as a user does it, in Chromium: upload a scanned page, choose languages, run, download the
// searchable PDF and find its words with pdftotext.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download, startE2e, tmpDir, type E2e } from './browser.js';
import { makeScannedPdf, ocrPages } from '../apps/server/test/ocrFixtures.js';

let e2e: E2e;
const dir = tmpDir('ocr');
const file = (name: string) => path.join(dir, name);

beforeAll(async () => {
  e2e = await startE2e();
  await makeScannedPdf(file('letter.pdf'), [ocrPages[2]!]);
});
afterAll(async () => {
  await e2e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('OCR in the browser', () => {
  it('makes a scanned page searchable in the chosen languages', async () => {
    const page = await e2e.open('/app/OCR');
    await page.getByTestId('file-input').setInputFiles(file('letter.pdf'));
    await expect.poll(() => page.locator('[data-testid="file-item"][data-state="ossSuccessful"]').count(), { timeout: 30_000 }).toBe(1);
    // English is chosen to start with (the default); no language at all cannot run.
    expect(await page.getByTestId('ocr-lang-eng').isChecked()).toBe(true);
    await page.getByTestId('ocr-lang-eng').uncheck();
    await page.getByTestId('ocr-need-language').waitFor();
    expect(await page.getByTestId('run-tool').isDisabled()).toBe(true);
    // More than three languages warn of slowness.
    for (const lang of ['eng', 'fra', 'spa', 'deu']) await page.getByTestId(`ocr-lang-${lang}`).check();
    await page.getByTestId('ocr-slow').waitFor();
    for (const lang of ['fra', 'spa']) await page.getByTestId(`ocr-lang-${lang}`).uncheck();
    expect(await page.getByTestId('ocr-slow').count()).toBe(0);
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 150_000 });
    const out = await download(page, 'download', dir);
    expect(path.basename(out)).toBe('letter-ocr.pdf');
    expect(execFileSync('pdftotext', ['-enc', 'UTF-8', out, '-']).toString()).toMatch(/Unterlagen ist abgeschlossen/);
    await page.context().close();
  });

  it('gives only the text on the PDF to text page', async () => {
    const page = await e2e.open('/app/pdf-to-text');
    await page.getByTestId('file-input').setInputFiles(file('letter.pdf'));
    await expect.poll(() => page.locator('[data-testid="file-item"][data-state="ossSuccessful"]').count(), { timeout: 30_000 }).toBe(1);
    await page.getByTestId('ocr-lang-deu').check();
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 150_000 });
    const out = await download(page, 'download', dir);
    expect(path.extname(out)).toBe('.txt');
    expect(execFileSync('file', ['-b', '--mime-type', out]).toString().trim()).toBe('text/plain');
    expect(fs.readFileSync(out, 'utf8')).toMatch(/Unterlagen ist abgeschlossen/);
    await page.context().close();
  });

  it('recognises a scanned PDF before turning it into Word, when asked to', async () => {
    const page = await e2e.open('/app/pdf-to-word');
    await page.getByTestId('file-input').setInputFiles(file('letter.pdf'));
    await expect.poll(() => page.locator('[data-testid="file-item"][data-state="ossSuccessful"]').count(), { timeout: 30_000 }).toBe(1);
    await page.getByTestId('use-ocr').check();
    await page.getByTestId('ocr-lang-deu').check();
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 150_000 });
    const docx = await download(page, 'download', dir);
    const xml = execFileSync('unzip', ['-p', docx, 'word/document.xml']).toString('utf8');
    const text = [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join(' ');
    expect(text).toMatch(/Unterlagen/);
    await page.context().close();
  });
});
