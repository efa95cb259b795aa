// Cancelling tasks (document/cancel-task): a queued task never runs; a running one is stopped, its
// engines killed and what it made removed, in the worker's process or in a worker of its own that
// shares the database; another visitor's ids answer 2405 and cancel nothing.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, errorMessages } from '@quire/contracts';
import { PROCESSES_DIR, processFolderName } from '../src/context.js';
import { processStartTime } from '../src/engines/processes.js';
import { WORK_DIR } from '../src/queue/worker.js';
import { makePdf } from './fixtures.js';
import { Client, quireForTests, startQuire } from './harness.js';
import { processesBelow, spawnQuire, until } from './serverProcess.js';

// One task at a time: a second task waits in the queue while the first runs.
const served = quireForTests('cancel', { workerConcurrency: 1 });
const file = (name: string) => path.join(served.dir, name);
beforeAll(async () => {
  // Recognising every page of 40 again (OCRmyPDF, with Tesseract below it) takes minutes.
  await makePdf(file('long.pdf'), 40);
  await makePdf(file('short.pdf'), 2);
});

const cancelled = { status: ErrorCode.Cancelled, msg: errorMessages[ErrorCode.Cancelled], is_done: true, outputs: [] };
/** What a task's engines are called: OCRmyPDF, the Tesseracts and Ghostscript below it, and the rest of the tools'. */
const ENGINE = /ocrmypdf|tesseract|\bgs\b|pdftoppm|mutool|qpdf/;
type Engine = ReturnType<typeof processesBelow>[number];
const enginesBelow = (pid: number) => processesBelow(pid).filter((p) => ENGINE.test(p.command));
const alive = (p: Engine) => processStartTime(p.pid) === p.startTime;
/** Stopping is prompt: the kill is sent when the cancel is seen, at most about a second later. */
const STOP_MS = 15_000;

/** Starts the long OCR and resolves once Tesseract runs under `serverPid`, with the engines then running. */
async function startLongTask(client: Client, serverPid: number, multiId?: string) {
  const fileId = await client.uploadId(file('long.pdf'));
  const created = await client.post('image/images-ocr-merge-pdf', { file_ids: [fileId], force_ocr: true, multi_id: multiId });
  expect(created.code, created.msg).toBe(0);
  const engines = await until('Tesseract running', () => {
    const below = enginesBelow(serverPid);
    return below.some((p) => p.command.startsWith('tesseract ')) ? below : undefined;
  });
  return { taskId: created.data.task_id as string, multiId: created.data.multi_id as string, engines };
}

/** The task is gone from the machine: none of its engines lives, nothing runs below the server, no work folder, no outputs. */
async function expectStopped(taskId: string, engines: Engine[], serverPid: number, dataDir: string, scratchDir: string) {
  await until('its engines ended', () => engines.every((p) => !alive(p)), STOP_MS);
  // A killed process still in a system call (a disk write on a busy machine) ends when it returns.
  await until('nothing running below the server', () => enginesBelow(serverPid).length === 0, STOP_MS);
  const work = path.join(scratchDir, WORK_DIR);
  await until('its work folder removed', () => !fs.readdirSync(work).some((name) => name.startsWith(`${taskId}-`)), STOP_MS);
  expect(fs.existsSync(path.join(dataDir, 'storage', 'outputs', taskId))).toBe(false);
}

const rotate = (client: Client, fileId: string, multiId?: string) =>
  client.post('document/rotate', { file_id: fileId, angle: 90, pages: 'all', multi_id: multiId });

describe('cancelling in the server that runs the task', () => {
  it('stops a running task at once, and a task queued behind it never runs; the next task runs as usual', async () => {
    const client = new Client(served.quire.url);
    const { taskId, engines } = await startLongTask(client, process.pid);
    const short = await client.uploadId(file('short.pdf'));
    const queued = await rotate(client, short);
    expect(queued.code).toBe(0);

    const answer = await client.post('document/cancel-task', { task_id: queued.data.task_id });
    expect(answer).toMatchObject({ code: 0, data: [{ task_id: queued.data.task_id, ...cancelled }] });
    const stopped = await client.post('document/cancel-task', { task_id: taskId });
    expect(stopped).toMatchObject({ code: 0, data: [{ task_id: taskId, ...cancelled }] });
    // get-task-result says so too, so the page stops polling.
    expect((await client.call(`get-task-result?task_id=${taskId}`)).data).toMatchObject([cancelled]);
    await expectStopped(taskId, engines, process.pid, served.quire.ctx.config.dataDir, served.quire.ctx.scratchDir);

    // The only worker slot is free again: the visitor's next task runs and finishes.
    const next = await rotate(client, short);
    expect(await client.waitTask(next.data.task_id)).toMatchObject({ status: 0, is_done: true });
    // The stopped task stayed cancelled, and the one cancelled in the queue was never taken up.
    expect((await client.call(`get-task-result?task_id=${taskId}`)).data).toMatchObject([cancelled]);
    const rows = await served.quire.ctx.db
      .selectFrom('tasks')
      .select(['id', 'state', 'attempts', 'started_at'])
      .where('id', 'in', [taskId, queued.data.task_id])
      .execute();
    expect(rows.find((r) => r.id === queued.data.task_id)).toEqual({
      id: queued.data.task_id,
      state: 'failed',
      attempts: 0,
      started_at: 0,
    });
    expect(rows.find((r) => r.id === taskId)).toMatchObject({ state: 'failed', attempts: 1 });
    expect(fs.existsSync(path.join(served.quire.ctx.config.dataDir, 'storage', 'outputs', queued.data.task_id))).toBe(false);
  }, 300_000);

  it('cancels every unfinished task of a multi_id; finished ones keep their state and their download', async () => {
    const client = new Client(served.quire.url);
    const short = await client.uploadId(file('short.pdf'));
    const finished = await rotate(client, short, 'cancel-multi');
    expect(await client.waitTask(finished.data.task_id)).toMatchObject({ status: 0, is_done: true });
    const { taskId, engines } = await startLongTask(client, process.pid, 'cancel-multi');
    const queued = await rotate(client, short, 'cancel-multi');

    const answer = await client.post('document/cancel-task', { multi_id: 'cancel-multi' });
    expect(answer.code).toBe(0);
    expect(answer.data).toMatchObject([
      { task_id: finished.data.task_id, status: 0, is_done: true },
      { task_id: taskId, ...cancelled },
      { task_id: queued.data.task_id, ...cancelled },
    ]);
    await expectStopped(taskId, engines, process.pid, served.quire.ctx.config.dataDir, served.quire.ctx.scratchDir);
    // Cancelling again changes nothing, and the finished task's output is still there.
    expect((await client.post('document/cancel-task', { multi_id: 'cancel-multi' })).data).toEqual(answer.data);
    expect((await client.raw(`/api/tools/v1/document/download-doc?task_id=${finished.data.task_id}`)).status).toBe(200);
  }, 300_000);

  it("answers another visitor's task_id or multi_id with 2405 and cancels nothing", async () => {
    const owner = new Client(served.quire.url);
    const stranger = new Client(served.quire.url);
    await stranger.call('config');
    const { taskId, multiId, engines } = await startLongTask(owner, process.pid);
    for (const body of [{ task_id: taskId }, { multi_id: multiId }, { task_id: 'no-such-task' }, {}])
      expect(await stranger.post('document/cancel-task', body), JSON.stringify(body)).toMatchObject({
        code: Object.keys(body).length ? ErrorCode.NoData : ErrorCode.InvalidParams,
        data: null,
      });
    expect((await owner.call(`get-task-result?task_id=${taskId}`)).data).toMatchObject([{ status: 0, is_done: false }]);
    // OCRmyPDF still runs (its Tesseracts come and go page by page).
    expect(engines.filter(alive).some((p) => p.command.includes('ocrmypdf'))).toBe(true);
    expect((await owner.post('document/cancel-task', { task_id: taskId })).data).toMatchObject([cancelled]);
  }, 300_000);
});

describe('cancelling through an API process while a worker process runs the task', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-cancel-apart-'));
  let worker: ChildProcess | undefined;
  afterAll(() => {
    if (worker?.exitCode === null) worker.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('the worker finds the cancel in the table and stops the task', async () => {
    // The API here, with no worker; the worker a process of its own on the same database.
    const api = await startQuire({ dataDir }, false);
    try {
      worker = spawnQuire(dataDir, { QUIRE_SERVICES: 'worker' });
      const client = new Client(api.url);
      const { taskId, engines } = await startLongTask(client, worker.pid!);
      expect((await client.post('document/cancel-task', { task_id: taskId })).data).toMatchObject([cancelled]);
      const scratch = path.join(
        dataDir,
        'tmp',
        PROCESSES_DIR,
        processFolderName(os.hostname(), worker.pid!, processStartTime(worker.pid!)),
      );
      await expectStopped(taskId, engines, worker.pid!, dataDir, scratch);
      // The worker takes the next task as usual.
      const next = await rotate(client, await client.uploadId(file('short.pdf')));
      expect(await client.waitTask(next.data.task_id)).toMatchObject({ status: 0, is_done: true });
      expect((await client.call(`get-task-result?task_id=${taskId}`)).data).toMatchObject([cancelled]);
    } finally {
      // A worker stops once its tasks end: a task this test failed to stop is ended with its engines.
      for (const p of processesBelow(worker!.pid!)) process.kill(p.pid, 'SIGKILL');
      worker?.kill('SIGTERM');
      await until('the worker stopped', () => worker!.exitCode !== null || worker!.signalCode !== null);
      await api.stop(true);
    }
  }, 300_000);
});
