// Plan limits as a user meets them in Chromium: a file over the plan is refused as it is added,
// before a byte is uploaded, and the upgrade dialog explains why; a refusal the server answers
// opens it too. The server runs with an operator's limits file that gives visitors 1 MB files, so
// the signed-out dialog is met without a 100 MB file.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../apps/server/test/fixtures.js';
import { createAccount } from '../apps/server/src/services/accounts.js';
import { signInFromHeader, startE2e, tmpDir, type E2e, OPERATOR_CONTACT } from './browser.js';

const MB = 1024 * 1024;
const PASSWORD = 'limits-password-1';
const dir = tmpDir('limits');
/** Screenshots of the dialog, kept for a look (QUIRE_SHOTS names the folder). */
const shots = process.env.QUIRE_SHOTS ?? dir;
let e2e: E2e;

beforeAll(async () => {
  const limitsFile = path.join(dir, 'limits.json');
  fs.writeFileSync(limitsFile, JSON.stringify({ anonymous: { maxFileMb: 1 } }));
  e2e = await startE2e({ limitsFile, operatorContact: OPERATOR_CONTACT });
  await createAccount(e2e.quire.ctx, 'free@example.org', PASSWORD, 'free');
});
afterAll(async () => {
  await e2e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Nothing of a refused file reached the server's storage. */
const storedFiles = () => {
  const files = path.join(e2e.quire.ctx.config.dataDir, 'storage', 'files');
  return fs.existsSync(files) ? fs.readdirSync(files).length : 0;
};

const signIn = (page: Page, email: string) => signInFromHeader(page, email, PASSWORD);

/**
 * Adds a file of `bytes` named like a PDF: its size is checked first. Sparse on disk, and given to
 * the browser by its path, which is far quicker than sending the bytes through the protocol.
 */
async function addFile(page: Page, name: string, bytes: number) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, '%PDF-1.7\n');
  fs.truncateSync(file, bytes);
  await page.getByTestId('file-input').setInputFiles(file);
}

describe('the upgrade dialog', () => {
  it('opens for a free account adding a 21 MB file, in the Premium layout, and the card says why', async () => {
    const page = await e2e.open('/app/compress-pdf', { width: 1280, height: 800 });
    await signIn(page, 'free@example.org');
    const before = storedFiles();
    await addFile(page, 'big.pdf', 21 * MB);
    const dialog = page.getByTestId('upgrade-dialog');
    await dialog.waitFor();
    expect(await dialog.getAttribute('data-upgrade')).toBe('sizeUpgrade');
    expect(await dialog.getByRole('heading').textContent()).toBe('Upgrade to Premium');
    expect(await dialog.getByTestId('upgrade-reason').textContent()).toBe("This file is over your plan's limit of 20 MB per file.");
    expect(await dialog.getByTestId('upgrade-benefits').textContent()).toContain('Files up to 100 MB');
    const yearly = dialog.getByTestId('upgrade-buy-yearly');
    expect(await yearly.textContent()).toContain('$39.99');
    expect(await yearly.getAttribute('href')).toBe('/pricing');
    expect(await dialog.getByTestId('upgrade-buy-monthly').textContent()).toContain('$5.99');
    // Signed in: no offer to sign in.
    expect(await dialog.getByTestId('upgrade-signin').count()).toBe(0);
    await page.screenshot({ path: path.join(shots, 'upgrade-free-1280.png') });
    await page.setViewportSize({ width: 390, height: 844 });
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: path.join(shots, 'upgrade-free-390.png') });

    await dialog.getByTestId('upgrade-cancel').click();
    await dialog.waitFor({ state: 'detached' });
    const card = page.getByTestId('file-item');
    expect(await card.getAttribute('data-state')).toBe('damaged');
    expect(await card.textContent()).toContain("This file is over your plan's limit of 20 MB per file.");
    expect(storedFiles()).toBe(before);
  });

  it('opens when the server refuses a task: OCR in a conversion on the free plan', async () => {
    const page = await e2e.open('/app/pdf-to-word', { width: 1280, height: 800 });
    await signIn(page, 'free@example.org');
    await page.getByTestId('file-input').setInputFiles(await makePdf(path.join(dir, 'scan.pdf'), 1, 'Scan'));
    await expect.poll(() => page.getByTestId('file-item').getAttribute('data-state')).toBe('ossSuccessful');
    await page.getByTestId('use-ocr').check();
    await page.getByTestId('run-tool').click();
    const dialog = page.getByTestId('upgrade-dialog');
    await dialog.waitFor();
    expect(await dialog.getAttribute('data-upgrade')).toBe('OCRLimit');
    expect(await dialog.getByTestId('upgrade-reason').textContent()).toBe('OCR is not included in your plan.');
  });

  it('offers a visitor to sign in, which opens the sign-in dialog', async () => {
    const page = await e2e.open('/app/compress-pdf', { width: 390, height: 844 });
    await addFile(page, 'big.pdf', 2 * MB);
    const dialog = page.getByTestId('upgrade-dialog');
    await dialog.waitFor();
    expect(await dialog.getAttribute('data-upgrade')).toBe('sizeUpgrade');
    expect(await dialog.getByTestId('upgrade-reason').textContent()).toBe("This file is over your plan's limit of 1 MB per file.");
    await page.screenshot({ path: path.join(shots, 'upgrade-visitor-390.png') });
    await dialog.getByTestId('upgrade-signin').click();
    await page.getByTestId('signin-dialog').waitFor();
    expect(await dialog.count()).toBe(0);
  });
});
