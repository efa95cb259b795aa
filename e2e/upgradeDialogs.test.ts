// The upgrade dialogs tell the truth, in Chromium against a real server: an AI page sells the AI
// plan (chatLimit, chatLimitPage, AiPage), its reason is the limit really met (the server's words
// for tokens), buy buttons lead to the operator's contact or are not shown; a task that failed for
// no reason in the file clears the list; and a visitor's one result of the day survives a reload.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../apps/server/test/fixtures.js';
import { encodePng } from '../apps/server/test/imageFixtures.js';
import { createAccount } from '../apps/server/src/services/accounts.js';
import { E2E_PASSWORD, openAsNewAccount, signInByDialog, signInFromHeader, startE2e, tmpDir, type E2e } from './browser.js';

const MB = 1024 * 1024;
const SHOP = 'https://shop.example.org/quire';
const dir = tmpDir('upgrade');
/** Screenshots, kept for a look (QUIRE_SHOTS names the folder). */
const shots = process.env.QUIRE_SHOTS ?? dir;
let e2e: E2e;

beforeAll(async () => {
  const limitsFile = path.join(dir, 'limits.json');
  // Free: 1 MB files and 10 AI tokens; Premium: the AI takes 1 MB files and reads 2 pages of each.
  fs.writeFileSync(
    limitsFile,
    JSON.stringify({ free: { maxFileMb: 1, ai: { tokens: 10 } }, premium: { ai: { maxFileMb: 1, pagesPerAnalysis: 2 } } }),
  );
  e2e = await startE2e({ limitsFile, operatorContact: SHOP, anonymousTasksPerDay: 1, anonymousDownloads: false });
  await makePdf(path.join(dir, 'three.pdf'), 3, 'Three');
  // A sound PDF over 1 MB: the three pages with 2 MB of random bytes attached, which qpdf cannot compress.
  fs.writeFileSync(path.join(dir, 'noise.bin'), crypto.randomBytes(2 * MB));
  execFileSync('qpdf', [path.join(dir, 'three.pdf'), '--add-attachment', path.join(dir, 'noise.bin'), '--', path.join(dir, 'padded.pdf')]);
});
afterAll(async () => {
  await e2e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The dialog's layout, type, title, reason and offer, as a user reads them. */
async function dialogSays(page: Page) {
  const dialog = page.getByTestId('upgrade-dialog');
  await dialog.waitFor();
  return {
    upgrade: await dialog.getAttribute('data-upgrade'),
    layout: (await dialog.getAttribute('class'))?.includes('upgrade-ai') ? 'ai' : 'premium',
    title: await dialog.getByRole('heading').textContent(),
    reason: await dialog.getByTestId('upgrade-reason').textContent(),
    benefits: (await dialog.getByTestId('upgrade-benefits').count()) ? await dialog.getByTestId('upgrade-benefits').textContent() : null,
  };
}

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: path.join(shots, `${name}-1280.png`) });
  await page.setViewportSize({ width: 390, height: 844 });
  const box = await page.getByTestId('upgrade-dialog').boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  await page.screenshot({ path: path.join(shots, `${name}-390.png`) });
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe('Chat with PDF', () => {
  it("sells the AI plan for a file over a free account's size, with its buy button at the operator's shop", async () => {
    const page = await openAsNewAccount(e2e, '/app/chat-pdf', { width: 1280, height: 900 }, 'chat-free@example.org');
    await page.getByTestId('chat-file').setInputFiles(path.join(dir, 'padded.pdf'));
    const said = await dialogSays(page);
    expect(said).toMatchObject({
      upgrade: 'chatLimit',
      layout: 'ai',
      title: 'Upgrade to AI',
      reason: "This file is over your plan's limit of 1 MB per file.",
    });
    // The AI plan's pitch, not Premium's OCR and no ads.
    expect(said.benefits).not.toMatch(/OCR|ads/i);
    const buy = page.getByTestId('upgrade-buy-ai');
    expect(await buy.getAttribute('href')).toBe(SHOP);
    expect(await buy.getAttribute('target')).toBe('_blank');
    await shoot(page, 'chat-limit');
    await page.context().close();
  });

  it('opens chatLimit for a file its analysis refuses, and chatLimitPage for a document read in part', async () => {
    const page = await openAsNewAccount(e2e, '/app/chat-pdf', { width: 1280, height: 900 }, 'chat-premium@example.org', 'premium');
    await page.getByTestId('chat-file').setInputFiles(path.join(dir, 'padded.pdf'));
    expect(await dialogSays(page)).toMatchObject({ upgrade: 'chatLimit', reason: "This file is over your plan's limit of 1 MB per file." });
    await page.getByTestId('upgrade-cancel').click();
    await page.getByTestId('chat-other-file').click();
    await page.getByTestId('chat-file').setInputFiles(path.join(dir, 'three.pdf'));
    const said = await dialogSays(page);
    expect(said).toMatchObject({
      upgrade: 'chatLimitPage',
      layout: 'ai',
      title: 'Upgrade to AI',
      reason: "Your plan's AI reads only the first 2 pages of a document.",
    });
    await shoot(page, 'chat-limit-page');
    await page.getByTestId('upgrade-cancel').click();
    // The status line says it too, and the chat goes on with what was read.
    expect(await page.getByTestId('chat-status').textContent()).toContain('2');

    await page.goto(`${e2e.quire.url}/app/ai-read`);
    await page.getByTestId('read-file').setInputFiles(path.join(dir, 'three.pdf'));
    expect(await dialogSays(page)).toMatchObject({
      upgrade: 'AiPage',
      layout: 'ai',
      reason: "Your plan's AI reads only the first 2 pages of a document.",
    });
    await page.context().close();
  });
});

describe('out of AI tokens', () => {
  it("says the server's 'Sorry, not enough tokens.', and offers no buy button where the operator gave no contact", async () => {
    const shop = e2e.quire.ctx.config.operatorContact;
    e2e.quire.ctx.config.operatorContact = '';
    try {
      const page = await openAsNewAccount(e2e, '/app/ai-translator', { width: 1280, height: 900 }, 'tokens@example.org');
      await expect.poll(() => page.getByTestId('translate-from').locator('option').count()).toBeGreaterThan(3);
      await page.getByTestId('translate-from').selectOption('en');
      await page.getByTestId('translate-to').selectOption('es');
      await page.getByTestId('translate-source').fill('The house is red and the garden is green in the summer.');
      await page.getByTestId('translate-run').click();
      const said = await dialogSays(page);
      expect(said).toMatchObject({ upgrade: 'AiUpgrade', layout: 'ai', reason: 'Sorry, not enough tokens.' });
      expect(said.benefits).not.toBeNull();
      const dialog = page.getByTestId('upgrade-dialog');
      expect(await dialog.getByTestId('upgrade-buy-ai').count()).toBe(0);
      expect(await dialog.getByTestId('upgrade-buy-yearly').count()).toBe(0);
      await shoot(page, 'tokens-no-contact');
      // Nor in the personal centre.
      await dialog.getByTestId('upgrade-cancel').click();
      await page.getByTestId('avatar-button').first().click();
      await page.getByTestId('account-menu').waitFor();
      expect(await page.getByTestId('buy-premium').count()).toBe(0);
      await page.context().close();
    } finally {
      e2e.quire.ctx.config.operatorContact = shop;
    }
  });
});

describe('a task that fails for no reason in the file (3125)', () => {
  it('clears the file list, as the product does', async () => {
    // Turning 8000 x 8000 pixels needs them all at once, more than 100 MB leaves beside Node.
    const png = path.join(dir, 'square.png');
    fs.writeFileSync(png, encodePng({ width: 8000, height: 8000, channels: 1, pixels: Buffer.alloc(64_000_000, 90) }));
    await createAccount(e2e.quire.ctx, 'rotate@example.org', E2E_PASSWORD, 'free');
    const page = await e2e.open('/app/rotate-image', { width: 1280, height: 900 });
    await signInFromHeader(page, 'rotate@example.org', E2E_PASSWORD);
    await page.getByTestId('file-input').setInputFiles(png);
    await expect.poll(() => page.getByTestId('file-item').getAttribute('data-state'), { timeout: 60_000 }).toBe('ossSuccessful');
    const limits = e2e.quire.ctx.toolLimits;
    const memoryMb = limits.memoryMb;
    limits.memoryMb = 100;
    try {
      await page.getByTestId('run-tool').click();
      // The page shows the failed task's own words (3125 carries why it stopped).
      await page
        .getByTestId('toast')
        .filter({ hasText: 'Processing stopped before it finished: the image may need more memory than allowed.' })
        .waitFor({ timeout: 120_000 });
    } finally {
      limits.memoryMb = memoryMb;
    }
    await page.getByTestId('dropzone').waitFor();
    expect(await page.getByTestId('file-item').count()).toBe(0);
    await page.context().close();
  });
});

describe("a visitor's result of the day", () => {
  it('is shown again after a reload, until signed in, without a second task', async () => {
    const email = 'visitor@example.org';
    await createAccount(e2e.quire.ctx, email, 'visitor-password-1', 'free');
    const page = await e2e.open('/app/rotate-pdf', { width: 1280, height: 800 });
    await page.getByTestId('file-input').setInputFiles(path.join(dir, 'three.pdf'));
    await expect.poll(() => page.locator('[data-testid="file-item"][data-state="ossSuccessful"]').count(), { timeout: 30_000 }).toBe(1);
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    const tasks = () => e2e.quire.ctx.db.selectFrom('tasks').select('id').execute();
    const made = (await tasks()).length;

    await page.reload();
    await page.getByTestId('result').waitFor();
    await page.screenshot({ path: path.join(shots, 'visitor-result-reloaded-1280.png') });
    // A new tab of the same browser finds it too.
    const other = await page.context().newPage();
    await other.goto(`${e2e.quire.url}/app/rotate-pdf`);
    await other.setViewportSize({ width: 390, height: 844 });
    await other.getByTestId('result').waitFor();
    await other.screenshot({ path: path.join(shots, 'visitor-result-reloaded-390.png') });
    await other.close();
    expect((await tasks()).length).toBe(made);

    // Signed in (the download asks), the run is the account's, and the browser forgets it.
    await page.getByTestId('download').click();
    const [downloaded] = await Promise.all([page.waitForEvent('download'), signInByDialog(page, email, 'visitor-password-1')]);
    expect(downloaded.suggestedFilename()).toMatch(/\.pdf$/);
    expect(await page.evaluate(() => localStorage.getItem('quire.run.rotate-pdf'))).toBeNull();
    await page.context().close();
  });

  it("becomes the account's when its page opens again after a sign-in elsewhere", async () => {
    const email = 'elsewhere@example.org';
    await createAccount(e2e.quire.ctx, email, E2E_PASSWORD, 'free');
    const page = await e2e.open('/app/rotate-pdf', { width: 1280, height: 800 });
    await page.getByTestId('file-input').setInputFiles(path.join(dir, 'three.pdf'));
    await expect.poll(() => page.locator('[data-testid="file-item"][data-state="ossSuccessful"]').count(), { timeout: 30_000 }).toBe(1);
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    await page.goto(`${e2e.quire.url}/app/home`);
    await signInFromHeader(page, email, E2E_PASSWORD);
    await page.goto(`${e2e.quire.url}/app/rotate-pdf`);
    // The account's now: its preview shows, and the browser no longer keeps it.
    await page.getByTestId('result-preview').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('quire.run.rotate-pdf'))).toBeNull();
    await page.context().close();
  });

  it('is forgotten once the server no longer has it', async () => {
    const page = await e2e.open('/app/rotate-pdf', { width: 1280, height: 800 });
    await page.evaluate(() => localStorage.setItem('quire.run.rotate-pdf', JSON.stringify({ multiId: 'gone' })));
    await page.reload();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('quire.run.rotate-pdf'))).toBeNull();
    await page.getByTestId('dropzone').waitFor();
    await page.context().close();
  });
});
