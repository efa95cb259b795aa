// API keys on the account page in Chromium: a key made with a name is shown once with a copy
// button, works as a bearer at once, is listed by name and first characters after a reload, and
// is revoked after a question, after which the server refuses it.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../apps/server/src/services/accounts.js';
import { startE2e, tmpDir, type E2e } from './browser.js';

const EMAIL = 'kay.script@example.org';
const PASSWORD = 'scripted-password-1';

let e2e: E2e;
const dir = tmpDir('api-keys');

beforeAll(async () => {
  e2e = await startE2e();
  await createAccount(e2e.quire.ctx, EMAIL, PASSWORD, 'free');
});
afterAll(async () => {
  await e2e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The account page, signed in through the dialog, at `width` px. */
async function accountPage(width: number): Promise<Page> {
  const page = await e2e.open('/app/account', { width, height: 900 });
  await page.getByTestId('account-signed-out').getByRole('button', { name: 'Sign in' }).click();
  const dialog = page.getByTestId('signin-dialog');
  await dialog.getByLabel('Email', { exact: true }).fill(EMAIL);
  await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await dialog.getByTestId('signin-submit').click();
  await page.getByTestId('account-api-keys').waitFor();
  return page;
}

/** What the tools API answers a script holding `key`. */
async function codeFor(key: string): Promise<number> {
  const res = await fetch(`${e2e.quire.url}/api/tools/v1/config`, { headers: { authorization: `Bearer ${key}` } });
  return ((await res.json()) as { code: number }).code;
}

/** Nothing wider than the window: no sideways scrolling. */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('API keys on the account page', () => {
  let key = '';

  it('makes a key with a name and shows it once, with a copy button and a warning', async () => {
    const page = await accountPage(1280);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const section = page.getByTestId('account-api-keys');
    await section.getByTestId('no-keys').waitFor();
    await section.getByRole('button', { name: 'Create key' }).click();
    expect(await section.getByTestId('field-error').textContent()).toBe('Give the key a name.');
    await section.getByLabel('Key name').fill('Nightly backup');
    await section.getByRole('button', { name: 'Create key' }).click();

    const shown = section.getByTestId('new-key');
    await shown.waitFor();
    key = (await shown.getByTestId('new-key-value').textContent()) ?? '';
    expect(key).toMatch(/^qk_[A-Za-z0-9_-]{43}$/);
    expect(await shown.textContent()).toContain('it is not shown again');
    await shown.getByTestId('copy-key').click();
    await expect.poll(() => shown.getByTestId('copy-key').textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    expect(await section.getByLabel('Key name').inputValue()).toBe('');
    const [item] = await section.getByTestId('key-item').all();
    expect(await item!.textContent()).toContain(`Nightly backup ${key.slice(0, 7)}…`);
    expect(await item!.getByTestId('key-dates').textContent()).toContain('never used');
    await section.screenshot({ path: path.join(dir, 'api-keys-1280.png') });
    expect(await overflow(page)).toBe(0);

    // The key works at once; the page shows when, and never the key again.
    expect(await codeFor(key)).toBe(0);
    await page.reload();
    await section.getByTestId('key-item').waitFor();
    expect(await section.getByTestId('new-key').count()).toBe(0);
    expect(await page.content()).not.toContain(key);
    expect(await section.getByTestId('key-dates').textContent()).toContain('last used');
    await page.context().close();
  });

  it('fits a phone, and revokes the key after asking: the server refuses it from then on', async () => {
    const page = await accountPage(390);
    const section = page.getByTestId('account-api-keys');
    await section.getByTestId('key-item').waitFor();
    await section.getByLabel('Key name').fill('Phone shortcut');
    await section.getByRole('button', { name: 'Create key' }).click();
    await section.getByTestId('new-key').waitFor();
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: path.join(dir, 'api-keys-390.png') });
    expect(await overflow(page)).toBe(0);
    const box = await section.getByTestId('new-key-value').boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await section.getByRole('button', { name: 'I have stored it' }).click();
    expect(await section.getByTestId('new-key').count()).toBe(0);

    const nightly = section.getByTestId('key-item').filter({ hasText: 'Nightly backup' });
    await nightly.getByRole('button', { name: 'Revoke' }).click();
    const confirm = page.getByTestId('confirm-dialog');
    expect(await confirm.textContent()).toContain('Revoke “Nightly backup”?');
    await page.getByTestId('confirm-cancel').click();
    expect(await codeFor(key)).toBe(0);
    await nightly.getByRole('button', { name: 'Revoke' }).click();
    await page.getByTestId('confirm-ok').click();
    await nightly.waitFor({ state: 'detached' });
    expect(await section.getByTestId('key-item').allTextContents()).toEqual([expect.stringContaining('Phone shortcut')]);
    expect(await codeFor(key)).toBe(1408);
    await page.context().close();
  });
});
