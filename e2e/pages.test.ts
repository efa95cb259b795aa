// Tool pages that never lose work and check files at once, in Chromium: the leave-confirm dialog,
// the file list kept through Back and a reload, refusals on the file card, thumbnails, the result page.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../apps/server/test/fixtures.js';
import { startE2e, tmpDir, type E2e } from './browser.js';

let e2e: E2e;
const dir = tmpDir('pages');
const file = (name: string) => path.join(dir, name);

beforeAll(async () => {
  e2e = await startE2e();
  await makePdf(file('alpha.pdf'), 2, 'Alpha');
  await makePdf(file('beta.pdf'), 3, 'Beta');
});
afterAll(async () => {
  await e2e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const items = (page: Page) => page.getByTestId('file-item');
const readyItems = (page: Page) => page.locator('[data-testid="file-item"][data-state="ossSuccessful"]');
const path0 = (page: Page) => new URL(page.url()).pathname;

describe('leaving a tool page', () => {
  it('asks before a link in the app drops the list; Stay keeps it, Leave empties it', async () => {
    const page = await e2e.open('/de/app/merge-pdf');
    await page.getByTestId('file-input').setInputFiles([file('alpha.pdf'), file('beta.pdf')]);
    await expect.poll(() => readyItems(page).count(), { timeout: 30_000 }).toBe(2);

    await page.getByTestId('sidebar').locator('a[href="/de/app/home"]').click();
    const dialog = page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    expect(await dialog.locator('h2').textContent()).toBe('Diese Seite verlassen?');
    await page.getByTestId('confirm-cancel').click();
    await dialog.waitFor({ state: 'detached' });
    expect(path0(page)).toBe('/de/app/merge-pdf');
    expect(await items(page).count()).toBe(2);

    await page.getByTestId('sidebar').locator('a[href="/de/app/home"]').click();
    await page.getByTestId('confirm-ok').click();
    await expect.poll(() => path0(page)).toBe('/de/app/home');
    await page.goBack();
    await page.getByTestId('dropzone').waitFor();
    expect(await items(page).count()).toBe(0);
    await page.context().close();
  });

  it('keeps the list through Back, Forward and a reload, which the browser asks about first', async () => {
    const page = await e2e.open('/app/home');
    await page.goto(`${e2e.quire.url}/app/merge-pdf`);
    await page.getByTestId('file-input').setInputFiles([file('beta.pdf'), file('alpha.pdf')]);
    await expect.poll(() => readyItems(page).count(), { timeout: 30_000 }).toBe(2);
    // Reordered, so the order kept is the list's, not the upload's.
    await page.getByTestId('remove-file').first().click();
    await page.getByTestId('file-input').setInputFiles([file('beta.pdf')]);
    await expect.poll(() => readyItems(page).count(), { timeout: 30_000 }).toBe(2);

    await page.goBack();
    await expect.poll(() => path0(page)).toBe('/app/home');
    await page.goForward();
    await expect.poll(() => readyItems(page).count()).toBe(2);
    expect(await page.locator('[data-testid="file-item"] .file-name').allTextContents()).toEqual(['alpha.pdf', 'beta.pdf']);

    const asked: string[] = [];
    page.on('dialog', (d) => {
      asked.push(d.type());
      void d.accept();
    });
    await page.reload();
    await expect.poll(() => readyItems(page).count()).toBe(2);
    expect(asked).toEqual(['beforeunload']);
    // The restored files are the uploads on the server: the tool runs on them.
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    await page.context().close();
  });
});
