// Merge, split, rearrange, rotate and the password flow as a user does them, in Chromium.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download, startE2e, tmpDir, type E2e } from './browser.js';
import { encryptPdf, makePdf, npages, pageLabels } from '../apps/server/test/fixtures.js';

let e2e: E2e;
const dir = tmpDir('organise');
const file = (name: string) => path.join(dir, name);

beforeAll(async () => {
  e2e = await startE2e();
  await makePdf(file('alpha.pdf'), 2, 'Alpha');
  await makePdf(file('beta.pdf'), 3, 'Beta');
  await makePdf(file('gamma.pdf'), 4, 'Gamma');
  // Upper-case extension: the check is case-insensitive.
  fs.copyFileSync(file('gamma.pdf'), file('GAMMA-UPPER.PDF'));
  encryptPdf(file('beta.pdf'), file('beta-locked.pdf'), 'letmein1');
});
afterAll(async () => {
  await e2e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ready = (page: import('playwright-core').Page, n: number) =>
  expect.poll(() => page.locator('[data-testid="file-item"][data-state="ossSuccessful"]').count(), { timeout: 30_000 }).toBe(n);

describe('merge in the browser', () => {
  it('uploads three files, merges them in list order, reordered from the keyboard, and downloads one PDF', async () => {
    const page = await e2e.open('/app/merge-pdf');
    await page.getByTestId('file-input').setInputFiles([file('beta.pdf'), file('alpha.pdf'), file('GAMMA-UPPER.PDF')]);
    await ready(page, 3);
    // Alt+Right moves the focused file one place on, and it keeps the focus: Alt+Right again puts it last.
    await page.getByTestId('file-item').nth(0).focus();
    await page.keyboard.press('Alt+ArrowRight');
    await expect.poll(() => page.getByTestId('reorder-status').textContent()).toBe('Moved to position 2 of 3');
    await page.keyboard.press('Alt+ArrowRight');
    await page.keyboard.press('Alt+ArrowLeft');
    await expect
      .poll(() => page.getByTestId('file-item').locator('.file-name').allTextContents())
      .toEqual(['alpha.pdf', 'beta.pdf', 'GAMMA-UPPER.PDF']);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('beta.pdf');
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    const out = await download(page, 'download', dir);
    expect(npages(out)).toBe(9);
    expect(pageLabels(out)).toEqual([
      'Alpha Page 1',
      'Alpha Page 2',
      'Beta Page 1',
      'Beta Page 2',
      'Beta Page 3',
      ...[1, 2, 3, 4].map((n) => `Gamma Page ${n}`),
    ]);
    await page.context().close();
  });

  it('refuses a file with another extension with a toast and keeps it out of the list', async () => {
    fs.writeFileSync(file('notes.txt'), 'hello');
    const page = await e2e.open('/app/merge-pdf');
    await page.getByTestId('file-input').setInputFiles([file('notes.txt')]);
    await expect.poll(() => page.getByTestId('toast').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('file-item').count()).toBe(0);
    await page.context().close();
  });
});

describe('split in the browser', () => {
  it('splits by custom ranges and downloads every part as a zip', async () => {
    const page = await e2e.open('/app/split-pdf');
    await page.getByTestId('file-input').setInputFiles(file('gamma.pdf'));
    await ready(page, 1);
    await page.getByTestId('split-custom').click();
    await page.getByTestId('range-input').first().fill('1-2, 4');
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    const zip = await download(page, 'download-all', dir);
    const names = execFileSync('unzip', ['-Z1', zip]).toString().trim().split('\n');
    expect(names).toHaveLength(2);
    execFileSync('unzip', ['-o', '-q', zip, '-d', file('split-out')]);
    const labels = names.map((n) => pageLabels(path.join(file('split-out'), n)));
    expect(labels).toEqual([['Gamma Page 1', 'Gamma Page 2'], ['Gamma Page 4']]);
    await page.context().close();
  });

  it("shows the spec's message for a malformed range and keeps the button disabled", async () => {
    const page = await e2e.open('/app/split-pdf');
    await page.getByTestId('file-input').setInputFiles(file('gamma.pdf'));
    await ready(page, 1);
    await page.getByTestId('split-custom').click();
    await page.getByTestId('range-input').first().fill('1-2, x');
    await expect
      .poll(() => page.getByTestId('range-error').first().textContent())
      .toContain('Please input something like: 1, 6-159, or 59-100');
    expect(await page.getByTestId('run-tool').isDisabled()).toBe(true);
    await page.getByTestId('range-input').first().fill('3-9');
    await expect.poll(() => page.getByTestId('range-error').first().textContent()).toContain('Please enter a valid page range.');
    await page.context().close();
  });
});

describe('rearrange in the browser', () => {
  it('reorders pages from their thumbnails, by pointer and keyboard, and downloads the new order', async () => {
    const page = await e2e.open('/app/rearrange-pdf-pages');
    await page.getByTestId('file-input').setInputFiles(file('gamma.pdf'));
    await ready(page, 1);
    await expect.poll(() => page.getByTestId('thumb').count(), { timeout: 30_000 }).toBe(4);
    // Thumbnails are drawn by pdf.js in the page.
    await expect
      .poll(() => page.locator('[data-testid="thumb"] canvas, [data-testid="thumb"] img').count(), { timeout: 30_000 })
      .toBeGreaterThan(0);
    const order = () => page.getByTestId('thumb').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-page')));
    await page.getByTestId('reverse-pages').click();
    await expect.poll(order).toEqual(['4', '3', '2', '1']);
    // Then drag what is now the last thumbnail (page 1) to the front: 1, 4, 3, 2.
    await page.getByTestId('thumb').nth(3).dragTo(page.getByTestId('thumb').nth(0));
    await expect.poll(order).toEqual(['1', '4', '3', '2']);
    // And from the keyboard, the last (page 2) one place back: 1, 4, 2, 3.
    await page.getByTestId('thumb').nth(3).focus();
    await page.keyboard.press('Alt+ArrowUp');
    await expect.poll(order).toEqual(['1', '4', '2', '3']);
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    const out = await download(page, 'download', dir);
    expect(pageLabels(out)).toEqual([1, 4, 2, 3].map((n) => `Gamma Page ${n}`));
    await page.context().close();
  });
});

describe('rotate in the browser', () => {
  it('picks the angle with the arrow keys and pages by pointer and keyboard, and turns only those pages', async () => {
    const page = await e2e.open('/app/rotate-pdf');
    await page.getByTestId('file-input').setInputFiles(file('gamma.pdf'));
    await ready(page, 1);
    // The angles are one radio group: an arrow key moves the choice along it.
    await page.getByRole('radio', { name: '90°' }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('radio', { name: '180°' }).isChecked()).toBe(true);
    await page.getByRole('group', { name: 'Pages to rotate' }).getByRole('radio', { name: 'Custom' }).check();
    // Each page card is a toggle button: a click presses page 2, Space on page 4 presses it too.
    await page.getByTestId('thumb').nth(1).click();
    await page.getByRole('button', { name: 'Page 4', exact: true }).press('Space');
    expect(await page.getByTestId('range-input').inputValue()).toBe('2, 4');
    expect(await page.getByRole('button', { name: 'Page 2', pressed: true, exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Page 1', pressed: false, exact: true }).count()).toBe(1);
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    const out = await download(page, 'download', dir);
    const rot = execFileSync('pdfinfo', ['-f', '1', '-l', '4', out]).toString();
    expect([...rot.matchAll(/rot:\s+(\d+)/g)].map((m) => Number(m[1]))).toEqual([0, 180, 0, 180]);
    await page.context().close();
  });
});

describe('a password-protected file', () => {
  it('asks for the password, refuses a wrong one, then processes the file', async () => {
    const page = await e2e.open('/app/rotate-pdf');
    await page.getByTestId('file-input').setInputFiles(file('beta-locked.pdf'));
    await page.locator('[data-testid="file-item"][data-state="encrypted"]').waitFor({ timeout: 30_000 });
    await page.getByTestId('password-input').fill('wrong-one');
    await page.getByTestId('password-submit').click();
    await expect.poll(() => page.getByTestId('password-error').textContent(), { timeout: 10_000 }).toMatch(/incorrect password/i);
    await page.getByTestId('password-input').fill('letmein1');
    await page.getByTestId('password-submit').click();
    await page
      .locator('[data-testid="file-item"][data-state="decrypted"], [data-testid="file-item"][data-state="ossSuccessful"]')
      .waitFor({ timeout: 30_000 });
    await page.getByTestId('angle-180').click();
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    const out = await download(page, 'download', dir);
    expect(pageLabels(out)).toEqual(['Beta Page 1', 'Beta Page 2', 'Beta Page 3']);
    const rot = execFileSync('pdfinfo', ['-f', '1', '-l', '3', out]).toString();
    expect([...rot.matchAll(/rot:\s+(\d+)/g)].map((m) => Number(m[1]))).toEqual([180, 180, 180]);
    await page.context().close();
  });
});
