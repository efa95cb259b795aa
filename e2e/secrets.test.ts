// The web app never puts a file's password in a URL it builds (browsers, proxies and server logs
// keep URLs): every request a page makes over a password flow is recorded and checked.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2e, tmpDir, type E2e } from './browser.js';
import { encryptPdf, makePdf } from '../apps/server/test/fixtures.js';

const PASSWORD = 'Mv5-browser-Secret';
let e2e: E2e;
const dir = tmpDir('secrets');
let locked = '';

beforeAll(async () => {
  e2e = await startE2e();
  locked = encryptPdf(await makePdf(path.join(dir, 'plain.pdf'), 2, 'Hidden'), path.join(dir, 'locked.pdf'), PASSWORD);
});
afterAll(async () => {
  await e2e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Opens `pathname`, records every request the page makes, and unlocks the locked file there. */
async function unlockOn(pathname: string): Promise<{ page: Page; requests: { method: string; url: string }[] }> {
  const page = await e2e.open(pathname);
  const requests: { method: string; url: string }[] = [];
  page.on('request', (req) => requests.push({ method: req.method(), url: req.url() }));
  await page.getByTestId('file-input').setInputFiles(locked);
  await page.locator('[data-testid="file-item"][data-state="encrypted"]').waitFor({ timeout: 30_000 });
  await page.getByTestId('password-input').fill(PASSWORD);
  await page.getByTestId('password-submit').click();
  await page.locator('[data-testid="file-item"][data-state="decrypted"], [data-testid="file-item"][data-state="ossSuccessful"]').waitFor({
    timeout: 30_000,
  });
  return { page, requests };
}

const leaks = (requests: { url: string }[]) =>
  requests.filter((r) => r.url.includes(PASSWORD) || decodeURIComponent(r.url).includes(PASSWORD)).map((r) => r.url);
const api = (requests: { method: string; url: string }[]) =>
  requests
    .filter((r) => r.url.includes('/api/tools/v1/'))
    .map((r) => `${r.method} ${new URL(r.url).pathname.replace('/api/tools/v1/', '')}`);

describe('no password in a URL the web app builds', () => {
  it('PDF to JPG: the password is checked and the converter called with it in POST bodies', async () => {
    const { page, requests } = await unlockOn('/app/pdf-to-jpg');
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    const calls = api(requests);
    // The flow did reach the calls that carry the password.
    expect(calls).toContain('POST document/info');
    expect(calls).toContain('POST converter');
    expect(leaks(requests)).toEqual([]);
    await page.context().close();
  });

  it('Redact: the previews load the file and the redaction is sent with the password in its body', async () => {
    const { page, requests } = await unlockOn('/app/redact-pdf');
    await page.getByTestId('redact-search-input').fill('Hidden');
    await page.getByTestId('redact-search-add').click();
    await expect.poll(() => page.getByTestId('term-hits').textContent(), { timeout: 15_000 }).toBe('2 matches');
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    const calls = api(requests);
    expect(calls).toContain('GET file/download');
    expect(calls.some((c) => /^POST document\/redaction\/\w+\/redaction$/.test(c))).toBe(true);
    expect(leaks(requests)).toEqual([]);
    await page.context().close();
  });
});
