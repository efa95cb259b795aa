// The sessions of an account as its owner meets them: listed with the device each signed in from and
// which one is this, ended one by one or all but this one, never by another account or an API key.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@quire/contracts';
import { Client, quireForTests, type Envelope } from './harness.js';
import { createAccount } from '../src/services/accounts.js';

const log = new PassThrough();
let logged = '';
log.on('data', (c: Buffer) => {
  logged += c.toString();
});
const served = quireForTests('sessions', {}, log);

const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SESSIONS = '/api/account/v1/sessions';

/** A browser: its cookies and its User-Agent on every call. */
function browser(userAgent: string) {
  const client = new Client(served.quire.url);
  const call = async (pathname: string, body?: unknown, headers: Record<string, string> = {}) => {
    const init: RequestInit =
      body === undefined
        ? { headers: { 'user-agent': userAgent, ...headers } }
        : {
            method: 'POST',
            headers: { 'user-agent': userAgent, 'content-type': 'application/json', ...headers },
            body: JSON.stringify(body),
          };
    const res = await client.raw(pathname, init);
    return { status: res.status, text: await res.clone().text(), body: (await res.json()) as Envelope };
  };
  return { client, call };
}

async function signIn(email: string, password: string, userAgent: string) {
  const b = browser(userAgent);
  const login = await b.call('/api/account/v1/login', { email, password });
  expect(login.body.code).toBe(0);
  return { ...b, token: login.body.data.token as string };
}

describe('the sessions of an account', () => {
  const password = 'sessions-test-password';

  it('lists every live session with its device and which is this one, never a token', async () => {
    await createAccount(served.quire.ctx, 'ada@example.org', password, 'free');
    const before = Date.now();
    const desk = await signIn('ada@example.org', password, FIREFOX_WINDOWS);
    const phone = await signIn('ada@example.org', password, SAFARI_IPHONE);
    const seen = await desk.call(SESSIONS);
    expect(seen.body.code).toBe(0);
    const list = seen.body.data as { session_id: string; device: string; created_at: number; last_used_at: number; current: boolean }[];
    expect(list.map(({ device, current }) => ({ device, current })).sort((x, y) => x.device.localeCompare(y.device))).toEqual([
      { device: 'Firefox · Windows', current: true },
      { device: 'Safari · iOS', current: false },
    ]);
    // This one first, though the phone was used since.
    expect(list[0]!.current).toBe(true);
    for (const s of list) {
      expect(s.session_id).toMatch(/^[0-9a-f]{32}$/);
      expect(s.created_at).toBeGreaterThanOrEqual(before);
      expect(s.last_used_at).toBeGreaterThanOrEqual(s.created_at);
    }
    // The phone sees the same two, itself current.
    const fromPhone = (await phone.call(SESSIONS)).body.data as typeof list;
    expect(fromPhone.find((s) => s.current)!.device).toBe('Safari · iOS');
    expect(new Set(fromPhone.map((s) => s.session_id))).toEqual(new Set(list.map((s) => s.session_id)));
    // Neither token, nor the hash the table keys it by, is in the answer; nor is any token in the log.
    const tokenHashes = (await served.quire.ctx.db.selectFrom('sessions').select('id').execute()).map((r) => r.id);
    for (const secret of [desk.token, phone.token, ...tokenHashes]) {
      expect(seen.text).not.toContain(secret);
      expect(logged).not.toContain(secret);
    }
  });

  it('ends another session: its cookie gets 1408 at its next call, this one carries on', async () => {
    await createAccount(served.quire.ctx, 'bo@example.org', password, 'free');
    const desk = await signIn('bo@example.org', password, FIREFOX_WINDOWS);
    const phone = await signIn('bo@example.org', password, SAFARI_IPHONE);
    const other = ((await desk.call(SESSIONS)).body.data as { session_id: string; current: boolean }[]).find((s) => !s.current)!;
    expect((await desk.call(`${SESSIONS}/revoke`, { session_id: other.session_id })).body.code).toBe(0);
    const next = await phone.call('/api/account/v1/me');
    expect(next.body.code).toBe(ErrorCode.SessionEnded);
    expect(phone.client.cookie).not.toContain('quire_session');
    expect((await desk.call('/api/account/v1/me')).body.code).toBe(0);
    expect(((await desk.call(SESSIONS)).body.data as unknown[]).length).toBe(1);
    // An id already ended is no longer one of the account's.
    expect((await desk.call(`${SESSIONS}/revoke`, { session_id: other.session_id })).body.code).toBe(ErrorCode.NoData);
  });

  it('ends its own session on request, signing this client out', async () => {
    await createAccount(served.quire.ctx, 'cy@example.org', password, 'free');
    const desk = await signIn('cy@example.org', password, FIREFOX_WINDOWS);
    const own = ((await desk.call(SESSIONS)).body.data as { session_id: string }[])[0]!;
    const ended = await desk.call(`${SESSIONS}/revoke`, { session_id: own.session_id });
    expect(ended.body.code).toBe(0);
    // The cookie went with the answer: the next call is a visitor's.
    expect(desk.client.cookie).not.toContain('quire_session');
    expect((await desk.call('/api/account/v1/me')).body.code).toBe(ErrorCode.NotLogin);
  });

  it('ends all the other sessions at once', async () => {
    await createAccount(served.quire.ctx, 'di@example.org', password, 'free');
    const desk = await signIn('di@example.org', password, FIREFOX_WINDOWS);
    const others = [await signIn('di@example.org', password, SAFARI_IPHONE), await signIn('di@example.org', password, CHROME_LINUX)];
    expect(((await desk.call(SESSIONS)).body.data as unknown[]).length).toBe(3);
    expect((await desk.call(`${SESSIONS}/revoke-others`, {})).body.code).toBe(0);
    for (const o of others) expect((await o.call('/api/account/v1/me')).body.code).toBe(ErrorCode.SessionEnded);
    const left = (await desk.call(SESSIONS)).body.data as { device: string; current: boolean }[];
    expect(left).toEqual([expect.objectContaining({ device: 'Firefox · Windows', current: true })]);
  });

  it("answers 2405 for another account's session id and ends nothing", async () => {
    await createAccount(served.quire.ctx, 'eve@example.org', password, 'free');
    await createAccount(served.quire.ctx, 'fay@example.org', password, 'free');
    const eve = await signIn('eve@example.org', password, CHROME_LINUX);
    const fay = await signIn('fay@example.org', password, FIREFOX_WINDOWS);
    const faySession = ((await fay.call(SESSIONS)).body.data as { session_id: string }[])[0]!.session_id;
    expect((await eve.call(`${SESSIONS}/revoke`, { session_id: faySession })).body.code).toBe(ErrorCode.NoData);
    expect((await eve.call(`${SESSIONS}/revoke`, { session_id: 'f'.repeat(32) })).body.code).toBe(ErrorCode.NoData);
    // Nor does revoke-others reach past the account.
    expect((await eve.call(`${SESSIONS}/revoke-others`, {})).body.code).toBe(0);
    expect((await fay.call('/api/account/v1/me')).body.code).toBe(0);
    expect(((await fay.call(SESSIONS)).body.data as unknown[]).length).toBe(1);
  });

  it('refuses an API key (3012) and a visitor (3001)', async () => {
    await createAccount(served.quire.ctx, 'gus@example.org', password, 'free');
    const gus = await signIn('gus@example.org', password, CHROME_LINUX);
    const key = (await gus.call('/api/account/v1/api-keys', { name: 'script' })).body.data.key as string;
    const script = browser('curl/8.5.0');
    const bearer = { authorization: `Bearer ${key}` };
    expect((await script.call(SESSIONS, undefined, bearer)).body.code).toBe(ErrorCode.SessionNeeded);
    expect((await script.call(`${SESSIONS}/revoke-others`, {}, bearer)).body.code).toBe(ErrorCode.SessionNeeded);
    const own = ((await gus.call(SESSIONS)).body.data as { session_id: string }[])[0]!.session_id;
    expect((await script.call(`${SESSIONS}/revoke`, { session_id: own }, bearer)).body.code).toBe(ErrorCode.SessionNeeded);
    expect((await browser(CHROME_LINUX).call(SESSIONS)).body.code).toBe(ErrorCode.NotLogin);
    expect((await gus.call('/api/account/v1/me')).body.code).toBe(0);
  });

  it('records a use at most once a minute', async () => {
    await createAccount(served.quire.ctx, 'hal@example.org', password, 'free');
    const hal = await signIn('hal@example.org', password, CHROME_LINUX);
    const { db } = served.quire.ctx;
    // As if the last use were two minutes ago: the next call records it, the one after does not.
    const twoMinutesAgo = Date.now() - 120_000;
    await db.updateTable('sessions').set({ last_used_at: twoMinutesAgo }).where('device', '=', 'Chrome · Linux').execute();
    const before = Date.now();
    const first = ((await hal.call(SESSIONS)).body.data as { last_used_at: number }[])[0]!.last_used_at;
    expect(first).toBeGreaterThanOrEqual(before);
    await db
      .updateTable('sessions')
      .set({ last_used_at: first - 30_000 })
      .where('last_used_at', '=', first)
      .execute();
    expect(((await hal.call(SESSIONS)).body.data as { last_used_at: number }[])[0]!.last_used_at).toBe(first - 30_000);
  });
});
