// The message centre (spec §7.5): operators send messages and system notices to everyone, a plan or
// one account (from /admin's calls and the command line); accounts read theirs, visitors those to
// everyone under their client signature; unread counts per kind, filters, marking read.
import { ErrorCode } from '@quire/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/services/accounts.js';
import { Client, type Envelope, quireCommand as runQuireCommand, quireForTests, signedIn } from './harness.js';

const t = quireForTests('messages');
const ADMIN = '/api/account/v1/admin/messages';
const BASE = '/api/message/v1/';

/** A client, and for a visitor the client signature its browser keeps. */
interface Reader {
  client: Client;
  sign?: string;
}

async function json(client: Client, pathname: string, init: RequestInit = {}, sign?: string): Promise<Envelope> {
  const headers = { ...(init.headers as object), ...(sign && { 'x-client-sign': sign }) };
  return (await (await client.raw(pathname, { ...init, headers })).json()) as Envelope;
}
const postJson = (client: Client, pathname: string, body: unknown, sign?: string) =>
  json(client, pathname, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }, sign);

const unread = (r: Reader) => json(r.client, `${BASE}unread-exist`, {}, r.sign);
async function list(r: Reader, query = ''): Promise<Envelope> {
  return json(r.client, `${BASE}list?pid=4512&current=1&page_size=999${query}`, {}, r.sign);
}
const titles = async (r: Reader, query = '') => (await list(r, query)).data.list.map((m: { title: string }) => m.title);
const markRead = (r: Reader, body: unknown) => postJson(r.client, `${BASE}update-unread`, body, r.sign);

describe('the message centre', () => {
  let operator: Client;
  const send = (body: Record<string, unknown>) => postJson(operator, ADMIN, { template_type: 1, remark: '', ...body });

  beforeAll(async () => {
    await createAccount(t.quire.ctx, 'ops@example.org', 'operator password', 'free', 'operator');
    operator = new Client(t.quire.url);
    expect((await postJson(operator, '/api/account/v1/login', { email: 'ops@example.org', password: 'operator password' })).code).toBe(0);
  });

  it('reaches everyone, a plan or one account, newest first, with unread counts per kind and the filters', async () => {
    const ada: Reader = { client: await signedIn(t.quire.url, t.quire.ctx, 'ada@example.org', 'premium') };
    const bob: Reader = { client: await signedIn(t.quire.url, t.quire.ctx, 'bob@example.org', 'free') };
    const visitor: Reader = { client: new Client(t.quire.url), sign: 'a'.repeat(32) };

    const all = await send({
      audience: 'everyone',
      title: 'Welcome to Quire',
      remark: 'Every tool is free to try.',
      site_url: '/app/home',
      site_img: 'https://img.example.org/welcome.png',
    });
    expect(all.code).toBe(0);
    expect(all.data).toMatchObject({ audience: 'everyone', audience_name: '', read_count: 0, sender_email: 'ops@example.org' });
    expect((await send({ template_type: 2, audience: 'plan', plan: 'premium', title: 'Premium maintenance' })).code).toBe(0);
    expect((await send({ audience: 'account', email: 'ADA@example.org', title: 'Hello Ada' })).code).toBe(0);
    expect((await send({ template_type: 2, audience: 'everyone', title: 'System update' })).code).toBe(0);

    expect(await titles(ada)).toEqual(['System update', 'Hello Ada', 'Premium maintenance', 'Welcome to Quire']);
    expect(await titles(bob)).toEqual(['System update', 'Welcome to Quire']);
    expect(await titles(visitor)).toEqual(['System update', 'Welcome to Quire']);
    const first = (await list(visitor)).data.list[1];
    expect(first).toMatchObject({
      is_read: 0,
      template_type: 1,
      title: 'Welcome to Quire',
      remark: 'Every tool is free to try.',
      site_url: '/app/home',
      site_img: 'https://img.example.org/welcome.png',
      icon_url: '',
    });
    expect(Math.abs(first.create_time - Date.now() / 1000)).toBeLessThan(60);

    expect((await unread(ada)).data).toEqual({ total_unread_count: 4, unread_msg_count: 2, unread_system_count: 2 });
    expect((await unread(bob)).data).toEqual({ total_unread_count: 2, unread_msg_count: 1, unread_system_count: 1 });
    expect(await titles(ada, '&template_type=2')).toEqual(['System update', 'Premium maintenance']);
    expect(await titles(ada, '&template_type=1')).toEqual(['Hello Ada', 'Welcome to Quire']);

    // One read: its kind's count goes down, and the filters follow.
    const hello = (await list(ada)).data.list.find((m: { title: string }) => m.title === 'Hello Ada');
    const marked = await markRead(ada, { user_msg_ids: [hello.user_msg_id] });
    expect(marked.code).toBe(0);
    expect(marked.data).toEqual({ total_unread_count: 3, unread_msg_count: 1, unread_system_count: 2 });
    expect(await titles(ada, '&read_status=0')).toEqual(['System update', 'Premium maintenance', 'Welcome to Quire']);
    expect(await titles(ada, '&read_status=1')).toEqual(['Hello Ada']);
    expect(await titles(ada, '&read_status=0&template_type=1')).toEqual(['Welcome to Quire']);
    // Marking it again changes nothing; Bob's and the visitor's are their own.
    expect((await markRead(ada, { user_msg_ids: [hello.user_msg_id] })).code).toBe(0);
    expect((await unread(bob)).data.total_unread_count).toBe(2);

    // All at once.
    expect((await markRead(visitor, { is_all: true })).data).toEqual({
      total_unread_count: 0,
      unread_msg_count: 0,
      unread_system_count: 0,
    });
    expect((await list(visitor)).data.list.map((m: { is_read: number }) => m.is_read)).toEqual([1, 1]);
    expect((await unread(ada)).data.total_unread_count).toBe(3);

    // The operators' list counts who read each.
    const sent = (await json(operator, ADMIN)).data.messages;
    expect(sent.map((m: { title: string; read_count: number }) => [m.title, m.read_count])).toEqual([
      ['System update', 1],
      ['Hello Ada', 1],
      ['Premium maintenance', 0],
      ['Welcome to Quire', 1],
    ]);
    expect(sent[1]).toMatchObject({ audience: 'account', audience_name: 'ada@example.org' });
    expect(sent[2]).toMatchObject({ audience: 'plan', audience_name: 'premium', template_type: 2 });
  });

  it("answers 2405 for a message not addressed to the caller, or another recipient's", async () => {
    const carol: Reader = { client: await signedIn(t.quire.url, t.quire.ctx, 'carol@example.org', 'free') };
    const dan: Reader = { client: await signedIn(t.quire.url, t.quire.ctx, 'dan@example.org', 'free') };
    const visitor: Reader = { client: new Client(t.quire.url), sign: 'visitor-one-0123456789' };
    const other: Reader = { client: new Client(t.quire.url), sign: 'visitor-two-0123456789' };
    expect((await send({ audience: 'account', email: 'carol@example.org', title: 'For Carol only' })).code).toBe(0);
    const carols = (await list(carol)).data.list;
    const forCarol = carols.find((m: { title: string }) => m.title === 'For Carol only').user_msg_id;
    const everyone = carols.find((m: { title: string }) => m.title === 'Welcome to Quire').user_msg_id;

    // Carol's ids, in anyone else's hands: 2405, and nothing marked.
    for (const r of [dan, visitor, { client: new Client(t.quire.url) }])
      for (const id of [forCarol, everyone]) expect((await markRead(r, { user_msg_ids: [id] })).code).toBe(ErrorCode.NoData);
    const visitors = (await list(visitor)).data.list[0].user_msg_id;
    expect((await markRead(other, { user_msg_ids: [visitors] })).code).toBe(ErrorCode.NoData);
    expect((await markRead(carol, { user_msg_ids: [forCarol, 'nonsense'] })).code).toBe(ErrorCode.NoData);
    expect((await markRead(carol, { user_msg_ids: [`${forCarol.split('.')[0]}.${'0'.repeat(24)}`] })).code).toBe(ErrorCode.NoData);
    expect((await unread(carol)).data.unread_msg_count).toBe(2);
    expect((await unread(visitor)).data.total_unread_count).toBe(2);

    // A visitor without a signature has no messages; a malformed signature is refused.
    const bare: Reader = { client: new Client(t.quire.url) };
    expect((await list(bare)).data).toEqual({ list: [], total: 0, current: 1, page_size: 999 });
    expect((await unread(bare)).data.total_unread_count).toBe(0);
    for (const sign of ['short', 'has spaces in it, not allowed', 'x'.repeat(129)])
      expect((await unread({ client: bare.client, sign })).code).toBe(ErrorCode.InvalidParams);
  });

  it('follows the plan an account is on now, and pages at most 999', async () => {
    const erin: Reader = { client: await signedIn(t.quire.url, t.quire.ctx, 'erin@example.org', 'free') };
    expect(await titles(erin)).not.toContain('Premium maintenance');
    const users = await json(operator, '/api/account/v1/admin/users?q=erin');
    const userId = users.data.users[0].user_id;
    expect((await postJson(operator, '/api/account/v1/admin/plan', { user_id: userId, plan: 'premium' })).code).toBe(0);
    expect(await titles(erin)).toContain('Premium maintenance');
    // A message sent later to everyone reaches accounts made later too.
    const late: Reader = { client: await signedIn(t.quire.url, t.quire.ctx, 'late@example.org', 'free') };
    expect(await titles(late)).toContain('Welcome to Quire');

    // System update, Premium maintenance, Welcome to Quire: the second of pages of one.
    const page = await json(erin.client, `${BASE}list?current=2&page_size=1`);
    expect(page.data).toMatchObject({ total: 3, current: 2, page_size: 1 });
    expect(page.data.list.map((m: { title: string }) => m.title)).toEqual(['Premium maintenance']);
    expect((await json(erin.client, `${BASE}list?page_size=1000`)).code).toBe(ErrorCode.InvalidParams);
    expect((await json(erin.client, `${BASE}list`)).data.page_size).toBe(999);
    expect((await json(erin.client, `${BASE}list?pid=1`)).data.list).toEqual([]);
    expect((await json(erin.client, `${BASE}list?template_type=3`)).code).toBe(ErrorCode.InvalidParams);
  });

  it('lets only operators send, list and delete; an unknown address or message is 2405', async () => {
    const user: Reader = { client: await signedIn(t.quire.url, t.quire.ctx, 'frank@example.org', 'free') };
    const body = { template_type: 1, audience: 'everyone', title: 'Mine' };
    expect((await postJson(user.client, ADMIN, body)).code).toBe(ErrorCode.NotPermitted);
    expect((await json(user.client, ADMIN)).code).toBe(ErrorCode.NotPermitted);
    expect((await json(user.client, `${ADMIN}?message_id=x`, { method: 'DELETE' })).code).toBe(ErrorCode.NotPermitted);
    expect((await postJson(new Client(t.quire.url), ADMIN, body)).code).toBe(ErrorCode.NotLogin);

    expect((await send({ audience: 'account', email: 'nobody@example.org', title: 'Lost' })).code).toBe(ErrorCode.NoData);
    expect((await send({ audience: 'plan', title: 'No plan' })).code).toBe(ErrorCode.InvalidParams);
    expect((await send({ audience: 'everyone', title: 'Script', site_url: 'javascript:alert(1)' })).code).toBe(ErrorCode.InvalidParams);

    const gone = await send({ audience: 'everyone', title: 'Short-lived' });
    expect(await titles(user)).toContain('Short-lived');
    expect((await json(operator, `${ADMIN}?message_id=${gone.data.message_id}`, { method: 'DELETE' })).code).toBe(0);
    expect(await titles(user)).not.toContain('Short-lived');
    expect((await json(operator, `${ADMIN}?message_id=${gone.data.message_id}`, { method: 'DELETE' })).code).toBe(ErrorCode.NoData);
  });

  it('sends from the command line: messages:send to everyone, a plan or an address', async () => {
    const gina: Reader = { client: await signedIn(t.quire.url, t.quire.ctx, 'gina@example.org', 'ai') };
    const sent = await quireCommand([
      'messages:send',
      '--to',
      'ai',
      '--kind',
      'system',
      '--title',
      'AI plan news',
      '--remark',
      'Longer answers.',
      '--link',
      '/app/chat-pdf',
    ]);
    expect(sent.code).toBe(0);
    expect(sent.out).toMatch(/Sent the system notice [0-9a-f]{32} to ai\./);
    const notice = (await list(gina, '&template_type=2')).data.list[0];
    expect(notice).toMatchObject({ title: 'AI plan news', remark: 'Longer answers.', site_url: '/app/chat-pdf', template_type: 2 });
    expect((await quireCommand(['messages:send', '--to', 'gina@example.org', '--title', 'Just you'])).code).toBe(0);
    expect((await quireCommand(['messages:send', '--to', 'everyone', '--title', 'Hi all', '--image', '/og.png'])).code).toBe(0);
    expect((await titles(gina)).slice(0, 3)).toEqual(['Hi all', 'Just you', 'AI plan news']);
    const sentList = (await json(operator, ADMIN)).data.messages;
    expect(sentList[0]).toMatchObject({ title: 'Hi all', sender_email: '', site_img: '/og.png' });

    // The refusals change nothing, so they run side by side: six starts of the command line one after another outlast a minute under load.
    const [unknown, noTitle, noPlan] = await Promise.all([
      quireCommand(['messages:send', '--to', 'nobody@example.org', '--title', 'Lost']),
      quireCommand(['messages:send', '--to', 'everyone']),
      quireCommand(['messages:send', '--to', 'gold', '--title', 'x']),
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('2405');
    expect(noTitle.code).toBe(1);
    expect(noTitle.err).toContain('title');
    expect(noPlan.code).toBe(1);
  }, 120_000);
});

/** The operator's command line against the running server's data folder. */
const quireCommand = (args: string[]) => runQuireCommand(t.quire.ctx.config.dataDir, args);
