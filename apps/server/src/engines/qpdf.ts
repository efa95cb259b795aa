// qpdf: page operations, inspection and (later) encryption. Every call is bounded by runEngine.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ErrorCode, QuireError } from '@quire/contracts';
import { boundFor, EngineTimeout, type JobKind, runEngine, type RunOptions, type RunResult } from './run.js';

export type EngineLimits = Pick<RunOptions, 'timeoutMs' | 'memoryMb' | 'signal'>;

export interface PdfFacts {
  pages: number;
  encrypted: boolean;
}

/**
 * qpdf options that carry passwords, in qpdf's job JSON: `password` opens the input file, `pages`
 * selects pages of files with their own passwords, `encrypt` sets new ones.
 */
interface SecretOptions {
  password?: string;
  pages?: { file: string; range: string; password?: string }[];
  encrypt?: { userPassword: string; ownerPassword: string; '256bit': Record<string, never> };
}

/** The job options for an input opened with `password`, or none. */
export const passwordJob = (password: string | undefined): SecretOptions | undefined => (password ? { password } : undefined);

/** Exit 0 and 3 (warnings, e.g. a repaired xref) both mean qpdf produced a usable result. */
export const succeeded = (code: number) => code === 0 || code === 3;

export interface QpdfCall {
  /** What the call does (its bounds); a rewrite or check of `pages` pages may take longer than of one. */
  job: JobKind;
  pages?: number;
  onLine?: (l: string) => void;
  secrets?: SecretOptions;
}

/**
 * Runs qpdf with `args` and, if any, the `secrets` in a job file only this process can read: a
 * command line is visible to every local user. JSON also keeps a password from being read as an
 * option ("-") or a file of arguments ("@"). qpdf seeks in its job file, so it cannot be a pipe.
 */
export async function qpdf(args: string[], limits: EngineLimits, { job, pages, onLine, secrets }: QpdfCall) {
  const jobDir = secrets && (await fs.mkdtemp(path.join(os.tmpdir(), 'quire-qpdf-')));
  try {
    let jobArgs: string[] = [];
    if (jobDir) {
      const jobFile = path.join(jobDir, 'job.json');
      await fs.writeFile(jobFile, JSON.stringify(secrets), { mode: 0o600 });
      jobArgs = [`--job-json-file=${jobFile}`];
    }
    return await runEngine('qpdf', [...jobArgs, ...args], { ...boundFor(job, limits, pages), onLine });
  } catch (e) {
    if (e instanceof EngineTimeout) throw new QuireError(ErrorCode.TaskFailed, 'Processing took too long and was stopped.');
    throw e;
  } finally {
    if (jobDir) await fs.rm(jobDir, { recursive: true, force: true });
  }
}

/**
 * Opens a PDF with an optional password: page count and whether it is encrypted.
 * Throws 3122 when a password is needed and none was given, 3123 for a wrong one, 3124 when
 * qpdf cannot read it at all.
 */
export async function inspectPdf(file: string, password: string | undefined, limits: EngineLimits): Promise<PdfFacts> {
  const status = await qpdf(['--requires-password', file], limits, { job: 'inspect', secrets: passwordJob(password) });
  // 0: a password other than the one supplied is needed; 2: not encrypted; 3: encrypted, opened.
  if (status.exitCode === 0) throw new QuireError(password ? ErrorCode.WrongPassword : ErrorCode.Encrypted);
  const encrypted = status.exitCode === 3;
  // Pages are counted by walking the page tree, as every page selection does: --show-npages only
  // repeats the root's /Count, which a damaged file can get wrong (or make loop, or point nowhere).
  let pages = 0;
  const onLine = (line: string) => {
    if (/^page \d+:/.test(line)) pages++;
  };
  const walk = await qpdf(['--show-pages', file], limits, { job: 'inspect', onLine, secrets: passwordJob(password) });
  if (!succeeded(walk.exitCode) || pages < 1) throw new QuireError(ErrorCode.Damaged);
  return { pages, encrypted };
}

/** The page count the file's root declares (/Count), or null; it differs from the real one in a damaged page tree. */
export async function declaredPageCount(file: string, password: string | undefined, limits: EngineLimits): Promise<number | null> {
  const res = await qpdf(['--show-npages', file], limits, { job: 'inspect', secrets: passwordJob(password) });
  const n = Number.parseInt(res.stdout.trim(), 10);
  return succeeded(res.exitCode) && Number.isFinite(n) ? n : null;
}

/**
 * Size of page 1 in points, best effort (a hint for the web app's layout only). pdfinfo takes a
 * password only on its command line, so an encrypted file's first page is read from a decrypted
 * copy of that page alone, in a folder only this process can read.
 */
export async function firstPageSize(file: string, password: string | undefined, limits: EngineLimits) {
  const fallback = { w: 595, h: 842 };
  if (!password) return (await pdfinfoFirstPageSize(file, limits)) ?? fallback;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-page-'));
  try {
    const page = path.join(dir, 'page1.pdf');
    await writePages([{ file, password, range: '1' }], page, limits, { pages: 1 });
    return (await pdfinfoFirstPageSize(page, limits)) ?? fallback;
  } catch {
    return fallback;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function pdfinfoFirstPageSize(file: string, limits: EngineLimits) {
  const res = await runEngine('pdfinfo', ['-f', '1', '-l', '1', file], boundFor('inspect', limits)).catch(() => null);
  const m = res?.stdout.match(/Page\s+1 size:\s+([\d.]+) x ([\d.]+)/);
  return m ? { w: Number(m[1]), h: Number(m[2]) } : null;
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
  /** Pages written, when known. */
  pages?: number;
  onProgress?: (percent: number) => void;
}

/**
 * Writes `out` from page selections of one or more sources. The output is decrypted: the caller
 * proved it knows the passwords, and a merged document has no single owner password to keep.
 */
export async function writePages(sources: PageSource[], out: string, limits: EngineLimits, opts: WriteOptions = {}) {
  const args = ['--empty', '--warning-exit-0', '--no-warn', '--progress'];
  if (opts.rotate) args.push(`--rotate=${opts.rotate}`);
  args.push(out);
  const pages = sources.map((s) => ({ file: s.file, range: s.range, ...(s.password && { password: s.password }) }));
  await runWrite(args, out, limits, { pages: opts.pages, onProgress: opts.onProgress, secrets: { pages } });
}

/** Rotates pages of one file in place of a copy, keeping its document-level structure. */
export async function rotatePages(
  source: Omit<PageSource, 'range'>,
  pages: number,
  rotate: string,
  out: string,
  limits: EngineLimits,
  onProgress?: (p: number) => void,
) {
  const args = ['--warning-exit-0', '--no-warn', '--progress', '--decrypt', source.file, `--rotate=${rotate}`, out];
  await runWrite(args, out, limits, { pages, onProgress, secrets: passwordJob(source.password) });
}

/**
 * A decrypted copy whose page tree holds exactly the `pages` that qpdf walks: a damaged tree is
 * rebuilt, an intact one is kept with the rest of the document's structure.
 */
export async function decryptedCopy(source: Omit<PageSource, 'range'>, pages: number, out: string, limits: EngineLimits) {
  if ((await declaredPageCount(source.file, source.password, limits)) === pages) {
    const args = ['--warning-exit-0', '--no-warn', '--decrypt', source.file, out];
    await runWrite(args, out, limits, { pages, secrets: passwordJob(source.password) });
  } else {
    await writePages([{ ...source, range: '1-z' }], out, limits, { pages });
  }
}

/**
 * What an engine that edits pages in place and reads them its own way (MuPDF) should read
 * instead of `source`: `source` itself when qpdf reads it without a warning, unencrypted, its
 * page tree sound (the common case, one qpdf call); else its decryptedCopy at `out`, so that
 * a damaged file reaches the engine as qpdf repaired it, not as the engine would.
 */
export async function editableInput(source: Omit<PageSource, 'range'>, pages: number, out: string, limits: EngineLimits): Promise<string> {
  const facts = await qpdf(['--show-npages', '--show-encryption', source.file], limits, {
    job: 'inspect',
    secrets: passwordJob(source.password),
  });
  const sound = facts.exitCode === 0 && Number.parseInt(facts.stdout, 10) === pages;
  if (sound && /^File is not encrypted$/m.test(facts.stdout)) return source.file;
  await decryptedCopy(source, pages, out, limits);
  return out;
}

interface WriteCall {
  pages: number | undefined;
  onProgress?: (p: number) => void;
  secrets?: SecretOptions;
}

async function runWrite(args: string[], out: string, limits: EngineLimits, { pages, onProgress, secrets }: WriteCall) {
  const onLine = onProgress
    ? (line: string) => {
        const m = line.match(/write progress: (\d+)%/);
        if (m) onProgress(Number(m[1]));
      }
    : undefined;
  let result: RunResult;
  try {
    result = await qpdf(args, limits, { job: 'rewrite', pages, onLine, secrets });
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
export async function optimizePdf(
  source: Omit<PageSource, 'range'>,
  pages: number,
  out: string,
  limits: EngineLimits,
  onProgress?: (p: number) => void,
) {
  const args = ['--warning-exit-0', '--no-warn', '--progress', '--decrypt'];
  args.push('--object-streams=generate', '--compress-streams=y', '--recompress-flate', '--compression-level=9', source.file, out);
  await runWrite(args, out, limits, { pages, onProgress, secrets: passwordJob(source.password) });
}

/** qpdf --check, which decodes every stream: true when the file is sound or has warnings only. */
export async function passesCheck(file: string, pages: number, limits: EngineLimits): Promise<boolean> {
  return succeeded((await qpdf(['--check', file], limits, { job: 'rewrite', pages })).exitCode);
}

/** Encrypts with AES-256, user and owner password alike. */
export async function encryptPdf(
  source: Omit<PageSource, 'range'>,
  pages: number,
  password: string,
  out: string,
  limits: EngineLimits,
  onProgress?: (p: number) => void,
) {
  const encrypt = { userPassword: password, ownerPassword: password, '256bit': {} };
  await runWrite(['--warning-exit-0', '--no-warn', '--progress', source.file, out], out, limits, {
    pages,
    onProgress,
    secrets: { ...passwordJob(source.password), encrypt },
  });
}

/** A bookmark: its title, the page it opens (1-based) and its depth (1 for the top level). */
export interface Bookmark {
  title: string;
  page: number;
  level: number;
}

interface QpdfOutline {
  title?: string;
  destpageposfrom1?: number | null;
  kids?: QpdfOutline[];
}

/** The document's bookmarks in order, those that open no page left out; none when qpdf cannot read them. */
export async function bookmarksOf(file: string, limits: EngineLimits): Promise<Bookmark[]> {
  const res = await qpdf(['--json', '--json-key=outlines', file], limits, { job: 'inspect' });
  if (!succeeded(res.exitCode)) return [];
  let outlines: QpdfOutline[];
  try {
    outlines = (JSON.parse(res.stdout) as { outlines?: QpdfOutline[] }).outlines ?? [];
  } catch {
    return [];
  }
  const found: Bookmark[] = [];
  const walk = (items: QpdfOutline[], level: number) => {
    for (const item of items) {
      const title = item.title?.trim().replace(/\s+/g, ' ');
      if (title && item.destpageposfrom1) found.push({ title, page: item.destpageposfrom1, level });
      walk(item.kids ?? [], level + 1);
    }
  };
  walk(outlines, 1);
  return found;
}
