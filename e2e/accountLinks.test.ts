// Links that sign a browser in, as users and attackers meet them: a product link's ?token= opened
// over a live session asks before switching account, and a confirmation link opened in a browser
// signs it in, or, expired, offers a new one.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../apps/server/src/services/accounts.js';
import { Mailbox } from '../apps/server/test/mailbox.js';
import { E2E_PASSWORD, startE2e, type E2e } from './browser.js';

const PUBLIC_URL = 'https://quire.example.org';
let e2e: E2e;
let mailbox: Mailbox;

beforeAll(async () => {
  mailbox = await Mailbox.start();
  e2e = await startE2e({ smtpUrl: mailbox.url, publicUrl: PUBLIC_URL });
}, 120_000);
afterAll(async () => {
  await e2e.stop();
  await mailbox.close();
});

/** A JSON POST of the account service from outside any browser: what an attacker's own script does. */
async function accountCall(name: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${e2e.quire.url}/api/account/v1/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; data: { token: string } };
}

/** A session link of a new account of `email`, made with its own session. */
async function sessionLinkOf(email: string): Promise<string> {
  await createAccount(e2e.quire.ctx, email, E2E_PASSWORD, 'free');
  const login = await accountCall('login', { email, password: E2E_PASSWORD });
  const made = await accountCall('session-link', {}, { authorization: `Bearer ${login.data.token}` });
  expect(made.code).toBe(0);
  return made.data.token;
}

/** Who the page's cookie signs in, as the server says. */
const signedInAs = (page: Page) =>
  page.evaluate(async () => ((await (await fetch('/api/account/v1/me')).json()) as { data: { email: string } | null }).data?.email);

describe('a link with ?token= over a live session', () => {
  it('asks before switching account; staying keeps the account, switching takes the link’s', async () => {
    const victim = 'victim@example.org';
    await createAccount(e2e.quire.ctx, victim, E2E_PASSWORD, 'free');
    const page = await e2e.open('/app/home');
    await page.getByTestId('login-button').click();
    const dialog = page.getByTestId('signin-dialog');
    await dialog.locator('input[name="email"]').fill(victim);
    await dialog.locator('input[name="current-password"]').fill(E2E_PASSWORD);
    await dialog.getByTestId('signin-submit').click();
    await page.getByTestId('avatar-button').first().waitFor();

    await page.goto(`${e2e.quire.url}/app/home?token=${await sessionLinkOf('attacker@example.org')}`);
    const ask = page.getByTestId('confirm-dialog');
    await ask.waitFor();
    expect(await ask.textContent()).toContain(victim);
    expect(new URL(page.url()).search).toBe('');
    await ask.getByTestId('confirm-cancel').click();
    await ask.waitFor({ state: 'detached' });
    expect(await signedInAs(page)).toBe(victim);

    await page.goto(`${e2e.quire.url}/app/home?token=${await sessionLinkOf('colleague@example.org')}`);
    await page.getByTestId('confirm-ok').click();
    await expect.poll(() => signedInAs(page)).toBe('colleague@example.org');
    await page.context().close();
  });

  it('signs a signed-out browser in at once, and takes no session token', async () => {
    const page = await e2e.open(`/app/home?token=${await sessionLinkOf('shared@example.org')}`);
    await page.getByTestId('avatar-button').first().waitFor();
    expect(await signedInAs(page)).toBe('shared@example.org');
    await page.context().close();

    const login = await accountCall('login', { email: 'shared@example.org', password: E2E_PASSWORD });
    const other = await e2e.open(`/app/home?token=${login.data.token}`);
    await other.getByTestId('login-button').waitFor();
    expect(await signedInAs(other)).toBeUndefined();
    await other.context().close();
  });
});

describe('a confirmation link', () => {
  it('signs in the page that opened it; a used one offers to mail a new link', async () => {
    const email = 'fresh@example.org';
    expect((await accountCall('register', { email, password: E2E_PASSWORD })).code).toBe(0);
    const link = (await mailbox.take(email)).links[0]!;
    const path = link.slice(PUBLIC_URL.length);
    const page = await e2e.open(path);
    await expect.poll(() => page.getByTestId('link-done').textContent()).toBe(`Your address ${email} is confirmed, and you are signed in.`);
    await page.getByTestId('avatar-button').first().waitFor();
    expect(await signedInAs(page)).toBe(email);
    await page.context().close();

    // Another account waits for its confirmation; its owner opens a used link.
    const waiting = 'waiting@example.org';
    expect((await accountCall('register', { email: waiting, password: E2E_PASSWORD })).code).toBe(0);
    await mailbox.take(waiting);
    const again = await e2e.open(path);
    await again.getByTestId('resend-form').waitFor();
    expect(await again.getByTestId('form-error').textContent()).toBe('This link has expired or has already been used.');
    await again.getByTestId('resend-form').locator('input[type="email"]').fill(waiting);
    await again.getByTestId('resend-submit').click();
    await again.getByTestId('resend-done').waitFor();
    const mailed = await mailbox.take(waiting);
    expect(mailed.subject).toBe('Confirm your email address');
    await again.context().close();
  });
});
