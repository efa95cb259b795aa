// Starts a real Quire (API + worker) on a free port with its own data folder, and a small
// client that keeps its visitor cookie like a browser does.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../src/config.js';
import { createContext, type AppContext } from '../src/context.js';
import { buildApp } from '../src/app.js';
import { Worker } from '../src/queue/worker.js';
import { defaultLimits, type AiStreamEvent, type LimitsTable, type Plan, type TaskEntry } from '@quire/contracts';
import { createAccount } from '../src/services/accounts.js';
import { nameKey } from '../src/db/cloudRepo.js';
import type { CloudFileTable } from '../src/db/schema.js';
import { afterAll, beforeAll } from 'vitest';

export interface Running {
  url: string;
  ctx: AppContext;
  /** Stops; the data folder is removed unless `keepData`. */
  stop(keepData?: boolean): Promise<void>;
}

/** The plans with a visitor's as Premium's: tests of tools send visitors' files that a free account could not. */
const TOOL_TEST_LIMITS: LimitsTable = { ...defaultLimits, anonymous: defaultLimits.premium };

/**
 * A fresh data folder unless `overrides.dataDir` names one to reuse (a restart); requests are logged to `logStream` if given.
 * Anonymous visitors run and download without limit, within Premium's limits, unless the overrides (`limits`, a
 * `limitsFile`) say otherwise: most tests are about tools.
 */
export async function startQuire(overrides: Partial<Config> = {}, withWorker = true, logStream?: NodeJS.WritableStream): Promise<Running> {
  const dataDir = overrides.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'quire-test-'));
  const ctx = await createContext(
    loadConfig(
      {
        dataDir,
        databaseUrl: `sqlite:${path.join(dataDir, 'quire.db')}`,
        anonymousTasksPerDay: 0,
        anonymousDownloads: true,
        // Every test's client is 127.0.0.1: the bounds on one address's sign-ups and work are their tests' own.
        signUpsPerAddressPerDay: 0,
        maxQueuedWorkPerAddress: 0,
        ...(!overrides.limitsFile && { limits: TOOL_TEST_LIMITS }),
        ...overrides,
      },
      [],
    ),
  );
  const worker = withWorker ? new Worker(ctx) : null;
  await worker?.start();
  const app = await buildApp(ctx, { ...(logStream && { logStream }) });
  // A free port unless the test chose one (its address had to be known before the start).
  await app.listen({ port: overrides.port ?? 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    ctx,
    async stop(keepData = false) {
      await app.close();
      await worker?.stop();
      await ctx.office.close();
      await ctx.db.destroy();
      if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface QuireForTests {
  /** Points at the server once it has started, before the first test. */
  client: Client;
  /** A scratch folder of the test file's own, removed after its tests. */
  dir: string;
  /** The running server (its context), from the first test on. */
  readonly quire: Running;
}

/**
 * A Quire started before the tests of the calling file (or describe block) and stopped after them,
 * with a client and a scratch folder (`quire-<name>-…`) removed at the end. Hooks the caller
 * registers before this call run before the start (e.g. a PATH to set). Requests are logged to `logStream` if given.
 */
export function quireForTests(name: string, overrides: Partial<Config> = {}, logStream?: NodeJS.WritableStream): QuireForTests {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `quire-${name}-`));
  const client = new Client('');
  let running: Running | undefined;
  beforeAll(async () => {
    running = await startQuire(overrides, true, logStream);
    client.base = running.url;
  }, 120_000);
  afterAll(async () => {
    await running?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return {
    client,
    dir,
    get quire() {
      if (!running) throw new Error('Quire is not running: it starts before the first test');
      return running;
    },
  };
}

/** A client signed in (its session cookie kept, as a browser keeps it) to a new account on `plan`, made with the operator's function. */
export async function signedIn(url: string, ctx: AppContext, email: string, plan: Plan, password = 'test-password-1'): Promise<Client> {
  await createAccount(ctx, email, password, plan);
  const client = new Client(url);
  const login = await client.raw('/api/account/v1/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const answer = (await login.json()) as Envelope;
  if (answer.code !== 0) throw new Error(`sign-in of ${email} failed: ${answer.code} ${answer.msg}`);
  return client;
}

/** What a test reads from an answer's `data` unless it names the type: tests read the fields they assert on. */
// biome-ignore lint/suspicious/noExplicitAny: a test's expect() fails on a missing field, so restating every answer's shape would add nothing
type AnyData = any;

export interface Envelope<T = AnyData> {
  code: number;
  msg: string;
  data: T;
}

/** An answer as it came, for tests that judge every answer: the envelope is null where the body is none. */
export interface Answer<T = AnyData> {
  status: number;
  body: Envelope<T> | null;
  text: string;
}

/** A multipart body with one file, as the web app uploads it. */
export function fileForm(file: string, name = path.basename(file)): FormData {
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(file)]), name);
  return form;
}

export class Client {
  /** The Cookie header it sends: the cookies the server set, as a browser keeps them. */
  cookie = '';
  constructor(public base: string) {}

  async raw(pathname: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(this.base + pathname, { ...init, headers: { cookie: this.cookie, ...(init.headers as object) } });
    this.keepCookies(res.headers.getSetCookie());
    return res;
  }

  /** Adds or replaces each cookie set; one set empty or already expired (a sign-out) is dropped. */
  private keepCookies(setCookies: string[]) {
    if (!setCookies.length) return;
    const nameAndValue = (pair: string) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const;
    const jar = new Map(this.cookie ? this.cookie.split('; ').map(nameAndValue) : []);
    for (const set of setCookies) {
      const [pair, ...attributes] = set.split(';');
      const [name, value] = nameAndValue(pair!.trim());
      const expired = attributes.some((a) => /^\s*max-age=0$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (!value || expired) jar.delete(name);
      else jar.set(name, value);
    }
    this.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async call<T = AnyData>(pathname: string, init: RequestInit = {}): Promise<Envelope<T>> {
    return (await this.raw(`/api/tools/v1/${pathname}`, init)).json() as Promise<Envelope<T>>;
  }

  /** Like `call`, but never throws on a body that is not an envelope. */
  async answer<T = AnyData>(pathname: string, init: RequestInit = {}): Promise<Answer<T>> {
    const res = await this.raw(`/api/tools/v1/${pathname}`, init);
    const text = await res.text();
    try {
      return { status: res.status, body: JSON.parse(text) as Envelope<T>, text };
    } catch {
      return { status: res.status, body: null, text };
    }
  }

  post<T = AnyData>(pathname: string, body: unknown) {
    return this.call<T>(pathname, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  }

  /** A POST to the AI layer's calls (/api/ai/v2/). */
  async postAi<T = AnyData>(call: string, body: unknown): Promise<Envelope<T>> {
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
    return (await this.raw(`/api/ai/v2/${call}`, init)).json() as Promise<Envelope<T>>;
  }

  async upload(file: string, name = path.basename(file)): Promise<Envelope> {
    return this.call('file/stream', { method: 'POST', body: fileForm(file, name) });
  }

  async uploadId(file: string): Promise<string> {
    const res = await this.upload(file);
    if (res.code !== 0) throw new Error(`upload of ${file} failed: ${res.code} ${res.msg}`);
    return res.data.file_id as string;
  }

  /** Polls like the web app (every 2 s there; faster here) until done or failed; a task still running after `timeoutMs` is a hang. */
  async waitTask(taskId: string, timeoutMs = 120_000, pollMs = 50): Promise<TaskEntry> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const res = await this.answer<TaskEntry[]>(`get-task-result?task_id=${taskId}`);
      const entry = res.body?.data?.[0];
      if (res.body?.code !== 0 || !entry) throw new Error(`task lookup failed: HTTP ${res.status} ${res.text.slice(0, 120)}`);
      if (entry.status !== 0 || entry.is_done) return entry;
      if (Date.now() > end)
        throw new Error(`task ${taskId} did not finish within ${timeoutMs / 1000} s (progress ${entry.progress}%): a hang`);
      await new Promise((r) => setTimeout(r, pollMs));
    }
  }

  /** Saves a finished task's download to `dest`. */
  async download(taskId: string, dest: string): Promise<void> {
    const res = await this.raw(`/api/tools/v1/document/download-doc?task_id=${taskId}`);
    fs.writeFileSync(dest, Buffer.from(await res.arrayBuffer()));
  }

  /** Runs a tool call to the end and saves its download to `dest`. */
  async runTool(pathname: string, body: unknown, dest: string): Promise<TaskEntry> {
    const created = await this.post(pathname, body);
    if (created.code !== 0) throw Object.assign(new Error(`${pathname}: ${created.code} ${created.msg}`), { code: created.code });
    const entry = await this.waitTask(created.data.task_id);
    if (entry.status !== 0) return entry;
    await this.download(entry.task_id, dest);
    return entry;
  }
}

/** A document cloud file's row as the cloud writes it, for tests that fill the table directly. */
export function cloudFileRow(accountId: string, id: string, name: string, size: number, folderId = ''): CloudFileTable {
  const now = Date.now();
  return {
    id,
    account_id: accountId,
    folder_id: folderId,
    name,
    name_key: nameKey(name),
    size,
    md5: '0'.repeat(32),
    storage_key: `cloud/${accountId}/${id}`,
    total_page: 0,
    encrypted: 0,
    starred: 0,
    created_at: now,
    updated_at: now,
    opened_at: null,
    hidden_from_recent: 0,
  };
}

/** The events of a stream as a browser's EventSource reads them, and its id header. */
export async function readEvents(res: Response, onEvent?: (e: AiStreamEvent) => Promise<void> | void): Promise<AiStreamEvent[]> {
  const events: AiStreamEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const event = JSON.parse(buffer.slice(0, end).replace(/^data: /, '')) as AiStreamEvent;
      buffer = buffer.slice(end + 2);
      events.push(event);
      await onEvent?.(event);
    }
  }
  return events;
}

/**
 * Runs the operator's command line (`npm run quire -- args`) against a data folder, `stdin` as its
 * input. Node is started directly: npm's own start adds seconds under load, and a test may run several.
 */
export function quireCommand(dataDir: string, args: string[], stdin = ''): Promise<{ code: number | null; out: string; err: string }> {
  const repo = path.resolve(import.meta.dirname, '../../..');
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/cli.ts', ...args], {
    cwd: repo,
    env: { ...process.env, QUIRE_DATA_DIR: dataDir },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    err += c.toString();
  });
  child.stdin.end(stdin);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err })));
}
