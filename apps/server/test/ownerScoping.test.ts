// Owner scoping, generated from the OpenAPI document the server publishes: every operation with an
// id among its parameters or body fields (file_id, file_ids, task_id, multi_id, upload_id, key_id,
// session_id, share_id, source_user_id, signature_id, the cloud's folder ids, the AI's conversation_id, note_id and
// stream_id, an operator's banner's resource_id and message's message_id, the message centre's
// user_msg_ids, and any new one named so) is called
// by every kind of owner B — an anonymous visitor, a signed-in account, an account's API key — with
// the ids of objects that every kind of owner A made. Each
// answer must be 2405, or the refusal of a call B may not make at all (3001, 3012). A new call is
// covered the day it is declared; an id field the generator cannot fill fails the test.
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, defaultLimits } from '@quire/contracts';
import { randomBytes } from 'node:crypto';
import { Client, fileForm, quireForTests } from './harness.js';
import { makePdf } from './fixtures.js';
import { createAccount } from '../src/services/accounts.js';

// Generous limits: hundreds of refused calls come from one address within seconds. Free accounts
// share here, so that each account has a share whose id the others try.
const served = quireForTests('owner-scoping', {
  taskRate: { perSecond: 100, burst: 5000 },
  uploadRate: { perSecond: 100, burst: 5000 },
  limits: { ...defaultLimits, free: { ...defaultLimits.free, sharesPerDay: 10 } },
});

type Kind = 'visitor' | 'account' | 'api key';
const KINDS: Kind[] = ['visitor', 'account', 'api key'];

type Send = (pathname: string, init?: RequestInit) => Promise<Response>;

/** A client acting as one owner (its cookies, or its key as a bearer), and an account's key and session ids. */
interface Owner {
  send: Send;
  keyId?: string;
  sessionId?: string;
  /** The account's id (an operator's calls name accounts by it). */
  userId?: string;
}

/** What an owner made, by the kind of id that names it. */
type Made = Record<string, string>;

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is JSON read from the server; the walk below checks what it uses
type Json = any;

interface Operation {
  method: string;
  path: string;
  op: Json;
}

/** file_id, file_ids, task_id, multi_id, key_id…: the kind is what precedes `_id`; a bare `id` names no kind. */
const ID_FIELD = /^(?:(\w+)_)?ids?$/;

async function post(send: Send, pathname: string, body: unknown) {
  const res = await send(pathname, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return res.json();
}

/** A visitor; or an account signed in with a session, which makes a key and acts by it for kind `api key`. */
async function owner(kind: Kind, email: string): Promise<Owner> {
  const client = new Client(served.quire.url);
  const send: Send = (p, init) => client.raw(p, init);
  // A visitor's browser sends the client signature it keeps, for the message centre.
  const sign = randomBytes(16).toString('hex');
  if (kind === 'visitor')
    return { send: (p, init = {}) => client.raw(p, { ...init, headers: { ...(init.headers as object), 'x-client-sign': sign } }) };
  const password = 'owner-scoping-password';
  await createAccount(served.quire.ctx, email, password, 'free');
  const login = await post(send, '/api/account/v1/login', { email, password });
  expect(login.code).toBe(0);
  const userId: string = login.data.user_id;
  const made = await post(send, '/api/account/v1/api-keys', { name: 'scoping' });
  expect(made.code).toBe(0);
  const sessions = await (await send('/api/account/v1/sessions')).json();
  const sessionId: string = sessions.data.find((s: { current: boolean }) => s.current).session_id;
  if (kind === 'account') return { send, keyId: made.data.key_id, sessionId, userId };
  // The key alone, no cookie: a script's requests.
  const bare = new Client(served.quire.url);
  return {
    keyId: made.data.key_id,
    sessionId,
    userId,
    send: (p, init = {}) => bare.raw(p, { ...init, headers: { ...(init.headers as object), authorization: `Bearer ${made.data.key}` } }),
  };
}

/** The code of an answer: its envelope's, or 0 for a file sent. */
async function codeOf(res: Response): Promise<number> {
  if (!res.headers.get('content-type')?.includes('application/json')) return res.ok ? 0 : -res.status;
  return (await res.json()).code;
}

/**
 * A file, a finished task of a quick tool (its multi_id too), an unfinished upload, and for accounts
 * a key, a session, a share of the task, a saved signature, a conversation, a note and a stream about its file, and the
 * account itself (also as a share's source_user_id).
 */
async function makeObjects(o: Owner, pdf: string): Promise<Made> {
  const uploaded = await (await o.send('/api/tools/v1/file/stream', { method: 'POST', body: fileForm(pdf) })).json();
  expect(uploaded.code).toBe(0);
  const task = await post(o.send, '/api/tools/v1/document/rotate', { file_id: uploaded.data.file_id, angle: 90, pages: 'all' });
  expect(task.code).toBe(0);
  for (;;) {
    const [entry] = (await (await o.send(`/api/tools/v1/get-task-result?task_id=${task.data.task_id}`)).json()).data;
    if (entry.is_done || entry.status !== 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const upload = await post(o.send, '/api/tools/v1/file/upload-policy', {
    filename: 'part.pdf',
    file_size: 2_000_000,
    md5_code: '0'.repeat(32),
  });
  expect(upload.code).toBe(0);
  let share: string | undefined;
  let signature: string | undefined;
  if (o.userId) {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    const saved = await post(o.send, '/api/tools/v1/file/sign', { kind: 'drawn', image: `data:image/png;base64,${png}` });
    expect(saved.code).toBe(0);
    signature = saved.data.id;
    const shared = await post(o.send, '/api/tools/v1/share/share-file', { share_key: task.data.task_id, share_type: 2, file_type: 2 });
    expect(shared.code).toBe(0);
    share = (await (await o.send('/api/tools/v1/share/list')).json()).data.shares[0].share_id;
  }
  return {
    ...(o.userId && (await makeCloudObjects(o, pdf))),
    ...(o.userId && (await makeAiObjects(o, uploaded.data.file_id))),
    file: uploaded.data.file_id,
    task: task.data.task_id,
    multi: task.data.multi_id,
    upload: upload.data.upload_id,
    ...(o.keyId && { key: o.keyId }),
    ...(o.sessionId && { session: o.sessionId }),
    ...(o.userId && { user: o.userId, source_user: o.userId }),
    ...(share && { share }),
    ...(signature && { signature }),
  };
}

/** An account's cloud folder and a cloud file in it (its own upload, moved into the cloud). */
async function makeCloudObjects(o: Owner, pdf: string): Promise<Made> {
  const folder = await post(o.send, '/api/cloud/v1/directory/create', { name: 'Scoped' });
  expect(folder.code).toBe(0);
  const uploaded = await (await o.send('/api/tools/v1/file/stream', { method: 'POST', body: fileForm(pdf) })).json();
  const res = await o.send('/api/cloud/v1/file/create', {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ upload_file_id: uploaded.data.file_id, folder_id: folder.data.folder_id }),
  });
  const added = await res.json();
  expect(added.code).toBe(0);
  return { cloudFile: added.data.file_id, folder: folder.data.folder_id };
}

/** A chat about an account's tool file: its conversation, a note on it and a stream that has ended. */
async function makeAiObjects(o: Owner, fileId: string): Promise<Made> {
  for (;;) {
    const info = await post(o.send, '/api/ai/v2/file/info', { file_id: fileId });
    expect(info.code).toBe(0);
    if (info.data.status === 'success') break;
    expect(info.data.status).not.toBe('failed');
    await new Promise((r) => setTimeout(r, 20));
  }
  const asked = await post(o.send, '/api/ai/v2/chat/completion', { file_id: fileId, question: 'Which page?' });
  expect(asked.code).toBe(0);
  const note = await post(o.send, '/api/ai/v2/note/add', { file_id: fileId, page: 1, text: 'Mine' });
  expect(note.code).toBe(0);
  const streamed = await o.send('/api/ai/v2/chat/completion/stream', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ conversation_id: asked.data.conversation_id, question: 'Which page again?' }),
  });
  await streamed.text();
  return { conversation: asked.data.conversation_id, note: note.data.note_id, stream: streamed.headers.get('x-quire-stream-id')! };
}

/**
 * The ids an operation's fields name: the cloud's calls name cloud files by file_id and folders by
 * folder_id, parent_id and to_folder_id, and take a tool file as upload_file_id; the saved
 * signatures' calls name a signature by a bare id. A visitor has no cloud and no saved signature.
 */
function idsFor({ path: p }: Operation, made: Made): Made {
  if (p.startsWith('/api/tools/v1/file/sign')) return made.signature ? { ...made, '': made.signature } : made;
  if (!p.startsWith('/api/cloud/')) return made;
  const { cloudFile, folder, file, ...rest } = made;
  return {
    ...rest,
    ...(file && { upload_file: file }),
    ...(cloudFile && { file: cloudFile }),
    ...(folder && { folder, parent: folder, to_folder: folder }),
  };
}

/** Every operation of the document, with the id kinds it takes (unfillable ones reported). */
function operationsOf(doc: Json): Operation[] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([p, ops]) =>
    Object.entries(ops as Record<string, Json>).map(([method, op]) => ({ method: method.toUpperCase(), path: p, op })),
  );
}

/** The id-like names anywhere in a schema or parameter list. */
function idFieldsOf(schema: Json, name = ''): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const own = ID_FIELD.test(name) ? [name] : [];
  const nested = [
    ...Object.entries((schema.properties ?? {}) as Record<string, Json>).flatMap(([k, s]) => idFieldsOf(s, k)),
    ...[schema.items, ...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])].flatMap((s) => idFieldsOf(s, name)),
  ];
  return [...new Set([...own, ...nested])];
}

function idFieldsOfOperation({ op }: Operation): string[] {
  const params = ((op.parameters ?? []) as Json[]).flatMap((p) => idFieldsOf(p.schema, p.name));
  const bodies = Object.values((op.requestBody?.content ?? {}) as Record<string, Json>).flatMap((c) => idFieldsOf(c.schema));
  return [...new Set([...params, ...bodies])];
}

/** A value the schema accepts, ids taken from `made`: defaults, constants, first choices and least numbers as declared. */
function example(schema: Json, name: string, made: Made): unknown {
  const id = ID_FIELD.exec(name);
  if (id) {
    const value = made[id[1] ?? ''];
    if (value === undefined) throw new Error(`no ${name} to fill`);
    return schema.type === 'array' ? Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => value) : value;
  }
  // A list gets one entry even where it may be empty: a call may need one somewhere (redaction: an area or a text).
  if (schema.type === 'array') return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => example(schema.items, name, made));
  if (schema.default !== undefined) return schema.default;
  // A field with a format no generator makes (a data URL) says what it takes by its example.
  if (schema.examples?.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const choice = schema.anyOf ?? schema.oneOf;
  if (choice) return example(choice[0], name, made);
  switch (Array.isArray(schema.type) ? schema.type[0] : schema.type) {
    case 'object':
      return Object.fromEntries(
        Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([k, s]) => [k, example(s, k, made)]),
      );
    case 'string':
      return '1'.repeat(Math.max(1, schema.minLength ?? 1));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** The request of the operation, every parameter and body field filled, ids from `made`. */
function requestOf({ method, path: p, op }: Operation, made: Made): { url: string; init: RequestInit } {
  const params = (op.parameters ?? []) as Json[];
  let url = p;
  const query = new URLSearchParams();
  for (const param of params) {
    const value = String(example(param.schema, param.name, made));
    if (param.in === 'path') url = url.replace(`{${param.name}}`, encodeURIComponent(value));
    else if (param.in === 'query') query.set(param.name, value);
    else throw new Error(`${param.in} parameters are not generated`);
  }
  if (query.size) url += `?${query}`;
  const content = op.requestBody?.content ?? {};
  if (content['application/json'])
    return {
      url,
      init: {
        method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(example(content['application/json'].schema, '', made)),
      },
    };
  if (content['application/octet-stream'])
    return { url, init: { method, headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array([0x25]) } };
  if (Object.keys(content).length) throw new Error(`a body of ${Object.keys(content).join(', ')} is not generated`);
  return { url, init: { method } };
}

/** What the document says B may call: `{}` is the anonymous visitor, `[]` no sign-in at all. */
function refusalFor(op: Json, kind: Kind): number | undefined {
  const security = (op.security ?? []) as Json[];
  if (security.length === 0) return undefined;
  const accepts = (req: Json) =>
    kind === 'visitor'
      ? Object.keys(req).length === 0
      : kind === 'api key'
        ? 'apiKey' in req
        : 'session' in req || Object.keys(req).length === 0;
  if (!security.some(accepts)) return kind === 'api key' ? ErrorCode.SessionNeeded : ErrorCode.NotLogin;
  // B is never an operator: an operator's call refuses it before looking at any id.
  return op['x-operators-only'] ? ErrorCode.NotPermitted : undefined;
}

/** A top banner an operator published, and a message it sent to everyone: their ids. */
async function operatorsObjects(): Promise<{ resource: string; message: string }> {
  const password = 'owner-scoping-password';
  await createAccount(served.quire.ctx, 'operator@example.org', password, 'free', 'operator');
  const operator = new Client(served.quire.url);
  const send: Send = (p, init) => operator.raw(p, init);
  expect((await post(send, '/api/account/v1/login', { email: 'operator@example.org', password })).code).toBe(0);
  const now = Math.floor(Date.now() / 1000);
  const banner = await post(send, '/api/account/v1/admin/banners', {
    title: 'Scoping',
    jump_url: '/',
    display_start_time: now,
    display_end_time: now + 60,
  });
  expect(banner.code).toBe(0);
  const message = await post(send, '/api/account/v1/admin/messages', { template_type: 1, audience: 'everyone', title: 'Scoping' });
  expect(message.code).toBe(0);
  return { resource: banner.data.resource_id, message: message.data.message_id };
}

/** The id of the operator's message to everyone, as this owner reads it. */
async function userMessage(o: Owner): Promise<string> {
  const list = await (await o.send('/api/message/v1/list')).json();
  expect(list.code).toBe(0);
  return list.data.list[0].user_msg_id;
}

describe("another owner's ids, in every call of the OpenAPI document", () => {
  let operations: Operation[];
  const a = new Map<Kind, { owner: Owner; made: Made }>();
  const b = new Map<Kind, Owner>();

  beforeAll(async () => {
    const pdf = await makePdf(path.join(served.dir, 'one.pdf'), 1, 'Mine');
    // Side by side: most of the time is each account's password hashing.
    await Promise.all(
      KINDS.map(async (kind) => {
        const [ownerA, ownerB] = await Promise.all(['a', 'b'].map((side) => owner(kind, `${side}-${kind.replace(' ', '-')}@example.org`)));
        a.set(kind, { owner: ownerA!, made: await makeObjects(ownerA!, pdf) });
        b.set(kind, ownerB!);
      }),
    );
    // A banner and a message are the operator's, not any owner's: every A holds their ids, for B to
    // try (3015). The message reaches everyone, under an id of each reader's own (2405 for the others).
    const { resource, message } = await operatorsObjects();
    for (const side of a.values()) Object.assign(side.made, { resource, message, user_msg: await userMessage(side.owner) });
    const doc = await (await fetch(`${served.quire.url}/api/docs`)).json();
    // A template's id names no owner's object: the gallery is everyone's (templates.test.ts checks unknown ids).
    operations = operationsOf(doc).filter((o) => idFieldsOfOperation(o).length > 0 && !o.path.startsWith('/api/templates/'));
  }, 120_000);

  it('finds the calls that take ids, and can fill every id they take', () => {
    const made = a.get('account')!.made;
    const unfillable = operations.flatMap((o) =>
      idFieldsOfOperation(o)
        .filter((f) => !((ID_FIELD.exec(f)![1] ?? '') in idsFor(o, made)))
        .map((f) => `${o.method} ${o.path}: ${f}`),
    );
    expect(unfillable).toEqual([]);
    // The ones that exist today, at least; new ones join by themselves.
    const names = operations.map((o) => `${o.method} ${o.path}`);
    for (const known of [
      'GET /api/tools/v1/document/info',
      'POST /api/tools/v1/merge',
      'POST /api/tools/v1/document/redaction/{file_id}/redaction/{passwd}',
      'PUT /api/tools/v1/file/upload-part',
      'POST /api/tools/v1/file/upload-complete',
      'GET /api/tools/v1/get-task-result',
      'POST /api/tools/v1/document/cancel-task',
      'GET /api/tools/v1/file/download',
      'GET /api/tools/v1/document/download-doc',
      'GET /api/tools/v1/download-doc-bulk',
      'POST /api/tools/v1/document/delete-outputs',
      'POST /api/tools/v1/document/output-as-file',
      'POST /api/account/v1/api-keys/revoke',
      'POST /api/account/v1/sessions/revoke',
      'POST /api/tools/v1/share/revoke',
      'POST /api/tools/v1/share/share-file',
      'PUT /api/cloud/v1/file/create',
      'POST /api/cloud/v1/multi/move',
      'GET /api/cloud/v1/file/thumbnail',
      'POST /api/tools/v1/document/content/{file_id}/sign',
      'DELETE /api/tools/v1/file/sign',
      'POST /api/ai/v2/file/info',
      'POST /api/ai/v2/chat/completion/stream',
      'GET /api/ai/v2/stream/cancel',
      'POST /api/ai/v2/conversation/del',
      'DELETE /api/ai/v2/note/delete',
      'POST /api/message/v1/update-unread',
      'DELETE /api/account/v1/admin/messages',
    ])
      expect(names).toContain(known);
  });

  it('answers 2405 to every kind of owner holding the ids of every other kind, or refuses the call outright', async () => {
    const wrong: string[] = [];
    const covered = new Set<string>();
    for (const o of operations) {
      const needs = idFieldsOfOperation(o).map((f) => ID_FIELD.exec(f)![1] ?? '');
      for (const [kindA, { made: madeByA }] of a) {
        const made = idsFor(o, madeByA);
        if (!needs.every((k) => k in made)) continue;
        const { url, init } = requestOf(o, made);
        for (const [kindB, ownerB] of b) {
          const expected = refusalFor(o.op, kindB) ?? ErrorCode.NoData;
          const code = await codeOf(await ownerB.send(url, init));
          if (code !== expected) wrong.push(`${o.method} ${o.path} as ${kindB} with ${kindA}'s ids: ${code}, not ${expected}`);
          covered.add(`${o.method} ${o.path} as ${kindB}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    const missed = operations.flatMap((o) =>
      KINDS.filter((k) => !covered.has(`${o.method} ${o.path} as ${k}`)).map((k) => `${o.method} ${o.path} as ${k}`),
    );
    expect(missed).toEqual([]);
  }, 300_000);

  it("leaves the owner's own objects as they were: its reads still find them, its key still works", async () => {
    const found: string[] = [];
    for (const [kindA, { owner: ownerA, made }] of a)
      for (const o of operations.filter((op) => op.method === 'GET')) {
        const ids = idsFor(o, made);
        if (!idFieldsOfOperation(o).every((f) => (ID_FIELD.exec(f)![1] ?? '') in ids)) continue;
        const { url, init } = requestOf(o, ids);
        const code = await codeOf(await ownerA.send(url, init));
        if (code === ErrorCode.NoData) found.push(`${o.method} ${o.path} as ${kindA}: 2405`);
      }
    expect(found).toEqual([]);
    // Every owner's own read answers in full, not just "not 2405".
    for (const [, { owner: ownerA, made }] of a) {
      expect(await codeOf(await ownerA.send(`/api/tools/v1/document/download-doc?task_id=${made.task}`))).toBe(0);
      expect(await codeOf(await ownerA.send(`/api/tools/v1/file/download?file_id=${made.file}`))).toBe(0);
    }
    expect(await codeOf(await a.get('api key')!.owner.send('/api/tools/v1/config'))).toBe(0);
  }, 120_000);
});
