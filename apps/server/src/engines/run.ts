// Runs an external engine with a time limit and an address-space bound, so a hostile or huge
// input can neither hang a worker nor exhaust the machine.
import { spawn } from 'node:child_process';
import { ErrorCode, QuireError } from '@quire/contracts';
import { recordEngine } from './processes.js';

export interface RunOptions {
  timeoutMs: number;
  memoryMb: number;
  /**
   * What memoryMb bounds: the address space (default), or the data segment for engines that
   * reserve far more address space than they use, as WebAssembly does (gigabytes of guard pages).
   */
  memoryBound?: 'address-space' | 'data';
  /** Called with each line the engine writes on stdout (progress reporting). */
  onLine?: (line: string) => void;
  signal?: AbortSignal;
  /** Written to the engine's standard input (programs that read text, not files); none without it. */
  stdin?: string;
}

export interface RunResult {
  exitCode: number;
  /** The signal that ended the engine from within (a crash: SIGSEGV, SIGABRT), or null when it exited. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export class EngineTimeout extends Error {
  constructor(readonly command: string) {
    super(`${command} exceeded its time limit`);
  }
}

/** What an engine call does, which decides how much memory and time it may take. */
export type JobKind = 'inspect' | 'text' | 'rewrite' | 'render' | 'image' | 'document' | 'ocr';

interface JobBound {
  memoryMb: number;
  /** Time for any call of this kind ... */
  baseMs: number;
  /** ... and for each page it works on; such a call whose pages are not known gets the configured limit. */
  perPageMs: number;
}

/**
 * The most memory and time each kind of engine job needs on a file that passed the upload checks
 * (no bomb, pages and images within their limits), so that no job holds a worker for the
 * configured bound when it needs far less. Reading structure needs little memory and seconds
 * whatever the size; a text extraction or a rewrite grows with the pages; a page bitmap of
 * PDF_IMAGE_MAX_PIXELS needs about 600 MB and tens of seconds on a loaded machine. An image tool
 * on IMAGE_MAX_PIXELS needs up to 1.2 GB (a turned JPEG); the programs that lay out or edit a whole document
 * (LibreOffice, MuPDF's WebAssembly in Node) need room for their runtime besides it. OCR is
 * bounded per page (Tesseract's own limit); the whole is that times the rounds of parallel pages.
 * Bases are generous: a page count says nothing of a page's images, and the machine may be busy.
 */
export const JOB_BOUNDS: Record<JobKind, JobBound> = {
  inspect: { memoryMb: 512, baseMs: 20_000, perPageMs: 0 },
  text: { memoryMb: 512, baseMs: 15_000, perPageMs: 1_000 },
  rewrite: { memoryMb: 1024, baseMs: 60_000, perPageMs: 1_000 },
  render: { memoryMb: 1536, baseMs: 45_000, perPageMs: 15_000 },
  image: { memoryMb: 2048, baseMs: 60_000, perPageMs: 0 },
  document: { memoryMb: 2048, baseMs: 60_000, perPageMs: 2_000 },
  ocr: { memoryMb: 2048, baseMs: 0, perPageMs: 90_000 },
};

/**
 * `limits` with the memory and time bounds of a `job` on `pages` pages (when known), or the
 * configured ones where those are lower: the configuration stays the ceiling.
 */
export function boundFor<L extends Pick<RunOptions, 'memoryMb' | 'timeoutMs'>>(job: JobKind, limits: L, pages?: number): L {
  const bound = JOB_BOUNDS[job];
  const needs = bound.perPageMs === 0 || pages !== undefined ? bound.baseMs + bound.perPageMs * (pages ?? 0) : limits.timeoutMs;
  return { ...limits, memoryMb: Math.min(limits.memoryMb, bound.memoryMb), timeoutMs: Math.min(limits.timeoutMs, needs) };
}

/** How a task that ran out of time is reported. */
export const tookTooLong = () => new QuireError(ErrorCode.TaskFailed, 'Processing took too long and was stopped.');

const MAX_CAPTURE = 1024 * 1024;

/**
 * Signals that end an engine from outside (an operator, the kernel's OOM killer, a stopping
 * container): nothing is wrong with the file, so the task fails as one to try again (3125), not as
 * a damaged file. A crash (SIGSEGV, SIGABRT) is the engine failing on its input, as an exit code is.
 */
const KILLED_FROM_OUTSIDE = new Set<NodeJS.Signals>(['SIGKILL', 'SIGTERM', 'SIGINT', 'SIGHUP']);

/** The prlimit option for a memory bound: the address space, or the data segment (see RunOptions). */
export function prlimitMemory(opts: Pick<RunOptions, 'memoryMb' | 'memoryBound'>): string {
  const bytes = String(opts.memoryMb * 1024 * 1024);
  return opts.memoryBound === 'data' ? `--data=${bytes}` : `--as=${bytes}`;
}

export function runEngine(command: string, args: string[], opts: RunOptions): Promise<RunResult> {
  // A task already stopped (its deadline passed, or cancelled) starts nothing more.
  if (opts.signal?.aborted) return Promise.reject(new EngineTimeout(command));
  // prlimit bounds virtual memory; a child over it fails to allocate instead of swapping the host.
  // A process group of its own: OCRmyPDF's Tesseracts and a shell's children end with the engine.
  const child = spawn('prlimit', [prlimitMemory(opts), '--', command, ...args], {
    stdio: [opts.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    env: { ...process.env, LC_ALL: 'C' },
    detached: true,
  });
  // prlimit replaces itself with the engine (exec), so this PID is the engine's.
  const forget = recordEngine(child.pid);
  let stdout = '';
  let stderr = '';
  let pending = '';
  let timedOut = false;
  // Either limit, the call's own or the whole task's (signal), ends the engine the same way.
  const kill = () => {
    timedOut = true;
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  const timer = setTimeout(kill, opts.timeoutMs);
  // An engine that exits before reading all its input closes the pipe: that is its answer, not an error here.
  child.stdin?.on('error', () => {});
  child.stdin?.end(opts.stdin);
  opts.signal?.addEventListener('abort', kill, { once: true });
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    if (stdout.length < MAX_CAPTURE) stdout += chunk;
    if (!opts.onLine) return;
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) opts.onLine(line);
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    if (stderr.length < MAX_CAPTURE) stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on('error', (err) => {
      clearTimeout(timer);
      forget();
      reject(err);
    });
    child.on('close', (code, sig) => {
      clearTimeout(timer);
      forget();
      opts.signal?.removeEventListener('abort', kill);
      if (timedOut) return reject(new EngineTimeout(command));
      if (sig && KILLED_FROM_OUTSIDE.has(sig)) return reject(new QuireError(ErrorCode.TaskFailed));
      resolve({ exitCode: code ?? (sig ? 137 : 1), signal: sig, stdout, stderr });
    });
  });
}
