// LibreOffice, kept running: a small pool of headless listeners, each with a profile of its own,
// no network and no macros, driven one document at a time by office/convert.py over a local pipe.
// Starting LibreOffice costs seconds; a document through a running one takes a fraction of that.
// A listener that crashes, hangs or runs out of time is killed and started afresh; other jobs and
// the other listeners carry on.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, QuireError } from '@quire/contracts';
import { requirePdfOutput } from './pdfOutput.js';
import type { EngineLimits } from './qpdf.js';
import { EngineTimeout, prlimitMemory, runEngine, tookTooLong } from './run.js';

const here = path.join(import.meta.dirname, 'office');
// Debian's python3-uno lives in the system Python; another python3 earlier in PATH would not find it.
const PYTHON = '/usr/bin/python3';

export interface OfficeJob {
  input: string;
  /** Written only when the conversion succeeds. */
  output: string;
  /** LibreOffice's import filter, when its own detection is not to be trusted (text, HTML). */
  importFilter?: string;
  filterOptions?: string;
  password?: string;
}

// office/convert.py's exit codes.
// listenerLost (16) is no answer: LibreOffice died under the job, which is then tried on a fresh one.
const exit = {
  cannotConnect: 10,
  needsPassword: 11,
  wrongPassword: 12,
  cannotOpen: 13,
  exportFailed: 14,
  empty: 15,
  listenerLost: 16,
} as const;

/** Whether LibreOffice can be cut off from the network here: a namespace of its own, when the system lets us make one. */
function networkIsolation(): string[] {
  // As root, a network namespace alone; otherwise in a user namespace too, as the same user (LibreOffice
  // names its pipe after the user id, which convert.py, outside the namespace, must find).
  for (const args of [['--net'], ['--map-current-user', '--net']]) {
    if (spawnSync('unshare', [...args, 'true'], { stdio: 'ignore' }).status === 0) return ['unshare', ...args, '--'];
  }
  console.warn('quire: cannot give LibreOffice a network namespace here; its profile still sends every request to a dead proxy');
  return [];
}

/**
 * The sockets a listener makes in /tmp, which stay there when it is killed: the pipe it accepts on,
 * and its single-instance pipe, named after the MD5 of its profile's URL in UTF-16 (hex digits of
 * each byte, no leading zeros), as LibreOffice's desktop module names it.
 */
function pipeSockets(pipe: string, profileUrl: string): string[] {
  const digest = crypto.createHash('md5').update(Buffer.from(profileUrl, 'utf16le')).digest();
  const singleInstance = `SingleOfficeIPC_${[...digest].map((b) => b.toString(16)).join('')}`;
  return [pipe, singleInstance].map((name) => `/tmp/OSL_PIPE_${process.getuid?.() ?? 0}_${name}`);
}

class Listener {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  pipe = '';
  private profileUrl = '';

  constructor(
    private readonly dir: string,
    private readonly memoryMb: number,
    private readonly isolate: string[],
  ) {}

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts LibreOffice on a fresh profile unless it is running; convert.py waits for it to answer. */
  async ensureStarted(): Promise<void> {
    if (this.running) return;
    await this.stop();
    const profile = path.join(this.dir, 'profile');
    this.profileUrl = `file://${profile}`;
    await fs.rm(this.dir, { recursive: true, force: true });
    await fs.mkdir(path.join(profile, 'user'), { recursive: true });
    await fs.copyFile(path.join(here, 'registrymodifications.xcu'), path.join(profile, 'user', 'registrymodifications.xcu'));
    // A new name for each start: a killed listener may leave its socket behind.
    this.pipe = `quire-${process.pid}-${crypto.randomBytes(6).toString('hex')}`;
    const soffice = [
      'soffice',
      '--headless',
      '--invisible',
      '--nologo',
      '--norestore',
      '--nodefault',
      '--nolockcheck',
      `-env:UserInstallation=${this.profileUrl}`,
      `--accept=pipe,name=${this.pipe};urp;StarOffice.ComponentContext`,
    ];
    const child = spawn(
      'sh',
      [path.join(here, 'listener.sh'), ...this.isolate, 'prlimit', prlimitMemory({ memoryMb: this.memoryMb }), '--', ...soffice],
      {
        detached: true,
        stdio: ['pipe', 'ignore', 'ignore'],
        // Belt and braces with the profile's dead proxy, for anything reading the environment.
        env: {
          ...process.env,
          http_proxy: 'http://127.0.0.1:9',
          https_proxy: 'http://127.0.0.1:9',
          ftp_proxy: 'http://127.0.0.1:9',
          no_proxy: '',
        },
      },
    );
    child.stdin!.on('error', () => {}); // the listener may be gone before we close its stdin
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    // Neither keeps Quire running: when it ends, the closed stdin ends the listener.
    child.unref();
    (child.stdin as unknown as { unref(): void }).unref();
    this.child = child;
  }

  /** Kills the listener's whole process group and waits until it is gone. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    child.ref(); // waited for below, so it must keep Node running until it is gone
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await this.exited;
    await fs.rm(this.dir, { recursive: true, force: true });
    await Promise.all(pipeSockets(this.pipe, this.profileUrl).map((socket) => fs.rm(socket, { force: true })));
  }

  /** Runs convert.py against this listener; the exit code, or a timeout. */
  async run(job: OfficeJob, limits: EngineLimits): Promise<number | 'timeout'> {
    // The password reaches convert.py in a file only we can read, never on a command line.
    const secret = path.join(path.dirname(job.output), `.password-${crypto.randomBytes(6).toString('hex')}`);
    await fs.writeFile(secret, job.password ?? '', { mode: 0o600 });
    const args = [path.join(here, 'convert.py'), this.pipe, job.input, job.output, secret];
    if (job.importFilter) args.push(job.importFilter, job.filterOptions ?? '');
    try {
      const result = await runEngine(PYTHON, args, limits);
      if (result.exitCode !== 0 && (result.exitCode < exit.cannotConnect || result.exitCode > exit.listenerLost))
        console.error(`LibreOffice job failed (${result.exitCode}): ${result.stderr.trim().split('\n').pop()}`);
      return result.exitCode;
    } catch (e) {
      if (e instanceof EngineTimeout) return 'timeout';
      throw e;
    } finally {
      await fs.rm(secret, { force: true });
    }
  }
}

export class OfficePool {
  private readonly idle: Listener[] = [];
  private readonly waiting: ((l: Listener) => void)[] = [];
  private listeners: Listener[] | null = null;

  constructor(
    private readonly dir: string,
    private readonly size: number,
    private readonly memoryMb: number,
  ) {}

  /** The listeners, made on first use: a server that never converts never starts LibreOffice. */
  private pool(): Listener[] {
    if (!this.listeners) {
      const isolate = networkIsolation();
      this.listeners = Array.from({ length: this.size }, (_, i) => new Listener(path.join(this.dir, String(i)), this.memoryMb, isolate));
      this.idle.push(...this.listeners);
    }
    return this.listeners;
  }

  private acquire(signal?: AbortSignal): Promise<Listener> {
    this.pool();
    const free = this.idle.pop();
    if (free) return Promise.resolve(free);
    return new Promise((resolve, reject) => {
      const take = (l: Listener) => {
        signal?.removeEventListener('abort', give);
        resolve(l);
      };
      // A task that runs out of time while queued gives up its place.
      const give = () => {
        this.waiting.splice(this.waiting.indexOf(take), 1);
        reject(tookTooLong());
      };
      this.waiting.push(take);
      signal?.addEventListener('abort', give, { once: true });
    });
  }

  private release(l: Listener) {
    const next = this.waiting.shift();
    if (next) next(l);
    else this.idle.push(l);
  }

  /**
   * Converts one document to PDF. Throws 3122/3123 for a password needed or wrong, 3105 for a
   * document LibreOffice cannot open (or that crashes it twice), 3125 when it takes too long.
   * Nothing is left at `job.output` unless it is a PDF with at least one page.
   */
  async convert(job: OfficeJob, limits: EngineLimits): Promise<void> {
    const listener = await this.acquire(limits.signal);
    try {
      await this.convertOn(listener, job, limits);
      await requirePdfOutput(job.output, limits);
    } catch (e) {
      await fs.rm(job.output, { force: true });
      throw e;
    } finally {
      this.release(listener);
    }
  }

  private async convertOn(listener: Listener, job: OfficeJob, limits: EngineLimits): Promise<void> {
    // A second attempt on a fresh listener: the first one may have died of something else.
    for (let attempt = 1; ; attempt++) {
      await listener.ensureStarted();
      const code = await listener.run(job, limits);
      if (code === 'timeout') {
        // It may still be busy with the document: only a new one is sure to be free.
        await listener.stop();
        throw tookTooLong();
      }
      // Anything but an answer of convert.py, or a refusal from a LibreOffice that died on the way
      // (a crash while loading looks like a document it cannot open), means the listener failed.
      const answered = code === 0 || (code >= exit.needsPassword && code <= exit.empty);
      if (!answered || (code !== 0 && !listener.running)) {
        await listener.stop();
        if (attempt < 2) continue;
        throw code === exit.cannotConnect ? new QuireError(ErrorCode.TaskFailed) : new QuireError(ErrorCode.Unreadable);
      }
      switch (code) {
        case 0:
          return;
        case exit.needsPassword:
          throw new QuireError(ErrorCode.Encrypted);
        case exit.wrongPassword:
          throw new QuireError(ErrorCode.WrongPassword);
        case exit.empty:
          throw new QuireError(ErrorCode.Unreadable, 'The document has no pages.');
        default:
          throw new QuireError(ErrorCode.Unreadable);
      }
    }
  }

  /** Stops every listener (the server is stopping). */
  async close(): Promise<void> {
    const listeners = this.listeners ?? [];
    this.listeners = null;
    this.idle.length = 0;
    await Promise.all(listeners.map((l) => l.stop()));
  }
}
