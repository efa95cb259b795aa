// Accounts as a user meets them in Chromium: sign-up in the dialog, the mailed link opened in the
// browser, sign-in, the personal centre, a tool run by the account, sign-out; a forgotten password
// reset through its mail; a session the server ended signs the page out. Mail goes through a real
// SMTP listener.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueTexts } from '@quire/contracts/catalogueFiles';
import { ErrorCode } from '@quire/contracts';
import { Mailbox } from '../apps/server/test/mailbox.js';
import { makePdf } from '../apps/server/test/fixtures.js';
import { download, startE2e, tmpDir, type E2e } from './browser.js';

/** Where the mails' links point; the test opens their path and fragment on the running server. */
const PUBLIC_URL = 'http://quire.example';
const EMAIL = 'ann.lee@example.org';
const PASSWORD = 'first-password-1';
const NEW_PASSWORD = 'second-password-2';
const NEW_EMAIL = 'ann.lee@example.net';

let e2e: E2e;
let mailbox: Mailbox;
const dir = tmpDir('account');

beforeAll(async () => {
  mailbox = await Mailbox.start();
  e2e = await startE2e({ smtpUrl: mailbox.url, publicUrl: PUBLIC_URL });
  await makePdf(path.join(dir, 'alpha.pdf'), 2, 'Alpha');
});
afterAll(async () => {
  await e2e.stop();
  await mailbox.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Opens the link of the next mail to `to` whose path is `pathname`, on the running server. */
async function followMail(page: Page, to: string, pathname: string): Promise<void> {
  const mail = await mailbox.take(to);
  const link = mail.links.find((l) => l.startsWith(`${PUBLIC_URL}${pathname}#token=`));
  expect(link, mail.text).toBeDefined();
  await page.goto(e2e.quire.url + link!.slice(PUBLIC_URL.length));
}

async function signInThroughDialog(page: Page, password: string, email = EMAIL): Promise<void> {
  const dialog = page.getByTestId('signin-dialog');
  await dialog.waitFor();
  // By name, not label: the dialog speaks the page's language.
  await dialog.locator('input[name="email"]').fill(email);
  await dialog.locator('input[name="current-password"]').fill(password);
  await dialog.getByTestId('signin-submit').click();
}

describe('an account in the browser', () => {
  it('signs up, confirms the mailed link, signs in, runs a tool as the account and signs out', async () => {
    const page = await e2e.open('/');
    await page.getByTestId('login-button').click();
    const dialog = page.getByTestId('signin-dialog');
    await dialog.getByTestId('auth-tab-register').click();
    // Checked before anything is sent.
    await dialog.getByLabel('Email').fill('ann@example');
    await dialog.getByLabel('Password').fill('short');
    await dialog.getByTestId('register-submit').click();
    expect(await dialog.getByTestId('field-error').allTextContents()).toEqual([
      'Please enter a valid email address.',
      'The password must contain between 8 and 128 characters.',
    ]);
    await dialog.getByLabel('Email').fill(EMAIL);
    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByTestId('register-submit').click();
    expect(await dialog.getByTestId('auth-mailed').textContent()).toContain(EMAIL);

    // Signing in before the address is confirmed is refused with 3003 (and a new link is mailed).
    await dialog.getByRole('button', { name: 'Back to sign in' }).click();
    await signInThroughDialog(page, PASSWORD);
    await expect.poll(() => dialog.getByTestId('form-error').textContent()).toContain('Please confirm your email address first');
    // The first link still works after that attempt mailed a second, and confirming signs this page in.
    await followMail(page, EMAIL, '/account/verify-email');
    await mailbox.take(EMAIL);
    await expect.poll(() => page.getByTestId('link-done').textContent()).toBe(`Your address ${EMAIL} is confirmed, and you are signed in.`);
    await page.getByTestId('avatar-button').first().waitFor();
    // The token leaves the address bar.
    expect(new URL(page.url()).hash).toBe('');
    expect(new URL(page.url()).pathname).toBe('/account/verify-email');

    // Signed out, to sign in again through the dialog.
    await page.getByTestId('avatar-button').click();
    await page.getByTestId('logout-button').click();
    await page.getByTestId('login-button').click();
    await signInThroughDialog(page, 'not-the-password');
    await expect.poll(() => page.getByTestId('form-error').textContent()).toBe('Incorrect email or password.');
    await signInThroughDialog(page, PASSWORD);
    await page.getByTestId('signin-dialog').waitFor({ state: 'detached' });

    await page.getByTestId('avatar-button').click();
    const menu = page.getByTestId('account-menu');
    expect(await menu.textContent()).toContain(EMAIL);
    expect(await menu.getByTestId('plan-label').textContent()).toBe('Free');
    expect(await page.getByTestId('avatar-button').textContent()).toBe('A');
    // A plan changed by the operator shows after Refresh, with the Pro badge.
    await e2e.quire.ctx.db.updateTable('accounts').set({ plan: 'premium' }).where('email', '=', EMAIL).execute();
    await menu.getByTestId('refresh-button').click();
    await expect.poll(() => menu.getByTestId('plan-label').textContent()).toBe('Premium');
    // The badge sits beside the button, outside its name (the menu's).
    expect(await page.locator('.avatar-anchor', { has: page.getByTestId('avatar-button') }).textContent()).toBe('APro');
    expect(await page.getByTestId('avatar-button').textContent()).toBe('A');
    await e2e.quire.ctx.db.updateTable('accounts').set({ plan: 'ai' }).where('email', '=', EMAIL).execute();
    await menu.getByTestId('refresh-button').click();
    await expect.poll(() => menu.getByTestId('plan-label').textContent()).toBe('AI Upgraded');

    // A tool run while signed in belongs to the account.
    await page.goto(`${e2e.quire.url}/app/rotate-pdf`);
    await page.getByTestId('avatar-button').waitFor();
    await page.getByTestId('file-input').setInputFiles(path.join(dir, 'alpha.pdf'));
    await page.locator('[data-testid="file-item"][data-state="ossSuccessful"]').waitFor({ timeout: 30_000 });
    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    await download(page, 'download', dir);
    const account = await e2e.quire.ctx.db.selectFrom('accounts').select('id').where('email', '=', EMAIL).executeTakeFirstOrThrow();
    const owners = await e2e.quire.ctx.db.selectFrom('tasks').select('owner_id').distinct().execute();
    expect(owners.map((o) => o.owner_id)).toEqual([`account:${account.id}`]);

    await page.getByTestId('avatar-button').click();
    await page.getByTestId('logout-button').click();
    await page.getByTestId('login-button').waitFor();
    // The server ended the session too: nothing signed in is left in the browser.
    await page.reload();
    await page.getByTestId('login-button').waitFor();
    expect(await page.getByTestId('avatar-button').count()).toBe(0);
    await page.context().close();
  });

  it('resets a forgotten password through its mail and signs in with the new one', async () => {
    // On a phone, in German: Log in sits in the menu's drawer, and the dialog fits the screen.
    const page = await e2e.open('/de/', { width: 390, height: 844 });
    await page.getByRole('button', { name: 'Menü', exact: true }).click();
    await page.locator('.mobile-drawer').getByTestId('login-button').click();
    const dialog = page.getByTestId('signin-dialog');
    // Typing starts in the address field.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await dialog.getByTestId('auth-forgot').click();
    await dialog.getByLabel('E-Mail').fill(EMAIL);
    await dialog.getByTestId('forgot-submit').click();
    await dialog.getByTestId('auth-mailed').waitFor();

    // Asked for on the German page, the link opens the German page.
    await followMail(page, EMAIL, '/de/account/reset-password');
    await page.getByTestId('reset-form').waitFor();
    expect(new URL(page.url()).hash).toBe('');
    await page.getByLabel('Neues Passwort').fill(NEW_PASSWORD);
    await page.getByTestId('reset-submit').click();
    await page.getByTestId('link-done').waitFor();

    await page.getByTestId('link-signin').click();
    await signInThroughDialog(page, PASSWORD);
    // The catalogue's message, in the page's German.
    await expect.poll(() => page.getByTestId('form-error').textContent()).toBe(catalogueTexts('de-de')[ErrorCode.SignInFailed]);
    await signInThroughDialog(page, NEW_PASSWORD);
    // Signed in: the avatar waits in the drawer, closed on a phone.
    await page.getByTestId('avatar-button').waitFor({ state: 'attached' });
    expect(await page.getByTestId('signin-dialog').count()).toBe(0);

    // A token the server does not know is refused with 3004.
    await page.goto(`${e2e.quire.url}/account/verify-email#token=made-up`);
    await expect.poll(() => page.getByTestId('form-error').textContent()).toBe('This link has expired or has already been used.');
    await page.context().close();
  });

  it('says so when an address has had too many sign-in attempts (3500)', async () => {
    const page = await e2e.open('/');
    const other = 'someone.else@example.org';
    // Past the burst of attempts for one address (10), each answered 3002.
    const codes = await page.evaluate(async (email) => {
      const seen: number[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await fetch('/api/account/v1/login', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email, password: `wrong-${i}` }),
        });
        seen.push(((await res.json()) as { code: number }).code);
      }
      return seen;
    }, other);
    expect(new Set(codes)).toEqual(new Set([3002]));
    await page.getByTestId('login-button').click();
    await signInThroughDialog(page, 'wrong-again', other);
    const error = page.getByTestId('form-error');
    // One message, the one that says why: not "The service is busy" beside it.
    await expect
      .poll(() => error.textContent())
      .toBe('Too many attempts for this address or from this network. Please wait a while before trying again.');
    await page.keyboard.press('Escape');
    await page.getByTestId('signin-dialog').waitFor({ state: 'detached' });
    await page.context().close();
  });

  it('signs the page out and opens the dialog when a call answers that the session ended (1408)', async () => {
    const page = await e2e.open('/app/account');
    await page.getByTestId('account-signed-out').waitFor();
    await page.getByTestId('account-signed-out').getByRole('button', { name: 'Sign in' }).click();
    await signInThroughDialog(page, NEW_PASSWORD);
    expect(await page.getByTestId('profile-email').textContent()).toBe(EMAIL);
    expect(await page.getByTestId('plan-label').textContent()).toBe('AI Upgraded');

    // The operator ends every session; the page learns it from its next call.
    await e2e.quire.ctx.db.deleteFrom('sessions').execute();
    // Whichever call comes first tells it: this change of address, or one the page makes by itself
    // (the bell's, say), after which the form is gone.
    const email = page.getByTestId('account-email');
    const change = async () => {
      await email.getByLabel('New email address').fill('ann.new@example.org', { timeout: 5_000 });
      await email.getByLabel('Current password').fill(NEW_PASSWORD, { timeout: 5_000 });
      await email.getByRole('button', { name: 'Change email' }).click({ timeout: 5_000 });
    };
    await change().catch(() => undefined);
    await page.getByTestId('signin-dialog').waitFor();
    expect(await page.getByTestId('login-button').count()).toBeGreaterThan(0);
    await page.getByTestId('account-signed-out').waitFor();
    await page.context().close();
  });

  it('changes the password and the address on the account page, then deletes the account', async () => {
    const page = await e2e.open('/app/account');
    await page.getByTestId('account-signed-out').getByRole('button', { name: 'Sign in' }).click();
    await signInThroughDialog(page, NEW_PASSWORD);
    await page.getByTestId('account-profile').waitFor();

    const password = page.getByTestId('account-password');
    await password.getByLabel('Current password').fill(NEW_PASSWORD);
    await password.getByLabel('New password').fill('x');
    await password.getByRole('button', { name: 'Change password' }).click();
    expect(await password.getByTestId('field-error').textContent()).toBe('The password must contain between 8 and 128 characters.');
    await password.getByLabel('New password').fill(PASSWORD);
    await password.getByRole('button', { name: 'Change password' }).click();
    await expect.poll(() => password.getByRole('status').textContent()).toContain('Your password is changed');
    // This page was signed in anew: its next call still works.
    const address = page.getByTestId('account-email');
    await address.getByLabel('New email address').fill(NEW_EMAIL);
    await address.getByLabel('Current password').fill(NEW_PASSWORD);
    await address.getByRole('button', { name: 'Change email' }).click();
    await expect.poll(() => address.getByTestId('form-error').textContent()).toBe('Incorrect password. Please try again.');
    await address.getByLabel('Current password').fill(PASSWORD);
    await address.getByRole('button', { name: 'Change email' }).click();
    await expect.poll(() => address.getByRole('status').textContent()).toContain(NEW_EMAIL);

    await mailbox.take(EMAIL); // the notice to the old address
    await followMail(page, NEW_EMAIL, '/account/confirm-email');
    await expect.poll(() => page.getByTestId('link-done').textContent()).toBe(`Your account now uses ${NEW_EMAIL}.`);
    expect(new URL(page.url()).hash).toBe('');
    await page.getByTestId('avatar-button').click();
    expect(await page.getByTestId('account-menu').textContent()).toContain(NEW_EMAIL);
    await page.getByTestId('account-settings').click();
    await expect.poll(() => page.getByTestId('profile-email').textContent()).toBe(NEW_EMAIL);

    const removal = page.getByTestId('account-delete');
    await removal.getByLabel('Current password').fill(PASSWORD);
    await removal.getByTestId('delete-account').click();
    // The confirm dialog's safe answer keeps the account.
    await page.getByTestId('confirm-cancel').click();
    await removal.getByTestId('delete-account').click();
    await page.getByTestId('confirm-ok').click();
    await page.getByTestId('account-signed-out').waitFor();
    expect(await e2e.quire.ctx.db.selectFrom('accounts').select('id').execute()).toEqual([]);
    await page.context().close();
  });
});
