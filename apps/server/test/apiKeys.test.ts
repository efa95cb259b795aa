// Personal API keys as a script meets them: made by a signed-in account, used as a bearer on the
// tools API with the account's identity, refused for account management, revoked at once.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ErrorCode, MAX_API_KEYS } from '@quire/contracts';
import { Client, fileForm, quireForTests, type Envelope } from './harness.js';
import { makePdf, pageLabels, rotations } from './fixtures.js';
import { createAccount } from '../src/services/accounts.js';

const log = new PassThrough();
let logged = '';
log.on('data', (c: Buffer) => {
  logged += c.toString();
});
const served = quireForTests('api-keys', {}, log);
const { dir } = served;

interface Answer {
  status: number;
  body: Envelope;
}

/** A call as `client`, with `headers` added; GET without a body, POST with one. */
async function call(client: Client, pathname: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const init: RequestInit =
    body === undefined
      ? { headers }
      : { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
  const res = await client.raw(pathname, init);
  return { status: res.status, body: (await res.json()) as Envelope };
}

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const KEYS = '/api/account/v1/api-keys';

/** A confirmed account, signed in: a client holding its session cookie. */
async function signedIn(email: string, password = 'key-test-password') {
  const account = await createAccount(served.quire.ctx, email, password, 'free');
  const client = new Client(served.quire.url);
  expect((await call(client, '/api/account/v1/login', { email, password })).body.code).toBe(0);
  return { client, account, password };
}

/** A script with nothing but the key: no cookies kept between calls. */
const script = (key: string) => ({
  call: (pathname: string, body?: unknown) => call(new Client(served.quire.url), pathname, body, bearer(key)),
  upload: async (file: string) => {
    const res = await new Client(served.quire.url).raw('/api/tools/v1/file/stream', {
      method: 'POST',
      body: fileForm(file),
      headers: bearer(key),
    });
    return (await res.json()) as Envelope;
  },
});

describe('personal API keys', () => {
  let ada: Awaited<ReturnType<typeof signedIn>>;
  let key: string;
  let keyId: string;

  it('are made by a signed-in account, shown once, and stored only as a hash', async () => {
    ada = await signedIn('ada@example.org');
    const before = Date.now();
    const made = await call(ada.client, KEYS, { name: '  nightly backup  ' });
    expect(made.body.code).toBe(0);
    ({ key, key_id: keyId } = made.body.data);
    expect(key).toMatch(/^qk_[A-Za-z0-9_-]{43}$/);
    expect(made.body.data).toEqual({
      key_id: keyId,
      name: 'nightly backup',
      hint: key.slice(0, 7),
      created_at: expect.any(Number),
      last_used_at: null,
      key,
    });
    expect(made.body.data.created_at).toBeGreaterThanOrEqual(before);
    const stored = JSON.stringify(await served.quire.ctx.db.selectFrom('api_keys').selectAll().execute());
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(key.slice(3));
    // The list never shows the key again.
    const listed = await call(ada.client, KEYS);
    expect(listed.body.data).toEqual([
      { key_id: keyId, name: 'nightly backup', hint: key.slice(0, 7), created_at: made.body.data.created_at, last_used_at: null },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(key);
  });

  it('refuses a visitor (3001) and a name that is empty or too long', async () => {
    const visitor = await call(new Client(served.quire.url), KEYS, { name: 'x' });
    expect(visitor.status).toBe(401);
    expect(visitor.body.code).toBe(ErrorCode.NotLogin);
    expect((await call(ada.client, KEYS, { name: '   ' })).body).toMatchObject({
      code: ErrorCode.InvalidParams,
      msg: 'Give the key a name.',
    });
    expect((await call(ada.client, KEYS, { name: 'n'.repeat(65) })).body).toMatchObject({
      code: ErrorCode.InvalidParams,
      msg: 'The name must contain at most 64 characters.',
    });
  });

  it("act as the account on the tools API: upload, a tool, its result and download; the task is the account's", async () => {
    const pdf = await makePdf(path.join(dir, 'three.pdf'), 3, 'Key');
    const bot = script(key);
    const uploaded = await bot.upload(pdf);
    expect(uploaded.code).toBe(0);
    const created = await bot.call('/api/tools/v1/document/rotate', { file_id: uploaded.data.file_id, angle: 90, pages: '2' });
    expect(created.body.code).toBe(0);
    const taskId = created.body.data.task_id as string;
    // Polled with the key alone, as a script does.
    let entry: Envelope['data'];
    for (;;) {
      const result = await bot.call(`/api/tools/v1/get-task-result?task_id=${taskId}`);
      expect(result.body.code).toBe(0);
      entry = result.body.data[0];
      if (entry.is_done || entry.status !== 0) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(entry.status).toBe(0);
    const download = await new Client(served.quire.url).raw(`/api/tools/v1/document/download-doc?task_id=${taskId}`, {
      headers: bearer(key),
    });
    expect(download.status).toBe(200);
    const out = path.join(dir, 'rotated.pdf');
    fs.writeFileSync(out, Buffer.from(await download.arrayBuffer()));
    execFileSync('qpdf', ['--check', out]);
    expect(rotations(out)).toEqual([0, 90, 0]);
    expect(pageLabels(out)).toEqual(['Key Page 1', 'Key Page 2', 'Key Page 3']);

    // The session sees the key's task and file as its own; the database names the account as owner.
    expect((await call(ada.client, `/api/tools/v1/get-task-result?task_id=${taskId}`)).body.data[0].task_id).toBe(taskId);
    expect((await call(ada.client, `/api/tools/v1/document/info?file_id=${uploaded.data.file_id}`)).body.code).toBe(0);
    const row = await served.quire.ctx.db.selectFrom('tasks').select('owner_id').where('id', '=', taskId).executeTakeFirstOrThrow();
    expect(row.owner_id).toBe(`account:${ada.account.id}`);
    // A visitor does not.
    expect((await call(new Client(served.quire.url), `/api/tools/v1/get-task-result?task_id=${taskId}`)).body.code).toBe(ErrorCode.NoData);
  });

  it('show when they were last used, written at most once a minute', async () => {
    const { db } = served.quire.ctx;
    const [listed] = (await call(ada.client, KEYS)).body.data;
    expect(listed.last_used_at).toBeGreaterThan(Date.now() - 60_000);
    expect(listed.last_used_at).toBeLessThanOrEqual(Date.now());
    // Used 30 s ago: a call now writes nothing.
    const recent = Date.now() - 30_000;
    await db.updateTable('api_keys').set({ last_used_at: recent }).where('id', '=', keyId).execute();
    expect((await script(key).call('/api/tools/v1/config')).body.code).toBe(0);
    expect((await call(ada.client, KEYS)).body.data[0].last_used_at).toBe(recent);
    // Used over a minute ago: the call records itself.
    await db
      .updateTable('api_keys')
      .set({ last_used_at: Date.now() - 61_000 })
      .where('id', '=', keyId)
      .execute();
    const before = Date.now();
    expect((await script(key).call('/api/tools/v1/config')).body.code).toBe(0);
    expect((await call(ada.client, KEYS)).body.data[0].last_used_at).toBeGreaterThanOrEqual(before);
  });

  it('cannot manage the account: passwords, address, deletion, keys and sessions need the password (3012)', async () => {
    const bot = script(key);
    const refused = [
      await bot.call('/api/account/v1/change-password', { password: ada.password, new_password: 'taken over by a key' }),
      await bot.call('/api/account/v1/change-email', { password: ada.password, email: 'thief@example.org' }),
      await bot.call('/api/account/v1/delete', { password: ada.password }),
      await bot.call(KEYS, { name: 'another' }),
      await bot.call(KEYS),
      await bot.call(`${KEYS}/revoke`, { key_id: keyId }),
      await bot.call('/api/account/v1/me'),
      await bot.call('/api/account/v1/logout', {}),
      await bot.call('/api/tools/v1/account/refresh'),
    ];
    for (const answer of refused) {
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({
        code: ErrorCode.SessionNeeded,
        msg: 'An API key cannot do this. Please sign in with your password.',
        data: null,
      });
    }
    // Nothing changed: the old password still signs in, one key is listed.
    expect(
      (await call(new Client(served.quire.url), '/api/account/v1/login', { email: 'ada@example.org', password: ada.password })).body.code,
    ).toBe(0);
    expect((await call(ada.client, KEYS)).body.data).toHaveLength(1);
  });

  it('are refused by every call the OpenAPI document does not declare them for, and by no other', async () => {
    const doc = await (await fetch(`${served.quire.url}/api/docs`)).json();
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'qk_…' });
    const declared: string[] = [];
    const refused: string[] = [];
    const paths = Object.entries(doc.paths as Record<string, Record<string, { security: object[] }>>);
    for (const [p, ops] of paths)
      for (const [method, op] of Object.entries(ops)) {
        // Calls that need no sign-in at all (sign-up, links) take anything.
        if (op.security.length === 0) continue;
        const name = `${method.toUpperCase()} ${p}`;
        if (op.security.some((s) => 'apiKey' in s)) declared.push(name);
        // Refused before the request is read: no body needed to see it.
        const res = await new Client(served.quire.url).raw(p.replace(/\{\w+\}/g, 'x'), {
          method: method.toUpperCase(),
          headers: bearer(key),
        });
        if ((await res.json()).code === ErrorCode.SessionNeeded) refused.push(name);
      }
    expect(declared).toContain('POST /api/tools/v1/merge');
    expect(declared).toContain('GET /api/tools/v1/document/download-doc');
    expect(refused).toContain('POST /api/account/v1/change-password');
    expect(refused).toContain('POST /api/account/v1/api-keys');
    const all = paths.flatMap(([p, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.security.length > 0)
        .map(([method]) => `${method.toUpperCase()} ${p}`),
    );
    expect([...declared, ...refused].sort()).toEqual(all.sort());
  });

  it("answer 2405 for another account's key id, which keeps working", async () => {
    const bob = await signedIn('bob@example.org');
    const bobs = (await call(bob.client, KEYS, { name: 'bob' })).body.data;
    expect((await call(ada.client, `${KEYS}/revoke`, { key_id: bobs.key_id })).body.code).toBe(ErrorCode.NoData);
    expect((await call(ada.client, `${KEYS}/revoke`, { key_id: 'no-such-key' })).body.code).toBe(ErrorCode.NoData);
    expect((await script(bobs.key).call('/api/tools/v1/config')).body.code).toBe(0);
    expect((await call(bob.client, KEYS)).body.data.map((k: { key_id: string }) => k.key_id)).toEqual([bobs.key_id]);
  });

  it('stop at once when revoked: the next call answers 1408, as an unknown key does', async () => {
    expect((await call(ada.client, `${KEYS}/revoke`, { key_id: keyId })).body).toEqual({ code: 0, msg: 'success', data: null });
    for (const dead of [key, `qk_${'A'.repeat(43)}`, 'qk_short']) {
      const answer = await script(dead).call('/api/tools/v1/config');
      expect(answer.status).toBe(401);
      expect(answer.body.code).toBe(ErrorCode.SessionEnded);
    }
    expect((await call(ada.client, KEYS)).body.data).toEqual([]);
    expect((await call(ada.client, `${KEYS}/revoke`, { key_id: keyId })).body.code).toBe(ErrorCode.NoData);
  });

  it('end with a password change: a script holding a key must be given a new one (a thief of the old password keeps nothing)', async () => {
    const { key: held } = (await call(ada.client, KEYS, { name: 'held' })).body.data;
    expect((await script(held).call('/api/tools/v1/config')).body.code).toBe(0);
    const changed = await call(ada.client, '/api/account/v1/change-password', { password: ada.password, new_password: 'a newer password' });
    expect(changed.body.code).toBe(0);
    ada.password = 'a newer password';
    const answer = await script(held).call('/api/tools/v1/config');
    expect([answer.status, answer.body.code]).toEqual([401, ErrorCode.SessionEnded]);
    expect((await call(ada.client, KEYS)).body.data).toEqual([]);
  });

  it(`are at most ${MAX_API_KEYS} per account`, async () => {
    for (let i = 0; i < MAX_API_KEYS; i++) expect((await call(ada.client, KEYS, { name: `key ${i}` })).body.code).toBe(0);
    expect((await call(ada.client, KEYS, { name: 'one too many' })).body).toMatchObject({
      code: ErrorCode.InvalidParams,
      msg: `An account can hold at most ${MAX_API_KEYS} API keys: revoke one first.`,
    });
  });

  it('end with the account', async () => {
    const grace = await signedIn('grace@example.org');
    const { key: graceKey } = (await call(grace.client, KEYS, { name: 'ci' })).body.data;
    expect((await script(graceKey).call('/api/tools/v1/config')).body.code).toBe(0);
    expect((await call(grace.client, '/api/account/v1/delete', { password: grace.password })).body.code).toBe(0);
    expect((await script(graceKey).call('/api/tools/v1/config')).body.code).toBe(ErrorCode.SessionEnded);
    expect(await served.quire.ctx.db.selectFrom('api_keys').select('id').where('account_id', '=', grace.account.id).execute()).toEqual([]);
  });

  it('never reach the log', () => {
    expect(logged).toContain('/api/account/v1/api-keys');
    expect(logged).toContain('/api/tools/v1/document/rotate');
    expect(logged).not.toContain(key);
    expect(logged).not.toContain(key.slice(3));
    expect(logged.toLowerCase()).not.toContain('authorization');
  });
});
