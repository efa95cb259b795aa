// Sharing in Chromium against the real server: a Premium account shares a tool's result by link
// (copied to the clipboard), by QR code (the saved PNG decoded by zbarimg) and by email (received
// by a real SMTP server); every rule of the recipients' chips; a free account meets the upgrade
// dialog; a visitor is asked to sign in; "My shares" lists the shares and revokes one.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Mailbox } from '../apps/server/test/mailbox.js';
import { makePdf } from '../apps/server/test/fixtures.js';
import { createAccount } from '../apps/server/src/services/accounts.js';
import { signInFromHeader, startE2e, tmpDir, type E2e, OPERATOR_CONTACT } from './browser.js';

const PASSWORD = 'share-password-1';
const PREMIUM = 'pat.premium@example.org';
const FREE = 'fred.free@example.org';
const dir = tmpDir('share');
/** Screenshots of the dialog, kept for a look (QUIRE_SHOTS names the folder). */
const shots = process.env.QUIRE_SHOTS ?? dir;
const pdf = path.join(dir, 'report.pdf');
let e2e: E2e;
let mailbox: Mailbox;

beforeAll(async () => {
  mailbox = await Mailbox.start();
  e2e = await startE2e({ smtpUrl: mailbox.url, operatorContact: OPERATOR_CONTACT });
  await createAccount(e2e.quire.ctx, PREMIUM, PASSWORD, 'premium');
  await createAccount(e2e.quire.ctx, FREE, PASSWORD, 'free');
  await makePdf(pdf, 2, 'Report');
});
afterAll(async () => {
  await e2e.stop();
  await mailbox.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const signIn = (page: Page, email: string) => signInFromHeader(page, email, PASSWORD);

/** Rotates the PDF and opens the share dialog on the result (a screenshot of it named `shot` first). */
async function shareResult(page: Page, shot?: string) {
  await page.getByTestId('file-input').setInputFiles(pdf);
  await page.locator('[data-testid="file-item"][data-state="ossSuccessful"]').waitFor({ timeout: 30_000 });
  await page.getByTestId('run-tool').click();
  await page.getByTestId('result').waitFor({ timeout: 60_000 });
  if (shot) await page.getByTestId('result').screenshot({ path: path.join(shots, shot) });
  await page.getByTestId('share').click();
  const dialog = page.getByTestId('share-dialog');
  await dialog.waitFor();
  return dialog;
}

/** The caller's shares as the server lists them. */
async function serverShares(
  page: Page,
): Promise<{ share_url: string; share_type: number; recipients: string[]; opened: number; expires_at: number | null }[]> {
  return page.evaluate(async () => (await (await fetch('/api/tools/v1/share/list')).json()).data.shares);
}

const SHARE_URL = /\/preview\?share_id=[A-Za-z0-9_-]{22}$/;
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('sharing a result as a Premium account', () => {
  it('shares by link, copies it, saves the QR code of another, and mails a third to two recipients', async () => {
    const page = await e2e.open('/app/rotate-pdf', { width: 1280, height: 900 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, PREMIUM);
    const dialog = await shareResult(page, 'result-1280.png');

    // It opens on the link tab, cleared, 7 days.
    expect(await dialog.getByTestId('share-tab-link').getAttribute('aria-selected')).toBe('true');
    expect(await dialog.getByTestId('share-days').inputValue()).toBe('7');
    expect(await dialog.getByTestId('share-url').count()).toBe(0);
    expect(await dialog.getByTestId('share-file-name').textContent()).toBe('report-rotated.pdf');
    await dialog.screenshot({ path: path.join(shots, 'share-dialog-link-1280.png') });

    const action = dialog.getByTestId('share-link-action');
    expect(await action.textContent()).toBe('Create link');
    await action.click();
    await dialog.getByTestId('share-url').waitFor();
    expect(await action.textContent()).toBe('Copy link');
    const shown = await dialog.getByTestId('share-url').inputValue();
    expect(shown).toMatch(SHARE_URL);
    expect(shown.startsWith(`${e2e.quire.ctx.config.publicUrl}/preview?`)).toBe(true);
    await action.click();
    await page.getByTestId('toast').filter({ hasText: 'Link copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
    const [made] = await serverShares(page);
    expect(made?.share_url).toBe(shown);
    // The end the dialog names is the server's, written MM/dd/yyyy.
    const end = new Date(made!.expires_at!);
    const mmddyyyy = `${String(end.getMonth() + 1).padStart(2, '0')}/${String(end.getDate()).padStart(2, '0')}/${end.getFullYear()}`;
    expect(await dialog.getByTestId('share-until').textContent()).toBe(`The link works until ${mmddyyyy}.`);
    await dialog.screenshot({ path: path.join(shots, 'share-dialog-link-made-1280.png') });

    // A change of expiry offers a new link; Premium may choose permanent.
    await dialog.getByTestId('share-days').selectOption('3650');
    expect(await dialog.getByTestId('share-days').inputValue()).toBe('3650');
    expect(await page.getByTestId('upgrade-dialog').count()).toBe(0);
    expect(await action.textContent()).toBe('Create link');
    expect(await dialog.getByTestId('share-url').count()).toBe(0);

    // The QR code: made, saved as a PNG, and it reads as the link the server keeps.
    await dialog.getByTestId('share-mode-qr').check();
    expect(await action.textContent()).toBe('Create QR code');
    await action.click();
    await dialog.getByTestId('share-qr').waitFor();
    expect(await action.textContent()).toBe('Save QR code');
    const [qrDownload] = await Promise.all([page.waitForEvent('download'), action.click()]);
    const qrFile = path.join(dir, qrDownload.suggestedFilename());
    await qrDownload.saveAs(qrFile);
    expect(qrDownload.suggestedFilename()).toBe('share-qr-code.png');
    await page.getByTestId('toast').filter({ hasText: 'QR code downloaded' }).waitFor();
    const decoded = execFileSync('zbarimg', ['--quiet', '--raw', qrFile]).toString().trim();
    const qrLink = await dialog.getByTestId('share-url').inputValue();
    expect(decoded).toBe(qrLink);
    expect(decoded).toMatch(SHARE_URL);
    expect(decoded).not.toBe(shown);
    expect(await dialog.getByTestId('share-until').textContent()).toBe('The link never expires.');
    expect((await serverShares(page)).map((s) => s.share_url)).toContain(decoded);
    await dialog.screenshot({ path: path.join(shots, 'share-dialog-qr-1280.png') });

    // Email: the sender is the account's; two recipients as chips; the mail holds a share's link.
    await dialog.getByTestId('share-tab-email').click();
    expect(await dialog.getByTestId('share-sender').inputValue()).toBe(PREMIUM);
    const send = dialog.getByTestId('share-send');
    expect(await send.isDisabled()).toBe(true);
    const cc = dialog.getByTestId('share-cc-input');
    await cc.fill('ann@example.org');
    await cc.press('Enter');
    await cc.fill('bob@example.net');
    await cc.press(' ');
    expect(await dialog.getByTestId('share-chip').allTextContents()).toEqual(['ann@example.org', 'bob@example.net']);
    expect(await dialog.getByTestId('share-counter').textContent()).toBe('2/5');
    await dialog.getByTestId('share-message').fill('The rotated report, as promised.');
    await dialog.screenshot({ path: path.join(shots, 'share-dialog-email-1280.png') });
    await send.click();
    await page.getByTestId('toast').filter({ hasText: 'Share email sent' }).waitFor();
    for (const to of ['ann@example.org', 'bob@example.net']) {
      const mail = await mailbox.take(to);
      expect(mail.text).toContain('The rotated report, as promised.');
      expect(mail.links.some((l) => SHARE_URL.test(l))).toBe(true);
    }
    const emailed = (await serverShares(page)).find((s) => s.share_type === 1);
    expect(emailed?.recipients).toEqual(['ann@example.org', 'bob@example.net']);
    expect(await dialog.getByTestId('share-chip').count()).toBe(0);
    await page.context().close();
  });

  it('keeps every rule of the recipient chips', async () => {
    const page = await e2e.open('/app/rotate-pdf', { width: 1280, height: 900 });
    await signIn(page, PREMIUM);
    // On a phone: the dialog takes the width of the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    const dialog = await shareResult(page, 'result-390.png');
    await dialog.screenshot({ path: path.join(shots, 'share-dialog-link-390.png') });
    expect(await overflow(page)).toBe(0);
    await dialog.getByTestId('share-tab-email').click();
    const cc = dialog.getByTestId('share-cc-input');
    const chips = dialog.getByTestId('share-chip');
    const error = dialog.getByTestId('share-cc-error');
    const send = dialog.getByTestId('share-send');

    // A semicolon ends an address; a malformed one is flagged, named, and blocks sending.
    await cc.fill('ann@example.org');
    await cc.press(';');
    await cc.fill('not-an-address');
    await cc.press(';');
    expect(await chips.nth(1).getAttribute('data-valid')).toBe('false');
    expect(await error.textContent()).toBe('not-an-address is not a valid email address');
    expect(await send.isDisabled()).toBe(true);
    await chips.nth(1).getByRole('button', { name: 'Remove not-an-address' }).click();
    expect(await error.count()).toBe(0);
    expect(await send.isDisabled()).toBe(false);

    // A duplicate, whatever its case, is refused and stays typed; unfinished input blocks sending.
    await cc.fill('ANN@example.org');
    await cc.press('Enter');
    expect(await error.textContent()).toBe('Email already in use.');
    expect(await chips.count()).toBe(1);
    expect(await cc.inputValue()).toBe('ANN@example.org');
    expect(await send.isDisabled()).toBe(true);

    // Leaving the input takes what is typed.
    await cc.fill('bob@example.org');
    await dialog.getByTestId('share-message').click();
    expect(await chips.count()).toBe(2);

    // Five at most: the sixth is refused and the counter turns red.
    for (const a of ['c@example.org', 'd@example.org', 'e@example.org']) {
      await cc.fill(a);
      await cc.press('Enter');
    }
    expect(await dialog.getByTestId('share-counter').textContent()).toBe('5/5');
    await cc.fill('f@example.org');
    await cc.press('Enter');
    expect(await error.textContent()).toBe('Add up to 5 email addresses.');
    expect(await dialog.getByTestId('share-counter').getAttribute('class')).toContain('over');
    expect(await chips.count()).toBe(5);
    await dialog.screenshot({ path: path.join(shots, 'share-dialog-email-390.png') });

    // Backspace in the empty input takes the last chip.
    await cc.fill('');
    await cc.press('Backspace');
    expect(await chips.allTextContents()).toEqual(['ann@example.org', 'bob@example.org', 'c@example.org', 'd@example.org']);

    // An edited chip: made malformed it is flagged; made a duplicate, or blank, it goes.
    const edit = dialog.getByTestId('share-chip-edit');
    await chips.nth(3).getByRole('button', { name: 'd@example.org', exact: true }).click();
    await edit.fill('d@@example');
    await edit.press('Enter');
    expect(await chips.nth(3).getAttribute('data-valid')).toBe('false');
    expect(await error.textContent()).toBe('d@@example is not a valid email address');
    await chips.nth(3).getByRole('button', { name: 'd@@example', exact: true }).click();
    await edit.fill('Bob@Example.org');
    await edit.press('Enter');
    expect(await chips.allTextContents()).toEqual(['ann@example.org', 'bob@example.org', 'c@example.org']);
    await chips.nth(2).getByRole('button', { name: 'c@example.org', exact: true }).click();
    await edit.fill('');
    await dialog.getByTestId('share-message').click();
    expect(await chips.allTextContents()).toEqual(['ann@example.org', 'bob@example.org']);
    expect(await send.isDisabled()).toBe(false);

    // The sender is required and checked.
    await dialog.getByTestId('share-sender').fill('pat@nowhere');
    await dialog.getByTestId('share-message').click();
    expect(await dialog.getByTestId('share-sender-error').textContent()).toBe('pat@nowhere is not a valid email address');
    expect(await send.isDisabled()).toBe(true);
    expect(await overflow(page)).toBe(0);
    await page.context().close();
  });
});

describe('sharing without Premium', () => {
  it('offers a free account the upgrade for a permanent link and for sharing at all; Buy now leads to pricing', async () => {
    const page = await e2e.open('/app/rotate-pdf', { width: 1280, height: 900 });
    await signIn(page, FREE);
    const dialog = await shareResult(page);
    const upgrade = page.getByTestId('upgrade-dialog');

    await dialog.getByTestId('share-days').selectOption('3650');
    await upgrade.waitFor();
    expect(await upgrade.getAttribute('data-upgrade')).toBe('shareUpgrade');
    expect(await upgrade.getByTestId('upgrade-reason').textContent()).toBe('Links that never expire are a Premium feature.');
    expect(await dialog.getByTestId('share-days').inputValue()).toBe('7');
    await upgrade.screenshot({ path: path.join(shots, 'share-upgrade-1280.png') });
    await upgrade.getByTestId('upgrade-cancel').click();
    await upgrade.waitFor({ state: 'detached' });

    await dialog.getByTestId('share-link-action').click();
    await upgrade.waitFor();
    expect(await upgrade.getByTestId('upgrade-reason').textContent()).toBe('Sharing documents is a Premium feature.');
    expect(await dialog.getByTestId('share-limit').textContent()).toBe('Sharing documents is a Premium feature. Upgrade to share.');
    expect(await serverShares(page)).toEqual([]);
    await upgrade.getByTestId('upgrade-buy-now').click();
    await page.waitForURL(/\/pricing$/);
    await page.context().close();
  });

  it('asks a visitor of the share-document page to sign in', async () => {
    const page = await e2e.open('/app/share-document', { width: 390, height: 844 });
    await page.getByTestId('file-input').setInputFiles(pdf);
    await page.getByTestId('share-panel').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('share-file-name').textContent()).toBe('report.pdf');
    await page.getByTestId('share-link-action').click();
    expect(await page.getByTestId('share-limit').textContent()).toBe('Please log in to share documents. Sign in');
    await page.screenshot({ path: path.join(shots, 'share-document-visitor-390.png'), fullPage: true });
    expect(await overflow(page)).toBe(0);
    await page.context().close();
  });
});

describe('the share-document page and My shares', () => {
  it('shares an uploaded PDF, then lists the shares, counts an opening, and revokes one', async () => {
    const page = await e2e.open('/app/share-document', { width: 1280, height: 900 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, PREMIUM);
    await page.getByTestId('file-input').setInputFiles(pdf);
    await page.getByTestId('share-panel').waitFor({ timeout: 30_000 });
    await page.screenshot({ path: path.join(shots, 'share-document-1280.png') });
    await page.getByTestId('share-link-action').click();
    const link = await page.getByTestId('share-url').inputValue();
    expect(link).toMatch(SHARE_URL);

    // The link opens the file for a signed-in account: one opening.
    const code = new URL(link).searchParams.get('share_id')!;
    const bytes = await page.evaluate(async (c) => {
      const answer = await (await fetch(`/api/tools/v1/share/download-share-file?share_code=${c}`)).json();
      return (await (await fetch(answer.data.download_url)).arrayBuffer()).byteLength;
    }, code);
    expect(bytes).toBe(fs.statSync(pdf).size);

    await page.goto(`${e2e.quire.url}/app/account`);
    const section = page.getByTestId('account-shares');
    const items = section.getByTestId('share-item');
    await items.first().waitFor();
    expect(await items.count()).toBe((await serverShares(page)).length);
    const mine = items.filter({ hasText: 'report.pdf' });
    expect(await mine.getByTestId('share-kind').textContent()).toBe('Link');
    expect(await mine.getByTestId('share-opened').textContent()).toBe('times opened: 1');
    expect(await mine.getByTestId('share-expires').textContent()).toMatch(/^expires \d{2}\/\d{2}\/\d{4}$/);
    const emailed = items.filter({ has: page.getByTestId('share-recipients') });
    expect(await emailed.getByTestId('share-recipients').textContent()).toBe('To ann@example.org, bob@example.net');
    // The QR code and the email were made after permanent was chosen.
    expect(await items.filter({ hasText: 'never expires' }).count()).toBe(2);
    await mine.getByTestId('share-copy').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: path.join(shots, 'my-shares-1280.png') });

    // Revoked after a question: gone from the list, and its link answers "expired".
    const before = await items.count();
    await mine.getByTestId('share-revoke').click();
    await page.getByTestId('confirm-ok').click();
    await expect.poll(() => items.count()).toBe(before - 1);
    const code11016 = await page.evaluate(
      async (c) => (await (await fetch(`/api/tools/v1/share/get-share-file?share_code=${c}`)).json()).code,
      code,
    );
    expect(code11016).toBe(11016);

    // On a phone the list fits the width.
    await page.setViewportSize({ width: 390, height: 844 });
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: path.join(shots, 'my-shares-390.png') });
    expect(await overflow(page)).toBe(0);
    await page.context().close();
  });
});

describe('sharing from the document cloud', () => {
  it("shares a cloud file from its row's menu, by reference to the cloud file", async () => {
    const page = await e2e.open('/app/home', { width: 1280, height: 900 });
    await signIn(page, PREMIUM);
    await page.goto(`${e2e.quire.url}/app/document-cloud`);
    await page.getByTestId('cloud-file-input').setInputFiles(pdf);
    const row = page.locator('[data-testid="cloud-entry"][data-name="report.pdf"]');
    await row.waitFor({ timeout: 30_000 });
    await row.getByTestId('entry-menu').click();
    await row.getByTestId('action-share').click();
    const dialog = page.getByTestId('share-dialog');
    expect(await dialog.getByTestId('share-file-name').textContent()).toBe('report.pdf');
    await dialog.getByTestId('share-link-action').click();
    const link = await dialog.getByTestId('share-url').inputValue();
    expect(link).toMatch(SHARE_URL);
    const code = new URL(link).searchParams.get('share_id')!;
    const opened = await page.evaluate(
      async (c) => (await (await fetch(`/api/tools/v1/share/get-share-file?share_code=${c}`)).json()).data,
      code,
    );
    expect(opened.file_name).toBe('report.pdf');
    expect(opened.file_size).toBe(fs.statSync(pdf).size);
  });
});
