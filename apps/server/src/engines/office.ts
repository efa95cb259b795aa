// LibreOffice, kept running: a small pool of headless listeners, each with a profile of its own,
// no network and no macros, each shut in a jail of its own (bwrap) as an unprivileged user, driven
// one document at a time by office/convert.py over a local pipe.
// Starting LibreOffice costs seconds; a document through a running one takes a fraction of that.
// A listener that crashes, hangs or runs out of time is killed and started afresh; other jobs and
// the other listeners carry on.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, QuireError } from '@quire/contracts';
import { decryptAgilePackage } from './officeEncryption.js';
import { requirePdfOutput } from './pdfOutput.js';
import type { EngineLimits } from './qpdf.js';
import { boundFor, EngineTimeout, prlimitMemory, runEngine, tookTooLong } from './run.js';

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

interface OfficeUser {
  uid: number;
  gid: number;
}

const OFFICE_USER = 'quire-office';
const NOBODY: OfficeUser = { uid: 65534, gid: 65534 };

/** Who LibreOffice runs as when Quire runs as root: a system user of its own (scripts/setup.sh makes it), else nobody. */
function officeUser(): OfficeUser | null {
  if (process.getuid?.() !== 0) return null; // not root: it runs as the current user, still shut in
  const passwd = readFileSync('/etc/passwd', 'utf8').split('\n');
  const entry = passwd.map((line) => line.split(':')).find((fields) => fields[0] === OFFICE_USER);
  if (entry) return { uid: Number(entry[2]), gid: Number(entry[3]) };
  console.warn(`quire: no user ${OFFICE_USER} (scripts/setup.sh makes it); LibreOffice runs as nobody`);
  return NOBODY;
}

// What a listener and convert.py see of the machine: the system's programs and libraries, the few
// files of /etc LibreOffice reads, and this listener's own folders. The data folder (uploads,
// results, the database), other users' files and the network are not there, so a document that
// names a file outside its job (a linked image, an included file, a field) finds nothing.
const JAILED = { job: '/job', profile: '/profile', sockets: '/tmp', scripts: '/quire' } as const;
const ETC_NEEDED = ['libreoffice', 'fonts', 'ld.so.cache'];

/** The command prefix that runs a program in the jail of the listener whose folders are given. */
function jail(folders: { job: string; profile: string; sockets: string }, user: OfficeUser | null): string[] {
  return [
    'bwrap',
    '--unshare-ipc',
    '--unshare-pid',
    '--unshare-net',
    '--unshare-uts',
    '--unshare-cgroup-try',
    '--die-with-parent',
    '--ro-bind',
    '/usr',
    '/usr',
    ...['lib', 'lib64', 'bin', 'sbin'].flatMap((d) => ['--symlink', `usr/${d}`, `/${d}`]),
    // Folders bwrap makes on its own are private to root; /etc must be readable by the user below.
    '--perms',
    '0755',
    '--dir',
    '/etc',
    ...ETC_NEEDED.flatMap((name) => ['--ro-bind-try', `/etc/${name}`, `/etc/${name}`]),
    // The system's font cache: without it every start spends many seconds indexing the fonts.
    ...['/var', '/var/cache'].flatMap((d) => ['--perms', '0755', '--dir', d]),
    '--ro-bind-try',
    '/var/cache/fontconfig',
    '/var/cache/fontconfig',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    // LibreOffice's pipes live in /tmp: the listener and convert.py meet in the same folder.
    '--bind',
    folders.sockets,
    JAILED.sockets,
    '--bind',
    folders.profile,
    JAILED.profile,
    '--bind',
    folders.job,
    JAILED.job,
    '--ro-bind',
    here,
    JAILED.scripts,
    '--clearenv',
    '--setenv',
    'PATH',
    '/usr/bin',
    '--setenv',
    'HOME',
    JAILED.sockets,
    '--setenv',
    'LANG',
    'C.UTF-8',
    '--chdir',
    JAILED.job,
    '--',
    ...(user
      ? ['setpriv', `--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', '--inh-caps=-all', '--bounding-set=-all', '--']
      : []),
  ];
}

/** Whether the jail can be made here (bwrap installed, namespaces allowed); checked once, on first use. */
function jailWorks(user: OfficeUser | null): boolean {
  const probe = jail({ job: here, profile: here, sockets: here }, user);
  const result = spawnSync(probe[0]!, [...probe.slice(1), '/usr/bin/true'], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status === 0) return true;
  console.error(
    `quire: cannot shut LibreOffice in (bwrap: ${String(result.stderr ?? result.error).trim()}); conversions to PDF are refused`,
  );
  return false;
}

class Listener {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  pipe = '';
  private readonly folders: { job: string; profile: string; sockets: string };

  constructor(
    private readonly dir: string,
    private readonly memoryMb: number,
    private readonly user: OfficeUser | null,
  ) {
    this.folders = { job: path.join(dir, 'job'), profile: path.join(dir, 'profile'), sockets: path.join(dir, 'sockets') };
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Makes a folder (or file) the jailed user's own, so LibreOffice can write where it must and nowhere else. */
  private async giveToUser(target: string): Promise<void> {
    if (this.user) await fs.chown(target, this.user.uid, this.user.gid);
  }

  /** Starts LibreOffice on a fresh profile unless it is running; convert.py waits for it to answer. */
  async ensureStarted(): Promise<void> {
    if (this.running) return;
    await this.stop();
    await fs.rm(this.dir, { recursive: true, force: true });
    const userDir = path.join(this.folders.profile, 'user');
    await fs.mkdir(userDir, { recursive: true });
    await fs.mkdir(this.folders.job);
    await fs.mkdir(this.folders.sockets);
    await fs.copyFile(path.join(here, 'registrymodifications.xcu'), path.join(userDir, 'registrymodifications.xcu'));
    const owned = [this.folders.profile, userDir, path.join(userDir, 'registrymodifications.xcu'), this.folders.job, this.folders.sockets];
    for (const target of owned) await this.giveToUser(target);
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
      `-env:UserInstallation=file://${JAILED.profile}`,
      `--accept=pipe,name=${this.pipe};urp;StarOffice.ComponentContext`,
    ];
    const child = spawn(
      'sh',
      [
        path.join(here, 'listener.sh'),
        'prlimit',
        prlimitMemory({ memoryMb: this.memoryMb }),
        '--',
        ...jail(this.folders, this.user),
        ...soffice,
      ],
      { detached: true, stdio: ['pipe', 'ignore', 'ignore'] },
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
    // Its profile, its sockets and whatever job it was on.
    await fs.rm(this.dir, { recursive: true, force: true });
  }

  /**
   * Runs convert.py against this listener, in the same jail: the document is copied into the job
   * folder, the only one of Quire's the listener sees, and the PDF copied out. The exit code, or a timeout.
   */
  async run(job: OfficeJob, limits: EngineLimits): Promise<number | 'timeout'> {
    const input = `input${path.extname(job.input).toLowerCase()}`;
    const jobFile = (name: string) => path.join(this.folders.job, name);
    const jailed = (name: string) => `${JAILED.job}/${name}`;
    const args = [`${JAILED.scripts}/convert.py`, this.pipe, jailed(input), jailed('output.pdf'), jailed('.password')];
    if (job.importFilter) args.push(job.importFilter, job.filterOptions ?? '');
    const [bwrap, ...jailArgs] = jail(this.folders, this.user);
    try {
      // An agile-encrypted OOXML file LibreOffice 7.4 may not open even with its password: decrypted
      // here (a wrong password is 3123), it goes in as a plain package.
      const decrypted = !!job.password && (await decryptAgilePackage(job.input, job.password, jobFile(input)));
      if (!decrypted) await fs.copyFile(job.input, jobFile(input));
      await this.giveToUser(jobFile(input));
      // The password reaches convert.py in a file only it can read, never on a command line.
      await fs.writeFile(jobFile('.password'), decrypted ? '' : (job.password ?? ''), { mode: 0o600 });
      await this.giveToUser(jobFile('.password'));
      // Its pages are not known before: the configured limit bounds it.
      const result = await runEngine(bwrap!, [...jailArgs, PYTHON, ...args], boundFor('document', limits));
      if (result.exitCode !== 0 && (result.exitCode < exit.cannotConnect || result.exitCode > exit.listenerLost))
        console.error(`LibreOffice job failed (${result.exitCode}): ${result.stderr.trim().split('\n').pop()}`);
      if (result.exitCode === 0) await fs.copyFile(jobFile('output.pdf'), job.output);
      return result.exitCode;
    } catch (e) {
      if (e instanceof EngineTimeout) return 'timeout';
      throw e;
    } finally {
      // Nothing of this job stays where the next one's document could reach it.
      const left = await fs.readdir(this.folders.job).catch(() => []);
      await Promise.all(left.map((name) => fs.rm(jobFile(name), { recursive: true, force: true })));
    }
  }
}

export class OfficePool {
  private readonly idle: Listener[] = [];
  private readonly waiting: ((l: Listener) => void)[] = [];
  private listeners: Listener[] | null = null;
  private jailReady = false;

  constructor(
    private readonly dir: string,
    private readonly size: number,
    private readonly memoryMb: number,
  ) {}

  /** The listeners, made on first use: a server that never converts never starts LibreOffice. */
  private pool(): Listener[] {
    if (!this.listeners) {
      const user = officeUser();
      this.jailReady = jailWorks(user);
      this.listeners = Array.from({ length: this.size }, (_, i) => new Listener(path.join(this.dir, String(i)), this.memoryMb, user));
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
    this.pool();
    // Without the jail a document could read the server's files: no conversion at all, then.
    if (!this.jailReady) throw new QuireError(ErrorCode.TaskFailed);
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
