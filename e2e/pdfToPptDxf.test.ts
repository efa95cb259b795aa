// PDF to PowerPoint and to DXF as a user does them, in Chromium: the sidebar's Convert group links
// PDF to PowerPoint; each page takes a PDF, converts it and downloads the deck or the drawing,
// read here with unzip and as DXF text.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { download, startE2e, tmpDir, type E2e } from './browser.js';
import { makePdf } from '../apps/server/test/fixtures.js';

let e2e: E2e;
let pdf: string;
const dir = tmpDir('pdf-to-ppt-dxf');

beforeAll(async () => {
  e2e = await startE2e();
  pdf = await makePdf(path.join(dir, 'slides.pdf'), 2, 'Deck');
});
afterAll(async () => {
  await e2e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function convert(page: Page): Promise<string> {
  await page.getByTestId('file-input').setInputFiles(pdf);
  await page.locator('[data-testid="file-item"][data-state="ossSuccessful"]').waitFor({ timeout: 30_000 });
  await page.getByTestId('run-tool').click();
  await page.getByTestId('result').waitFor({ timeout: 60_000 });
  return download(page, 'download', dir);
}

describe('PDF to PowerPoint and DXF in the browser', () => {
  it('PDF to PowerPoint is in the Convert group and gives a deck of one slide per page', async () => {
    const page = await e2e.open('/app/pdf-to-ppt');
    expect(await page.locator('h1').first().textContent()).toBe('PDF to PowerPoint');
    expect(await page.locator('a[href="/app/pdf-to-ppt"]').count()).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(dir, 'pdf-to-ppt.png') });
    const out = await convert(page);
    expect(path.basename(out)).toBe('slides.pptx');
    const parts = execFileSync('unzip', ['-Z1', out]).toString().split('\n');
    expect(parts.filter((p) => /^ppt\/slides\/slide\d+\.xml$/.test(p))).toHaveLength(2);
    expect(execFileSync('unzip', ['-p', out, 'ppt/slides/slide2.xml']).toString()).toContain('<a:t>Deck Page 2</a:t>');
    await page.context().close();
  });

  it('PDF to DXF gives a drawing with the text of each page on its layer', async () => {
    const page = await e2e.open('/app/pdf-to-dxf');
    expect(await page.locator('h1').first().textContent()).toBe('PDF to DXF');
    const out = await convert(page);
    expect(path.basename(out)).toBe('slides.dxf');
    const dxf = fs.readFileSync(out, 'latin1');
    expect(dxf).toMatch(/\n8\nPAGE_2\n[\s\S]*\n1\nDeck Page 2\n/);
    expect(dxf.endsWith('0\nEOF\n')).toBe(true);
    await page.context().close();
  });
});
