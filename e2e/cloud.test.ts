// The document cloud in Chromium against a real server: a visitor is asked to sign in and lands on
// the page; a folder, two uploads, a star, a refused rename, a zip of both; a cloud file compressed
// through "Add from cloud" and its result saved back; the tip of a full cloud.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../apps/server/src/services/accounts.js';
import { makePhotoPdf, makeScannedPdf } from '../apps/server/test/imageFixtures.js';
import { startE2e, tmpDir, type E2e, OPERATOR_CONTACT } from './browser.js';

const PASSWORD = 'cloud-test-password';
let e2e: E2e;
const dir = tmpDir('cloud');
const file = (name: string) => path.join(dir, name);
const shots = process.env.QUIRE_SCREENSHOTS;

beforeAll(async () => {
  // Free accounts get a cloud of about 100 KB here, so one upload fills it; Premium keeps 10 GB.
  const limitsFile = file('limits.json');
  fs.writeFileSync(limitsFile, JSON.stringify({ free: { cloudGb: 0.0001 } }));
  e2e = await startE2e({ limitsFile, operatorContact: OPERATOR_CONTACT });
  await createAccount(e2e.quire.ctx, 'cleo@example.org', PASSWORD, 'premium');
  await createAccount(e2e.quire.ctx, 'tiny@example.org', PASSWORD, 'free');
  await makePhotoPdf(file('holiday.pdf'), 1, 150);
  await makeScannedPdf(file('letter.pdf'), 1, 200);
});
afterAll(async () => {
  await e2e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Signs in through the dialog the cloud page opens for a visitor. */
async function signIn(page: Page, email: string) {
  const dialog = page.getByTestId('signin-dialog');
  await dialog.getByTestId('signin-reason').waitFor();
  await dialog.getByLabel('Email', { exact: true }).fill(email);
  await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await dialog.getByTestId('signin-submit').click();
  await page.getByTestId('document-cloud').waitFor();
}

const entry = (page: Page, name: string) => page.locator(`[data-testid="cloud-entry"][data-name="${name}"]`);
const entryNames = (page: Page) => page.getByTestId('cloud-entry').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-name')));

async function saveDownload(page: Page, click: () => Promise<void>, as: string): Promise<string> {
  const [dl] = await Promise.all([page.waitForEvent('download'), click()]);
  const dest = file(as);
  await dl.saveAs(dest);
  return dest;
}

async function entryAction(page: Page, name: string, action: string) {
  await entry(page, name).getByTestId('entry-menu').click();
  await entry(page, name).getByTestId(`action-${action}`).click();
}

/** Nothing wider than the window: no sideways scrolling. */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('the document cloud in the browser', () => {
  it('keeps folders and files, refuses taken names, zips a selection, and feeds a tool whose result is saved back', async () => {
    const page = await e2e.open('/app/document-cloud', { width: 1280, height: 900 });
    await signIn(page, 'cleo@example.org');
    expect(new URL(page.url()).pathname).toBe('/app/document-cloud');
    await page.getByTestId('cloud-empty').waitFor();
    expect(await page.getByTestId('cloud-capacity').textContent()).toContain('0 B of 10 GB used');

    // A folder: a name is needed, and a taken one is refused with the server's message.
    await page.getByTestId('new-folder').click();
    await page.getByTestId('name-submit').click();
    expect(await page.getByTestId('name-error').textContent()).toBe('Please enter name');
    await page.getByTestId('name-input').fill('Reports');
    await page.getByTestId('name-submit').click();
    await entry(page, 'Reports').waitFor();
    await page.getByTestId('new-folder').click();
    await page.getByTestId('name-input').fill('Reports');
    await page.getByTestId('name-submit').click();
    expect(await page.getByTestId('name-error').textContent()).toBe('The folder already exists');
    await page.keyboard.press('Escape');

    // An old link to a folder that is not there leads to the top of the cloud, saying so.
    await page.goto(`${e2e.quire.url}/app/document-cloud?folder=gone`);
    await expect.poll(() => page.getByTestId('toast').textContent()).toBe('No data found.');
    await entry(page, 'Reports').waitFor();
    expect(new URL(page.url()).search).toBe('');

    // Two uploads into it.
    await entry(page, 'Reports').getByTestId('entry-open').click();
    await expect.poll(() => page.getByTestId('breadcrumb').textContent()).toContain('Reports');
    await page.getByTestId('cloud-file-input').setInputFiles([file('holiday.pdf'), file('letter.pdf')]);
    await expect.poll(() => entryNames(page), { timeout: 30_000 }).toEqual(expect.arrayContaining(['holiday.pdf', 'letter.pdf']));

    // A star, and the Starred view shows that file only.
    await entry(page, 'holiday.pdf').getByTestId('star-button').click();
    await expect.poll(() => entry(page, 'holiday.pdf').getByTestId('star-button').getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('view-starred').click();
    await expect.poll(() => entryNames(page)).toEqual(['holiday.pdf']);
    await page.getByTestId('view-files').click();
    await entry(page, 'Reports').getByTestId('entry-open').click();
    await entry(page, 'letter.pdf').waitFor();

    // Renaming one to the other's name is refused with the server's message.
    await entryAction(page, 'letter.pdf', 'rename');
    await page.getByTestId('name-input').fill('holiday.pdf');
    await page.getByTestId('name-submit').click();
    expect(await page.getByTestId('name-error').textContent()).toBe('The name already exists.');
    await page.keyboard.press('Escape');

    // The same name uploaded again: keep both, the new one numbered.
    await page.getByTestId('cloud-file-input').setInputFiles(file('holiday.pdf'));
    await page.getByTestId('conflict-dialog').waitFor({ timeout: 30_000 });
    await page.getByTestId('conflict-rename').click();
    await entry(page, 'holiday (1).pdf').waitFor();

    // Moved to the top, found there by a search over the whole cloud, then deleted after a question.
    await entryAction(page, 'holiday (1).pdf', 'move');
    await page.getByTestId('folder-picker').getByTestId('breadcrumb').getByRole('button', { name: 'My files' }).click();
    await page.getByTestId('picker-confirm').click();
    await expect.poll(() => entry(page, 'holiday (1).pdf').count()).toBe(0);
    await page.getByTestId('breadcrumb').getByRole('button', { name: 'My files' }).click();
    await entry(page, 'holiday (1).pdf').waitFor();
    await page.getByTestId('cloud-search').fill('LETTER');
    await expect.poll(() => entryNames(page)).toEqual(['letter.pdf']);
    await page.getByTestId('cloud-search').fill('');
    await expect.poll(() => entryNames(page)).toEqual(['Reports', 'holiday (1).pdf']);
    await entryAction(page, 'holiday (1).pdf', 'delete');
    await page.getByTestId('confirm-ok').click();
    await expect.poll(() => entryNames(page)).toEqual(['Reports']);
    await entry(page, 'Reports').getByTestId('entry-open').click();
    await entry(page, 'letter.pdf').waitFor();

    // Both selected: one zip with both names.
    await page.getByTestId('select-all').check();
    expect(await page.getByTestId('selection-bar').textContent()).toContain('2 selected');
    const zip = await saveDownload(page, () => page.getByTestId('selection-download').click(), 'both.zip');
    const listed = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n').sort();
    expect(listed).toEqual(['holiday.pdf', 'letter.pdf']);
    await page.getByTestId('select-all').uncheck();

    if (shots) {
      await page.screenshot({ path: path.join(shots, 'cloud-1280-list.png') });
      await page.getByTestId('cloud-layout').click();
      await expect
        .poll(() =>
          page.getByTestId('thumbnail').evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length),
        )
        .toBe(2);
      await page.screenshot({ path: path.join(shots, 'cloud-1280-grid.png') });
      await page.getByTestId('cloud-layout').click();
    }
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    if (shots) {
      // The sidebar slides away as the window narrows: the picture waits for it.
      await page.waitForTimeout(600);
      await page.screenshot({ path: path.join(shots, 'cloud-390-list.png'), fullPage: true });
      await entry(page, 'letter.pdf').getByTestId('entry-menu').click();
      await page.screenshot({ path: path.join(shots, 'cloud-390-menu.png') });
      await page.keyboard.press('Escape');
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // A tool takes a cloud file without an upload; leaving for the cloud with it in the list asks first.
    await page.goto(`${e2e.quire.url}/app/compress-pdf`);
    await page.getByTestId('hero-from-cloud').click();
    const picker = page.getByTestId('cloud-file-picker');
    await picker.getByTestId('picker-folder').filter({ hasText: 'Reports' }).click();
    await picker.locator('[data-testid="picker-file"][data-name="holiday.pdf"]').click();
    if (shots) await page.screenshot({ path: path.join(shots, 'cloud-picker.png') });
    await picker.getByTestId('picker-add').click();
    await expect.poll(() => page.locator('[data-testid="file-item"][data-state="ossSuccessful"]').count(), { timeout: 30_000 }).toBe(1);
    await page.getByTestId('sidebar').getByRole('link', { name: 'Document cloud' }).click();
    await page.getByTestId('confirm-dialog').waitFor();
    await page.getByTestId('confirm-cancel').click();
    await page.getByTestId('level-high').click();
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 90_000 });

    // Saved into the folder; the toast leads there.
    if (shots) await page.screenshot({ path: path.join(shots, 'result-1280.png') });
    await page.getByTestId('save-to-cloud').click();
    const folders = page.getByTestId('folder-picker');
    await folders.getByTestId('picker-folder').filter({ hasText: 'Reports' }).click();
    await folders.getByTestId('picker-confirm').click();
    await expect.poll(() => page.getByTestId('toast').textContent()).toContain('Saved to your cloud as "holiday-compressed.pdf"');
    // Saved again there: the name is taken, and replacing keeps one file of it.
    await page.getByTestId('save-to-cloud').click();
    await folders.getByTestId('picker-folder').filter({ hasText: 'Reports' }).click();
    await folders.getByTestId('picker-confirm').click();
    await page.getByTestId('conflict-replace').click();
    await page.getByTestId('toast-link').last().click();
    await entry(page, 'holiday-compressed.pdf').waitFor();
    expect(await entryNames(page)).toEqual(expect.arrayContaining(['holiday-compressed.pdf', 'holiday.pdf', 'letter.pdf']));
    expect(await page.getByTestId('cloud-entry').count()).toBe(3);
    const saved = await saveDownload(page, () => entryAction(page, 'holiday-compressed.pdf', 'download'), 'saved.pdf');
    execFileSync('qpdf', ['--check', saved]);
    expect(fs.statSync(saved).size).toBeLessThan(fs.statSync(file('holiday.pdf')).size);

    // The personal centre: the space used and the recently used files.
    await page.getByTestId('avatar-button').click();
    const summary = page.getByTestId('account-cloud');
    await expect.poll(() => summary.getByTestId('cloud-capacity').textContent()).toMatch(/[1-9][\d.]* (KB|MB) of 10 GB used/);
    await expect.poll(() => summary.getByTestId('account-recent').textContent()).toContain('holiday-compressed.pdf');
    if (shots) await page.screenshot({ path: path.join(shots, 'personal-centre.png') });
    await page.keyboard.press('Escape');

    // A toast with a link (the save's) stays until it is closed: close what is shown, as a user would.
    for (const close of await page.locator('.toast-close').all()) await close.click();
    // Recent lists what was used; removing one leaves the file in its folder.
    await page.getByTestId('view-recent').click();
    await entry(page, 'holiday-compressed.pdf').waitFor();
    await entryAction(page, 'holiday-compressed.pdf', 'remove-recent');
    await expect.poll(() => entry(page, 'holiday-compressed.pdf').count()).toBe(0);

    // The marketing header's Documents link leads a signed-in user here.
    await page.goto(`${e2e.quire.url}/`);
    await page.getByTestId('header-documents').click();
    await page.getByTestId('document-cloud').waitFor();
    await page.context().close();
  }, 240_000);

  it('opens the full cloud tip when an upload does not fit; a space under 10 GB receives the free 10 GB, and the upload then fits', async () => {
    const page = await e2e.open('/app/document-cloud', { width: 390, height: 844 });
    await signIn(page, 'tiny@example.org');
    await page.getByTestId('cloud-file-input').setInputFiles(file('holiday.pdf'));
    const tip = page.getByTestId('cloud-space-tip');
    await tip.waitFor({ timeout: 30_000 });
    await expect.poll(() => tip.getByTestId('cloud-capacity').textContent()).toMatch(/ of 105 KB used$/);
    if (shots) await page.screenshot({ path: path.join(shots, 'cloud-390-full.png') });
    await tip.getByTestId('space-tip-expand').click();
    await page.getByTestId('toast').filter({ hasText: 'You now have 10 GB of cloud space.' }).waitFor();
    await expect.poll(() => tip.getByTestId('cloud-capacity').textContent()).toMatch(/ of 10 GB used$/);
    // From 10 GB on, more space is bought, not received.
    expect(await tip.getByTestId('space-tip-purchase').getAttribute('href')).toBe('/pricing');
    expect(await tip.getByTestId('space-tip-expand').count()).toBe(0);
    await tip.getByTestId('space-tip-close').click();
    await page.getByTestId('cloud-empty').waitFor();
    await page.getByTestId('cloud-file-input').setInputFiles(file('holiday.pdf'));
    await entry(page, 'holiday.pdf').waitFor({ timeout: 30_000 });
    await page.context().close();
  }, 120_000);

  it("lists a file just added among the personal centre's recent files, styled on a page without the cloud's own styles", async () => {
    await createAccount(e2e.quire.ctx, 'dora@example.org', PASSWORD, 'premium');
    const page = await e2e.open('/app/document-cloud', { width: 1280, height: 900 });
    await signIn(page, 'dora@example.org');
    await page.getByTestId('cloud-file-input').setInputFiles(file('letter.pdf'));
    await entry(page, 'letter.pdf').waitFor({ timeout: 30_000 });

    // The marketing home page's header: a fresh load, the cloud page's styles not loaded.
    await page.goto(`${e2e.quire.url}/`);
    await page.getByTestId('avatar-button').click();
    const summary = page.getByTestId('account-cloud');
    await expect.poll(() => summary.getByTestId('account-recent').textContent()).toContain('letter.pdf');
    expect(await summary.evaluate((el) => [getComputedStyle(el).display, getComputedStyle(el).borderTopStyle])).toEqual(['flex', 'solid']);
    const item = summary.locator('.account-recent-item').first();
    expect(await item.evaluate((el) => [getComputedStyle(el).display, getComputedStyle(el).fontSize])).toEqual(['flex', '14px']);
    if (shots) await page.screenshot({ path: path.join(shots, 'personal-centre-home-1280.png') });
    await item.click();
    await page.getByTestId('document-cloud').waitFor();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${e2e.quire.url}/`);
    // On a phone the avatar opens the menu's drawer, whose foot holds the personal centre.
    await page.getByTestId('phone-avatar').click();
    await page.locator('[data-testid="avatar-button"]:visible').click();
    await expect.poll(() => page.locator('[data-testid="account-recent"]:visible').textContent()).toContain('letter.pdf');
    if (shots) await page.screenshot({ path: path.join(shots, 'personal-centre-home-390.png') });
    await page.context().close();
  }, 120_000);
});
