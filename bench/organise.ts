// Organise benchmark: Quire's merge and rotate against plain qpdf, in the same run.
//
//   node --import tsx bench/organise.ts            (BENCH_REPS=5 by default)
//   BENCH_CASES=merge BENCH_HTTP=0 node --import tsx bench/organise.ts   (the merges' tool-module rows only)
//
// Cases: merge of 50 PDFs of 20 pages (standard font, nothing embedded), merge of 50 PDFs of 20
// pages sharing an embedded font and a logo, rotate (+90, all pages) of a 2,000-page PDF. For each,
// the reference is qpdf called directly; Quire is measured twice: its tool module run in-process
// (tools.<id>.run with a ToolContext, as the worker calls it) and the full HTTP path of a running
// Quire (upload, task, download). Time, engine memory and output size. See bench/README.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { TaskEntry } from '@quire/contracts';
import { tools } from '../apps/server/src/tools/registry.js';
import type { ToolContext, ToolInput } from '../apps/server/src/tools/tool.js';
import { makeBrandedPdf, makePdf } from '../apps/server/test/fixtures.js';
import { Client, startQuire, type Running } from '../apps/server/test/harness.js';

const REPS = Math.max(1, Number(process.env.BENCH_REPS) || 5);
/** BENCH_CASES=merge runs the two merges only; BENCH_HTTP=0 leaves out the HTTP rows (most of a run's time). */
const CASES = process.env.BENCH_CASES?.split(',') ?? ['merge', 'rotate'];
const HTTP = process.env.BENCH_HTTP !== '0';
const MERGE_FILES = 50;
const MERGE_PAGES = 20;
const ROTATE_PAGES = 2000;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-'));
const rssLog = path.join(tmp, 'engine-rss.log');

// --- Peak memory -------------------------------------------------------------------------------
// GNU time's %M is the peak resident set of the process it runs (KB). The reference runs qpdf
// under it directly. Quire starts its engines as `prlimit --as=… -- qpdf …` found on PATH, so a
// shim named prlimit, first on PATH, runs the real prlimit under time; prlimit execs qpdf in the
// same process, so the figure is qpdf's. Without GNU time, memory columns say n/a.
const gnuTime = (() => {
  const r = spawnSync('/usr/bin/time', ['--version'], { encoding: 'utf8' });
  return /GNU/.test(`${r.stdout}${r.stderr}`) ? '/usr/bin/time' : null;
})();
const realPrlimit = execFileSync('sh', ['-c', 'command -v prlimit']).toString().trim();
if (gnuTime) {
  const shimDir = path.join(tmp, 'shim');
  fs.mkdirSync(shimDir);
  fs.writeFileSync(path.join(shimDir, 'prlimit'), `#!/bin/sh\nexec ${gnuTime} -a -o "$QUIRE_BENCH_RSS_LOG" -f %M ${realPrlimit} "$@"\n`, {
    mode: 0o755,
  });
  process.env.PATH = `${shimDir}:${process.env.PATH}`;
  process.env.QUIRE_BENCH_RSS_LOG = rssLog;
}

/** Peak RSS (KB) over the engine processes logged since the last reset. */
function takeEngineRss(): number | null {
  if (!gnuTime || !fs.existsSync(rssLog)) return null;
  const values = fs
    .readFileSync(rssLog, 'utf8')
    .split('\n')
    .map(Number)
    .filter((n) => Number.isFinite(n) && n > 0);
  fs.rmSync(rssLog, { force: true });
  return values.length ? Math.max(...values) : null;
}

// --- Measuring -----------------------------------------------------------------------------------

interface Sample {
  ms: number;
  rssKb: number | null;
  /** Size of the output. */
  bytes: number;
}

const sizeOf = (file: string) => fs.statSync(file).size;

/** qpdf with `args`, which write `out`. */
function runQpdf(args: string[], out: string): Promise<Sample> {
  const log = path.join(tmp, 'ref-rss.log');
  const [cmd, argv] = gnuTime ? [gnuTime, ['-o', log, '-f', '%M', 'qpdf', ...args]] : ['qpdf', args];
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - start;
      if (code !== 0 && code !== 3) return reject(new Error(`qpdf ${args.join(' ')} exited ${code}: ${stderr}`));
      const rssKb = gnuTime ? Number(fs.readFileSync(log, 'utf8').trim().split('\n').pop()) : null;
      resolve({ ms, rssKb, bytes: sizeOf(out) });
    });
  });
}

const npages = (file: string) => Number(execFileSync('qpdf', ['--show-npages', file]).toString().trim());

function expectPages(file: string, pages: number, what: string) {
  const n = npages(file);
  if (n !== pages) throw new Error(`${what}: output has ${n} pages, expected ${pages}`);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const maxOf = (xs: (number | null)[]) => (xs.some((x) => x === null) ? null : Math.max(...(xs as number[])));

/**
 * One warm-up run of each, then REPS rounds that run each once in turn: interleaved, the reference
 * and Quire see the same machine load, which matters on a shared box.
 */
async function measure<T extends Record<string, () => Promise<Sample>>>(fns: T): Promise<{ [K in keyof T]: Awaited<ReturnType<T[K]>>[] }> {
  const out = Object.fromEntries(Object.keys(fns).map((k) => [k, [] as Sample[]])) as Record<string, Sample[]>;
  for (const fn of Object.values(fns)) await fn();
  for (let i = 0; i < REPS; i++) for (const [k, fn] of Object.entries(fns)) out[k]!.push(await fn());
  return out as never;
}

// --- The three ways of running a case ------------------------------------------------------------

const limits = { timeoutMs: 600_000, memoryMb: 4096 };

async function quireTool<Id extends 'merge' | 'rotate'>(
  id: Id,
  inputs: ToolInput[],
  params: Parameters<(typeof tools)[Id]['run']>[1],
  outPages: number,
): Promise<Sample> {
  const workDir = fs.mkdtempSync(path.join(tmp, `${id}-`));
  const ctx: ToolContext = { inputs, workDir, limits, progress: () => {} };
  takeEngineRss();
  const start = performance.now();
  const outputs = await tools[id].run(ctx, params as never);
  const ms = performance.now() - start;
  const rssKb = takeEngineRss();
  expectPages(outputs[0]!.path, outPages, `quire ${id}`);
  const bytes = sizeOf(outputs[0]!.path);
  fs.rmSync(workDir, { recursive: true, force: true });
  return { ms, rssKb, bytes };
}

interface HttpSample extends Sample {
  uploadMs: number;
  taskMs: number;
  downloadMs: number;
}

async function waitTask(client: Client, taskId: string): Promise<TaskEntry> {
  for (;;) {
    const res = await client.call<TaskEntry[]>(`get-task-result?task_id=${taskId}`);
    const entry = res.data?.[0];
    if (res.code !== 0 || !entry) throw new Error(`task lookup failed: ${res.code} ${res.msg}`);
    if (entry.status !== 0) throw new Error(`task failed: ${entry.status} ${entry.msg}`);
    if (entry.is_done) return entry;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Upload every file (one after the other), run the tool, download its output. */
async function quireHttp(
  quire: Running,
  files: string[],
  call: (ids: string[]) => [string, unknown],
  outPages: number,
): Promise<HttpSample> {
  const client = new Client(quire.url);
  takeEngineRss();
  const t0 = performance.now();
  const ids: string[] = [];
  for (const f of files) ids.push(await client.uploadId(f));
  const t1 = performance.now();
  const [pathname, body] = call(ids);
  const created = await client.post(pathname, body);
  if (created.code !== 0) throw new Error(`${pathname}: ${created.code} ${created.msg}`);
  const entry = await waitTask(client, created.data.task_id);
  const t2 = performance.now();
  const res = await client.raw(`/api/tools/v1/document/download-doc?task_id=${entry.task_id}`);
  const out = path.join(tmp, 'http-out.pdf');
  fs.writeFileSync(out, Buffer.from(await res.arrayBuffer()));
  const t3 = performance.now();
  const rssKb = takeEngineRss();
  expectPages(out, outPages, `quire HTTP ${pathname}`);
  return { ms: t3 - t0, uploadMs: t1 - t0, taskMs: t2 - t1, downloadMs: t3 - t2, rssKb, bytes: sizeOf(out) };
}

// --- Main ----------------------------------------------------------------------------------------

interface Row {
  case: string;
  quire: string;
  ref: Sample[];
  q: Sample[];
}

async function main() {
  console.log(`Generating inputs in ${tmp} …`);
  const inputs = (prefix: string) =>
    Array.from({ length: MERGE_FILES }, (_, i) => path.join(tmp, 'in', `${prefix}${String(i + 1).padStart(2, '0')}.pdf`));
  const plainFiles = inputs('m');
  const brandedFiles = inputs('b');
  for (const [i, f] of plainFiles.entries()) await makePdf(f, MERGE_PAGES, `M${i + 1}`);
  for (const [i, f] of brandedFiles.entries()) await makeBrandedPdf(f, MERGE_PAGES, `B${i + 1}`);
  const big = await makePdf(path.join(tmp, 'in', 'big.pdf'), ROTATE_PAGES, 'Big');
  const mergeOut = MERGE_FILES * MERGE_PAGES;
  const refOut = path.join(tmp, 'ref-out.pdf');

  const rotateCase = `rotate ${ROTATE_PAGES.toLocaleString('en')} pages`;
  const rows: Row[] = [];
  const http: Record<string, HttpSample[]> = {};
  const loadBefore = os.loadavg();

  console.log(`Running: 1 warm-up + ${REPS} measured runs of each, interleaved …`);
  const quire = await startQuire({ engineTimeoutMs: 600_000 });
  const mergeCase = async (name: string, files: string[]) => {
    const toolInputs: ToolInput[] = files.map((f) => ({ path: f, name: path.basename(f), pages: MERGE_PAGES }));
    const merge = await measure({
      ref: async () => {
        const s = await runQpdf(['--empty', '--pages', ...files, '--', refOut], refOut);
        expectPages(refOut, mergeOut, 'qpdf merge');
        return s;
      },
      tool: () => quireTool('merge', toolInputs, { file_ids: [] }, mergeOut),
      ...(HTTP && { http: () => quireHttp(quire, files, (ids) => ['merge', { file_ids: ids }], mergeOut) }),
    });
    rows.push({ case: name, quire: 'tool module', ref: merge.ref, q: merge.tool });
    if (!merge.http) return;
    rows.push({ case: name, quire: 'HTTP (upload+task+download)', ref: merge.ref, q: merge.http as HttpSample[] });
    http[name] = merge.http as HttpSample[];
  };
  try {
    if (CASES.includes('merge')) {
      await mergeCase(`merge ${MERGE_FILES} × ${MERGE_PAGES} pages`, plainFiles);
      await mergeCase(`merge ${MERGE_FILES} × ${MERGE_PAGES} pages, shared font and logo`, brandedFiles);
    }
    if (CASES.includes('rotate')) {
      const rotate = await measure({
        ref: async () => {
          const s = await runQpdf([big, refOut, '--rotate=+90:1-z'], refOut);
          expectPages(refOut, ROTATE_PAGES, 'qpdf rotate');
          return s;
        },
        tool: () =>
          quireTool(
            'rotate',
            [{ path: big, name: 'big.pdf', pages: ROTATE_PAGES }],
            { file_id: '', angle: 90, pages: 'all' },
            ROTATE_PAGES,
          ),
        http: () => quireHttp(quire, [big], ([id]) => ['document/rotate', { file_id: id, angle: 90, pages: 'all' }], ROTATE_PAGES),
      });
      rows.push({ case: rotateCase, quire: 'tool module', ref: rotate.ref, q: rotate.tool });
      rows.push({ case: rotateCase, quire: 'HTTP (upload+task+download)', ref: rotate.ref, q: rotate.http });
      http[rotateCase] = rotate.http;
    }
  } finally {
    await quire.stop();
  }

  // --- Report ---
  const mb = (kb: number | null) => (kb === null ? 'n/a' : `${(kb / 1024).toFixed(1)} MB`);
  const header = [
    'case',
    'Quire path',
    'qpdf median ms',
    'Quire median ms',
    'time ratio',
    'qpdf output',
    'Quire output',
    'size ratio',
    'qpdf peak RSS',
    'Quire engine peak RSS',
  ];
  const table = rows.map((r) => {
    const refMs = median(r.ref.map((s) => s.ms));
    const qMs = median(r.q.map((s) => s.ms));
    return [
      r.case,
      r.quire,
      refMs.toFixed(1),
      qMs.toFixed(1),
      `${(qMs / refMs).toFixed(2)}×`,
      mb(r.ref[0]!.bytes / 1024),
      mb(r.q[0]!.bytes / 1024),
      `${(r.q[0]!.bytes / r.ref[0]!.bytes).toFixed(3)}×`,
      mb(maxOf(r.ref.map((s) => s.rssKb))),
      mb(maxOf(r.q.map((s) => s.rssKb))),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of table) console.log(line(row));
  console.log();
  console.log('HTTP path, median ms of each step:');
  for (const [name, samples] of Object.entries(http)) {
    const m = (k: 'uploadMs' | 'taskMs' | 'downloadMs') => median(samples.map((s) => s[k])).toFixed(1);
    console.log(`  ${name}: upload ${m('uploadMs')}, task (queue + run + polling) ${m('taskMs')}, download ${m('downloadMs')}`);
  }
  console.log();
  console.log(
    `Method: wall-clock time (performance.now) of each run; median of ${REPS} after 1 warm-up, runs one at a time and interleaved (qpdf, tool module, HTTP, again) on ${os.availableParallelism()} CPU(s). ` +
      (gnuTime
        ? 'Peak RSS: GNU time %M of qpdf (reference: qpdf run under time; Quire: the peak over every engine process the run started, ' +
          'timed through a prlimit shim on PATH), the highest of the runs.'
        : 'Peak RSS: n/a, GNU time (/usr/bin/time) is not installed.'),
  );
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(', ');
  console.log(`Machine load (1, 5, 15 min averages): ${load(loadBefore)} before the runs, ${load(os.loadavg())} after.`);
  console.log(
    `Node process (bench + in-process Quire server) peak RSS: ${mb(process.resourceUsage().maxRSS)} (process.resourceUsage().maxRSS).`,
  );
  console.log(`qpdf: ${execFileSync('qpdf', ['--version']).toString().split('\n')[0]}; node ${process.version}.`);
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(tmp, { recursive: true, force: true }));
