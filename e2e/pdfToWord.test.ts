// PDF to Word as a user does it, in Chromium: upload a PDF on /app/pdf-to-word, convert, download,
// and find the text, heading style, list and table in the Word document (read with unzip). A
// password-protected PDF asks for its password first. PDF to Pages gives a .pages document and says what it keeps.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { download, startE2e, tmpDir, type E2e } from './browser.js';
import { encryptPdf } from '../apps/server/test/fixtures.js';
import { BULLETS, HEADING, LONG_PARAGRAPH, TABLE, makeReportPdf } from '../apps/server/test/pdfToDocsFixtures.js';

let e2e: E2e;
let report: string;
const dir = tmpDir('pdf-to-word');
const file = (name: string) => path.join(dir, name);
const documentXml = (docx: string) => execFileSync('unzip', ['-p', docx, 'word/document.xml']).toString('utf8');
const texts = (xml: string) => [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join('');

beforeAll(async () => {
  e2e = await startE2e();
  report = await makeReportPdf(dir);
});
afterAll(async () => {
  await e2e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ready = (page: Page) => page.locator('[data-testid="file-item"][data-state="ossSuccessful"]').waitFor({ timeout: 30_000 });

async function convertAndDownload(page: Page): Promise<string> {
  await page.getByTestId('run-tool').click();
  await page.getByTestId('result').waitFor({ timeout: 60_000 });
  return download(page, 'download', dir);
}

describe('PDF to Word in the browser', () => {
  it('converts a PDF on its page, and the download is a Word document with its text', async () => {
    const page = await e2e.open('/app/pdf-to-word');
    expect(await page.locator('h1').first().textContent()).toBe('PDF to Word');
    await page.getByTestId('file-input').setInputFiles(report);
    await ready(page);
    await page.screenshot({ path: file('pdf-to-word.png') });
    const out = await convertAndDownload(page);
    expect(path.basename(out)).toBe('report.docx');
    const xml = documentXml(out);
    const all = texts(xml);
    for (const t of [HEADING, LONG_PARAGRAPH, ...BULLETS, ...TABLE.flat()]) expect(all).toContain(t);
    expect(xml).toContain('<w:pStyle w:val="Heading1"/>');
    expect(xml).toContain('<w:tbl>');
    await page.context().close();
  });

  it('asks for the password of a protected PDF, refuses a wrong one, then converts', async () => {
    const locked = encryptPdf(report, file('locked-report.pdf'), 'secret1');
    const page = await e2e.open('/app/pdf-to-word');
    await page.getByTestId('file-input').setInputFiles(locked);
    await page.locator('[data-testid="file-item"][data-state="encrypted"]').waitFor({ timeout: 30_000 });
    await page.getByTestId('password-input').fill('not-it');
    await page.getByTestId('password-submit').click();
    await expect.poll(() => page.getByTestId('password-error').textContent(), { timeout: 10_000 }).toMatch(/incorrect password/i);
    await page.getByTestId('password-input').fill('secret1');
    await page.getByTestId('password-submit').click();
    await ready(page);
    const out = await convertAndDownload(page);
    expect(texts(documentXml(out))).toContain(HEADING);
    await page.context().close();
  });

  it('PDF to Pages says what the Pages document keeps, and gives one', async () => {
    const page = await e2e.open('/app/pdf-to-pages');
    await page.getByTestId('file-input').setInputFiles(report);
    await ready(page);
    expect(await page.getByTestId('pages-note').textContent()).toContain('.pages');
    const out = await convertAndDownload(page);
    expect(path.basename(out)).toBe('report.pages');
    expect(execFileSync('unzip', ['-Z1', out]).toString()).toContain('Index/Document.iwa');
    expect(await page.getByTestId('output-note').textContent()).toMatch(/pictures and tables/);
    await page.context().close();
  });
});
