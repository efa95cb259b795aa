// Protect, then Unlock the download, as a user does it in Chromium; the files are checked with qpdf.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download, startE2e, tmpDir, type E2e } from './browser.js';
import { makePdf, pageLabels, requiresPassword } from '../apps/server/test/fixtures.js';

let e2e: E2e;
const dir = tmpDir('protect');
const file = (name: string) => path.join(dir, name);
let protectedPdf = '';

beforeAll(async () => {
  e2e = await startE2e();
  await makePdf(file('contract.pdf'), 3, 'Contract');
});
afterAll(async () => {
  await e2e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('protect, then unlock, in the browser', () => {
  it('checks the password as it is typed, then protects the file with it', async () => {
    const page = await e2e.open('/app/protect-pdf');
    await page.getByTestId('file-input').setInputFiles(file('contract.pdf'));
    await page.locator('[data-testid="file-item"][data-state="ossSuccessful"]').waitFor({ timeout: 30_000 });
    await page.getByTestId('protect-password').fill('abc');
    expect(await page.getByTestId('password-rule').textContent()).toBe('The password must contain between 6 and 20 characters.');
    expect(await page.getByTestId('run-tool').isDisabled()).toBe(true);
    await page.getByTestId('protect-password').fill('sesame-42');
    expect(await page.getByTestId('password-rule').count()).toBe(0);
    await page.getByTestId('protect-confirm').fill('sesame-43');
    await page.getByTestId('password-mismatch').waitFor();
    expect(await page.getByTestId('run-tool').isDisabled()).toBe(true);
    await page.getByTestId('protect-confirm').fill('sesame-42');
    expect(await page.getByTestId('password-mismatch').count()).toBe(0);
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    protectedPdf = await download(page, 'download', dir);
    expect(path.basename(protectedPdf)).toBe('contract-protected.pdf');
    expect(requiresPassword(protectedPdf)).toBe(0);
    expect(requiresPassword(protectedPdf, 'sesame-42')).toBe(3);
    expect(execFileSync('qpdf', ['--show-encryption', '--password=sesame-42', protectedPdf]).toString()).toContain('AESv3');
    await page.context().close();
  });

  it('unlocks the protected download once its password is given', async () => {
    const page = await e2e.open('/app/unlock-pdf');
    await page.getByTestId('file-input').setInputFiles(protectedPdf);
    await page.locator('[data-testid="file-item"][data-state="encrypted"]').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('run-tool').isDisabled()).toBe(true);
    await page.getByTestId('password-input').fill('not-it');
    await page.getByTestId('password-submit').click();
    await expect.poll(() => page.getByTestId('password-error').textContent(), { timeout: 10_000 }).toMatch(/incorrect password/i);
    await page.getByTestId('password-input').fill('sesame-42');
    await page.getByTestId('password-submit').click();
    await page.getByTestId('unlock-help').waitFor({ timeout: 30_000 });
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    const out = await download(page, 'download', dir);
    expect(requiresPassword(out)).toBe(2);
    expect(pageLabels(out)).toEqual([1, 2, 3].map((n) => `Contract Page ${n}`));
    await page.context().close();
  });

  it('tells a file without a password that it needs no unlocking', async () => {
    const page = await e2e.open('/app/unlock-pdf');
    await page.getByTestId('file-input').setInputFiles(file('contract.pdf'));
    expect(await page.getByTestId('not-protected').textContent({ timeout: 30_000 })).toContain('not password protected, no need to unlock');
    expect(await page.getByTestId('run-tool').isDisabled()).toBe(true);
    await page.context().close();
  });
});
