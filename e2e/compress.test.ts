// Compress as a user does it, in Chromium: several files, a level, one task each, download all.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download, startE2e, tmpDir, type E2e } from './browser.js';
import { makePhotoPdf, makeScannedPdf } from '../apps/server/test/imageFixtures.js';

let e2e: E2e;
const dir = tmpDir('compress');
const file = (name: string) => path.join(dir, name);
const size = (f: string) => fs.statSync(f).size;

beforeAll(async () => {
  e2e = await startE2e();
  await makePhotoPdf(file('holiday.pdf'), 1, 150);
  await makeScannedPdf(file('letter.pdf'), 1, 200);
});
afterAll(async () => {
  await e2e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ready = (page: import('playwright-core').Page, n: number) =>
  expect.poll(() => page.locator('[data-testid="file-item"][data-state="ossSuccessful"]').count(), { timeout: 30_000 }).toBe(n);

describe('compress in the browser', () => {
  it('compresses two files at the chosen level, shows what each saved and downloads both', async () => {
    const page = await e2e.open('/app/compress-pdf');
    await page.getByTestId('file-input').setInputFiles([file('holiday.pdf'), file('letter.pdf')]);
    await ready(page, 2);
    expect(await page.getByTestId('level-medium').isChecked()).toBe(true);
    await page.getByTestId('level-high').click();
    expect(await page.getByTestId('level-high').isChecked()).toBe(true);
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 90_000 });
    await expect.poll(() => page.getByTestId('saving').count()).toBe(2);
    for (const text of await page.getByTestId('saving').allTextContents()) expect(text).toMatch(/→ .*, \d+% smaller/);
    // Each file's note says what was done to it, at the level chosen.
    const notes = await page.getByTestId('output-note').allTextContents();
    for (const name of ['holiday', 'letter'])
      expect(notes).toContainEqual(
        expect.stringMatching(new RegExp(`^${name}-compressed\\.pdf: 1 image downsampled to 96 dpi \\(JPEG, quality 50\\)`)),
      );
    const zip = await download(page, 'download-all', dir);
    execFileSync('unzip', ['-o', '-q', zip, '-d', file('out')]);
    for (const name of ['holiday', 'letter']) {
      const out = file(`out/${name}-compressed.pdf`);
      execFileSync('qpdf', ['--check', out]);
      expect(size(out)).toBeLessThan(size(file(`${name}.pdf`)) / 2);
    }
    await page.context().close();
  });

  it('sends a target size typed in megabytes and shows what was done to reach it', async () => {
    const page = await e2e.open('/app/compress-pdf');
    await page.getByTestId('file-input').setInputFiles(file('holiday.pdf'));
    await ready(page, 1);
    await page.getByTestId('target-size').fill('0.05');
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 180_000 });
    // Either note is written only for a target size: the settings that reached it, or why none could.
    expect(await page.getByTestId('output-note').textContent()).toMatch(/Images at \d+ dpi|50 KB cannot be reached/);
    const out = await download(page, 'download', dir);
    execFileSync('qpdf', ['--check', out]);
    await page.context().close();
  });

  it('says "already optimised" for a file that cannot get smaller and gives it back as it was', async () => {
    const page = await e2e.open('/app/compress-pdf');
    await page.getByTestId('file-input').setInputFiles(file('out/holiday-compressed.pdf'));
    await ready(page, 1);
    await page.getByTestId('level-high').click();
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 90_000 });
    expect(await page.getByTestId('already-optimised').textContent()).toMatch(/already optimised/i);
    const out = await download(page, 'download', dir);
    expect(path.basename(out)).toBe('holiday-compressed.pdf');
    expect(fs.readFileSync(out).equals(fs.readFileSync(file('out/holiday-compressed.pdf')))).toBe(true);
    await page.context().close();
  });
});
