// Accounts end to end, as users and API clients meet them: mail goes through a real SMTP server
// (in this process) and the tests follow the links it carries; the operator's commands run as
// child processes against the running server's database.
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '@quire/contracts';
import { Client, quireCommand as runQuireCommand, quireForTests, type Envelope } from './harness.js';
import { makePdf } from './fixtures.js';
import { Mailbox, type ReceivedMail } from './mailbox.js';
import { until } from './serverProcess.js';
import { createAccount } from '../src/services/accounts.js';
import type { TextKey } from '../src/texts/words.js';

const mailbox = await Mailbox.start();
afterAll(() => mailbox.close());

const PUBLIC_URL = 'https://quire.example.org';
const log = new PassThrough();
let logged = '';
log.on('data', (c: Buffer) => {
  logged += c.toString();
});
const served = quireForTests('accounts', { smtpUrl: mailbox.url, publicUrl: PUBLIC_URL, accountRate: { perSecond: 1, burst: 100 } }, log);
const { client: anonymous, dir } = served;

interface Answer {
  status: number;
  body: Envelope;
  setCookies: string[];
}

/** A call of the account service; GET without a body, POST with one. */
async function account(client: Client, name: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const init: RequestInit =
    body === undefined
      ? { headers }
      : { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
  const res = await client.raw(name.startsWith('/') ? name : `/api/account/v1/${name}`, init);
  return { status: res.status, body: (await res.json()) as Envelope, setCookies: res.headers.getSetCookie() };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A client of its own, like another browser: no cookies yet. */
const newClient = () => new Client(served.quire.url);

/** The token a mailed link carries, after checking the link leads to the web app's page for it. */
/** The server's texts of `locale`, as the test reads them from their file. */
const serverTexts = (locale: string): Record<TextKey, string> =>
  JSON.parse(fs.readFileSync(new URL(`../src/texts/locales/${locale}.json`, import.meta.url), 'utf8'));

function linkToken(mail: ReceivedMail, page: string): string {
  expect(mail.links).toHaveLength(1);
  const link = new URL(mail.links[0]!);
  expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}/${page}`);
  // In the fragment, which a browser never sends to a server (nor to its log).
  expect(link.search).toBe('');
  return new URLSearchParams(link.hash.slice(1)).get('token')!;
}

/** Signs up, confirms the address by the mailed link and signs in. */
async function signedUp(email: string, password: string, client = newClient()) {
  expect((await account(client, 'register', { email, password })).body.code).toBe(0);
  const token = linkToken(await mailbox.take(email), 'account/verify-email');
  expect((await account(client, 'verify-email', { token })).body.code).toBe(0);
  const login = await account(client, 'login', { email, password });
  expect(login.body.code).toBe(0);
  return { client, token: login.body.data.token as string, user: login.body.data };
}

async function rotatedBy(client: Client, headers: Record<string, string> = {}) {
  const pdf = await makePdf(path.join(dir, 'two.pdf'), 2);
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(pdf)]), 'two.pdf');
  const uploaded = await client.call('file/stream', { method: 'POST', body: form, headers });
  expect(uploaded.code).toBe(0);
  const created = await client.call('document/rotate', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ file_id: uploaded.data.file_id, angle: 90, pages: 'all' }),
  });
  expect(created.code).toBe(0);
  return { fileId: uploaded.data.file_id as string, taskId: created.data.task_id as string };
}

const taskLookup = (client: Client, taskId: string, headers: Record<string, string> = {}) =>
  client.call(`get-task-result?task_id=${taskId}`, { headers });

describe('signing up and in', () => {
  const email = 'ada@example.org';
  const password = 'analytical engine';
  let ada: Client;
  let token: string;

  it('mails a link that confirms the address once; until then the right password is refused with 3003', async () => {
    ada = newClient();
    const registered = await account(ada, 'register', { email: ' Ada@Example.org ', password, first_name: 'Ada' });
    expect(registered.body).toEqual({ code: 0, msg: 'success', data: { email } });
    const first = await mailbox.take(email);
    expect(first.subject).toBe('Confirm your email address');
    linkToken(first, 'account/verify-email');

    const early = await account(ada, 'login', { email, password });
    expect(early.status).toBe(403);
    expect(early.body.code).toBe(ErrorCode.EmailNotVerified);
    // That attempt mailed a new link; the first still works, and confirming ends the other.
    const verifyToken = linkToken(await mailbox.take(email), 'account/verify-email');
    const firstToken = linkToken(first, 'account/verify-email');
    expect((await account(newClient(), 'verify-email', { token: firstToken })).body).toEqual({ code: 0, msg: 'success', data: { email } });
    expect((await account(ada, 'verify-email', { token: firstToken })).body.code).toBe(ErrorCode.LinkExpired);
    expect((await account(ada, 'verify-email', { token: verifyToken })).body.code).toBe(ErrorCode.LinkExpired);
  });

  it('answers a second sign-up of the address alike, and mails its owner instead of making another account', async () => {
    const again = await account(newClient(), 'register', { email, password: 'something else entirely' });
    expect(again.body).toEqual({ code: 0, msg: 'success', data: { email } });
    const mail = await mailbox.take(email);
    expect(mail.subject).toBe('You already have a Quire account');
    expect(mail.links).toEqual([]);
    expect((await account(newClient(), 'login', { email, password: 'something else entirely' })).body.code).toBe(ErrorCode.SignInFailed);
  });

  it('answers a wrong password and an unknown address alike', async () => {
    const wrong = await account(newClient(), 'login', { email, password: 'difference engine' });
    const unknown = await account(newClient(), 'login', { email: 'nobody@example.org', password });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ code: ErrorCode.SignInFailed, msg: 'Incorrect email or password.', data: null });
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.body).toEqual(wrong.body);
  });

  it('refuses a short password and a malformed address with their messages', async () => {
    const short = await account(newClient(), 'register', { email: 'short@example.org', password: 'seven77' });
    expect(short.body).toMatchObject({ code: ErrorCode.InvalidParams, msg: 'The password must contain between 8 and 128 characters.' });
    const malformed = await account(newClient(), 'register', { email: 'ada+x@example', password });
    expect(malformed.body).toMatchObject({ code: ErrorCode.InvalidParams, msg: 'ada+x@example is not a valid email address' });
  });

  it('signs in: a token, the user info, and an http-only SameSite cookie holding the same token', async () => {
    const login = await account(ada, 'login', { email, password });
    expect(login.body.code).toBe(0);
    token = login.body.data.token;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Object.keys(login.body.data).sort()).toEqual(
      [
        'token',
        'user_id',
        'ws_id',
        'ws_token',
        'email',
        'first_name',
        'last_name',
        'avatar',
        'pay',
        'have_permission',
        'ai',
        'career',
        'userType',
        'isVip',
        'isAiUser',
        'operator',
      ].sort(),
    );
    expect(login.body.data).toMatchObject({
      email,
      ws_token: token,
      first_name: 'Ada',
      pay: false,
      ai: false,
      userType: 'free',
      isVip: false,
    });
    expect(login.body.data.ws_id).toBe(login.body.data.user_id);
    const cookie = login.setCookies.find((c) => c.startsWith('quire_session='))!;
    expect(cookie).toContain(`quire_session=${token};`);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    // The database holds no token, only what it hashes to.
    const db = served.quire.ctx.db;
    const stored = JSON.stringify(await db.selectFrom('sessions').selectAll().execute());
    expect(stored).not.toContain(token);
    expect(JSON.stringify(await db.selectFrom('accounts').selectAll().execute())).not.toContain(password);
  });

  it('answers /me by the cookie and by a bearer token alike', async () => {
    const byCookie = await account(ada, 'me');
    const byBearer = await account(newClient(), 'me', undefined, bearer(token));
    expect(byCookie.body.code).toBe(0);
    expect(byCookie.body.data).toMatchObject({ email, ws_token: token });
    expect(byBearer.body).toEqual(byCookie.body);
    expect((await account(newClient(), 'me')).body.code).toBe(ErrorCode.NotLogin);
    // The spec's account/refresh: the same user info, and the session runs its whole 30 days again from now.
    const { db } = served.quire.ctx;
    await db
      .updateTable('sessions')
      .set({ expires_at: Date.now() + 60_000 })
      .execute();
    const refreshed = await account(ada, '/api/tools/v1/account/refresh');
    expect(refreshed.body).toEqual(byCookie.body);
    // Of the account's sessions (its confirmation signed in another browser), the refreshed one runs longest.
    const [session] = await db.selectFrom('sessions').select('expires_at').orderBy('expires_at', 'desc').execute();
    expect(session!.expires_at).toBeGreaterThan(Date.now() + 29 * 86_400_000);
  });

  it('makes the account the owner of what it makes: another account, a visitor, or a forged visitor cookie get 2405', async () => {
    const mine = await rotatedBy(newClient(), bearer(token));
    expect((await ada.waitTask(mine.taskId)).status).toBe(0);
    const row = await served.quire.ctx.db.selectFrom('tasks').select('owner_id').where('id', '=', mine.taskId).executeTakeFirstOrThrow();
    const me = await account(ada, 'me');
    expect(row.owner_id).toBe(`account:${me.body.data.user_id}`);

    const bob = await signedUp('bob@example.org', 'babbage12345');
    expect((await taskLookup(bob.client, mine.taskId)).code).toBe(ErrorCode.NoData);
    expect((await taskLookup(newClient(), mine.taskId)).code).toBe(ErrorCode.NoData);
    const forged = newClient();
    forged.cookie = `quire_vid=${me.body.data.user_id}`;
    expect((await taskLookup(forged, mine.taskId)).code).toBe(ErrorCode.NoData);
    // Nor does the account see a visitor's tasks.
    const visitors = await rotatedBy(anonymous);
    expect((await taskLookup(ada, visitors.taskId)).code).toBe(ErrorCode.NoData);
    expect((await taskLookup(anonymous, visitors.taskId)).code).toBe(0);
  });

  it('signs out: the token no longer works, neither as the cookie nor as a bearer (1408)', async () => {
    const cookie = ada.cookie;
    const out = await account(ada, 'logout', {});
    expect(out.body.code).toBe(0);
    expect(out.setCookies.some((c) => c.startsWith('quire_session=;'))).toBe(true);
    expect(ada.cookie).not.toContain('quire_session');
    const stale = newClient();
    stale.cookie = cookie;
    const byCookie = await account(stale, 'me');
    expect(byCookie.status).toBe(401);
    expect(byCookie.body.code).toBe(ErrorCode.SessionEnded);
    expect((await account(newClient(), 'me', undefined, bearer(token))).body.code).toBe(ErrorCode.SessionEnded);
    expect((await newClient().call('config', { headers: bearer(token) })).code).toBe(ErrorCode.SessionEnded);
    // The browser was told to drop the ended cookie: its next request is an anonymous visitor's.
    expect(stale.cookie).not.toContain('quire_session');
    expect((await stale.call('config')).code).toBe(0);
  });

  it('resets a forgotten password by the mailed link: every session ends, the new password works', async () => {
    const one = (await account(newClient(), 'login', { email, password })).body.data.token;
    const two = (await account(newClient(), 'login', { email, password })).body.data.token;
    const unknown = await account(newClient(), 'forgot-password', { email: 'nobody@example.org' });
    const asked = await account(newClient(), 'forgot-password', { email });
    expect(unknown.body).toEqual({ code: 0, msg: 'success', data: { email: 'nobody@example.org' } });
    expect(asked.body).toEqual({ code: 0, msg: 'success', data: { email } });
    expect(asked.status).toBe(unknown.status);
    const mail = await mailbox.take(email);
    expect(mail.subject).toBe('Reset your password');
    const resetToken = linkToken(mail, 'account/reset-password');
    expect(mailbox.mails.filter((m) => m.to.includes('nobody@example.org'))).toEqual([]);

    expect((await account(newClient(), 'reset-password', { token: resetToken, password: 'short' })).body.code).toBe(
      ErrorCode.InvalidParams,
    );
    expect((await account(newClient(), 'reset-password', { token: resetToken, password: 'a new password' })).body.code).toBe(0);
    expect((await account(newClient(), 'reset-password', { token: resetToken, password: 'another one!' })).body.code).toBe(
      ErrorCode.LinkExpired,
    );
    for (const old of [one, two]) expect((await account(newClient(), 'me', undefined, bearer(old))).body.code).toBe(ErrorCode.SessionEnded);
    expect((await account(newClient(), 'login', { email, password })).body.code).toBe(ErrorCode.SignInFailed);
    const login = await account(ada, 'login', { email, password: 'a new password' });
    expect(login.body.code).toBe(0);
    token = login.body.data.token;
  });

  it('changes the password: the current one is proved, every session ends, this client is signed in anew', async () => {
    const other = (await account(newClient(), 'login', { email, password: 'a new password' })).body.data.token;
    const wrong = await account(ada, 'change-password', { password: 'not it at all', new_password: 'third password' });
    expect(wrong.body.code).toBe(ErrorCode.WrongPassword);
    const changed = await account(ada, 'change-password', { password: 'a new password', new_password: 'third password' });
    expect(changed.body.code).toBe(0);
    for (const old of [token, other])
      expect((await account(newClient(), 'me', undefined, bearer(old))).body.code).toBe(ErrorCode.SessionEnded);
    token = changed.body.data.token;
    expect((await account(ada, 'me')).body.data.ws_token).toBe(token);
  });

  it('changes the address once the new one confirms it by the mailed link', async () => {
    const next = 'countess@example.org';
    expect((await account(ada, 'change-email', { password: 'third password', email: 'bob@example.org' })).body.code).toBe(
      ErrorCode.EmailInUse,
    );
    const asked = await account(ada, 'change-email', { password: 'third password', email: next });
    expect(asked.body).toEqual({ code: 0, msg: 'success', data: { email: next } });
    expect((await account(ada, 'me')).body.data.email).toBe(email);
    const confirmToken = linkToken(await mailbox.take(next), 'account/confirm-email');
    const notice = await mailbox.take(email);
    expect(notice.subject).toBe('Your email address is being changed');
    expect(notice.text).toContain(next);
    expect(notice.links).toEqual([]);
    // Opened in the browser that asked: it stays signed in, every other session ends.
    expect((await account(ada, 'confirm-email', { token: confirmToken })).body.code).toBe(0);
    expect((await account(ada, 'me')).body.data.email).toBe(next);
    expect((await account(newClient(), 'login', { email, password: 'third password' })).body.code).toBe(ErrorCode.SignInFailed);
    expect((await account(newClient(), 'login', { email: next, password: 'third password' })).body.code).toBe(0);
  });

  it('deletes the account with its files, tasks and their bytes on disk', async () => {
    const { fileId, taskId } = await rotatedBy(ada);
    expect((await ada.waitTask(taskId)).status).toBe(0);
    const { ctx } = served.quire;
    const me = (await account(ada, 'me')).body.data;
    const owner = `account:${me.user_id}`;
    const files = await ctx.db.selectFrom('files').select(['id', 'storage_key']).where('owner_id', '=', owner).execute();
    expect(files.map((f) => f.id)).toContain(fileId);
    const onDisk = [
      ...(await Promise.all(files.map((f) => ctx.storage.localPath(f.storage_key)))),
      await ctx.storage.localPath(`outputs/${taskId}`),
    ];
    for (const p of onDisk) expect(fs.existsSync(p)).toBe(true);

    expect((await account(ada, 'delete', { password: 'wrong password' })).body.code).toBe(ErrorCode.WrongPassword);
    const deleted = await account(ada, 'delete', { password: 'third password' });
    expect(deleted.body.code).toBe(0);
    for (const p of onDisk) expect(fs.existsSync(p)).toBe(false);
    expect(await ctx.db.selectFrom('files').select('id').where('owner_id', '=', owner).execute()).toEqual([]);
    expect(await ctx.db.selectFrom('tasks').select('id').where('owner_id', '=', owner).execute()).toEqual([]);
    expect((await account(newClient(), 'me', undefined, bearer(token))).body.code).toBe(ErrorCode.SessionEnded);
    expect((await account(newClient(), 'login', { email: me.email, password: 'third password' })).body.code).toBe(ErrorCode.SignInFailed);
  });

  it('logs no password, token or link of any of these calls', () => {
    expect(logged).toContain('/api/account/v1/login');
    for (const secret of ['analytical engine', 'a new password', 'third password', token]) expect(logged).not.toContain(secret);
    expect(logged).not.toContain('#token');
  });
});

/** The operator's command line against the running server's data folder. */
const quireCommand = (args: string[], stdin = '') => runQuireCommand(served.quire.ctx.config.dataDir, args, stdin);

describe('operator commands', () => {
  const email = 'grace@example.org';

  it('creates a confirmed account on a plan, its password read from standard input', async () => {
    const created = await quireCommand(['users:create', '--email', email, '--plan', 'premium'], 'cobol-rocks-1959\n');
    expect(created.err).toBe('');
    expect(created.code).toBe(0);
    expect(created.out).toContain(`Created ${email}`);
    const login = await account(newClient(), 'login', { email, password: 'cobol-rocks-1959' });
    expect(login.body.data).toMatchObject({
      email,
      pay: true,
      have_permission: true,
      ai: false,
      userType: 'pro',
      isVip: true,
      isAiUser: false,
    });

    const again = await quireCommand(['users:create', '--email', email], 'another-password\n');
    expect(again.code).toBe(1);
    expect(again.err).toContain('Email already in use.');
    // A password on the command line, where any local user can read it, is refused.
    const onCommandLine = await quireCommand(['users:create', '--email', 'cli@example.org', '--password', 'visible-to-ps']);
    expect(onCommandLine.code).toBe(1);
    expect(onCommandLine.err).toContain("Unknown option '--password'");
    expect(onCommandLine.err).toContain('the password is read from standard input');
    const short = await quireCommand(['users:create', '--email', 'short@example.org'], 'short\n');
    expect(short.code).toBe(1);
    expect(short.err).toContain('The password must contain between 8 and 128 characters.');
  }, 60_000);

  it("changes an account's plan, which its session sees at once", async () => {
    const token = (await account(newClient(), 'login', { email, password: 'cobol-rocks-1959' })).body.data.token;
    const changed = await quireCommand(['users:plan', email, 'ai']);
    expect(changed.code).toBe(0);
    const me = await account(newClient(), 'me', undefined, bearer(token));
    expect(me.body.data).toMatchObject({ pay: false, ai: true, userType: 'AI purchase', isVip: false, isAiUser: true });
    expect((await quireCommand(['users:plan', 'nobody@example.org', 'free'])).code).toBe(1);
    expect((await quireCommand(['users:plan', email, 'platinum'])).code).toBe(1);
  }, 60_000);

  it('gives an account a new password, read from standard input, and ends its sessions', async () => {
    const token = (await account(newClient(), 'login', { email, password: 'cobol-rocks-1959' })).body.data.token;
    const replaced = await quireCommand(['users:password', email], 'flow-matic-1955\n');
    expect(replaced.code).toBe(0);
    expect((await account(newClient(), 'me', undefined, bearer(token))).body.code).toBe(ErrorCode.SessionEnded);
    expect((await account(newClient(), 'login', { email, password: 'cobol-rocks-1959' })).body.code).toBe(ErrorCode.SignInFailed);
    expect((await account(newClient(), 'login', { email, password: 'flow-matic-1955' })).body.code).toBe(0);
  }, 60_000);

  it('confirms an address by hand, for a server that sends no mail', async () => {
    await account(newClient(), 'register', { email: 'hopper@example.org', password: 'nanosecond-wire' });
    await mailbox.take('hopper@example.org');
    expect((await account(newClient(), 'login', { email: 'hopper@example.org', password: 'nanosecond-wire' })).body.code).toBe(
      ErrorCode.EmailNotVerified,
    );
    await mailbox.take('hopper@example.org');
    expect((await quireCommand(['users:verify', 'hopper@example.org'])).code).toBe(0);
    expect((await account(newClient(), 'login', { email: 'hopper@example.org', password: 'nanosecond-wire' })).body.code).toBe(0);
  }, 60_000);
});

/** Bytes under a path of the data folder: a file, or a folder's files. */
function bytesOnDisk(p: string): number {
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.size;
  return fs.readdirSync(p).reduce((sum, name) => sum + bytesOnDisk(path.join(p, name)), 0);
}

describe("the operator's calls", () => {
  const boss = 'boss@example.org';
  const bossPassword = 'operator password';
  const infoLines: string[] = [];
  beforeAll(() => {
    vi.spyOn(console, 'info').mockImplementation((line: string) => infoLines.push(line));
  });
  afterAll(() => vi.restoreAllMocks());

  it('answer 3001 without a session and 3015 to an account that is not an operator; users:operator grants and takes it back', async () => {
    const created = await quireCommand(['users:create', '--email', boss, '--operator'], `${bossPassword}\n`);
    expect(created.err).toBe('');
    expect(created.out).toContain('an operator');
    const mallory = await signedUp('mallory@example.org', 'not an operator');
    expect(mallory.user.operator).toBe(false);

    const anonymousList = await account(newClient(), 'admin/users');
    expect(anonymousList.status).toBe(401);
    expect(anonymousList.body.code).toBe(ErrorCode.NotLogin);
    const refused = await account(mallory.client, 'admin/users');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: ErrorCode.NotPermitted, msg: 'You do not have permission to do this.' });
    const selfUpgrade = await account(mallory.client, 'admin/plan', { user_id: mallory.user.user_id, plan: 'premium' });
    expect(selfUpgrade.body.code).toBe(ErrorCode.NotPermitted);
    expect((await account(mallory.client, 'me')).body.data.pay).toBe(false);
    expect((await account(newClient(), 'admin/plan', { user_id: mallory.user.user_id, plan: 'premium' })).body.code).toBe(
      ErrorCode.NotLogin,
    );

    expect((await quireCommand(['users:operator', 'mallory@example.org', 'on'])).out).toContain('is an operator');
    expect((await account(mallory.client, 'me')).body.data.operator).toBe(true);
    expect((await account(mallory.client, 'admin/users')).body.code).toBe(0);
    expect((await quireCommand(['users:operator', 'mallory@example.org', 'off'])).code).toBe(0);
    expect((await account(mallory.client, 'admin/users')).body.code).toBe(ErrorCode.NotPermitted);
    const maybe = await quireCommand(['users:operator', 'mallory@example.org', 'maybe']);
    expect(maybe.code).toBe(1);
    expect(maybe.err).toContain('users:operator EMAIL on|off');
  }, 180_000);

  it('list accounts with what each holds now, by part of the address, and change a plan its user sees at once', async () => {
    const since = Date.now();
    const operator = (await account(newClient(), 'login', { email: boss, password: bossPassword })).body.data;
    expect(operator.operator).toBe(true);
    const op = bearer(operator.token);
    const carol = await signedUp('carol@example.org', 'carol password');
    const { fileId, taskId } = await rotatedBy(carol.client);
    expect((await carol.client.waitTask(taskId)).status).toBe(0);

    const found = await account(newClient(), 'admin/users?q=CAROL', undefined, op);
    expect(found.body.data).toMatchObject({ total: 1, page: 1, page_size: 20 });
    const [row] = found.body.data.users;
    const { ctx } = served.quire;
    const file = await ctx.db.selectFrom('files').select('storage_key').where('id', '=', fileId).executeTakeFirstOrThrow();
    const stored =
      bytesOnDisk(await ctx.storage.localPath(file.storage_key)) + bytesOnDisk(await ctx.storage.localPath(`outputs/${taskId}`));
    expect(row).toMatchObject({
      user_id: carol.user.user_id,
      email: 'carol@example.org',
      plan: 'free',
      operator: false,
      verified: true,
      files: 1,
      tasks: 1,
      bytes: stored,
    });
    expect(row.last_active_at).toBeGreaterThanOrEqual(since);
    const everyone = (await account(newClient(), 'admin/users', undefined, op)).body.data;
    expect(everyone.total).toBe(
      await ctx.db
        .selectFrom('accounts')
        .select('id')
        .execute()
        .then((r) => r.length),
    );
    expect(everyone.users[0].email).toBe('carol@example.org');
    expect((await account(newClient(), 'admin/users?page=2', undefined, op)).body.data.users).toEqual([]);
    expect((await account(newClient(), 'admin/users?page=0', undefined, op)).body.code).toBe(ErrorCode.InvalidParams);

    const changed = await account(newClient(), 'admin/plan', { user_id: carol.user.user_id, plan: 'premium_ai' }, op);
    expect(changed.body).toEqual({ code: 0, msg: 'success', data: { user_id: carol.user.user_id, plan: 'premium_ai' } });
    expect((await account(carol.client, 'me')).body.data).toMatchObject({
      pay: true,
      have_permission: true,
      ai: true,
      userType: 'AI and pro',
      isVip: true,
      isAiUser: true,
    });
    expect(infoLines).toContain(
      `Operator ${boss} (${operator.user_id}) moved carol@example.org (${carol.user.user_id}) from the free plan to premium_ai.`,
    );
    for (const secret of [bossPassword, 'carol password', operator.token, carol.token]) {
      expect(infoLines.join('\n')).not.toContain(secret);
      expect(logged).not.toContain(secret);
    }
    expect((await account(newClient(), 'admin/plan', { user_id: 'no-such-account', plan: 'ai' }, op)).body.code).toBe(ErrorCode.NoData);
    expect((await account(newClient(), 'admin/plan', { user_id: carol.user.user_id, plan: 'gold' }, op)).body.code).toBe(
      ErrorCode.InvalidParams,
    );
  }, 60_000);
});

describe('a session token in the web address, and links in the language of the page', () => {
  it("makes a session link's token this browser's session, and refuses one that opens none with 3004", async () => {
    const dora = await signedUp('dora@example.org', 'dora password');
    const link = (await account(dora.client, 'session-link', {})).body.data.token as string;
    const browser = newClient();
    const adopted = await account(browser, 'session', { token: link });
    expect(adopted.body.data).toMatchObject({ email: 'dora@example.org' });
    expect(adopted.setCookies.join(';')).toContain('HttpOnly');
    expect((await account(browser, 'me')).body.data.user_id).toBe(dora.user.user_id);
    // The page that brought it in its address is logged without it.
    await browser.raw(`/app/home?token=${link}`);
    expect(logged).toContain('/app/home?token=***');
    expect(logged).not.toContain(link);
    const unknown = await account(newClient(), 'session', { token: 'A'.repeat(43) });
    expect(unknown.body.code).toBe(ErrorCode.LinkExpired);
    expect(unknown.setCookies.join(';')).not.toContain('quire_session');
  });

  it('mails sign-up, reset and new-address links to the pages of the language the request names', async () => {
    const email = 'emil@example.org';
    const password = 'emil password';
    await account(newClient(), 'register', { email, password, lang: 'de' });
    const signUp = await mailbox.take(email);
    const token = linkToken(signUp, 'de/account/verify-email');
    // In the page's language too, the link's lifetime worded by the locale: "48 Stunden".
    expect(signUp.subject).toBe(serverTexts('de-de')['mail.verify.subject']);
    expect(signUp.text).toContain(serverTexts('de-de')['mail.link.footer'].replace('{duration}', '48 Stunden'));
    await account(newClient(), 'verify-email', { token });
    await account(newClient(), 'forgot-password', { email, lang: 'es' });
    const reset = await mailbox.take(email);
    linkToken(reset, 'es/account/reset-password');
    expect(reset.subject).toBe(serverTexts('es-es')['mail.reset.subject']);
    expect(reset.text).toContain(serverTexts('es-es')['mail.link.footer'].replace('{duration}', '1 hora'));
    const emil = newClient();
    await account(emil, 'login', { email, password });
    await account(emil, 'change-email', { password, email: 'emil@example.net', lang: 'jp' });
    const confirm = await mailbox.take('emil@example.net');
    linkToken(confirm, 'jp/account/confirm-email');
    expect(confirm.subject).toBe(serverTexts('ja-jp')['mail.email.subject']);
    expect((await mailbox.take(email)).text).toContain(
      serverTexts('ja-jp')['mail.emailChanging.text'].replace('{email}', 'emil@example.net'),
    );
    expect((await account(newClient(), 'forgot-password', { email, lang: 'xx' })).body.code).toBe(ErrorCode.InvalidParams);
  });
});

describe('sign-in attempts', () => {
  // Three attempts per account and address at once, six per IP address, refilled at one an hour.
  // Addresses come from X-Forwarded-For, believed from the loopback.
  const limited = quireForTests('signin-limits', {
    smtpUrl: mailbox.url,
    accountRate: { perSecond: 1 / 3600, burst: 3 },
    ipRateFactor: 2,
    trustProxy: 'loopback',
  });
  const attempt = async (email: string, password: string, from?: string) => {
    const res = await limited.client.raw('/api/account/v1/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(from && { 'x-forwarded-for': from }) },
      body: JSON.stringify({ email, password }),
    });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Envelope };
  };

  it('lock an account out at the guessing address only: the owner signs in from another', async () => {
    await createAccount(limited.quire.ctx, 'lin@example.org', 'right password', 'free');
    for (let i = 0; i < 3; i++) expect((await attempt('lin@example.org', `guess ${i}`)).body.code).toBe(ErrorCode.SignInFailed);
    const right = await attempt('lin@example.org', 'right password');
    const wrong = await attempt('lin@example.org', 'guess 4');
    for (const refused of [right, wrong]) {
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ code: ErrorCode.Busy, msg: 'The service is busy. Please try again later.', data: null });
      // About an hour until the next attempt: less by the seconds the attempts above took.
      expect(Number(refused.retryAfter)).toBeGreaterThan(3000);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(3600);
    }
    expect((await attempt('lin@example.org', 'right password', '198.51.100.60')).body.code).toBe(0);
  });

  it('are limited per client address, across accounts and unknown addresses alike', async () => {
    // Three of the IP address's six went to the locked account above.
    for (const email of ['a@example.org', 'b@example.org', 'c@example.org'])
      expect((await attempt(email, 'some password')).body.code).toBe(ErrorCode.SignInFailed);
    const refused = await attempt('d@example.org', 'some password');
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe(ErrorCode.Busy);
  });
});

describe('sign-in attempts from many addresses', () => {
  // One attempt per account and address, ten per account from anywhere (ten times the rate).
  const limited = quireForTests('signin-spread', { accountRate: { perSecond: 1 / 3600, burst: 1 }, trustProxy: 'loopback' });

  it('are limited per account from anywhere at ten times the rate: guessing from many addresses stays bounded', async () => {
    await createAccount(limited.quire.ctx, 'mo@example.org', 'right password', 'free');
    const attempt = async (password: string, from: string) => {
      const res = await limited.client.raw('/api/account/v1/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': from },
        body: JSON.stringify({ email: 'mo@example.org', password }),
      });
      return { status: res.status, body: (await res.json()) as Envelope };
    };
    for (let i = 0; i < 10; i++) expect((await attempt(`guess ${i}`, `203.0.113.${100 + i}`)).body.code).toBe(ErrorCode.SignInFailed);
    const refused = await attempt('right password', '203.0.113.200');
    expect([refused.status, refused.body.code]).toEqual([429, ErrorCode.Busy]);
  });
});

describe('without mail', () => {
  const warnings: string[] = [];
  beforeAll(() => {
    vi.spyOn(console, 'warn').mockImplementation((line: string) => warnings.push(line));
  });
  afterAll(() => vi.restoreAllMocks());
  const mailless = quireForTests('no-mail', { smtpUrl: '' });

  it('signs up all the same, and tells the operator which mail was not sent, without its link', async () => {
    const signUp = await account(new Client(mailless.quire.url), 'register', { email: 'lone@example.org', password: 'no mail here' });
    expect(signUp.body.code).toBe(0);
    await until('the warning', () => warnings.length > 0);
    expect(warnings).toEqual(['Mail is not configured (QUIRE_SMTP_URL): "Confirm your email address" to lone@example.org was not sent.']);
    const links = await mailless.quire.ctx.db.selectFrom('account_tokens').select('purpose').execute();
    expect(links).toEqual([{ purpose: 'verify' }]);
  });
});
