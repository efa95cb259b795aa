// A server killed mid-task leaves nothing behind: the next start on the same data folder ends the
// engines it left running (and only those), removes its temporary files and retries its task.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { PROCESSES_DIR, processFolderName } from '../src/context.js';
import { processStartTime } from '../src/engines/processes.js';
import { cleanUpAfterCrashes, ENGINES_DIR } from '../src/queue/sweeper.js';
import { makePdf } from './fixtures.js';
import { Client, startQuire } from './harness.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-crash-'));
const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

const repo = path.resolve(import.meta.dirname, '../../..');

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** Polls `ready` until it holds; `what` names it when it never does (a hang, not a slow machine). */
async function until<T>(what: string, ready: () => T | undefined | Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await ready();
    if (value) return value;
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `npm start` as an operator runs it, in a process of its own; resolves once it answers. */
async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repo,
    env: { ...process.env, QUIRE_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', QUIRE_WORKERS: '1' },
    stdio: 'ignore',
  });
  started.push(child);
  await until('the server answering', () =>
    fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    ),
  );
  return child;
}

/** Every process below `pid`, with its start time and command line, read from /proc. */
function processesBelow(pid: number): { pid: number; startTime: number; command: string }[] {
  const all = fs
    .readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .map((n) => {
      try {
        const stat = fs.readFileSync(`/proc/${n}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const command = fs.readFileSync(`/proc/${n}/cmdline`, 'utf8').replaceAll('\0', ' ');
        return { pid: Number(n), parent: Number(fields[1]), startTime: Number(fields[19]), command };
      } catch {
        return null;
      }
    })
    .filter((p) => p !== null);
  const below: typeof all = [];
  for (let queue = [pid]; queue.length; ) {
    const parent = queue.shift();
    const children = all.filter((p) => p.parent === parent);
    below.push(...children);
    queue.push(...children.map((c) => c.pid));
  }
  return below;
}

describe('a server killed mid-task', () => {
  it('is followed by one that kills its orphaned engines, removes its temporary files and retries its task', async () => {
    const dataDir = path.join(dir, 'data');
    const port = await freePort();
    const pdf = await makePdf(path.join(dir, 'pages.pdf'), 3);

    const first = await startServer(dataDir, port);
    const client = new Client(`http://127.0.0.1:${port}`);
    const fileId = await client.uploadId(pdf);
    // OCR of every page (force_ocr) is one long engine call (OCRmyPDF, with Tesseract below it).
    const created = await client.post('image/images-ocr-merge-pdf', { file_ids: [fileId], force_ocr: true });
    expect(created.code).toBe(0);
    const taskId: string = created.data.task_id;
    const engines = await until('OCRmyPDF running', () => {
      const below = processesBelow(first.pid!);
      return below.some((p) => p.command.includes('ocrmypdf')) ? below : undefined;
    });

    const scratch = path.join(dataDir, 'tmp', PROCESSES_DIR, processFolderName(os.hostname(), first.pid!, processStartTime(first.pid!)));
    expect(fs.readdirSync(path.join(scratch, 'work'))).toEqual([`${taskId}-1`]);
    const recorded = fs.readdirSync(path.join(scratch, ENGINES_DIR)).map(Number);
    expect(engines.map((p) => p.pid)).toEqual(expect.arrayContaining(recorded));

    first.kill('SIGKILL');
    await until('the first server gone', () => first.exitCode !== null || first.signalCode !== null);
    // Killing the server does not end its engines: they run on, orphaned.
    const alive = (p: { pid: number; startTime: number }) => processStartTime(p.pid) === p.startTime;
    expect(
      engines
        .filter(alive)
        .map((p) => p.command)
        .join('\n'),
    ).toContain('ocrmypdf');

    const second = await startServer(dataDir, port);
    // Cleaning up is done before the server answers.
    expect(engines.filter(alive)).toEqual([]);
    expect(fs.existsSync(scratch)).toBe(false);

    // The lost claim was handed back at once (no wait for its lease): attempt 2 runs to the end.
    const entry = await client.waitTask(taskId, 600_000, 500);
    expect(entry).toMatchObject({ status: 0, is_done: true });
    const db = new Database(path.join(dataDir, 'quire.db'), { readonly: true });
    expect(db.prepare('select attempts from tasks where id = ?').get(taskId)).toEqual({ attempts: 2 });
    db.close();

    second.kill('SIGTERM');
    await until('the second server stopped', () => second.exitCode !== null);
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
