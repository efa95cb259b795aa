// /app/automated-test in Chromium: an operator runs the instance's self-check and sees every engine
// pass with its times and what was verified; another account finds no such page.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { selfChecks } from '@quire/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../apps/server/src/services/accounts.js';
import { startE2e, type E2e } from './browser.js';

const OPERATOR = 'olga@example.org';
const USER = 'una@example.org';
const PASSWORD = 'long enough password';

let e2e: E2e;
const shots = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-self-check-'));

beforeAll(async () => {
  e2e = await startE2e();
  await createAccount(e2e.quire.ctx, OPERATOR, PASSWORD, 'free', 'operator');
  await createAccount(e2e.quire.ctx, USER, PASSWORD, 'free');
});
afterAll(() => e2e.stop());

async function signInOnPage(page: Page, email: string): Promise<void> {
  await page.getByTestId('admin-signed-out').getByRole('button').click();
  const dialog = page.getByTestId('signin-dialog');
  await dialog.getByLabel('Email', { exact: true }).fill(email);
  await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await dialog.getByTestId('signin-submit').click();
  await dialog.waitFor({ state: 'detached' });
}

describe('the self-check page', () => {
  it('runs every check for the operator, each passed with its times and what it verified', async () => {
    const page = await e2e.open('/app/automated-test', { width: 1280, height: 900 });
    await signInOnPage(page, OPERATOR);
    await page.getByTestId('self-check-run').click();
    await page.getByTestId('self-check-summary').waitFor({ timeout: 150_000 });
    expect(await page.getByTestId('self-check-summary').textContent()).toBe(`${selfChecks.length} of ${selfChecks.length} checks passed.`);
    const rows = page.getByTestId('self-check-row');
    expect(await rows.count()).toBe(selfChecks.length);
    for (const { id } of selfChecks) {
      const row = page.locator(`[data-testid="self-check-row"][data-check="${id}"]`);
      expect(await row.getAttribute('data-state'), id).toBe('passed');
      expect(await row.locator('.self-check-detail').textContent(), id).not.toBe('');
    }
    expect(await page.locator('[data-check="ocr"] .self-check-detail').textContent()).toContain('QUIRE SELF CHECK');
    await page.screenshot({ path: path.join(shots, 'self-check-1280.png'), fullPage: true });
    // The phone layout, opened afresh (the results are the page's: run again there).
    const phone = await e2e.open('/app/automated-test', { width: 390, height: 844 });
    await signInOnPage(phone, OPERATOR);
    await phone.getByTestId('self-check-run').click();
    await phone.getByTestId('self-check-summary').waitFor({ timeout: 150_000 });
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.screenshot({ path: path.join(shots, 'self-check-390.png'), fullPage: true });
    console.info(`self-check screenshots: ${shots}`);
  });

  it('is not there for an account that is not an operator', async () => {
    const page = await e2e.open('/app/automated-test');
    await signInOnPage(page, USER);
    await page.getByTestId('admin-not-found').waitFor();
    expect(await page.getByTestId('self-check-run').count()).toBe(0);
  });
});
