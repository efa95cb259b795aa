// Single sign-on as a user meets it in Chromium: the sign-in dialog's "Continue with Company SSO"
// opens a real OpenID Connect provider (oidc-provider) in a popup, whose sign-in and consent pages
// are filled in, and the page is signed in when the popup closes; a blocked popup takes the page
// itself there and back; failures come back as the dialog's message.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerForQuire, type TestProvider } from '../apps/server/test/oidcProvider.js';
import { createAccount } from '../apps/server/src/services/accounts.js';
import { startE2e, tmpDir, type E2e } from './browser.js';

const people = {
  kim: { email: 'kim.park@example.org', email_verified: true },
  lee: { email: 'lee.ross@example.org', email_verified: true },
  max: { email: 'max@example.org', email_verified: false },
};

let e2e: E2e;
let provider: TestProvider;
const dir = tmpDir('sso');

beforeAll(async () => {
  const started = await providerForQuire(people);
  provider = started.provider;
  e2e = await startE2e(started.settings);
});
afterAll(async () => {
  await e2e?.stop();
  await provider?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The provider's own pages: sign in as `login` (any password), then consent. */
async function atProvider(window: Page, login: string): Promise<void> {
  await window.locator('input[name="login"]').fill(login);
  await window.locator('input[name="password"]').fill('any password');
  await window.getByRole('button', { name: 'Sign-in' }).click();
  await window.getByRole('button', { name: 'Continue' }).click();
}

/** Opens the dialog from the header and clicks the provider's button. */
async function clickSso(page: Page): Promise<void> {
  await page.getByTestId('login-button').click();
  await page.getByTestId('sso-button').click();
}

/** Clicks the provider's button on `pathname` in a browser that blocks popups, and signs in at the provider as `login`. */
async function withoutPopups(pathname: string, login: string): Promise<Page> {
  const page = await e2e.open(pathname);
  // What a popup blocker does to window.open.
  await page.context().addInitScript(() => {
    window.open = () => null;
  });
  await page.reload();
  await clickSso(page);
  await page.waitForURL((url) => url.origin === provider.issuer);
  await atProvider(page, login);
  return page;
}

/** The signed-in page's avatar menu: who it says is signed in. */
async function signedInAs(page: Page): Promise<string> {
  await page.getByTestId('avatar-button').click();
  return (await page.getByTestId('account-menu').textContent()) ?? '';
}

const accounts = () => e2e.quire.ctx.db.selectFrom('accounts').selectAll().execute();

describe('single sign-on in the browser', () => {
  it('offers the provider in the dialog, on a desktop and on a phone', async () => {
    for (const width of [1280, 390]) {
      const page = await e2e.open('/', { width, height: width === 390 ? 844 : 800 });
      if (width === 390) await page.getByRole('button', { name: 'Menu', exact: true }).click();
      await page
        .locator(width === 390 ? '.mobile-drawer [data-testid="login-button"]' : '[data-testid="login-button"]')
        .first()
        .click();
      const button = page.getByTestId('sso-button');
      expect(await button.textContent()).toBe('Continue with Company SSO');
      const dialog = await page.getByTestId('signin-dialog').boundingBox();
      const box = await button.boundingBox();
      // The whole button is inside the dialog, the dialog inside the screen.
      expect(box!.x).toBeGreaterThanOrEqual(dialog!.x);
      expect(box!.x + box!.width).toBeLessThanOrEqual(dialog!.x + dialog!.width);
      expect(dialog!.x + dialog!.width).toBeLessThanOrEqual(width);
      await page.screenshot({ path: path.join(dir, `sso-dialog-${width}.png`) });
      await page.context().close();
    }
  });

  it('signs a new person in through the popup, and into the same account the next time', async () => {
    for (const round of [1, 2]) {
      const page = await e2e.open('/app/merge-pdf');
      const [popup] = await Promise.all([page.waitForEvent('popup'), clickSso(page)]);
      expect(new URL(popup.url()).origin).toBe(provider.issuer);
      // The dialog waits, and says where the sign-in goes on.
      expect(await page.getByTestId('sso-waiting').textContent()).toBe('Waiting for Company SSO…');
      if (round === 1) await page.screenshot({ path: path.join(dir, 'sso-waiting.png') });
      await atProvider(popup, 'kim');
      // The callback page tells this page and closes its window.
      await popup.waitForEvent('close');
      await page.getByTestId('signin-dialog').waitFor({ state: 'detached' });
      expect(await signedInAs(page)).toContain('kim.park@example.org');
      expect(new URL(page.url()).pathname, `round ${round}`).toBe('/app/merge-pdf');
      expect((await accounts()).map((a) => a.email)).toEqual(['kim.park@example.org']);
      await page.context().close();
    }
  });

  it('signs an existing password account in, linked rather than duplicated', async () => {
    const existing = await createAccount(e2e.quire.ctx, 'lee.ross@example.org', 'lees-password-1', 'premium');
    const page = await e2e.open('/');
    const [popup] = await Promise.all([page.waitForEvent('popup'), clickSso(page)]);
    await atProvider(popup, 'lee');
    await page.getByTestId('signin-dialog').waitFor({ state: 'detached' });
    expect(await signedInAs(page)).toContain('lee.ross@example.org');
    expect(await page.getByTestId('plan-label').textContent()).toBe('Premium');
    expect((await accounts()).filter((a) => a.email === 'lee.ross@example.org').map((a) => a.id)).toEqual([existing.id]);
    await page.context().close();
  });

  it("shows the popup's failure in the dialog, and stops waiting when the popup is closed", async () => {
    const page = await e2e.open('/app/home');
    const [popup] = await Promise.all([page.waitForEvent('popup'), clickSso(page)]);
    await atProvider(popup, 'max');
    await popup.waitForEvent('close');
    const dialog = page.getByTestId('signin-dialog');
    await expect
      .poll(() => dialog.getByTestId('form-error').textContent())
      .toBe('Your sign-in provider has not confirmed your email address.');
    await dialog.getByTestId('sso-waiting').waitFor({ state: 'detached' });

    // Another try clears the message; closing its window ends the wait, and the dialog stays usable.
    const [again] = await Promise.all([page.waitForEvent('popup'), dialog.getByTestId('sso-button').click()]);
    expect(await dialog.getByTestId('form-error').count()).toBe(0);
    await dialog.getByTestId('sso-waiting').waitFor();
    await again.close();
    await dialog.getByTestId('sso-waiting').waitFor({ state: 'detached' });
    expect(await page.getByTestId('avatar-button').count()).toBe(0);
    await page.context().close();
  });

  it('takes the page itself to the provider and back when the popup is blocked', async () => {
    const page = await withoutPopups('/app/rotate-pdf?from=test', 'kim');
    await page.waitForURL(`${e2e.quire.url}/app/rotate-pdf?from=test`);
    expect(await signedInAs(page)).toContain('kim.park@example.org');
    await page.context().close();
  });

  it('shows why when the provider has not confirmed the address (3009), in the dialog the page comes back to', async () => {
    const page = await withoutPopups('/app/home', 'max');
    await page.waitForURL((url) => url.origin === e2e.quire.url && url.pathname === '/app/home');
    const dialog = page.getByTestId('signin-dialog');
    await expect
      .poll(() => dialog.getByTestId('form-error').textContent())
      .toBe('Your sign-in provider has not confirmed your email address.');
    await page.screenshot({ path: path.join(dir, 'sso-refused.png') });
    // The code leaves the address bar.
    expect(new URL(page.url()).search).toBe('');
    expect(await page.getByTestId('avatar-button').count()).toBe(0);
    await page.context().close();
  });

  it('refuses a forged state with a readable message, and a return address of another site', async () => {
    const page = await e2e.open('/');
    await page.goto(`${e2e.quire.url}/api/account/v1/oidc/callback?code=stolen&state=${'x'.repeat(43)}`);
    await expect
      .poll(() => page.getByTestId('sso-callback').getByTestId('form-error').textContent())
      .toBe('Single sign-on failed. Please try again.');
    expect(new URL(page.url()).pathname).toBe('/app/login-callback.html');
    await page.screenshot({ path: path.join(dir, 'sso-callback-failed.png') });
    expect(await page.getByTestId('avatar-button').count()).toBe(0);

    const answer = await page.goto(`${e2e.quire.url}/api/account/v1/oidc/start?return=${encodeURIComponent('//evil.example/')}`);
    expect(answer!.status()).toBe(400);
    expect(new URL(page.url()).origin).toBe(e2e.quire.url);
    await page.context().close();
  });
});
