// Single sign-on against a real OpenID Connect provider (oidc-provider, in this process): the
// provider's sign-in and consent pages are walked as a browser would, by fetch with its cookies,
// and Quire's answers are read as a browser receives them (redirects, cookies).
import net from 'node:net';
import { PassThrough } from 'node:stream';
import { ErrorCode } from '@quire/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/services/accounts.js';
import { storeActivitySettings } from '../src/services/activitySettings.js';
import { referralInfo } from '../src/services/referrals.js';
import { SSO_CALLBACK_PATH } from '../src/services/sso.js';
import { Client, startQuire, type Envelope, type Running } from './harness.js';
import { freePort, providerForQuire, type TestProvider } from './oidcProvider.js';

/** QUIRE_SIGNUPS_PER_ADDRESS_DAY's default, in the test of the cap (the harness lifts it elsewhere). */
const SIGNUPS_PER_DAY = 10;
const people = {
  kim: { email: 'kim.park@example.org', email_verified: true, given_name: 'Kim' },
  lee: { email: 'Lee.Ross@example.org', email_verified: true },
  max: { email: 'max@example.org', email_verified: false },
  ana: { email: 'ana@example.org', email_verified: true },
  ivy: { email: 'ivy@example.org', email_verified: true },
  una: { email: 'una@example.org', email_verified: true },
  // Newcomers from one address, one more than a day's sign-ups.
  ...Object.fromEntries(
    Array.from({ length: SIGNUPS_PER_DAY + 1 }, (_, i) => [`new${i + 1}`, { email: `new${i + 1}@example.org`, email_verified: true }]),
  ),
};

let provider: TestProvider;
let quire: Running;
const log = new PassThrough();
let logged = '';
log.on('data', (c: Buffer) => {
  logged += c.toString();
});
const errors: string[] = [];
const consoleError = console.error;

beforeAll(async () => {
  console.error = (...args: unknown[]) => errors.push(args.join(' '));
  const started = await providerForQuire(people);
  provider = started.provider;
  quire = await startQuire(started.settings, false, log);
}, 60_000);
afterAll(async () => {
  console.error = consoleError;
  await quire?.stop();
  await provider?.stop();
});

/** A redirect's target; fails unless the answer is one. */
function redirectOf(res: Response): URL {
  expect(res.status, `not a redirect: ${res.status}`).toBeGreaterThanOrEqual(300);
  return new URL(res.headers.get('location')!, res.url);
}

/** GET /oidc/start as a browser, without following: the provider's sign-in address. */
async function start(browser: Client, returnPath?: string, invite?: string): Promise<URL> {
  const query = `?${new URLSearchParams({ ...(returnPath !== undefined && { return: returnPath }), ...(invite && { invite }) })}`;
  return redirectOf(await browser.raw(`/api/account/v1/oidc/start${query}`, { redirect: 'manual' }));
}

/**
 * Walks the provider's pages as a browser: follows its redirects with its cookies and submits
 * its forms (sign in as `login`, then consent) until it sends the browser back to Quire.
 */
async function atProvider(authorize: URL, login: string): Promise<URL> {
  const browser = new Client(provider.issuer);
  let next = authorize;
  let form: RequestInit = {};
  for (let hop = 0; hop < 20; hop++) {
    const res = await browser.raw(next.pathname + next.search, { ...form, redirect: 'manual' });
    form = {};
    if (res.headers.has('location')) {
      next = redirectOf(res);
      if (next.origin !== provider.issuer) return next;
      continue;
    }
    const page = await res.text();
    const action = /<form[^>]* action="([^"]+)"/.exec(page)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1];
    expect(action, page).toBeDefined();
    const fields: Record<string, string> = prompt === 'login' ? { prompt, login, password: 'any' } : { prompt: prompt! };
    next = new URL(action!, next);
    form = {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    };
  }
  throw new Error('the provider never sent the browser back');
}

/** Back at Quire's callback with the provider's answer; the redirect it answers with. */
async function callback(browser: Client, back: URL): Promise<URL> {
  expect(back.pathname).toBe(SSO_CALLBACK_PATH);
  return redirectOf(await browser.raw(back.pathname + back.search, { redirect: 'manual' }));
}

/** A whole sign-in by `login`: where Quire sends the browser at the end. */
async function signInAs(browser: Client, login: string, returnPath?: string, invite?: string): Promise<URL> {
  return callback(browser, await atProvider(await start(browser, returnPath, invite), login));
}

const me = async (browser: Client) => (await (await browser.raw('/api/account/v1/me')).json()) as Envelope;
const accountRows = () => quire.ctx.db.selectFrom('accounts').selectAll().execute();

describe('single sign-on with an OpenID Connect provider', () => {
  it('says what the dialog offers', async () => {
    const options = (await (await new Client(quire.url).raw('/api/account/v1/sign-in-options')).json()) as Envelope;
    expect(options.data).toEqual({ sso: { name: 'Company SSO' } });
  });

  it('signs a new person in with a new account, and the same account the next time', async () => {
    const browser = new Client(quire.url);
    const authorize = await start(browser, '/app/merge-pdf?x=1');
    // PKCE, state and nonce go to the provider; the secret never does.
    expect(authorize.origin).toBe(provider.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    for (const name of ['state', 'nonce', 'code_challenge']) expect(authorize.searchParams.get(name)).toMatch(/^[\w-]{43}$/);
    expect(authorize.searchParams.get('redirect_uri')).toBe(quire.ctx.config.publicUrl + SSO_CALLBACK_PATH);
    expect(authorize.href).not.toContain(provider.clientSecret);

    const landed = await callback(browser, await atProvider(authorize, 'kim'));
    expect(landed.pathname + landed.search).toBe('/app/merge-pdf?x=1');
    const info = await me(browser);
    expect(info.code).toBe(0);
    expect(info.data).toMatchObject({ email: 'kim.park@example.org', first_name: 'Kim', pay: false, userType: 'free' });
    const [account] = await accountRows();
    // No password: signing in with one is refused like any wrong password.
    expect(account).toMatchObject({ email: 'kim.park@example.org', password_hash: '', email_verified: 1, plan: 'free' });
    const withPassword = await new Client(quire.url).raw('/api/account/v1/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'kim.park@example.org', password: '' }),
    });
    expect(((await withPassword.json()) as Envelope).code).not.toBe(0);

    const again = new Client(quire.url);
    // Without a return path: the callback page, which tells the page that opened the window.
    expect((await signInAs(again, 'kim')).pathname).toBe('/app/login-callback.html');
    expect((await me(again)).data.user_id).toBe(account!.id);
    expect(await accountRows()).toHaveLength(1);
    expect(await quire.ctx.db.selectFrom('sso_identities').selectAll().execute()).toEqual([
      { issuer: provider.issuer, subject: 'kim', account_id: account!.id, created_at: expect.any(Number) },
    ]);
  });

  it('links an existing password account of the same verified address instead of making another', async () => {
    const existing = await createAccount(quire.ctx, 'lee.ross@example.org', 'lees-password-1', 'premium');
    const browser = new Client(quire.url);
    await signInAs(browser, 'lee');
    expect((await me(browser)).data).toMatchObject({ user_id: existing.id, pay: true });
    expect((await accountRows()).filter((a) => a.email === 'lee.ross@example.org')).toHaveLength(1);
    // The password still signs in too.
    const login = await new Client(quire.url).raw('/api/account/v1/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'lee.ross@example.org', password: 'lees-password-1' }),
    });
    expect(((await login.json()) as Envelope).code).toBe(0);
    // Deleting the account ends the link: the identity's next sign-in makes a new account.
    const removal = await browser.raw('/api/account/v1/delete', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'lees-password-1' }),
    });
    expect(((await removal.json()) as Envelope).code).toBe(0);
    expect(await quire.ctx.db.selectFrom('sso_identities').where('account_id', '=', existing.id).selectAll().execute()).toEqual([]);
    const later = new Client(quire.url);
    await signInAs(later, 'lee');
    expect((await me(later)).data.user_id).not.toBe(existing.id);
  });

  it('takes over an unconfirmed sign-up of the address without its password', async () => {
    // Someone signed up with Ana's address and a password of their own, and never confirmed it.
    const squatter = new Client(quire.url);
    const signUp = await squatter.raw('/api/account/v1/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ana@example.org', password: 'squatters-password' }),
    });
    expect(((await signUp.json()) as Envelope).code).toBe(0);
    const browser = new Client(quire.url);
    await signInAs(browser, 'ana');
    const [account] = (await accountRows()).filter((a) => a.email === 'ana@example.org');
    expect((await me(browser)).data.user_id).toBe(account!.id);
    expect(account).toMatchObject({ password_hash: '', email_verified: 1 });
    const login = await squatter.raw('/api/account/v1/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ana@example.org', password: 'squatters-password' }),
    });
    expect(((await login.json()) as Envelope).code).toBe(ErrorCode.SignInFailed);
  });

  it("makes the friend of the invite it started with, and credits an invite waiting for the address's confirmation", async () => {
    const { ctx } = quire;
    await storeActivitySettings(ctx, { reward_tokens: 700, invite_cap: 0, adv_popshow: 0, adv_url: '', adv_img: '' });
    const inviter = await createAccount(ctx, 'inviter@example.org', 'inviter-password', 'free');
    const code = new URL((await referralInfo(ctx, inviter)).invite_link).searchParams.get('invite')!;
    await signInAs(new Client(quire.url), 'ivy', undefined, code);
    // Someone signed up with Una's address through the invite and never confirmed it; Una's sign-in confirms it.
    const signUp = await new Client(quire.url).raw('/api/account/v1/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'una@example.org', password: 'una-first-password', invite: code }),
    });
    expect(((await signUp.json()) as Envelope).code).toBe(0);
    await signInAs(new Client(quire.url), 'una');
    const bonus = async (email: string) => (await accountRows()).find((a) => a.email === email)!.bonus_tokens;
    expect([await bonus('ivy@example.org'), await bonus('una@example.org'), await bonus('inviter@example.org')]).toEqual([700, 700, 1400]);
    // Signing in again earns nothing more.
    await signInAs(new Client(quire.url), 'ivy', undefined, code);
    expect(await bonus('inviter@example.org')).toBe(1400);
    expect((await referralInfo(ctx, (await accountRows()).find((a) => a.email === 'inviter@example.org')!)).friends_joined).toBe(2);
  });

  it('refuses an address the provider has not verified (3009), making no account', async () => {
    const browser = new Client(quire.url);
    const landed = await signInAs(browser, 'max', '/app/home');
    expect(landed.pathname).toBe('/app/home');
    expect(landed.searchParams.get('sso_error')).toBe(String(ErrorCode.SsoEmailUnconfirmed));
    expect((await me(browser)).code).toBe(ErrorCode.NotLogin);
    expect((await accountRows()).map((a) => a.email)).not.toContain('max@example.org');
  });

  it('refuses a forged, missing or replayed state (3007), and a cookie from another browser', async () => {
    const browser = new Client(quire.url);
    const back = await atProvider(await start(browser), 'kim');
    const forged = new URL(back);
    forged.searchParams.set('state', 'x'.repeat(43));
    const refused = (at: URL) =>
      at.pathname === '/app/login-callback.html' && at.searchParams.get('sso_error') === String(ErrorCode.SsoFailed);
    expect(refused(await callback(browser, forged))).toBe(true);
    const missing = new URL(back);
    missing.searchParams.delete('state');
    expect(refused(await callback(browser, missing))).toBe(true);
    // The right answer, brought by a browser that did not start this sign-in (a login forced on a victim).
    expect(refused(await callback(new Client(quire.url), back))).toBe(true);
    expect((await me(browser)).code).toBe(ErrorCode.NotLogin);
    // The state is used up by its first use, right or wrong: a replay of the genuine answer fails too.
    expect(refused(await callback(browser, back))).toBe(true);
    expect((await me(browser)).code).toBe(ErrorCode.NotLogin);
  });

  it('says so when the person declines at the provider (3008)', async () => {
    const browser = new Client(quire.url);
    const authorize = await start(browser, '/app/home');
    // What the provider sends back when consent is denied.
    const denied = new URL(quire.ctx.config.publicUrl + SSO_CALLBACK_PATH);
    denied.search = new URLSearchParams({
      error: 'access_denied',
      state: authorize.searchParams.get('state')!,
      iss: provider.issuer,
    }).toString();
    const landed = await callback(browser, denied);
    expect(landed.pathname).toBe('/app/home');
    expect(landed.searchParams.get('sso_error')).toBe(String(ErrorCode.SsoCancelled));
  });

  it("counts its new accounts in the address's sign-ups of the day: the 11th is refused with the mail sign-up's 3500", async () => {
    quire.ctx.config.signUpsPerAddressPerDay = SIGNUPS_PER_DAY;
    try {
      const before = (await accountRows()).length;
      for (let i = 1; i <= SIGNUPS_PER_DAY; i++) expect((await signInAs(new Client(quire.url), `new${i}`, '/app/home')).search).toBe('');
      const refused = await signInAs(new Client(quire.url), `new${SIGNUPS_PER_DAY + 1}`, '/app/home');
      expect(refused.searchParams.get('sso_error')).toBe(String(ErrorCode.Busy));
      expect(await accountRows()).toHaveLength(before + SIGNUPS_PER_DAY);
      // One cap for both ways in: a mailed sign-up from the address is refused alike.
      const mailed = await new Client(quire.url).raw('/api/account/v1/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'mailed@example.org', password: 'mailed-password-1' }),
      });
      expect(mailed.status).toBe(429);
      expect(((await mailed.json()) as Envelope).code).toBe(ErrorCode.Busy);
      // An account already made signs in again: only new accounts count.
      expect((await signInAs(new Client(quire.url), 'new1', '/app/home')).search).toBe('');
    } finally {
      quire.ctx.config.signUpsPerAddressPerDay = 0;
    }
  });

  it('refuses return addresses of other sites (3100) and keeps secrets out of the log', async () => {
    for (const elsewhere of ['https://evil.example/', '//evil.example/x', '/\\evil.example', '/\t/evil.example', 'app/home']) {
      const res = await new Client(quire.url).raw(`/api/account/v1/oidc/start?return=${encodeURIComponent(elsewhere)}`, {
        redirect: 'manual',
      });
      expect(res.status, elsewhere).toBe(400);
      expect(((await res.json()) as Envelope).code).toBe(ErrorCode.InvalidParams);
    }
    expect(logged).toContain(SSO_CALLBACK_PATH);
    expect(logged).not.toContain(provider.clientSecret);
    expect(errors.join('\n')).not.toContain(provider.clientSecret);
    expect(logged).not.toMatch(/[?&](code|state)=[^*]/);
  });
});

describe('single sign-on with a provider that cannot be reached', () => {
  it('sends the browser back with 3006 at once when nothing answers', async () => {
    const port = await freePort();
    const down = await startQuire(
      {
        oidc: {
          issuer: `http://127.0.0.1:${port}`,
          clientId: 'quire',
          clientSecret: 's',
          name: 'SSO',
          scopes: 'openid email',
          timeoutMs: 5000,
        },
      },
      false,
    );
    try {
      const landed = await start(new Client(down.url), '/app/home');
      expect(landed.pathname).toBe('/app/home');
      expect(landed.searchParams.get('sso_error')).toBe(String(ErrorCode.SsoUnavailable));
    } finally {
      await down.stop();
    }
  });

  it('gives up on a provider that accepts the connection but never answers, within its time limit', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
    const down = await startQuire(
      { oidc: { issuer, clientId: 'quire', clientSecret: 's', name: 'SSO', scopes: 'openid', timeoutMs: 1000 } },
      false,
    );
    try {
      const began = Date.now();
      const landed = await start(new Client(down.url));
      expect(landed.searchParams.get('sso_error')).toBe(String(ErrorCode.SsoUnavailable));
      expect(Date.now() - began).toBeLessThan(10_000);
      expect(errors.join('\n')).toContain(`${issuer} could not be discovered`);
    } finally {
      await down.stop();
      silent.close();
    }
  });

  it('offers no single sign-on when none is configured', async () => {
    const plain = await startQuire({ oidc: undefined }, false);
    try {
      const options = (await (await new Client(plain.url).raw('/api/account/v1/sign-in-options')).json()) as Envelope;
      expect(options.data).toEqual({ sso: null });
      const landed = await start(new Client(plain.url), '/app/home');
      expect(landed.searchParams.get('sso_error')).toBe(String(ErrorCode.SsoUnavailable));
    } finally {
      await plain.stop();
    }
  });
});
