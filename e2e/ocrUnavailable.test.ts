// OCR on a server that has none (Tesseract without a language to read, as an empty
// TESSDATA_PREFIX makes it), in Chromium: the page says NEED_OCR's words and clears the file, as
// the spec's handling of NEED_OCR says (close the download box, clear the file).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../apps/server/test/fixtures.js';
import { createAccount } from '../apps/server/src/services/accounts.js';
import { E2E_PASSWORD, signInFromHeader, startE2e, tmpDir, type E2e } from './browser.js';

const dir = tmpDir('no-ocr');
// Before the server first asks Tesseract for its languages (the answer is kept).
process.env.TESSDATA_PREFIX = path.join(dir, 'tessdata');
fs.mkdirSync(process.env.TESSDATA_PREFIX, { recursive: true });
let e2e: E2e;

beforeAll(async () => {
  e2e = await startE2e();
  await makePdf(path.join(dir, 'letter.pdf'), 1, 'Letter');
});
afterAll(async () => {
  await e2e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('OCR on a server without OCR (NEED_OCR)', () => {
  it('shows the message and clears the file list', async () => {
    await createAccount(e2e.quire.ctx, 'scans@example.org', E2E_PASSWORD, 'premium');
    const page = await e2e.open('/app/OCR', { width: 1280, height: 900 });
    await signInFromHeader(page, 'scans@example.org', E2E_PASSWORD);
    await page.getByTestId('file-input').setInputFiles(path.join(dir, 'letter.pdf'));
    await expect.poll(() => page.getByTestId('file-item').getAttribute('data-state'), { timeout: 30_000 }).toBe('ossSuccessful');
    await page.getByTestId('run-tool').click();
    await page.getByTestId('toast').filter({ hasText: 'OCR files are temporarily not supported' }).waitFor({ timeout: 60_000 });
    await page.getByTestId('dropzone').waitFor();
    expect(await page.getByTestId('file-item').count()).toBe(0);
    await page.screenshot({ path: path.join(process.env.QUIRE_SHOTS ?? dir, `need-ocr-${page.viewportSize()!.width}.png`) });
    await page.context().close();
  });
});
