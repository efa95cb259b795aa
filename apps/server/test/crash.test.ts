// A server killed mid-task leaves nothing behind: the next start on the same data folder ends the
// engines it left running (and only those), removes its temporary files and retries its task.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { PROCESSES_DIR, processFolderName } from '../src/context.js';
import { processStartTime } from '../src/engines/processes.js';
import { cleanUpAfterCrashes, ENGINES_DIR } from '../src/services/sweeper.js';
import { makePdf } from './fixtures.js';
import { Client, startQuire } from './harness.js';
import { freePort, processesBelow, startServer as startQuireProcess, until } from './serverProcess.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-crash-'));
const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A server started for this file, killed at the end if a test leaves it running. */
async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  const child = await startQuireProcess(dataDir, port);
  started.push(child);
  return child;
}

describe('a server killed mid-task', () => {
  it('is followed by one that kills its orphaned engines, removes its temporary files and retries its task, then fails it', async () => {
    const dataDir = path.join(dir, 'data');
    const port = await freePort();
    // Long enough (minutes) that its engine cannot end by itself while a server restarts.
    const pdf = await makePdf(path.join(dir, 'pages.pdf'), 40);
    const client = new Client(`http://127.0.0.1:${port}`);
    const alive = (p: { pid: number; startTime: number }) => processStartTime(p.pid) === p.startTime;

    /** The task's engines once OCRmyPDF runs, with the server's scratch folder. */
    async function runningEngines(server: ChildProcess, taskId: string, attempt: number) {
      const engines = await until('OCRmyPDF running', () => {
        const below = processesBelow(server.pid!);
        return below.some((p) => p.command.includes('ocrmypdf')) ? below : undefined;
      });
      const scratch = path.join(
        dataDir,
        'tmp',
        PROCESSES_DIR,
        processFolderName(os.hostname(), server.pid!, processStartTime(server.pid!)),
      );
      expect(fs.readdirSync(path.join(scratch, 'work'))).toEqual([`${taskId}-${attempt}`]);
      const recorded = fs.readdirSync(path.join(scratch, ENGINES_DIR)).map(Number);
      expect(recorded.length).toBeGreaterThan(0);
      expect(engines.map((p) => p.pid)).toEqual(expect.arrayContaining(recorded));
      return { engines, scratch };
    }

    /** SIGKILLs the server; its engines run on, orphaned. */
    async function crash(server: ChildProcess, engines: { pid: number; startTime: number; command: string }[]) {
      server.kill('SIGKILL');
      await until('the server gone', () => server.signalCode !== null);
      expect(
        engines
          .filter(alive)
          .map((p) => p.command)
          .join('\n'),
      ).toContain('ocrmypdf');
    }

    const first = await startServer(dataDir, port);
    const fileId = await client.uploadId(pdf);
    // OCR of every page (force_ocr) is one long engine call (OCRmyPDF, with Tesseract below it).
    const created = await client.post('image/images-ocr-merge-pdf', { file_ids: [fileId], force_ocr: true });
    expect(created.code).toBe(0);
    const taskId: string = created.data.task_id;
    const firstRun = await runningEngines(first, taskId, 1);
    await crash(first, firstRun.engines);

    // The next server cleans up before it answers, and hands the lost claim back at once.
    const second = await startServer(dataDir, port);
    expect(firstRun.engines.filter(alive)).toEqual([]);
    expect(fs.existsSync(firstRun.scratch)).toBe(false);
    const secondRun = await runningEngines(second, taskId, 2);
    await crash(second, secondRun.engines);

    // After its last attempt the task fails clearly, as when its lease runs out.
    const third = await startServer(dataDir, port);
    expect(secondRun.engines.filter(alive)).toEqual([]);
    expect(fs.existsSync(secondRun.scratch)).toBe(false);
    expect(await client.waitTask(taskId)).toMatchObject({ status: 3125, msg: 'The task was interrupted. Please try again.' });
    const db = new Database(path.join(dataDir, 'quire.db'), { readonly: true });
    expect(db.prepare('select state, attempts from tasks where id = ?').get(taskId)).toEqual({ state: 'failed', attempts: 2 });
    db.close();

    third.kill('SIGTERM');
    await until('the third server stopped', () => third.exitCode !== null);
  }, 900_000);
});

describe('cleaning up after a crash', () => {
  it('kills only recorded engines of processes that are gone, and only while their PID still names them', async () => {
    const quire = await startQuire();
    const sleeper = () => {
      const child = spawn('sleep', ['300'], { stdio: 'ignore' });
      started.push(child);
      return child;
    };
    const [orphan, reused, sibling] = [sleeper(), sleeper(), sleeper()];
    await until('the sleepers started', () => [orphan, reused, sibling].every((c) => processStartTime(c.pid!) !== undefined));
    const root = path.join(quire.ctx.tmpDir, PROCESSES_DIR);
    const record = (folder: string, pid: number, startTime: number) => {
      fs.mkdirSync(path.join(root, folder, ENGINES_DIR), { recursive: true });
      fs.writeFileSync(path.join(root, folder, ENGINES_DIR, String(pid)), String(startTime));
    };
    // A process that is gone (no PID is this large) left two records: one of a live engine, and
    // one whose PID now names another process (its start time differs).
    const gone = processFolderName(os.hostname(), 4_999_999, 1);
    record(gone, orphan.pid!, processStartTime(orphan.pid!)!);
    record(gone, reused.pid!, processStartTime(reused.pid!)! - 1);
    // A process still running (this one) keeps its engines.
    const living = processFolderName(os.hostname(), process.pid, processStartTime(process.pid));
    record(living, sibling.pid!, processStartTime(sibling.pid!)!);

    await cleanUpAfterCrashes(quire.ctx);
    await until('the orphan killed', () => orphan.signalCode === 'SIGKILL');
    expect(processStartTime(reused.pid!)).toBeDefined();
    expect(processStartTime(sibling.pid!)).toBeDefined();
    expect(fs.readdirSync(root).sort()).toEqual([living]);
    await quire.stop();
  });
});
