// The viewer (/preview) and the download page of a result in Chromium against a real Quire: an
// encrypted PDF opened with its password (which never leaves the browser), thumbnails, zoom, search,
// a result by its task, and shares opened by link and from a received mail by another account and
// by a visitor who signs in first. Downloads are compared byte for byte and read with pdftotext.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../apps/server/src/services/accounts.js';
import { Client } from '../apps/server/test/harness.js';
import { encryptPdf, makePdf, pageLabels } from '../apps/server/test/fixtures.js';
import { Mailbox } from '../apps/server/test/mailbox.js';
import { download, startE2e, tmpDir, type E2e } from './browser.js';

const PASSWORD = 'preview-account-password';
const PDF_PASSWORD = 'open-sesame-7';
const DAY_MS = 86_400_000;

let e2e: E2e;
let mailbox: Mailbox;
const dir = tmpDir('preview');
const file = (name: string) => path.join(dir, name);

/** A port free now, so the server's public address (in share links) can be known before it starts. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

beforeAll(async () => {
  mailbox = await Mailbox.start();
  const port = await freePort();
  e2e = await startE2e({ port, publicUrl: `http://127.0.0.1:${port}`, smtpUrl: mailbox.url });
  await makePdf(file('secret-plain.pdf'), 4, 'Secret');
  encryptPdf(file('secret-plain.pdf'), file('secret.pdf'), PDF_PASSWORD);
  await makePdf(file('long.pdf'), 40, 'Long');
  await makePdf(file('report.pdf'), 3, 'Report');
}, 120_000);
afterEach(() => {
  if (e2e) e2e.quire.ctx.now = Date.now;
});
afterAll(async () => {
  await e2e.stop();
  await mailbox.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** What Chromium reported against the page's Content-Security-Policy, on every page of the file. */
const cspViolations: string[] = [];

/** A new browser of `viewport`, signed in as `email` if given (the login call sets its cookie). */
async function browserOf(email?: string, viewport = { width: 1280, height: 900 }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await e2e.browser.newContext({ viewport, acceptDownloads: true });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('page error:', e));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content[- ]Security[- ]Policy|Refused to/i.test(msg.text())) cspViolations.push(msg.text());
  });
  if (email) {
    const login = await context.request.post(`${e2e.quire.url}/api/account/v1/login`, { data: { email, password: PASSWORD } });
    expect((await login.json()).code).toBe(0);
  }
  return { context, page };
}

/** Uploads `name` with the browser's own cookies (a visitor's or an account's file). */
async function uploadIn(page: Page, name: string): Promise<string> {
  const res = await page.request.post(`${e2e.quire.url}/api/tools/v1/file/stream`, {
    multipart: { file: { name, mimeType: 'application/pdf', buffer: fs.readFileSync(file(name)) } },
  });
  const body = await res.json();
  expect(body.code).toBe(0);
  return body.data.file_id as string;
}

/** Rotates an upload of `name` and waits for the result, as the browser's owner. */
async function rotatedIn(page: Page, name: string): Promise<string> {
  const fileId = await uploadIn(page, name);
  const created = await (
    await page.request.post(`${e2e.quire.url}/api/tools/v1/document/rotate`, { data: { file_id: fileId, angle: 90, pages: 'all' } })
  ).json();
  expect(created.code).toBe(0);
  const taskId = created.data.task_id as string;
  await expect
    .poll(
      async () =>
        (await (await page.request.get(`${e2e.quire.url}/api/tools/v1/get-task-result?task_id=${taskId}`)).json()).data[0].is_done,
      {
        timeout: 60_000,
      },
    )
    .toBe(true);
  return taskId;
}

const pageWidth = (page: Page, n: number) =>
  page.locator(`[data-testid="viewer-page"][data-page="${n}"]`).evaluate((el) => el.getBoundingClientRect().width);
const drawn = (page: Page, n: number) =>
  page.locator(`[data-testid="viewer-page"][data-page="${n}"][data-drawn="yes"]`).waitFor({ timeout: 30_000 });
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(process.env.QUIRE_SHOTS ?? dir, name) });

describe('the viewer', () => {
  it('opens an encrypted PDF with its password, checked in the browser only, and finds a word on its page', async () => {
    const { context, page } = await browserOf();
    const sent: string[] = [];
    page.on('request', (r) => sent.push(`${r.url()} ${r.postData() ?? ''}`));
    await page.goto(`${e2e.quire.url}/`);
    const fileId = await uploadIn(page, 'secret.pdf');
    // A viewer that never asks says where it stopped (it did once, in a CI run): its state and the requests still open.
    const open = new Set<string>();
    page.on('request', (r) => open.add(r.url()));
    page.on('requestfinished', (r) => open.delete(r.url()));
    page.on('requestfailed', (r) => open.delete(r.url()));
    await page.goto(`${e2e.quire.url}/preview?file_id=${fileId}`);
    await page
      .getByTestId('viewer-password')
      .waitFor({ timeout: 30_000 })
      .catch(async (e: unknown) => {
        const state = await page.evaluate(() => document.querySelector('[data-testid="viewer-state"]')?.getAttribute('data-state'));
        throw new Error(
          `no password asked: the viewer is ${state ?? 'not shown'}; requests still open: ${[...open].join(', ') || 'none'}`,
          {
            cause: e,
          },
        );
      });
    await shot(page, 'preview-password-1280.png');

    await page.getByTestId('viewer-password-input').fill('not-the-password');
    await page.getByTestId('viewer-password-submit').click();
    expect(await page.getByTestId('viewer-password-error').textContent({ timeout: 10_000 })).toBe('Incorrect password. Please try again.');
    await page.getByTestId('viewer-password-input').fill(PDF_PASSWORD);
    await page.getByTestId('viewer-password-submit').click();
    await drawn(page, 1);
    expect(await page.getByTestId('viewer-page').count()).toBe(4);
    expect(await page.getByTestId('viewer-page-count').textContent()).toBe('/ 4');

    await page.getByTestId('viewer-search').fill('secret page 3');
    await page.getByTestId('viewer-search').press('Enter');
    await expect.poll(() => page.getByTestId('viewer-hit-count').textContent(), { timeout: 15_000 }).toBe('1 of 1');
    await expect.poll(() => page.getByTestId('viewer-page-input').inputValue()).toBe('3');
    const hit = page.locator('[data-testid="viewer-page"][data-page="3"] [data-testid="viewer-current-hit"]');
    expect(await hit.count()).toBe(1);
    await drawn(page, 3);
    const box = (await hit.boundingBox())!;
    const view = (await page.getByTestId('viewer-pages').boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(view.y);
    expect(box.y + box.height).toBeLessThanOrEqual(view.y + view.height);
    // The mark covers the words: wider than tall, the size of a line of 24 pt text at the zoom.
    expect(box.width).toBeGreaterThan(box.height * 4);

    await page.getByTestId('viewer-search').fill('nowhere to be found');
    await page.getByTestId('viewer-search').press('Enter');
    await expect.poll(() => page.getByTestId('viewer-hit-count').textContent(), { timeout: 15_000 }).toBe('No matches');
    await shot(page, 'preview-decrypted-1280.png');
    expect(sent.filter((s) => s.includes(PDF_PASSWORD) || s.includes('not-the-password'))).toEqual([]);
    await context.close();
  }, 90_000);

  it('draws thumbnails and pages on demand, jumps, zooms and moves by keys', async () => {
    const { context, page } = await browserOf(undefined, { width: 1440, height: 900 });
    await page.goto(`${e2e.quire.url}/`);
    const fileId = await uploadIn(page, 'long.pdf');
    await page.goto(`${e2e.quire.url}/preview?file_id=${fileId}`);
    await drawn(page, 1);
    expect(await page.getByTestId('viewer-thumb').count()).toBe(40);
    await page.locator('[data-testid="viewer-thumb"]:first-child [data-testid="page-thumb"][data-drawn="yes"]').waitFor();
    // Far pages and thumbnails are not drawn until they come near.
    expect(await page.locator('[data-testid="viewer-thumb"]:last-child [data-testid="page-thumb"]').getAttribute('data-drawn')).toBe('no');
    expect(await page.locator('[data-testid="viewer-page"][data-drawn="yes"]').count()).toBeLessThan(8);

    await page.getByTestId('viewer-thumb').nth(24).click();
    await expect.poll(() => page.getByTestId('viewer-page-input').inputValue()).toBe('25');
    await drawn(page, 25);
    await page.getByTestId('viewer-page-input').fill('38');
    await page.getByTestId('viewer-page-input').press('Enter');
    await drawn(page, 38);
    expect(await page.getByTestId('viewer-page-input').inputValue()).toBe('38');
    // Pages far from the view are let go of.
    await page.locator('[data-testid="viewer-page"][data-page="1"][data-drawn="no"]').waitFor();
    await page.getByTestId('viewer-page-input').fill('99');
    await page.getByTestId('viewer-page-input').press('Enter');
    expect(await page.getByTestId('viewer-page-input').inputValue()).toBe('38');

    // Automatic zoom stops at 125% on a wide window; the buttons step, a typed percentage sets.
    expect(await page.getByTestId('viewer-zoom').inputValue()).toBe('125%');
    expect(await pageWidth(page, 38)).toBe(Math.round(595 * 1.25));
    await page.getByTestId('viewer-zoom-in').click();
    expect(await page.getByTestId('viewer-zoom').inputValue()).toBe('150%');
    expect(await pageWidth(page, 38)).toBe(Math.round(595 * 1.5));
    await page.getByTestId('viewer-zoom').fill('50');
    await page.getByTestId('viewer-zoom').press('Enter');
    expect(await pageWidth(page, 38)).toBe(Math.round(595 * 0.5));
    await page.getByTestId('viewer-zoom-mode').selectOption('fitWidth');
    const fit = await page.getByTestId('viewer-pages').evaluate((el) => el.clientWidth);
    expect(Math.abs((await pageWidth(page, 38)) - (fit - 32))).toBeLessThanOrEqual(1);
    // The page shown stays in view across zooms.
    await expect.poll(() => page.getByTestId('viewer-page-input').inputValue()).toBe('38');

    await page.getByTestId('viewer-pages').click();
    await page.keyboard.press('PageDown');
    await expect.poll(() => page.getByTestId('viewer-page-input').inputValue()).toBe('39');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => page.getByTestId('viewer-page-input').inputValue()).toBe('37');
    await page.keyboard.press('Control+f');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('viewer-search');

    // "page 3" is on page 3 and on pages 30 to 39: Enter and the arrows step through them in order.
    await page.keyboard.type('page 3');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('viewer-hit-count').textContent(), { timeout: 15_000 }).toBe('1 of 11');
    await expect.poll(() => page.getByTestId('viewer-page-input').inputValue()).toBe('3');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('viewer-page-input').inputValue()).toBe('30');
    expect(await page.getByTestId('viewer-hit-count').textContent()).toBe('2 of 11');
    await page.keyboard.press('Shift+Enter');
    await expect.poll(() => page.getByTestId('viewer-page-input').inputValue()).toBe('3');
    await page.getByTestId('viewer-previous-hit').click();
    await expect.poll(() => page.getByTestId('viewer-page-input').inputValue()).toBe('39');
    expect(await page.getByTestId('viewer-hit-count').textContent()).toBe('11 of 11');
    await page.locator('[data-testid="viewer-page"][data-page="39"] [data-testid="viewer-current-hit"]').waitFor();
    await context.close();
  }, 90_000);

  it('fits a phone: thumbnails hidden until asked, nothing wider than the window', async () => {
    const { context, page } = await browserOf(undefined, { width: 390, height: 844 });
    await page.goto(`${e2e.quire.url}/`);
    const fileId = await uploadIn(page, 'long.pdf');
    await page.goto(`${e2e.quire.url}/preview?file_id=${fileId}`);
    await drawn(page, 1);
    expect(await page.getByTestId('viewer-thumbs').count()).toBe(0);
    expect(await overflow(page)).toBe(0);
    expect(await pageWidth(page, 1)).toBeLessThanOrEqual(390);
    await shot(page, 'preview-390.png');
    await page.getByTestId('viewer-toggle-thumbs').click();
    await page.getByTestId('viewer-thumb').nth(1).locator('[data-drawn="yes"]').waitFor();
    await shot(page, 'preview-thumbs-390.png');
    await page.getByTestId('viewer-thumb').nth(1).click();
    await expect.poll(() => page.getByTestId('viewer-page-input').inputValue()).toBe('2');
    // Chosen, the page shows: the thumbnails that covered it close.
    expect(await page.getByTestId('viewer-thumbs').count()).toBe(0);
    await drawn(page, 2);
    await context.close();
  }, 60_000);
});

describe('a result', () => {
  it('opens in the viewer by its task, and on its download page with its facts and actions', async () => {
    const { context, page } = await browserOf();
    await page.goto(`${e2e.quire.url}/`);
    const taskId = await rotatedIn(page, 'report.pdf');
    await page.goto(`${e2e.quire.url}/preview?task_id=${taskId}`);
    await drawn(page, 1);
    expect(await page.getByTestId('viewer-file-name').textContent()).toBe('report-rotated.pdf');
    expect(await page.getByTestId('viewer-page').count()).toBe(3);
    // Rotated a quarter turn: the pages are shown landscape.
    const first = (await page.locator('[data-testid="viewer-page"][data-page="1"]').boundingBox())!;
    expect(first.width).toBeGreaterThan(first.height);
    await shot(page, 'preview-task-1280.png');
    // Under a language prefix, in that language.
    await page.goto(`${e2e.quire.url}/de/preview?task_id=${taskId}`);
    await drawn(page, 1);
    expect(await page.getByTestId('viewer-download').textContent()).toContain('Herunterladen');

    await page.goto(`${e2e.quire.url}/app/download-file?task_id=${taskId}`);
    await page.locator('[data-testid="download-file"] [data-testid="page-thumb"][data-drawn="yes"]').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('download-file-name').textContent()).toBe('report-rotated.pdf');
    await expect.poll(() => page.getByTestId('download-file-meta').textContent()).toMatch(/ KB · 3 pages$/);
    expect(await page.getByTestId('retention').textContent()).toContain('Results stay on the server for');
    await shot(page, 'download-file-1280.png');
    const saved = await download(page, 'download', dir);
    const owned = Buffer.from(
      await (await page.request.get(`${e2e.quire.url}/api/tools/v1/document/download-doc?task_id=${taskId}`)).body(),
    );
    expect(fs.readFileSync(saved).equals(owned)).toBe(true);
    expect(pageLabels(saved)).toEqual(['Report Page 1', 'Report Page 2', 'Report Page 3']);

    await page.getByTestId('open-in-viewer').click();
    await drawn(page, 1);
    expect(new URL(page.url()).search).toBe(`?task_id=${taskId}`);
    await page.goBack();
    await page.getByTestId('delete-now').click();
    await expect.poll(() => page.getByTestId('retention').textContent()).toBe('Your results were deleted from the server.');
    await page.goto(`${e2e.quire.url}/preview?task_id=${taskId}`);
    await page.locator('[data-testid="viewer-state"]:not([data-state="loading"])').waitFor();
    expect(await page.getByTestId('viewer-state').getAttribute('data-state')).toMatch(/notFound|failed/);
    await context.close();
  }, 90_000);

  it('asks a visitor to sign in to view a result where visitors may not download, then shows it', async () => {
    const { context, page } = await browserOf();
    await page.goto(`${e2e.quire.url}/`);
    const taskId = await rotatedIn(page, 'report.pdf');
    const email = `preview-visitor-${Date.now()}@example.org`;
    await createAccount(e2e.quire.ctx, email, PASSWORD, 'free');
    e2e.quire.ctx.config.anonymousDownloads = false;
    try {
      await page.goto(`${e2e.quire.url}/preview?task_id=${taskId}`);
      const dialog = page.getByTestId('signin-dialog');
      await dialog.waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('viewer-state').getAttribute('data-state')).toBe('signIn');
      await dialog.getByLabel('Email', { exact: true }).fill(email);
      await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await dialog.getByTestId('signin-submit').click();
      // The run became the account's as it signed in: its result shows.
      await drawn(page, 1);
      expect(await page.getByTestId('viewer-page').count()).toBe(3);
    } finally {
      e2e.quire.ctx.config.anonymousDownloads = true;
    }
    await context.close();
  }, 90_000);

  it('is saved to the document cloud from its download page, and opens there by its cloud id', async () => {
    const email = `preview-cloud-${Date.now()}@example.org`;
    await createAccount(e2e.quire.ctx, email, PASSWORD, 'premium');
    const { context, page } = await browserOf(email);
    await page.goto(`${e2e.quire.url}/`);
    const taskId = await rotatedIn(page, 'report.pdf');
    await page.goto(`${e2e.quire.url}/app/download-file?task_id=${taskId}`);
    // Another tool is offered for the output, as on the result view.
    await expect.poll(() => page.getByTestId('continue-with').locator('option').count(), { timeout: 30_000 }).toBeGreaterThan(1);
    await page.locator('[data-testid="download-file"] [data-testid="page-thumb"][data-drawn="yes"]').waitFor({ timeout: 30_000 });
    await shot(page, 'download-file-signed-in-1280.png');
    // Share opens the share dialog for this output.
    await page.getByTestId('share').click();
    expect(await page.getByTestId('share-dialog').textContent()).toContain('Share');
    await page.getByTestId('share-close').click();
    await page.getByTestId('save-to-cloud').click();
    await page.getByTestId('folder-picker').getByTestId('picker-confirm').click();
    await expect
      .poll(() => page.getByTestId('toast').textContent(), { timeout: 30_000 })
      .toContain('Saved to your cloud as "report-rotated.pdf"');
    const listing = await (await page.request.post(`${e2e.quire.url}/api/cloud/v1/list`, { data: {} })).json();
    const saved = listing.data.files.find((f: { name: string }) => f.name === 'report-rotated.pdf');
    expect(saved).toBeDefined();
    await page.goto(`${e2e.quire.url}/preview?cloud_file_id=${saved.file_id}`);
    await drawn(page, 1);
    expect(await page.getByTestId('viewer-page').count()).toBe(3);
    const viewed = await download(page, 'viewer-download', dir);
    const owned = Buffer.from(
      await (await page.request.get(`${e2e.quire.url}/api/tools/v1/document/download-doc?task_id=${taskId}`)).body(),
    );
    expect(fs.readFileSync(viewed).equals(owned)).toBe(true);
    await context.close();
  }, 90_000);

  it("is reached from the result view by the output's name, and fits a phone", async () => {
    const { context, page } = await browserOf(undefined, { width: 390, height: 844 });
    await page.goto(`${e2e.quire.url}/app/rotate-pdf`);
    await page.getByTestId('file-input').setInputFiles(file('report.pdf'));
    await page.locator('[data-testid="file-item"][data-state="ossSuccessful"]').waitFor({ timeout: 30_000 });
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    await page.getByTestId('download-page-link').click();
    await page.locator('[data-testid="download-file"] [data-testid="page-thumb"][data-drawn="yes"]').waitFor({ timeout: 30_000 });
    expect(new URL(page.url()).pathname).toBe('/app/download-file');
    expect(await page.getByTestId('download-file-name').textContent()).toBe('report-rotated.pdf');
    expect(await overflow(page)).toBe(0);
    await shot(page, 'download-file-390.png');
    await context.close();
  }, 90_000);
});

describe('a shared file', () => {
  let accounts = 0;
  async function account(plan: 'premium' | 'free'): Promise<{ email: string; client: Client }> {
    const email = `preview-${plan}-${++accounts}@example.org`;
    await createAccount(e2e.quire.ctx, email, PASSWORD, plan);
    const client = new Client(e2e.quire.url);
    const login = await client.raw('/api/account/v1/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(((await login.json()) as { code: number }).code).toBe(0);
    return { email, client };
  }

  /** A premium account's rotated report, shared by link for `days`: the link and the owner's bytes. */
  async function sharedReport(days: 1 | 7 = 7, target?: string) {
    const owner = await account('premium');
    const fileId = await owner.client.uploadId(file('report.pdf'));
    const created = await owner.client.post('document/rotate', { file_id: fileId, angle: 90, pages: 'all' });
    const taskId = created.data.task_id as string;
    expect((await owner.client.waitTask(taskId)).status).toBe(0);
    const bytes = Buffer.from(await (await owner.client.raw(`/api/tools/v1/document/download-doc?task_id=${taskId}`)).arrayBuffer());
    const request = target
      ? { share_key: taskId, share_type: 1, file_type: 2, source_email: owner.email, target_email: target, share_days: days }
      : { share_key: taskId, share_type: 2, file_type: 2, share_days: days };
    const made = await owner.client.post('share/share-file', request);
    expect(made.code).toBe(0);
    return { owner, bytes, link: made.data.share_url as string };
  }

  it("opens by link for another account: the file shows and downloads as its owner's bytes", async () => {
    const { link, bytes } = await sharedReport();
    expect(link.startsWith(`${e2e.quire.url}/preview?share_id=`)).toBe(true);
    const reader = await account('free');
    const { context, page } = await browserOf(reader.email);
    await page.goto(link);
    await drawn(page, 1);
    expect(await page.getByTestId('viewer-file-name').textContent()).toBe('report-rotated.pdf');
    // The product's share date: MM/dd/yyyy in English.
    const end = new Date(Date.now() + 7 * DAY_MS);
    const until = `${String(end.getMonth() + 1).padStart(2, '0')}/${String(end.getDate()).padStart(2, '0')}/${end.getFullYear()}`;
    expect(await page.getByTestId('viewer-expiry').textContent()).toBe(`Shared with you until ${until}`);
    await shot(page, 'preview-share-1280.png');
    const saved = await download(page, 'viewer-download', dir);
    expect(path.basename(saved)).toBe('report-rotated.pdf');
    expect(fs.readFileSync(saved).equals(bytes)).toBe(true);
    execFileSync('qpdf', ['--check', saved]);
    expect(pageLabels(saved)).toEqual(['Report Page 1', 'Report Page 2', 'Report Page 3']);
    await context.close();
  }, 90_000);

  it('asks a visitor to sign in first, then opens the file', async () => {
    const { link } = await sharedReport();
    const reader = await account('free');
    const { context, page } = await browserOf();
    await page.goto(link);
    const dialog = page.getByTestId('signin-dialog');
    await dialog.waitFor();
    expect(await page.getByTestId('signin-reason').textContent()).toContain('Sign in to open the shared file');
    expect(await page.getByTestId('viewer-page').count()).toBe(0);
    await shot(page, 'preview-share-signin-1280.png');
    // Closed, the dialog leaves a page that asks again.
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.locator('[data-testid="viewer-state"][data-state="signIn"]').waitFor();
    expect(await page.getByTestId('viewer-state').textContent()).toContain('Sign in to open the shared file');
    await page.getByTestId('viewer-sign-in').click();
    await dialog.waitFor();
    await dialog.getByLabel('Email', { exact: true }).fill(reader.email);
    await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await dialog.getByTestId('signin-submit').click();
    await drawn(page, 1);
    expect(await page.getByTestId('viewer-page').count()).toBe(3);
    await context.close();
  }, 90_000);

  it('opens from the link of a received share mail', async () => {
    const reader = await account('free');
    await sharedReport(7, reader.email);
    const mail = await mailbox.take(reader.email);
    expect(mail.links).toHaveLength(1);
    const { context, page } = await browserOf(reader.email);
    await page.goto(mail.links[0]!);
    await drawn(page, 1);
    expect(await page.getByTestId('viewer-file-name').textContent()).toBe('report-rotated.pdf');
    await context.close();
  }, 90_000);

  it('offers a file that is not a PDF by its name, size and a download', async () => {
    const owner = await account('premium');
    fs.writeFileSync(file('notes.txt'), 'Minutes of the meeting.\n'.repeat(40));
    const fileId = await owner.client.uploadId(file('notes.txt'));
    const made = await owner.client.post('share/share-file', { share_key: fileId, share_type: 2, file_type: 1, share_days: 7 });
    expect(made.code).toBe(0);
    const reader = await account('free');
    const { context, page } = await browserOf(reader.email);
    await page.goto(made.data.share_url);
    const other = page.getByTestId('viewer-other-file');
    await other.waitFor({ timeout: 30_000 });
    expect(await other.textContent()).toContain('notes.txt');
    expect(await other.textContent()).toContain('960 B');
    const saved = await download(page, 'viewer-download', dir);
    expect(fs.readFileSync(saved).equals(fs.readFileSync(file('notes.txt')))).toBe(true);
    await context.close();
  }, 60_000);

  it('says a revoked or expired share has expired', async () => {
    const reader = await account('free');
    const revoked = await sharedReport();
    const { share_id } = (await revoked.owner.client.call('share/list')).data.shares[0];
    expect((await revoked.owner.client.post('share/revoke', { share_id })).code).toBe(0);
    const { context, page } = await browserOf(reader.email);
    await page.goto(revoked.link);
    await page.locator('[data-testid="viewer-state"][data-state="expired"]').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('viewer-state').textContent()).toContain('The shared file has expired.');
    await shot(page, 'preview-expired-1280.png');

    const expiring = await sharedReport(1);
    e2e.quire.ctx.now = () => Date.now() + 2 * DAY_MS;
    await page.goto(expiring.link);
    await page.locator('[data-testid="viewer-state"][data-state="expired"]').waitFor({ timeout: 30_000 });
    e2e.quire.ctx.now = Date.now;
    // A code no share has: not found.
    await page.goto(`${e2e.quire.url}/preview?share_id=AAAAAAAAAAAAAAAAAAAAAA`);
    await page.locator('[data-testid="viewer-state"][data-state="notFound"]').waitFor({ timeout: 30_000 });
    await context.close();
  }, 90_000);
});

describe('the pages above', () => {
  it('ran within the Content-Security-Policy: pdf.js drew from bytes in memory, downloads came from blob: addresses', () => {
    expect(cspViolations).toEqual([]);
  });
});
