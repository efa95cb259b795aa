// What a changed password or address takes with it, how a session reaches a browser from a link,
// and which browsers' requests may change an account: each an attack that worked before.
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@quire/contracts';
import { Client, quireForTests, type Envelope } from './harness.js';
import { Mailbox, type ReceivedMail } from './mailbox.js';

const mailbox = await Mailbox.start();
afterAll(() => mailbox.close());

const PUBLIC_URL = 'https://quire.example.org';
const served = quireForTests('account-security', {
  smtpUrl: mailbox.url,
  publicUrl: PUBLIC_URL,
  accountRate: { perSecond: 1, burst: 200 },
});

interface Answer {
  status: number;
  body: Envelope;
}

/** A call of the account service; GET without a body, POST with a JSON one. */
async function account(client: Client, name: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const init: RequestInit =
    body === undefined
      ? { headers }
      : { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
  const res = await client.raw(`/api/account/v1/${name}`, init);
  return { status: res.status, body: (await res.json()) as Envelope };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const newClient = () => new Client(served.quire.url);

/** The token of the one link a mail holds. */
function linkToken(mail: ReceivedMail): string {
  expect(mail.links).toHaveLength(1);
  return new URLSearchParams(new URL(mail.links[0]!).hash.slice(1)).get('token')!;
}

/** A confirmed account signed in from a browser of its own. */
async function signedUp(email: string, password: string) {
  const browser = newClient();
  expect((await account(browser, 'register', { email, password })).body.code).toBe(0);
  expect((await account(newClient(), 'verify-email', { token: linkToken(await mailbox.take(email)) })).body.code).toBe(0);
  const login = await account(browser, 'login', { email, password });
  expect(login.body.code).toBe(0);
  return browser;
}

async function apiKeyOf(browser: Client): Promise<string> {
  const made = await account(browser, 'api-keys', { name: 'script' });
  expect(made.body.code).toBe(0);
  const key = made.body.data.key as string;
  expect((await newClient().call('config', { headers: bearer(key) })).code).toBe(0);
  return key;
}

describe('a new password or address', () => {
  it('a reset ends the API keys and an address change asked for before', async () => {
    const email = 'reset@example.org';
    const password = 'first password';
    const browser = await signedUp(email, password);
    const key = await apiKeyOf(browser);
    // Whoever held the password asked to move the account to their address; the owner resets it.
    expect((await account(browser, 'change-email', { password, email: 'taker@example.org' })).body.code).toBe(0);
    const move = linkToken(await mailbox.take('taker@example.org'));
    await mailbox.take(email);
    expect((await account(newClient(), 'forgot-password', { email })).body.code).toBe(0);
    const reset = linkToken(await mailbox.take(email));
    expect((await account(newClient(), 'reset-password', { token: reset, password: 'second password' })).body.code).toBe(0);

    const byKey = await newClient().answer('config', { headers: bearer(key) });
    expect(byKey.status).toBe(401);
    expect(byKey.body?.code).toBe(ErrorCode.SessionEnded);
    expect((await account(newClient(), 'confirm-email', { token: move })).body.code).toBe(ErrorCode.LinkExpired);
  });

  it('a change ends the API keys and a reset link mailed before', async () => {
    const email = 'change@example.org';
    const browser = await signedUp(email, 'first password');
    const key = await apiKeyOf(browser);
    expect((await account(newClient(), 'forgot-password', { email })).body.code).toBe(0);
    const pending = linkToken(await mailbox.take(email));
    const changed = await account(browser, 'change-password', { password: 'first password', new_password: 'second password' });
    expect(changed.body.code).toBe(0);

    expect((await newClient().answer('config', { headers: bearer(key) })).body?.code).toBe(ErrorCode.SessionEnded);
    expect((await account(newClient(), 'reset-password', { token: pending, password: 'attacker password' })).body.code).toBe(
      ErrorCode.LinkExpired,
    );
    expect((await account(newClient(), 'login', { email, password: 'second password' })).body.code).toBe(0);
  });

  it('a new address ends every other session; the browser that confirms it stays signed in', async () => {
    const email = 'move@example.org';
    const password = 'moving password';
    const browser = await signedUp(email, password);
    const elsewhere = newClient();
    expect((await account(elsewhere, 'login', { email, password })).body.code).toBe(0);
    expect((await account(browser, 'change-email', { password, email: 'moved@example.org' })).body.code).toBe(0);
    const token = linkToken(await mailbox.take('moved@example.org'));
    await mailbox.take(email);
    expect((await account(browser, 'confirm-email', { token })).body.code).toBe(0);

    expect((await account(browser, 'me')).body.data.email).toBe('moved@example.org');
    expect((await account(elsewhere, 'me')).body.code).toBe(ErrorCode.SessionEnded);
  });

  it('a new address confirmed in a browser signed in to no session ends them all', async () => {
    const email = 'away@example.org';
    const password = 'moving password';
    const browser = await signedUp(email, password);
    expect((await account(browser, 'change-email', { password, email: 'gone@example.org' })).body.code).toBe(0);
    const token = linkToken(await mailbox.take('gone@example.org'));
    await mailbox.take(email);
    expect((await account(newClient(), 'confirm-email', { token })).body.code).toBe(0);
    expect((await account(browser, 'me')).body.code).toBe(ErrorCode.SessionEnded);
  });
});

describe("another origin's page", () => {
  /** A signed-in browser and a second session of the account, to see what its requests ended. */
  async function twoSessions(email: string) {
    const password = 'two sessions password';
    const browser = await signedUp(email, password);
    const other = newClient();
    expect((await account(other, 'login', { email, password })).body.code).toBe(0);
    return { browser, other };
  }

  /** A POST as the browser sends it with its cookies, from a page of `site`. */
  const post = (browser: Client, name: string, body: BodyInit | undefined, headers: Record<string, string>) =>
    browser.raw(`/api/account/v1/${name}`, { method: 'POST', headers, ...(body !== undefined && { body }) });

  it('cannot sign the user out or end their other sessions with a text/plain or multipart POST', async () => {
    const { browser, other } = await twoSessions('csrf@example.org');
    const form = new FormData();
    form.append('x', 'y');
    const attempts = [
      // Another port of the same host: same site, another origin.
      await post(browser, 'logout', 'x', { 'content-type': 'text/plain', 'sec-fetch-site': 'same-site' }),
      await post(browser, 'sessions/revoke-others', form, { 'sec-fetch-site': 'same-site' }),
      // A browser without Sec-Fetch-Site still sends its page's origin.
      await post(browser, 'sessions/revoke-others', form, { origin: 'http://127.0.0.1:1' }),
      await post(browser, 'logout', undefined, { 'sec-fetch-site': 'cross-site' }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(403);
      expect(((await res.json()) as Envelope).code).toBe(ErrorCode.NotPermitted);
    }
    expect((await account(browser, 'me')).body.code).toBe(0);
    expect((await account(other, 'me')).body.code).toBe(0);
  });

  it("takes only JSON on a JSON call, even from the app's own origin", async () => {
    const { browser, other } = await twoSessions('json-only@example.org');
    const form = new FormData();
    form.append('x', 'y');
    const own = { 'sec-fetch-site': 'same-origin' };
    for (const res of [
      await post(browser, 'logout', 'x', { ...own, 'content-type': 'text/plain' }),
      await post(browser, 'sessions/revoke-others', form, own),
    ]) {
      expect(res.status).toBe(400);
      expect(((await res.json()) as Envelope).code).toBe(ErrorCode.InvalidParams);
    }
    expect((await account(other, 'me')).body.code).toBe(0);
    // The app's own calls: no body, and JSON, from its origin.
    const origin = { origin: served.quire.url };
    expect((await post(browser, 'sessions/revoke-others', undefined, origin)).status).toBe(200);
    expect((await account(other, 'me')).body.code).toBe(ErrorCode.SessionEnded);
    expect((await post(browser, 'logout', '{}', { ...own, 'content-type': 'application/json' })).status).toBe(200);
    expect((await account(browser, 'me')).body.code).toBe(ErrorCode.NotLogin);
  });

  it("uploads from the app's page as before, and an API key's calls from anywhere", async () => {
    const browser = await signedUp('uploads@example.org', 'uploads password');
    const form = () => {
      const f = new FormData();
      f.append('file', new Blob([Buffer.from('%PDF-1.4\n%%EOF\n')]), 'a.pdf');
      return f;
    };
    const upload = (client: Client, headers: Record<string, string>) =>
      client.answer('file/stream', { method: 'POST', body: form(), headers });
    // Refused or not, the file is read only after the request passes: a damaged PDF answers past that point.
    expect((await upload(browser, { 'sec-fetch-site': 'same-origin' })).status).not.toBe(403);
    expect((await upload(browser, { 'sec-fetch-site': 'same-site' })).status).toBe(403);
    const key = await apiKeyOf(browser);
    expect((await upload(newClient(), { ...bearer(key), origin: 'https://elsewhere.example' })).status).not.toBe(403);
  });
});

describe('a link that signs a browser in (?token=)', () => {
  it("takes no session's own token: a link cannot hand a browser the session it was copied from", async () => {
    const email = 'token@example.org';
    const password = 'token password';
    await signedUp(email, password);
    const login = await account(newClient(), 'login', { email, password });
    const victim = newClient();
    const adopted = await account(victim, 'session', { token: login.body.data.token });
    expect(adopted.status).toBe(410);
    expect(adopted.body.code).toBe(ErrorCode.LinkExpired);
    expect(victim.cookie).not.toContain('quire_session');
    expect((await account(victim, 'me')).body.code).toBe(ErrorCode.NotLogin);
  });

  it('signs a browser in once with a session link, to a session of its own', async () => {
    const email = 'handoff@example.org';
    const maker = await signedUp(email, 'handoff password');
    const made = await account(maker, 'session-link', {});
    expect(made.body.code).toBe(0);
    expect(made.body.data.expires_in_s).toBeLessThanOrEqual(300);
    const browser = newClient();
    const adopted = await account(browser, 'session', { token: made.body.data.token });
    expect(adopted.body.code).toBe(0);
    expect(adopted.body.data.email).toBe(email);
    expect((await account(browser, 'me')).body.data.email).toBe(email);
    // A session of its own: not the maker's, and not the link's token.
    const makers = (await account(maker, 'me')).body.data.ws_token;
    expect([makers, made.body.data.token]).not.toContain((await account(browser, 'me')).body.data.ws_token);
    expect((await account(newClient(), 'session', { token: made.body.data.token })).body.code).toBe(ErrorCode.LinkExpired);
  });
});

describe('confirming a new account', () => {
  it('keeps the first link working after a sign-in before confirming mailed another, and signs the opening browser in', async () => {
    const email = 'early@example.org';
    const password = 'early password';
    expect((await account(newClient(), 'register', { email, password })).body.code).toBe(0);
    const first = linkToken(await mailbox.take(email));
    expect((await account(newClient(), 'login', { email, password })).body.code).toBe(ErrorCode.EmailNotVerified);
    const second = linkToken(await mailbox.take(email));

    const opener = newClient();
    const confirmed = await account(opener, 'verify-email', { token: first });
    expect(confirmed.body).toEqual({ code: 0, msg: 'success', data: { email } });
    expect((await account(opener, 'me')).body.data.email).toBe(email);
    // The other link has nothing left to confirm and signs no one in.
    const later = newClient();
    expect((await account(later, 'verify-email', { token: second })).body.code).toBe(ErrorCode.LinkExpired);
    expect(later.cookie).not.toContain('quire_session');
  });

  it('leaves a browser signed in to another account in it', async () => {
    const other = await signedUp('other@example.org', 'other password');
    const email = 'newcomer@example.org';
    expect((await account(newClient(), 'register', { email, password: 'newcomer password' })).body.code).toBe(0);
    expect((await account(other, 'verify-email', { token: linkToken(await mailbox.take(email)) })).body.code).toBe(0);
    expect((await account(other, 'me')).body.data.email).toBe('other@example.org');
  });

  it('mails a new link on asking (the page of an expired link offers it), only to an address waiting for one', async () => {
    const email = 'expired@example.org';
    expect((await account(newClient(), 'register', { email, password: 'expired password' })).body.code).toBe(0);
    await mailbox.take(email);
    const asked = await account(newClient(), 'resend-confirmation', { email });
    expect(asked.body).toEqual({ code: 0, msg: 'success', data: { email } });
    expect((await account(newClient(), 'verify-email', { token: linkToken(await mailbox.take(email)) })).body.code).toBe(0);
    for (const address of [email, 'unknown@example.org']) {
      expect((await account(newClient(), 'resend-confirmation', { email: address })).body).toEqual({
        code: 0,
        msg: 'success',
        data: { email: address },
      });
    }
    // Mail is sent in the background: a confirmation mailed by mistake would be here by the time a fresh one is.
    expect((await account(newClient(), 'forgot-password', { email })).body.code).toBe(0);
    expect((await mailbox.take(email)).subject).toBe('Reset your password');
    expect(mailbox.mails.filter((m) => m.to.includes(email) || m.to.includes('unknown@example.org'))).toEqual([]);
  });
});
