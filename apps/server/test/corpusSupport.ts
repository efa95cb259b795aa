// What the corpus tests (corpus*.test.ts) share: where the real-world files are, their manifests,
// the independent tools run without blocking the server under test, and the codes a pdf.js file
// may fairly be refused with.
import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { vi } from 'vitest';
import { ErrorCode } from '@quire/contracts';

export const corpusRoot = path.resolve(import.meta.dirname, '../../../test-corpus');
export const pdfjsDir = path.join(corpusRoot, 'pdfjs');

/** The PDFs of the pdf.js corpus, sorted. */
export const pdfjsFiles = () =>
  fs
    .readdirSync(pdfjsDir)
    .filter((f) => f.toLowerCase().endsWith('.pdf'))
    .sort();

/** The rows of one of the corpus's tab-separated manifests (`name` below corpusRoot), without its header. */
export function readTsv(name: string): string[][] {
  return fs
    .readFileSync(path.join(corpusRoot, name), 'utf8')
    .split('\n')
    .slice(1)
    .filter((l) => l.trim())
    .map((l) => l.split('\t'));
}

/** A passwords file of the corpus: file → password. */
export const readPasswords = (name: string) => new Map(readTsv(name).map(([file, pw]) => [file!, pw!]));

export interface PdfjsRow {
  file: string;
  /** Pages as qpdf reads them, or null where qpdf cannot. */
  pages: number | null;
  encrypted: boolean;
  needsPassword: boolean;
  check: string;
}

export const pdfjsManifest = new Map<string, PdfjsRow>(
  readTsv('pdfjs-manifest.tsv').map(([file, , pages, enc, needs, check]) => [
    file!,
    { file: file!, pages: pages === '-' ? null : Number(pages), encrypted: enc === 'yes', needsPassword: needs === 'yes', check: check! },
  ]),
);
export const pdfjsPasswords = readPasswords('pdfjs-passwords.tsv');

/** The password a pdf.js file needs to be opened, or undefined where it needs none. */
export const pdfjsPassword = (name: string) => (pdfjsManifest.get(name)?.needsPassword ? pdfjsPasswords.get(name) : undefined);

/** Codes the upload of a pdf.js file may be refused with. */
export const PDF_UPLOAD_REFUSALS = new Set<number>([
  ErrorCode.NotPdf,
  ErrorCode.Encrypted,
  ErrorCode.Damaged,
  ErrorCode.TooLarge,
  ErrorCode.TooManyPages,
]);
/** Codes a tool call on an uploaded PDF, or its task, may fail with, given the right password. */
export const PDF_TOOL_REFUSALS = new Set<number>([ErrorCode.Damaged, ErrorCode.TaskFailed, ErrorCode.TooManyPages]);

/** How often the corpus tests poll a task: half as often as the other tests, as many files run at once. */
export const POLL_MS = 100;

export interface Sh {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs an independent tool, always asynchronously: the server under test shares this event loop.
 * Never rejects: the exit code tells, -1 where the tool was killed (60 s) or could not start.
 */
export function sh(cmd: string, args: string[], input?: string | Buffer): Promise<Sh> {
  return new Promise((resolve) => {
    const child = execFile(cmd, args, { timeout: 60_000, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
    if (input !== undefined) child.stdin!.end(input);
  });
}

/** Runs `fn` on every item, `n` at a time, in order. */
export async function pool<T>(items: T[], n: number, fn: (item: T, index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i]!, i);
      }
    }),
  );
}

/**
 * Collects into `errors` whatever the server logs as an error (an unexpected exception in a task or
 * a request: a crash to the corpus tests), still printing it; vi.restoreAllMocks() ends it.
 */
export function collectConsoleErrors(errors: string[]) {
  const original = console.error.bind(console);
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : String(a))).join(' '));
    original(...args);
  });
}
