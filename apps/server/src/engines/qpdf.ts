// qpdf: page operations, inspection and (later) encryption. Every call is bounded by runEngine.
import fs from 'node:fs/promises';
import { ErrorCode, QuireError } from '@quire/contracts';
import { boundFor, EngineTimeout, runEngine, type RunOptions } from './run.js';

export type EngineLimits = Pick<RunOptions, 'timeoutMs' | 'memoryMb' | 'signal'>;

export interface PdfFacts {
  pages: number;
  encrypted: boolean;
}

const passwordArg = (password: string | undefined) => (password ? [`--password=${password}`] : []);

/** Exit 0 and 3 (warnings, e.g. a repaired xref) both mean qpdf produced a usable result. */
const succeeded = (code: number) => code === 0 || code === 3;

async function qpdf(args: string[], limits: EngineLimits, onLine?: (l: string) => void) {
  try {
    return await runEngine('qpdf', args, { ...boundFor('rewrite', limits), onLine });
  } catch (e) {
    if (e instanceof EngineTimeout) throw new QuireError(ErrorCode.TaskFailed, 'Processing took too long and was stopped.');
    throw e;
  }
}

/**
 * Opens a PDF with an optional password: page count and whether it is encrypted.
 * Throws 3122 when a password is needed and none was given, 3123 for a wrong one, 3124 when
 * qpdf cannot read it at all.
 */
export async function inspectPdf(file: string, password: string | undefined, limits: EngineLimits): Promise<PdfFacts> {
  const status = await qpdf(['--requires-password', ...passwordArg(password), file], limits);
  // 0: a password other than the one supplied is needed; 2: not encrypted; 3: encrypted, opened.
  if (status.exitCode === 0) throw new QuireError(password ? ErrorCode.WrongPassword : ErrorCode.Encrypted);
  const encrypted = status.exitCode === 3;
  // Pages are counted by walking the page tree, as every page selection does: --show-npages only
  // repeats the root's /Count, which a damaged file can get wrong (or make loop, or point nowhere).
  let pages = 0;
  const walk = await qpdf(['--show-pages', ...passwordArg(password), file], limits, (line) => {
    if (/^page \d+:/.test(line)) pages++;
  });
  if (!succeeded(walk.exitCode) || pages < 1) throw new QuireError(ErrorCode.Damaged);
  return { pages, encrypted };
}

/** The page count the file's root declares (/Count), or null; it differs from the real one in a damaged page tree. */
export async function declaredPageCount(file: string, password: string | undefined, limits: EngineLimits): Promise<number | null> {
  const res = await qpdf(['--show-npages', ...passwordArg(password), file], limits);
  const n = Number.parseInt(res.stdout.trim(), 10);
  return succeeded(res.exitCode) && Number.isFinite(n) ? n : null;
}

/** Size of page 1 in points, best effort (a hint for the web app's layout only). */
export async function firstPageSize(file: string, password: string | undefined, limits: EngineLimits) {
  const res = await runEngine('pdfinfo', ['-f', '1', '-l', '1', ...(password ? ['-upw', password] : []), file], limits).catch(() => null);
  const m = res?.stdout.match(/Page\s+1 size:\s+([\d.]+) x ([\d.]+)/);
  return m ? { w: Number(m[1]), h: Number(m[2]) } : { w: 595, h: 842 };
}

export interface PageSource {
  file: string;
  password?: string;
  /** qpdf page range syntax: "1-3,7", "z-1" */
  range: string;
}

export interface WriteOptions {
  /** Relative rotations to apply to the output: "+90:1-3,7" */
  rotate?: string;
  onProgress?: (percent: number) => void;
}

/**
 * Writes `out` from page selections of one or more sources. The output is decrypted: the caller
 * proved it knows the passwords, and a merged document has no single owner password to keep.
 */
export async function writePages(sources: PageSource[], out: string, limits: EngineLimits, opts: WriteOptions = {}) {
  const args = ['--empty', '--warning-exit-0', '--no-warn', '--progress', '--pages'];
  for (const s of sources) args.push(s.file, ...passwordArg(s.password), s.range);
  args.push('--');
  if (opts.rotate) args.push(`--rotate=${opts.rotate}`);
  args.push(out);
  await runWrite(args, out, limits, opts.onProgress);
}

/** Rotates pages of one file in place of a copy, keeping its document-level structure. */
export async function rotatePages(
  source: Omit<PageSource, 'range'>,
  rotate: string,
  out: string,
  limits: EngineLimits,
  onProgress?: (p: number) => void,
) {
  const args = [
    '--warning-exit-0',
    '--no-warn',
    '--progress',
    '--decrypt',
    ...passwordArg(source.password),
    source.file,
    `--rotate=${rotate}`,
    out,
  ];
  await runWrite(args, out, limits, onProgress);
}

/**
 * A decrypted copy whose page tree holds exactly the `pages` that qpdf walks: a damaged tree is
 * rebuilt, an intact one is kept with the rest of the document's structure.
 */
export async function decryptedCopy(source: Omit<PageSource, 'range'>, pages: number, out: string, limits: EngineLimits) {
  if ((await declaredPageCount(source.file, source.password, limits)) === pages) {
    await runWrite(['--warning-exit-0', '--no-warn', '--decrypt', ...passwordArg(source.password), source.file, out], out, limits);
  } else {
    await writePages([{ ...source, range: '1-z' }], out, limits);
  }
}

/**
 * What an engine that edits pages in place and reads them its own way (MuPDF) should read
 * instead of `source`: `source` itself when qpdf reads it without a warning, unencrypted, its
 * page tree sound (the common case, one qpdf call); else its decryptedCopy at `out`, so that
 * a damaged file reaches the engine as qpdf repaired it, not as the engine would.
 */
export async function editableInput(source: Omit<PageSource, 'range'>, pages: number, out: string, limits: EngineLimits): Promise<string> {
  const facts = await qpdf(['--show-npages', '--show-encryption', ...passwordArg(source.password), source.file], limits);
  const sound = facts.exitCode === 0 && Number.parseInt(facts.stdout, 10) === pages;
  if (sound && /^File is not encrypted$/m.test(facts.stdout)) return source.file;
  await decryptedCopy(source, pages, out, limits);
  return out;
}

async function runWrite(args: string[], out: string, limits: EngineLimits, onProgress?: (p: number) => void) {
  const onLine = onProgress
    ? (line: string) => {
        const m = line.match(/write progress: (\d+)%/);
        if (m) onProgress(Number(m[1]));
      }
    : undefined;
  let result;
  try {
    result = await qpdf(args, limits, onLine);
  } catch (e) {
    await fs.rm(out, { force: true });
    throw e;
  }
  if (!succeeded(result.exitCode)) {
    await fs.rm(out, { force: true });
    if (/invalid password/i.test(result.stderr)) throw new QuireError(ErrorCode.WrongPassword);
    throw new QuireError(ErrorCode.Damaged);
  }
}

/** Lossless size reduction: decrypted, objects packed into object streams, every stream deflated at level 9. */
export async function optimizePdf(source: Omit<PageSource, 'range'>, out: string, limits: EngineLimits, onProgress?: (p: number) => void) {
  const args = ['--warning-exit-0', '--no-warn', '--progress', '--decrypt', ...passwordArg(source.password)];
  args.push('--object-streams=generate', '--compress-streams=y', '--recompress-flate', '--compression-level=9', source.file, out);
  await runWrite(args, out, limits, onProgress);
}

/** qpdf --check: true when the file is sound or has warnings only. */
export async function passesCheck(file: string, limits: EngineLimits): Promise<boolean> {
  return succeeded((await qpdf(['--check', file], limits)).exitCode);
}

/**
 * Encrypts with AES-256 (user and owner password alike). The passwords go in a job file, not on
 * the command line: qpdf reads an argument starting with "@" as a file of arguments and one
 * starting with "-" as an option, and a command line is visible to every local user.
 */
export async function encryptPdf(
  source: Omit<PageSource, 'range'>,
  password: string,
  out: string,
  limits: EngineLimits,
  onProgress?: (p: number) => void,
) {
  const job = `${out}.job.json`;
  const spec = {
    inputFile: source.file,
    ...(source.password && { password: source.password }),
    outputFile: out,
    warningExit0: '',
    noWarn: '',
    progress: '',
    encrypt: { userPassword: password, ownerPassword: password, '256bit': {} },
  };
  await fs.writeFile(job, JSON.stringify(spec), { mode: 0o600 });
  try {
    await runWrite([`--job-json-file=${job}`], out, limits, onProgress);
  } finally {
    await fs.rm(job, { force: true });
  }
}
