// Anonymous visitors: one task a UTC day per visitor (and a few per address), their outputs handed
// out only once signed in, and task/bind and file/bind moving their work to the account. Addresses
// come from X-Forwarded-For, believed from the loopback proxy as behind a real one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@quire/contracts';
import { Client, startQuire, type Running } from './harness.js';
import { makePdf, rotations } from './fixtures.js';
import { createAccount } from '../src/services/accounts.js';
import { Worker } from '../src/queue/worker.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-anonymous-'));
const settings = { dataDir, anonymousTasksPerDay: 1, anonymousDownloads: false, ipRateFactor: 2, trustProxy: 'loopback' };
let quire: Running;
let pdf: string;

beforeAll(async () => {
  quire = await startQuire(settings);
  pdf = await makePdf(path.join(dataDir, 'three.pdf'), 3);
  await createAccount(quire.ctx, 'ann@example.org', 'ann password', 'free');
  await createAccount(quire.ctx, 'bo@example.org', 'bo password', 'free');
}, 120_000);
afterAll(() => quire.stop());

/** A browser at `address` with cookies of its own, calling the server running now. */
function visitorAt(address: string): Client {
  const client = new Client('');
  const raw = client.raw.bind(client);
  client.raw = (pathname, init = {}) => {
    client.base = quire.url;
    return raw(pathname, { ...init, headers: { 'x-forwarded-for': address, ...(init.headers as object) } });
  };
  return client;
}

async function rotate(client: Client, extra: Record<string, unknown> = {}) {
  const fileId = await client.uploadId(pdf);
  const created = await client.post('document/rotate', { file_id: fileId, angle: 90, pages: 'all', ...extra });
  return { fileId, created, taskId: created.data?.task_id as string };
}

async function signIn(client: Client, email: string, password: string) {
  const res = await client.raw('/api/account/v1/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(((await res.json()) as { code: number }).code).toBe(0);
}

const HOME = '203.0.113.7';
const ann = visitorAt(HOME);
let annTask: string;
let annFile: string;
let annRun: string;

describe('the daily allowance', () => {
  it('takes the first task of a visitor, and the later calls of its multi_id, then refuses with 4016', async () => {
    const first = await rotate(ann);
    expect(first.created.code).toBe(0);
    annTask = first.taskId;
    annRun = first.created.data.multi_id;
    // A second file of the same run (the web app's batch) is part of the one task.
    const sameRun = await rotate(ann, { multi_id: annRun });
    expect(sameRun.created.code).toBe(0);
    const refused = await ann.answer('document/rotate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ file_id: sameRun.fileId, angle: 90 }),
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: ErrorCode.DailyTaskLimit,
      msg: 'Anonymous visitors can run 1 task a day. Sign in to continue.',
      data: { upgrade: 'taskLimit', limit: 1 },
    });
    annFile = sameRun.fileId;
    await ann.waitTask(annTask);
  });

  it('counts the address too: new cookies there get the allowance times QUIRE_RATE_IP_FACTOR, then 4016', async () => {
    expect((await rotate(visitorAt(HOME))).created.code).toBe(0);
    expect((await rotate(visitorAt(HOME))).created.code).toBe(ErrorCode.DailyTaskLimit);
    // Another address is another count.
    expect((await rotate(visitorAt('198.51.100.9'))).created.code).toBe(0);
  });

  it('counts a later call naming an old run as a new task: one multi_id is not a day of free tasks', async () => {
    const dee = visitorAt('192.0.2.10');
    const first = await rotate(dee);
    expect(first.created.code).toBe(0);
    await dee.waitTask(first.taskId);
    await quire.ctx.db
      .updateTable('tasks')
      .set({ created_at: Date.now() - 11 * 60_000 })
      .where('id', '=', first.taskId)
      .execute();
    expect((await rotate(dee, { multi_id: first.created.data.multi_id })).created.code).toBe(ErrorCode.DailyTaskLimit);
  });

  it('counts by keyed hashes: no address anywhere in the database, no visitor id among the counts', async () => {
    const dump = execFileSync('sqlite3', [path.join(dataDir, 'quire.db'), '.dump']).toString();
    expect(dump).not.toContain(HOME);
    const counts = execFileSync('sqlite3', [path.join(dataDir, 'quire.db'), '.dump anonymous_runs']).toString();
    // Five visitors (one refused at its address, its count given back), three addresses and Ann's run of two.
    expect(counts.match(/INSERT INTO/g)).toHaveLength(9);
    expect(counts).not.toContain(ann.cookie.match(/quire_vid=(\w+)/)![1]);
  });

  it('counts the tasks a run made, not those kept: deleting outputs gives no place in the run back', async () => {
    const eve = visitorAt('192.0.2.77');
    const first = await rotate(eve);
    expect(first.created.code).toBe(0);
    const run = first.created.data.multi_id as string;
    // A cancelled task stays in the run (failed), so the run is never empty of tasks.
    expect((await eve.post('document/cancel-task', { task_id: first.taskId })).code).toBe(0);
    const codes: number[] = [];
    for (let i = 0; i < 21 && codes.at(-1) !== ErrorCode.DailyTaskLimit; i++) {
      const next = await rotate(eve, { multi_id: run });
      codes.push(next.created.code);
      if (next.created.code !== 0) break;
      await eve.waitTask(next.taskId);
      expect((await eve.post('document/delete-outputs', { multi_id: run })).data).toEqual({ deleted: 1 });
    }
    // The run's 20 tasks: the first, then 19 joining it; the 20th join is a new task of the day, refused.
    expect(codes).toEqual([...Array<number>(19).fill(0), ErrorCode.DailyTaskLimit]);
  });
});

describe('outputs of a visitor', () => {
  it('answer 3001 to every call that hands out their bytes, after 2405 for another visitor', async () => {
    for (const pathname of [`document/download-doc?task_id=${annTask}`, `download-doc-bulk?multi_id=${annRun}`]) {
      const answer = await ann.answer(pathname);
      expect([answer.status, answer.body?.code]).toEqual([401, ErrorCode.NotLogin]);
      expect((await visitorAt(HOME).answer(pathname)).body?.code).toBe(ErrorCode.NoData);
    }
    expect((await ann.post('document/output-as-file', { task_id: annTask })).code).toBe(ErrorCode.NotLogin);
  });

  it('task/bind and file/bind are in the OpenAPI document', async () => {
    const doc = await (await fetch(`${quire.url}/api/docs`)).json();
    for (const call of ['task/bind', 'file/bind']) expect(doc.paths[`/api/tools/v1/${call}`].post.requestBody).toBeDefined();
  });

  it('task/bind and file/bind need a session', async () => {
    expect((await ann.post('task/bind', { task_id: annTask })).code).toBe(ErrorCode.NotLogin);
    expect((await ann.post('file/bind', { file_ids: [annFile] })).code).toBe(ErrorCode.NotLogin);
  });

  it("are the account's once bound after sign-in: the download is the rotated PDF, and the account has no daily limit", async () => {
    await signIn(ann, 'ann@example.org', 'ann password');
    // Still refused before binding: the task is the visitor's, not the account's.
    expect((await ann.answer(`document/download-doc?task_id=${annTask}`)).body?.code).toBe(ErrorCode.NoData);
    const bound = await ann.post('task/bind', { multi_id: annRun });
    expect(bound.code).toBe(0);
    expect(bound.data.task_ids).toContain(annTask);
    expect(bound.data.task_ids).toHaveLength(2);
    // Binding again is no error: the tasks are the account's already.
    expect((await ann.post('task/bind', { task_id: annTask })).code).toBe(0);
    const dest = path.join(dataDir, 'ann.pdf');
    await ann.download(annTask, dest);
    execFileSync('qpdf', ['--check', dest]);
    expect(rotations(dest)).toEqual([90, 90, 90]);
    expect((await ann.post('file/bind', { file_ids: [annFile] })).code).toBe(0);
    expect((await ann.call(`document/info?file_id=${annFile}`)).data.total_page).toBe(3);
    for (let i = 0; i < 3; i++) expect((await rotate(ann)).created.code).toBe(0);
  });

  it('answers 2405 for a task or file of another visitor, and moves nothing', async () => {
    const other = visitorAt('198.51.100.20');
    const theirs = await rotate(other);
    const bo = visitorAt('198.51.100.21');
    await signIn(bo, 'bo@example.org', 'bo password');
    expect((await bo.post('task/bind', { task_id: theirs.taskId })).code).toBe(ErrorCode.NoData);
    expect((await bo.post('task/bind', { multi_id: theirs.created.data.multi_id })).code).toBe(ErrorCode.NoData);
    expect((await bo.post('file/bind', { file_ids: [theirs.fileId] })).code).toBe(ErrorCode.NoData);
    expect((await other.waitTask(theirs.taskId)).is_done).toBe(true);
    expect((await other.call(`document/info?file_id=${theirs.fileId}`)).code).toBe(0);
  });
});

describe('after a restart on the same database', () => {
  let restarted: Running;
  let worker: Worker | undefined;
  beforeAll(async () => {
    await quire.stop(true);
    // No worker at first: a queued task is bound before anything runs it.
    restarted = await startQuire(settings, false);
    quire = restarted;
  }, 120_000);
  afterAll(() => worker?.stop());

  it('still refuses the visitor and its address', async () => {
    const again = visitorAt(HOME);
    expect((await rotate(again)).created.code).toBe(ErrorCode.DailyTaskLimit);
  });

  it("binds a queued task with the file it reads, so it runs as the account's", async () => {
    const cy = visitorAt('192.0.2.44');
    const queued = await rotate(cy);
    expect(queued.created.code).toBe(0);
    await signIn(cy, 'bo@example.org', 'bo password');
    expect((await cy.post('task/bind', { task_id: queued.taskId })).code).toBe(0);
    worker = new Worker(restarted.ctx);
    await worker.start();
    const entry = await cy.waitTask(queued.taskId);
    expect([entry.status, entry.is_done]).toEqual([0, true]);
    const dest = path.join(dataDir, 'cy.pdf');
    await cy.download(queued.taskId, dest);
    expect(rotations(dest)).toEqual([90, 90, 90]);
  });
});
