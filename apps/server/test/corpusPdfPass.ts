// Robustness against real-world PDFs: every file of the pdf.js corpus goes through a group of tools
// over the HTTP API of one running Quire. Each file must be either refused with a catalogue code, or
// give per tool a task that succeeds with an output independent tools accept (qpdf --check, qpdf's
// page count and page-tree walk, pdfinfo, pdftotext) or fails with a catalogue status, in time.
// The eleven tools are split in three groups, one test file each (corpus-organise, corpus-edit,
// corpus-render), so the suites' workers share the pass instead of one worker running all of it.
// Each test file imports this module afresh (Vitest isolates test files), so the state below is its own.
//
// Run with: npx vitest run --project corpus apps/server/test/corpus-organise.test.ts (or -edit, -render)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorCode, type TaskEntry } from '@quire/contracts';
import { Client, fileForm, startQuire, type Answer, type Running } from './harness.js';
import { makePdf } from './fixtures.js';
import {
  PDF_TOOL_REFUSALS,
  POLL_MS,
  PDF_UPLOAD_REFUSALS,
  collectConsoleErrors,
  pdfjsDir,
  pdfjsFiles,
  pdfjsManifest,
  pdfjsPassword,
  pdfjsPasswords,
  pool,
  sh,
} from './corpusSupport.js';

/** Files in flight at once (each runs its three tools one after the other). */
const CONCURRENCY = 4;
/** Per engine call inside the test server; a task that waits longer than TASK_DEADLINE_MS is a hang. */
const ENGINE_TIMEOUT_MS = 30_000;
const TASK_DEADLINE_MS = 90_000;
/** The small document every corpus file is merged with. */
const GEN_PAGES = 2;

export type ToolName =
  | 'merge'
  | 'split'
  | 'rotate'
  | 'cut'
  | 'redaction'
  | 'replacetext'
  | 'compress'
  | 'encrypt'
  | 'decode'
  | 'to_png'
  | 'extract_images';
type Outcome = 'ok' | number;

// ---------------------------------------------------------------------------------------------
// Independent tools (corpusSupport's sh: asynchronous, as the server under test shares this event loop).

const pwArg = (pw?: string) => (pw ? [`--password=${pw}`] : []);

/**
 * What qpdf makes of a file in one run: whether --check passes (0 is clean, 3 is warnings only; both
 * mean a readable file), the page count its root declares (what the manifest lists) and the pages its
 * page-tree walk finds (what any page selection works on). One process, not three: the corpus runs
 * thousands of these checks.
 */
interface QpdfView {
  check: string | null;
  declared: number | null;
  walked: number | null;
}

async function qpdfView(file: string, opts: { pw?: string; check?: boolean } = {}): Promise<QpdfView> {
  const r = await sh('qpdf', [...pwArg(opts.pw), ...(opts.check ? ['--check'] : []), '--show-npages', '--show-pages', file]);
  const readable = r.code === 0 || r.code === 3;
  const declared = Number.parseInt(r.stdout.match(/^(\d+)$/m)?.[1] ?? '', 10);
  return {
    check: readable ? null : `qpdf --check exit ${r.code}: ${(r.stderr || r.stdout).trim().split('\n').slice(-2).join(' | ')}`,
    declared: Number.isFinite(declared) ? declared : null,
    walked: readable ? [...r.stdout.matchAll(/^page \d+:/gm)].length : null,
  };
}

/** The pages qpdf finds by walking the page tree, or null if it cannot. */
async function treePages(file: string, pw?: string): Promise<number | null> {
  return (await qpdfView(file, { pw })).walked;
}

/** An output must pass qpdf --check and declare the pages it holds: both counts equal `expected`. */
async function outputProblems(file: string, expected: number, what: string): Promise<string[]> {
  const { check, declared, walked } = await qpdfView(file, { check: true });
  const problems = check ? [check] : [];
  if (declared !== expected || walked !== expected)
    problems.push(`${what}: ${declared} pages declared, ${walked} in the page tree, expected ${expected}`);
  return problems;
}

async function pdfinfoRotations(file: string, pw?: string): Promise<number[] | null> {
  const r = await sh('pdfinfo', ['-f', '1', '-l', '100000', ...(pw ? ['-upw', pw] : []), file]);
  if (r.code !== 0) return null;
  return [...r.stdout.matchAll(/Page\s+\d+ rot:\s+(\d+)/g)].map((m) => Number(m[1]));
}

/**
 * The input's rotations per pdfinfo. Where poppler cannot open it (some encryptions, a page tree
 * qpdf repairs but poppler does not), of a copy of its pages made by qpdf alone.
 */
async function inputRotations(file: string, pw: string | undefined, pages: number, tmp: string): Promise<number[] | null> {
  const direct = await pdfinfoRotations(file, pw);
  if (direct?.length === pages) return direct;
  const copy = path.join(tmp, 'input-pages.pdf');
  const r = await sh('qpdf', ['--empty', '--warning-exit-0', '--pages', file, ...pwArg(pw), '1-z', '--', copy]);
  return r.code === 0 ? pdfinfoRotations(copy) : null;
}

async function pageText(file: string, page: number): Promise<string> {
  return (await sh('pdftotext', ['-f', String(page), '-l', String(page), file, '-'])).stdout;
}

// ---------------------------------------------------------------------------------------------

interface FileReport {
  file: string;
  upload: Outcome;
  tools: Partial<Record<ToolName, Outcome>>;
}

let quire: Running;
let client: Client;
let tmpRoot: string;
let genId: string;
const failures: Record<'upload' | ToolName | 'server', string[]> = {
  upload: [],
  merge: [],
  split: [],
  rotate: [],
  cut: [],
  redaction: [],
  replacetext: [],
  compress: [],
  encrypt: [],
  decode: [],
  to_png: [],
  extract_images: [],
  server: [],
};
const reports: FileReport[] = [];
const serverErrors: string[] = [];
/** Things worth knowing that are not failures: where the manifest's page count and qpdf's disagree. */
const notes: string[] = [];
let slowest = { ms: 0, what: '' };
/** Seconds from call to finished task, summed per tool (queue waits included): where the run's time goes. */
const toolSeconds: Partial<Record<ToolName, number>> = {};
let elapsedMs = 0;

const post = (pathname: string, body: unknown) =>
  client.answer(pathname, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** A well-formed refusal: a known, non-zero catalogue code in an envelope, never an HTTP 500. */
function badAnswer(a: Answer, allowed: Set<number>): string | null {
  if (!a.body || typeof a.body.code !== 'number') return `HTTP ${a.status} without an envelope: ${a.text.slice(0, 120)}`;
  if (a.status >= 500) return `HTTP ${a.status} (code ${a.body.code} ${a.body.msg})`;
  if (!allowed.has(a.body.code)) return `unexpected code ${a.body.code} (${a.body.msg}) HTTP ${a.status}`;
  return null;
}

async function download(taskId: string, dest: string, index?: number): Promise<string | null> {
  const res = await client.raw(`/api/tools/v1/document/download-doc?task_id=${taskId}${index === undefined ? '' : `&index=${index}`}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) return `download HTTP ${res.status}: ${bytes.toString('utf8', 0, 120)}`;
  if (!bytes.subarray(0, 1024).includes('%PDF-'))
    return `download${index === undefined ? '' : ` #${index}`} is not a PDF (${res.headers.get('content-type')})`;
  fs.writeFileSync(dest, bytes);
  return null;
}

interface Input {
  file: string;
  /** The file as it was sent: a repaired upload is kept as `file`, but compress answers for what the user sent. */
  sent: string;
  name: string;
  fileId: string;
  password?: string;
  pages: number;
  /** Whether qpdf's own page-tree walk finds those pages (else a 3124 from a tool is fair). */
  readable: boolean;
  /** Page rotations of the input, read only for a pass that checks them (split, rotate). */
  rotations: number[] | null;
  tmp: string;
}

/** Queues one tool call and waits for its task; returns the finished entry or the outcome of a refusal. */
async function runTool(
  tool: ToolName,
  pathname: string,
  body: unknown,
  input: Input,
  report: FileReport,
  refusals = PDF_TOOL_REFUSALS,
): Promise<TaskEntry | null> {
  const fail = (msg: string) => {
    failures[tool].push(`${input.name}: ${msg}`);
    return null;
  };
  const started = Date.now();
  // The converter is a GET whose query carries the parameters.
  const created =
    pathname === 'converter'
      ? await client.answer(`converter?${new URLSearchParams(JSON.parse(JSON.stringify(body)) as Record<string, string>)}`)
      : await post(pathname, body);
  if (created.body?.code !== 0) {
    report.tools[tool] = created.body?.code ?? created.status;
    const bad = badAnswer(created, refusals);
    if (bad) return fail(`call refused: ${bad}`);
    if (created.body?.code === ErrorCode.Damaged && input.readable)
      return fail(`call refused as damaged (3124) though qpdf reads ${input.pages} pages`);
    return null;
  }
  let entry: TaskEntry;
  try {
    entry = await client.waitTask((created.body.data as { task_id: string }).task_id, TASK_DEADLINE_MS, POLL_MS);
  } catch (e) {
    report.tools[tool] = -1;
    return fail((e as Error).message);
  }
  const ms = Date.now() - started;
  toolSeconds[tool] = (toolSeconds[tool] ?? 0) + ms / 1000;
  if (ms > slowest.ms) slowest = { ms, what: `${tool} ${input.name}` };
  if (entry.status !== 0) {
    report.tools[tool] = entry.status;
    if (!refusals.has(entry.status)) return fail(`task failed with unexpected status ${entry.status} (${entry.msg})`);
    if (entry.status === ErrorCode.Damaged && input.readable)
      return fail(`task failed as damaged (3124) though qpdf reads ${input.pages} pages`);
    return null;
  }
  report.tools[tool] = 'ok';
  return entry;
}

async function checkMerge(input: Input, report: FileReport) {
  const problems: string[] = [];
  const passwds = input.password ? [input.password, ''] : undefined;
  const entry = await runTool('merge', 'merge', { file_ids: [input.fileId, genId], ...(passwds ? { passwds } : {}) }, input, report);
  if (!entry) return;
  const out = path.join(input.tmp, 'merged.pdf');
  const dl = await download(entry.task_id, out);
  if (dl) problems.push(dl);
  else {
    const expected = input.pages + GEN_PAGES;
    const wrong = await outputProblems(out, expected, `merged output (${input.pages} + ${GEN_PAGES})`);
    problems.push(...wrong);
    if (!wrong.length && !(await pageText(out, expected)).includes(`Gen Page ${GEN_PAGES}`))
      problems.push(`last merged page is not "Gen Page ${GEN_PAGES}"`);
  }
  if (problems.length) {
    report.tools.merge = -1;
    failures.merge.push(`${input.name}: ${problems.join('; ')}`);
  }
}

async function checkSplit(input: Input, report: FileReport) {
  const problems: string[] = [];
  const entry = await runTool('split', 'split', { file_id: input.fileId, passwd: input.password, mode: 'fixed', every: 1 }, input, report);
  if (!entry) return;
  if (entry.outputs.length !== input.pages) problems.push(`${entry.outputs.length} parts for ${input.pages} pages`);
  for (const part of entry.outputs) {
    const out = path.join(input.tmp, `part-${part.index}.pdf`);
    const dl = await download(entry.task_id, out, part.index);
    if (dl) {
      problems.push(dl);
      continue;
    }
    problems.push(...(await outputProblems(out, 1, `part ${part.index}`)));
    const rot = await pdfinfoRotations(out);
    const want = input.rotations?.[part.index];
    if (want !== undefined && rot?.[0] !== want) problems.push(`part ${part.index} rotation ${rot?.[0]}, input page has ${want}`);
    fs.rmSync(out, { force: true });
  }
  if (problems.length) {
    report.tools.split = -1;
    failures.split.push(`${input.name}: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` (+${problems.length - 5} more)` : ''}`);
  }
}

async function checkRotate(input: Input, report: FileReport) {
  const problems: string[] = [];
  const entry = await runTool(
    'rotate',
    'document/rotate',
    { file_id: input.fileId, passwd: input.password, angle: 90, pages: 'all' },
    input,
    report,
  );
  if (!entry) return;
  const out = path.join(input.tmp, 'rotated.pdf');
  const dl = await download(entry.task_id, out);
  if (dl) problems.push(dl);
  else {
    problems.push(...(await outputProblems(out, input.pages, 'rotated output')));
    const got = await pdfinfoRotations(out);
    if (!input.rotations) problems.push('cannot read the input rotations to compare');
    else if (!got) problems.push('pdfinfo cannot read the rotated output');
    else {
      const want = input.rotations.map((r) => (r + 90) % 360);
      if (got.join(',') !== want.join(',')) problems.push(`rotations ${got.join(',')}, expected ${want.join(',')}`);
    }
  }
  if (problems.length) {
    report.tools.rotate = -1;
    failures.rotate.push(`${input.name}: ${problems.join('; ')}`);
  }
}

/** Page 1's CropBox as pdfinfo reports it (clipped to the MediaBox), or null where poppler cannot open the file. */
async function cropBoxOfPage1(file: string, pw?: string): Promise<number[] | null> {
  const r = await sh('pdfinfo', ['-box', '-f', '1', '-l', '1', ...(pw ? ['-upw', pw] : []), file]);
  const m = r.stdout.match(/CropBox:\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)/);
  return r.code === 0 && m ? m.slice(1).map(Number) : null;
}

/** Crop margins of the corpus run: 10 mm a side, in points (72 per inch, 25.4 mm). */
const CROP_MM = 10;
const CROP_PT = (CROP_MM * 72) / 25.4;
/** Crop may also refuse margins that leave no area (3100) on a page under 20 mm. */
const CROP_REFUSALS = new Set<number>([...PDF_TOOL_REFUSALS, ErrorCode.InvalidParams]);

async function downloadChecked(tool: ToolName, input: Input, taskId: string, name: string, problems: string[]): Promise<string | null> {
  const out = path.join(input.tmp, name);
  const dl = await download(taskId, out);
  if (dl) {
    problems.push(dl);
    return null;
  }
  problems.push(...(await outputProblems(out, input.pages, `${tool} output`)));
  return out;
}

async function checkCrop(input: Input, report: FileReport) {
  const problems: string[] = [];
  const m = CROP_MM;
  const entry = await runTool(
    'cut',
    'document/cut',
    { file_id: input.fileId, passwd: input.password, margins: { top: m, right: m, bottom: m, left: m }, pages: 'all' },
    input,
    report,
    CROP_REFUSALS,
  );
  if (report.tools.cut === ErrorCode.InvalidParams) {
    // Fair only for a document with a page too small for the margins.
    const sizes = (await sh('pdfinfo', ['-f', '1', '-l', '100000', ...(input.password ? ['-upw', input.password] : []), input.file]))
      .stdout;
    const small = [...sizes.matchAll(/size:\s+([\d.]+) x ([\d.]+)/g)].some((m) => Math.min(Number(m[1]), Number(m[2])) <= 2 * CROP_PT + 1);
    if (small) notes.push(`${input.name}: crop refused (3100): a page is under ${2 * CROP_MM} mm`);
    else failures.cut.push(`${input.name}: crop refused with 3100 though pdfinfo finds no page under ${2 * CROP_MM} mm`);
  }
  if (!entry) return;
  const out = await downloadChecked('cut', input, entry.task_id, 'cropped.pdf', problems);
  if (out) {
    // Page 1 loses CROP_PT on every side of the box a viewer shows.
    const [before, after] = await Promise.all([cropBoxOfPage1(input.file, input.password), cropBoxOfPage1(out)]);
    if (!after) problems.push('pdfinfo cannot read the cropped output');
    else if (before) {
      const want = [before[0]! + CROP_PT, before[1]! + CROP_PT, before[2]! - CROP_PT, before[3]! - CROP_PT];
      if (want.some((v, i) => Math.abs(v - after[i]!) > 0.5))
        problems.push(`page 1 CropBox ${after.join(' ')}, expected ${want.map((v) => v.toFixed(2)).join(' ')}`);
    }
  }
  if (problems.length) {
    report.tools.cut = -1;
    failures.cut.push(`${input.name}: ${problems.join('; ')}`);
  }
}

async function checkRedact(input: Input, report: FileReport) {
  const problems: string[] = [];
  // A square inch at the bottom left of page 1, and every "the" in any case.
  const body = { passwd: input.password, areas: [{ page: 1, x: 0, y: 0, width: 72, height: 72 }], texts: [{ text: 'the' }] };
  const entry = await runTool('redaction', `document/redaction/${input.fileId}/redaction`, body, input, report);
  if (!entry) return;
  const out = await downloadChecked('redaction', input, entry.task_id, 'redacted.pdf', problems);
  if (out) {
    const left = ((await sh('pdftotext', [out, '-'])).stdout.match(/the/gi) ?? []).length;
    if (left) problems.push(`pdftotext still finds "the" ${left} time(s)`);
    const info = (await sh('pdfinfo', [out])).stdout;
    if (/^(Title|Author|Subject|Keywords):/m.test(info) || /^Metadata Stream:\s+yes/m.test(info))
      problems.push('metadata left in the output');
  }
  if (problems.length) {
    report.tools.redaction = -1;
    failures.redaction.push(`${input.name}: ${problems.join('; ')}`);
  }
}

async function checkReplace(input: Input, report: FileReport) {
  const problems: string[] = [];
  const entry = await runTool(
    'replacetext',
    'document/replacetext',
    { file_id: input.fileId, passwd: input.password, search: 'the', replace: 'THE' },
    input,
    report,
  );
  if (!entry) return;
  const count = Number(entry.outputs[0]?.note?.match(/^(\d+) replacements?\./)?.[1] ?? NaN);
  if (!Number.isInteger(count)) problems.push(`no count in the note: ${entry.outputs[0]?.note}`);
  const out = await downloadChecked('replacetext', input, entry.task_id, 'replaced.pdf', problems);
  if (out) {
    const after = (await sh('pdftotext', [out, '-'])).stdout;
    const [left, added] = [/the/g, /THE/g].map((word) => (after.match(word) ?? []).length);
    if (left) problems.push(`pdftotext still finds "the" ${left} time(s) after ${count} replacements`);
    if (count > 0 && added === 0) problems.push(`${count} replacements but pdftotext finds no "THE"`);
  }
  if (problems.length) {
    report.tools.replacetext = -1;
    failures.replacetext.push(`${input.name}: ${problems.join('; ')}`);
  }
}

/** qpdf --requires-password: 0 the password given (or none) does not open it, 2 not encrypted, 3 encrypted and opened. */
async function passwordNeeded(file: string, pw?: string): Promise<number> {
  return (await sh('qpdf', ['--requires-password', ...pwArg(pw), file])).code;
}

/** pdftotext's reading with whitespace taken out, or null where poppler cannot read the file. */
async function plainText(file: string, pw?: string): Promise<string | null> {
  const r = await sh('pdftotext', ['-q', ...(pw ? ['-upw', pw] : []), file, '-']);
  return r.code === 0 ? r.stdout.replace(/\s+/g, '') : null;
}

/** Compress runs at the default level only: Ghostscript is the slow engine of the run. */
async function checkCompress(input: Input, report: FileReport) {
  const problems: string[] = [];
  const entry = await runTool('compress', 'compress', { file_id: input.fileId, passwd: input.password, level: 'medium' }, input, report);
  if (!entry) return;
  const output = entry.outputs[0];
  // Compress beats, and gives back unchanged, what the user sent, not a repaired copy of it.
  const inputSize = fs.statSync(input.sent).size;
  if (output?.input_size !== inputSize) problems.push(`input_size ${output?.input_size}, the file has ${inputSize} bytes`);
  if (output?.unchanged) {
    // Nothing gained: the very bytes uploaded come back.
    const out = path.join(input.tmp, 'compressed.pdf');
    const dl = await download(entry.task_id, out);
    if (dl) problems.push(dl);
    else if (!fs.readFileSync(out).equals(fs.readFileSync(input.sent))) problems.push('marked unchanged but differs from the input');
  } else {
    const out = await downloadChecked('compress', input, entry.task_id, 'compressed.pdf', problems);
    if (out) {
      if (fs.statSync(out).size >= inputSize) problems.push(`${fs.statSync(out).size} bytes, not smaller than the input's ${inputSize}`);
      if ((await passwordNeeded(out)) !== 2) problems.push('the output is encrypted');
      const [before, after] = await Promise.all([plainText(input.file, input.password), plainText(out)]);
      if (before !== null && after !== before)
        problems.push(`pdftotext reads other text after compression (${before.length} → ${after?.length ?? 'unreadable'} characters)`);
    }
  }
  if (problems.length) {
    report.tools.compress = -1;
    failures.compress.push(`${input.name}: ${problems.join('; ')}`);
  }
}

const PROTECT_PASSWORD = 'corpus-secret';

async function checkProtect(input: Input, report: FileReport) {
  const problems: string[] = [];
  const entry = await runTool(
    'encrypt',
    'encrypt',
    { file_id: input.fileId, passwd: input.password, password: PROTECT_PASSWORD },
    input,
    report,
  );
  if (!entry) return;
  const out = path.join(input.tmp, 'protected.pdf');
  const dl = await download(entry.task_id, out);
  if (dl) problems.push(dl);
  else {
    if ((await passwordNeeded(out)) !== 0) problems.push('opens without a password');
    if ((await passwordNeeded(out, PROTECT_PASSWORD)) !== 3) problems.push('the new password does not open it');
    // Checked as decrypted with the new password, which proves it opens every object: qpdf 11.3's
    // --check itself crashes on some encrypted files (issue18042.pdf's broken JPEG stream).
    const opened = path.join(input.tmp, 'protected-opened.pdf');
    const dec = await sh('qpdf', ['--decrypt', `--password=${PROTECT_PASSWORD}`, out, opened]);
    if (dec.code !== 0 && dec.code !== 3) problems.push(`qpdf --decrypt with the new password exit ${dec.code}`);
    else {
      problems.push(...(await outputProblems(opened, input.pages, 'protected output')));
    }
  }
  if (problems.length) {
    report.tools.encrypt = -1;
    failures.encrypt.push(`${input.name}: ${problems.join('; ')}`);
  }
}

/** Unlock: any encryption (a user password, or only an owner password) comes off; a file without any gets 3126. */
async function checkUnlock(input: Input, report: FileReport) {
  const problems: string[] = [];
  const encrypted = pdfjsManifest.get(input.name)?.encrypted ?? false;
  const refusals = encrypted ? PDF_TOOL_REFUSALS : new Set<number>([...PDF_TOOL_REFUSALS, ErrorCode.NotProtected]);
  const entry = await runTool('decode', 'decode', { file_id: input.fileId, passwd: input.password }, input, report, refusals);
  if (entry && !encrypted) problems.push('unlocked a file the manifest says is not encrypted, instead of 3126');
  else if (entry) {
    const out = await downloadChecked('decode', input, entry.task_id, 'unlocked.pdf', problems);
    if (out && (await passwordNeeded(out)) !== 2) problems.push('the output is still encrypted');
  }
  if (problems.length) {
    report.tools.decode = -1;
    failures.decode.push(`${input.name}: ${problems.join('; ')}`);
  }
}

/** Upload and, for a password-protected file, unlock; null when the upload was refused. */
/** The bytes of one output of a task, or a description of what went wrong. */
async function downloadBytes(taskId: string, index: number): Promise<Buffer | string> {
  const res = await client.raw(`/api/tools/v1/document/download-doc?task_id=${taskId}&index=${index}`);
  const bytes = Buffer.from(await res.arrayBuffer());
  return res.status === 200 ? bytes : `download #${index} HTTP ${res.status}: ${bytes.toString('utf8', 0, 120)}`;
}

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** PDF to PNG at 36 dpi: one PNG per page, each with a header declaring a non-empty picture. */
async function checkToPng(input: Input, report: FileReport) {
  const problems: string[] = [];
  const entry = await runTool(
    'to_png',
    'converter',
    { file_id: input.fileId, passwd: input.password, output_format: 'png', dpi: 36 },
    input,
    report,
  );
  if (!entry) return;
  if (entry.outputs.length !== input.pages) problems.push(`${entry.outputs.length} images for ${input.pages} pages`);
  for (const index of [0, entry.outputs.length - 1]) {
    const bytes = await downloadBytes(entry.task_id, index);
    if (typeof bytes === 'string') problems.push(bytes);
    else if (!bytes.subarray(0, 8).equals(PNG_MAGIC) || !(bytes.readUInt32BE(16) > 0 && bytes.readUInt32BE(20) > 0))
      problems.push(`output #${index} is not a PNG with pixels`);
  }
  if (problems.length) {
    report.tools.to_png = -1;
    failures.to_png.push(`${input.name}: ${problems.join('; ')}`);
  }
}

/** Extract images: some non-empty files, or 3100 "No images found in this PDF." */
async function checkExtractImages(input: Input, report: FileReport) {
  const problems: string[] = [];
  const refusals = new Set<number>([...PDF_TOOL_REFUSALS, ErrorCode.InvalidParams]);
  const entry = await runTool(
    'extract_images',
    'extract_images',
    { file_id: input.fileId, passwd: input.password },
    input,
    report,
    refusals,
  );
  if (report.tools.extract_images === ErrorCode.InvalidParams) return;
  if (!entry) return;
  if (entry.outputs.length === 0) problems.push('succeeded without an image');
  if (entry.outputs.some((o) => o.size === 0)) problems.push('an empty image');
  if (problems.length) {
    report.tools.extract_images = -1;
    failures.extract_images.push(`${input.name}: ${problems.join('; ')}`);
  }
}

async function uploadFile(name: string, file: string, report: FileReport, withRotations: boolean): Promise<Input | null> {
  const row = pdfjsManifest.get(name);
  const fail = (msg: string) => {
    failures.upload.push(`${name}: ${msg}`);
    return null;
  };
  const up = await client.answer('file/stream', { method: 'POST', body: fileForm(file, name) });
  if (up.body?.code !== 0) {
    report.upload = up.body?.code ?? up.status;
    const bad = badAnswer(up, PDF_UPLOAD_REFUSALS);
    if (bad) return fail(`upload: ${bad}`);
    const code = up.body?.code;
    if (code === ErrorCode.Damaged && row?.pages) {
      // The manifest lists qpdf --show-npages, the root's /Count: a damaged page tree can claim pages it does not hold.
      const walked = await treePages(file, pdfjsPasswords.get(name));
      if (walked) return fail(`refused as damaged (3124) though qpdf reads ${walked} pages (manifest: ${row.pages})`);
      notes.push(
        `${name}: refused as damaged; the manifest's ${row.pages} page(s) is the /Count its root declares, qpdf's page-tree walk ${walked === null ? 'fails' : 'finds no page'}`,
      );
    }
    if (code === ErrorCode.Encrypted && !pdfjsPasswords.has(name))
      return fail('refused as encrypted (3122) but the manifest knows no password for it');
    if (code === ErrorCode.Encrypted) return fail('refused as encrypted at upload, where no password can be given');
    return null;
  }
  report.upload = 'ok';
  const sent = file;
  const info = up.body.data as { file_id: string; file_url: string; total_page: number; encrypted: boolean; repaired?: boolean };
  // A repaired upload is checked as Quire keeps it, not as it was sent.
  if (info.repaired) {
    notes.push(`${name}: repaired at upload`);
    file = path.join(fs.mkdtempSync(path.join(tmpRoot, 'repaired-')), name);
    fs.writeFileSync(file, Buffer.from(await (await client.raw(info.file_url)).arrayBuffer()));
  }
  const password = pdfjsPassword(name);
  if (row?.needsPassword) {
    if (!password) return fail('needs a password but pdfjs-passwords.tsv has none');
    if (!info.encrypted) fail('needs a password but the upload does not say encrypted');
    const none = await client.answer(`document/info?file_id=${info.file_id}`);
    if (none.body?.code !== ErrorCode.Encrypted) fail(`document/info without the password answered ${none.body?.code}, expected 3122`);
    const wrong = await client.answer(`document/info?file_id=${info.file_id}&passwd=not-${encodeURIComponent(password)}`);
    if (wrong.body?.code !== ErrorCode.WrongPassword)
      fail(`document/info with a wrong password answered ${wrong.body?.code}, expected 3123`);
    const norot = await post('document/rotate', { file_id: info.file_id, angle: 90, pages: 'all' });
    if (norot.body?.code !== ErrorCode.Encrypted) fail(`rotate without the password answered ${norot.body?.code}, expected 3122`);
    const right = await client.answer(`document/info?file_id=${info.file_id}&passwd=${encodeURIComponent(password)}`);
    if (right.body?.code !== 0) {
      report.upload = right.body?.code ?? right.status;
      return fail(`the password from pdfjs-passwords.tsv does not open it: ${right.body?.code} ${right.body?.msg}`);
    }
    info.total_page = (right.body.data as { total_page: number }).total_page;
  }
  const tmp = fs.mkdtempSync(path.join(tmpRoot, 'f-'));
  const { walked: pages, declared } = await qpdfView(file, { pw: password });
  if (!pages) fail(`accepted although qpdf finds no pages in it (Quire says ${info.total_page})`);
  else if (info.total_page !== pages) fail(`Quire counts ${info.total_page} pages, qpdf's page-tree walk ${pages}`);
  if (pages !== null && declared !== pages)
    notes.push(`${name}: accepted with ${pages} page(s) though its root declares ${declared} (manifest: ${row?.pages ?? '-'})`);
  if (row?.pages != null && declared !== null && row.pages !== declared)
    notes.push(`${name}: the manifest says ${row.pages} pages, qpdf --show-npages now says ${declared}`);
  return {
    file,
    sent,
    name,
    fileId: info.file_id,
    password,
    pages: pages || info.total_page,
    readable: !!pages,
    rotations: pages && withRotations ? await inputRotations(file, password, pages, tmp) : null,
    tmp,
  };
}

/** Each tool's call and the independent checks of its output. */
const CHECKS: Record<ToolName, (input: Input, report: FileReport) => Promise<void>> = {
  merge: checkMerge,
  split: checkSplit,
  rotate: checkRotate,
  cut: checkCrop,
  redaction: checkRedact,
  replacetext: checkReplace,
  compress: checkCompress,
  encrypt: checkProtect,
  decode: checkUnlock,
  to_png: checkToPng,
  extract_images: checkExtractImages,
};

async function processFile(name: string, tools: ToolName[]) {
  const report: FileReport = { file: name, upload: 'ok', tools: {} };
  reports.push(report);
  let input: Input | null = null;
  try {
    input = await uploadFile(name, path.join(pdfjsDir, name), report, tools.includes('split') || tools.includes('rotate'));
    if (!input) return;
    for (const tool of tools) await CHECKS[tool](input, report);
  } catch (e) {
    failures.server.push(`${name}: ${(e as Error).stack ?? e}`);
  } finally {
    if (input) fs.rmSync(input.tmp, { recursive: true, force: true });
  }
}

function tally(outcomes: (Outcome | undefined)[]): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) {
    const key = o === undefined ? 'not run' : o === 'ok' ? 'ok' : o === -1 ? 'FAILED' : `refused ${o}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts]
    .sort(([a], [b]) => (a === 'ok' ? -1 : b === 'ok' ? 1 : a.localeCompare(b)))
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
}

/** The pass of `tools` over the whole corpus: one running Quire, every file uploaded once and through each tool in turn. */
export function describeCorpusPass(tools: ToolName[]) {
  describe(`pdf.js corpus through ${tools.join(', ')} over HTTP`, () => {
    const files = pdfjsFiles();

    beforeAll(async () => {
      const started = Date.now();
      tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-corpus-'));
      // Anything the server logs as an error (an unexpected exception in a task or a request) is a crash.
      collectConsoleErrors(serverErrors);
      quire = await startQuire({ engineTimeoutMs: ENGINE_TIMEOUT_MS });
      client = new Client(quire.url);
      // The first call sets the visitor cookie; every later (concurrent) call shares it.
      const gen = await makePdf(path.join(tmpRoot, 'gen.pdf'), GEN_PAGES, 'Gen');
      genId = await client.uploadId(gen);
      await pool(files, CONCURRENCY, (name) => processFile(name, tools));
      elapsedMs = Date.now() - started;
      // A group of tools on each of 234 files: alone 4–6 min on 2 cores, far longer beside the other suites; each task keeps its own deadline.
    }, 1_800_000);

    afterAll(async () => {
      vi.restoreAllMocks();
      const byTool = tools.map(
        (t) => `${t}: ${tally(reports.filter((r) => r.upload === 'ok').map((r) => r.tools[t]))} (${(toolSeconds[t] ?? 0).toFixed(0)} s)`,
      );
      console.log(
        `corpus: ${reports.length} files in ${(elapsedMs / 1000).toFixed(1)} s | upload: ${tally(reports.map((r) => r.upload))} | ${byTool.join(' | ')} | ` +
          `slowest task ${(slowest.ms / 1000).toFixed(1)} s (${slowest.what})`,
      );
      if (notes.length) console.log(`corpus notes:\n  ${notes.join('\n  ')}`);
      await quire?.stop();
      if (tmpRoot) fs.rmSync(tmpRoot, { recursive: true, force: true });
    });

    it('covers the whole corpus', () => {
      expect(files.length).toBe(pdfjsManifest.size);
      expect(reports.length).toBe(files.length);
      expect(failures.server).toEqual([]);
    });

    it('accepts each upload, or refuses it with a catalogue code that agrees with the manifest', () => {
      expect(failures.upload).toEqual([]);
    });

    it.each(tools)('%s: every accepted file gives a correct output or a catalogue failure, in time', (tool) => {
      expect(failures[tool]).toEqual([]);
    });

    it('logs no unexpected server error', () => {
      expect(serverErrors).toEqual([]);
    });
  });
}
