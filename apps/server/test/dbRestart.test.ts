// Quire on PostgreSQL outlives its database: restarted under load, or stopped for a while, the
// database's absence is answered 3500 (HTTP 503), and requests and the worker's tasks go on once it
// is back. The cluster is the test's own (privatePostgres.ts); Quire runs in a process of its own,
// as an operator runs it, so that its exit is seen.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@quire/contracts';
import { makePdf } from './fixtures.js';
import { Client } from './harness.js';
import { havePostgres, privatePostgres, type PrivatePostgres } from './privatePostgres.js';
import { freePort, startServer, until } from './serverProcess.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-db-restart-'));
let database: PrivatePostgres | undefined;
let server: ChildProcess | undefined;
let client: Client;
let pdf: string;

beforeAll(async () => {
  database = await privatePostgres();
  const port = await freePort();
  server = await startServer(path.join(dir, 'data'), port, { QUIRE_DATABASE_URL: database.url });
  client = new Client(`http://127.0.0.1:${port}`);
  pdf = await makePdf(path.join(dir, 'pages.pdf'), 2);
}, 180_000);

afterAll(async () => {
  if (server?.exitCode === null) server.kill('SIGKILL');
  await database?.remove();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** What one request answered: its HTTP status and code, or the network error when there was no answer. */
type Outcome = { status: number; code: number } | { error: string };

async function outcomeOf(request: Promise<Response>): Promise<Outcome> {
  try {
    const res = await request;
    const body = (await res.json()) as { code: number };
    return { status: res.status, code: body.code };
  } catch (e) {
    return { error: String(e) };
  }
}

/** An upload (written to the files table) and a task lookup, as the page makes them. */
const uploadOutcome = () => outcomeOf(client.raw('/api/tools/v1/file/stream', { method: 'POST', body: formOf(pdf) }));
const lookupOutcome = (taskId: string) => outcomeOf(client.raw(`/api/tools/v1/get-task-result?task_id=${taskId}`));

function formOf(file: string): FormData {
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(file)]), path.basename(file));
  return form;
}

const answered = (o: Outcome) => 'status' in o;
const busy = (o: Outcome) => 'status' in o && o.status === 503 && o.code === ErrorCode.Busy;
const fine = (o: Outcome) => 'status' in o && o.status === 200 && o.code === 0;

/** A rotate task of the client's, made while the database is up. */
async function rotateTask(): Promise<string> {
  const fileId = await client.uploadId(pdf);
  const made = await client.post('document/rotate', { file_id: fileId, angle: 90, pages: 'all' });
  expect(made.code).toBe(0);
  return made.data.task_id as string;
}

describe.skipIf(!havePostgres())('a PostgreSQL restart', () => {
  it('under load: Quire stays up, answers 3500 while the database is away, and serves again once it is back', async () => {
    const taskId = await rotateTask();
    const outcomes: Outcome[] = [];
    let loading = true;
    // Four clients at once, so that connections are checked out and idle in the pool when the database goes.
    const load = Array.from({ length: 4 }, async (_, i) => {
      while (loading) outcomes.push(await (i % 2 ? uploadOutcome() : lookupOutcome(taskId)));
    });
    await until('requests answered before the restart', () => outcomes.filter(fine).length >= 8);
    await database!.restart();
    // Some requests are answered after the restart: the pool's connections from before are gone by then.
    const afterRestart = outcomes.length;
    await until('requests answered after the restart', () => outcomes.length >= afterRestart + 8 || server!.exitCode !== null);
    loading = false;
    await Promise.all(load);
    expect(server!.exitCode).toBeNull();
    // Every request answered, each a success or 3500 (HTTP 503): the database's absence is no 500.
    expect(outcomes.filter((o) => !answered(o))).toEqual([]);
    expect(outcomes.filter((o) => !fine(o) && !busy(o))).toEqual([]);
    expect(outcomes.slice(afterRestart).filter(fine).length).toBeGreaterThan(0);
    expect((await client.waitTask(taskId)).status).toBe(0);
  }, 180_000);

  it('stopped: 3500 for every call that needs it, health says so, and a task made before runs once it is back', async () => {
    const taskId = await rotateTask();
    await database!.stop();
    try {
      expect(await uploadOutcome()).toEqual({ status: 503, code: ErrorCode.Busy });
      expect(await lookupOutcome(taskId)).toEqual({ status: 503, code: ErrorCode.Busy });
      const health = await client.raw('/api/health');
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ code: ErrorCode.Busy, data: { status: 'database unavailable' } });
      expect(server!.exitCode).toBeNull();
    } finally {
      await database!.start();
    }
    expect((await client.waitTask(taskId)).status).toBe(0);
    expect(fine(await uploadOutcome())).toBe(true);
    expect(server!.exitCode).toBeNull();
  }, 180_000);
});
