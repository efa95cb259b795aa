// Quire as an operator runs it (`npm start`), in a process of its own: for tests and benches that
// kill it, or measure its memory apart from their own.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { defaultLimits } from '@quire/contracts';

const repo = path.resolve(import.meta.dirname, '../../..');

export async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  return port;
}

/** Polls `ready` until it holds; `what` names it when it never does (a hang, not a slow machine). */
export async function until<T>(what: string, ready: () => T | undefined | Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await ready();
    if (value) return value;
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A limits file in `dir` giving visitors Premium's limits (`maxFileMb` if given), as startQuire does; its path. */
function visitorsAsPremium(dir: string, maxFileMb?: number): string {
  const file = path.join(dir, 'test-limits.json');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ anonymous: { ...defaultLimits.premium, ...(maxFileMb && { maxFileMb }) } }));
  return file;
}

/**
 * Starts Quire on `dataDir` with one worker slot and `env` added (QUIRE_SERVICES=worker: a worker alone, which answers
 * nothing); anonymous visitors run and download without limit, as with startQuire.
 */
export function spawnQuire(dataDir: string, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repo,
    env: {
      ...process.env,
      QUIRE_DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      QUIRE_WORKERS: '1',
      QUIRE_ANON_TASKS_PER_DAY: '0',
      QUIRE_ANON_DOWNLOADS: '1',
      QUIRE_SIGNUPS_PER_ADDRESS_DAY: '0',
      QUIRE_MAX_QUEUED_WORK_PER_ADDRESS: '0',
      QUIRE_LIMITS_FILE: visitorsAsPremium(dataDir),
      ...env,
    },
    stdio: 'ignore',
  });
}

/** Starts the server on `port` with `env` added; resolves once it answers. */
export async function startServer(dataDir: string, port: number, env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawnQuire(dataDir, { PORT: String(port), ...env });
  try {
    await until('the server answering', () =>
      child.exitCode === null
        ? fetch(`http://127.0.0.1:${port}/api/health`).then(
            (r) => r.ok,
            () => false,
          )
        : Promise.reject(new Error(`the server exited with ${child.exitCode}`)),
    );
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  }
  return child;
}

/** A field of /proc/<pid>/status in bytes (VmRSS, VmHWM), or undefined once the process is gone. */
export function memoryOf(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const line = fs
      .readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${field}:`));
    return line ? Number(line.split(/\s+/)[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Every process below `pid`, with its start time and command line, read from /proc. */
export function processesBelow(pid: number): { pid: number; startTime: number; command: string }[] {
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

/**
 * The settings that let an anonymous visitor send files of up to `maxFileMb` (the big-file runs):
 * the server's ceiling, and a limits file (QUIRE_LIMITS_FILE) in `dir` giving visitors Premium's limits at that size.
 */
export function visitorFileLimit(dir: string, maxFileMb: number): Record<string, string> {
  return { QUIRE_MAX_FILE_MB: String(maxFileMb), QUIRE_LIMITS_FILE: visitorsAsPremium(dir, maxFileMb) };
}
