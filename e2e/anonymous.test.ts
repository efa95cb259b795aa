// An anonymous visitor in Chromium: its one task of the day runs, its download asks for a sign-in
// and starts once signed in (the run bound to the account); the next task, even from a fresh
// browser at the same address, is refused with the reason and runs once signed in.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../apps/server/test/fixtures.js';
import { createAccount } from '../apps/server/src/services/accounts.js';
import { startE2e, tmpDir, type E2e } from './browser.js';

const EMAIL = 'vera@example.org';
const PASSWORD = 'vera-password-1';
let e2e: E2e;
const dir = tmpDir('anonymous');
const screenshots = process.env.QUIRE_SCREENSHOTS;

beforeAll(async () => {
  // One run a day, and one per address: a second browser here is refused as a cleared cookie would be.
  e2e = await startE2e({ anonymousTasksPerDay: 1, anonymousDownloads: false, ipRateFactor: 1 });
  await createAccount(e2e.quire.ctx, EMAIL, PASSWORD, 'free');
  await makePdf(path.join(dir, 'alpha.pdf'), 3, 'Alpha');
});
afterAll(async () => {
  await e2e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const rotations = (file: string) =>
  [
    ...execFileSync('pdfinfo', ['-f', '1', '-l', '100', file])
      .toString()
      .matchAll(/rot:\s+(\d+)/g),
  ].map((m) => Number(m[1]));

async function rotateAlpha(page: Page) {
  await page.getByTestId('file-input').setInputFiles(path.join(dir, 'alpha.pdf'));
  await expect.poll(() => page.locator('[data-testid="file-item"][data-state="ossSuccessful"]').count(), { timeout: 30_000 }).toBe(1);
  await page.getByTestId('run-tool').click();
}

async function signIn(page: Page) {
  const dialog = page.getByTestId('signin-dialog');
  await dialog.getByLabel('Email', { exact: true }).fill(EMAIL);
  await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await dialog.getByTestId('signin-submit').click();
}

describe('an anonymous visitor', () => {
  it('runs a task, is asked to sign in to download it, and the download starts once signed in', async () => {
    const page = await e2e.open('/app/rotate-pdf', { width: 1280, height: 800 });
    await rotateAlpha(page);
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    // No preview before the sign-in: it would hand out the output.
    expect(await page.getByTestId('result-preview').count()).toBe(0);
    await page.getByTestId('download').click();
    const reason = page.getByTestId('signin-reason');
    expect(await reason.textContent()).toContain('Sign in to download your file');
    if (screenshots) {
      await page.screenshot({ path: path.join(screenshots, 'signin-download-1280.png') });
      await page.setViewportSize({ width: 390, height: 844 });
      // The navigation slides away into its drawer at this width: the picture is of the page at rest.
      await page.waitForTimeout(500);
      await page.screenshot({ path: path.join(screenshots, 'signin-download-390.png') });
    }
    const [downloaded] = await Promise.all([page.waitForEvent('download'), signIn(page)]);
    const out = path.join(dir, downloaded.suggestedFilename());
    await downloaded.saveAs(out);
    expect(rotations(out)).toEqual([90, 90, 90]);
    await page.getByTestId('signin-dialog').waitFor({ state: 'detached' });
    // Bound to the account now: the preview is its own to see.
    await page.getByTestId('result-preview').waitFor();
    await page.context().close();
  });

  it('is refused a second task of the day with the reason, from a fresh browser at the same address too, and runs it once signed in', async () => {
    const page = await e2e.open('/app/rotate-pdf');
    await rotateAlpha(page);
    const reason = page.getByTestId('signin-reason');
    await reason.waitFor();
    expect(await reason.locator('h2').textContent()).toBe("Today's free task is used");
    // The allowance the server answered with 4016, in words.
    expect(await reason.locator('p').textContent()).toMatch(/^Without an account Quire runs 1 task a day\. Sign in/);
    expect(await page.getByTestId('result').count()).toBe(0);
    if (screenshots) await page.screenshot({ path: path.join(screenshots, 'signin-limit-1280.png') });
    await signIn(page);
    // The files are bound at the sign-in and the run starts again, as the account's.
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    const [downloaded] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download').click()]);
    const out = path.join(dir, `second-${downloaded.suggestedFilename()}`);
    await downloaded.saveAs(out);
    expect(rotations(out)).toEqual([90, 90, 90]);
    await page.context().close();
  });
});
