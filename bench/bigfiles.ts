// Big-file benchmark: a 2,000-page, ~300 MB PDF made from corpus pages through merge, split, rotate,
// delete page, compress, PDF to JPG and PDF to Word over HTTP, with the peak memory of the API
// process and of every engine it starts.
//
//   node --import tsx bench/bigfiles.ts
//   BENCH_PAGES=200 BENCH_MB=30 node --import tsx bench/bigfiles.ts     (a quick run)
//   BENCH_STEPS="pdf to jpg" node --import tsx bench/bigfiles.ts        (the upload, then the steps named)
//
// Quire runs as a process of its own (`npm start`), so its memory is its own. See bench/README.md.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { makePdf } from '../apps/server/test/fixtures.js';
import { Client } from '../apps/server/test/harness.js';
import { freePort, memoryOf, startServer, until, visitorFileLimit } from '../apps/server/test/serverProcess.js';

const MB = 1024 * 1024;
const PAGES = Number(process.env.BENCH_PAGES) || 2000;
const TARGET_MB = Number(process.env.BENCH_MB) || 300;
const TASK_TIMEOUT_MS = (Number(process.env.BENCH_TIMEOUT_S) || 1800) * 1000;
/** The steps to run after the upload, by the start of their names ("PDF to JPG,merge"); all unless given. */
const STEPS = process.env.BENCH_STEPS?.split(',').map((s) => s.trim().toLowerCase());
const corpus = path.resolve(import.meta.dirname, '../test-corpus/pdfjs');
// The input is kept between runs: making it takes a minute.
const cacheDir = path.join(os.tmpdir(), 'quire-bench-bigfiles');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-big-'));

const qpdf = (args: string[]) => spawnSync('qpdf', args, { encoding: 'utf8', maxBuffer: 64 * MB });
/** A qpdf run that writes a file: 0, or 3 for warnings (corpus files are odd on purpose). */
function qpdfWrite(args: string[]) {
  const r = qpdf(args);
  if (r.status !== 0 && r.status !== 3) throw new Error(`qpdf ${args.slice(-1)[0]} failed: ${r.stderr.slice(-500)}`);
}
const pageCount = (file: string) => Number(execFileSync('qpdf', ['--show-npages', file], { encoding: 'utf8' }));

// --- The input ------------------------------------------------------------------------------------

/** One page holding a photo-like JPEG of noise (it does not compress), about 9 MB; `seed` makes each distinct. */
async function imagePage(file: string, seed: number) {
  const jpeg = await sharp({
    create: { width: 3000, height: 3000, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 100 + seed, sigma: 60 } },
  })
    .jpeg({ quality: 95 })
    .toBuffer();
  const doc = await PDFDocument.create();
  const image = await doc.embedJpg(jpeg);
  doc.addPage([612, 792]).drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
  fs.writeFileSync(file, await doc.save());
}

/** The corpus files qpdf reads without a password or a warning, in one PDF. */
function corpusPages(out: string) {
  const readable = fs
    .readdirSync(corpus)
    .filter((n) => n.endsWith('.pdf'))
    .map((n) => path.join(corpus, n))
    .filter((f) => qpdf(['--requires-password', f]).status === 2 && qpdf(['--check', f]).status === 0 && pageCount(f) > 0);
  qpdfWrite(['--empty', '--pages', ...readable, '--', out]);
}

async function makeInput(): Promise<string> {
  const file = path.join(cacheDir, `${PAGES}p-${TARGET_MB}mb.pdf`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(cacheDir, { recursive: true });
  const work = fs.mkdtempSync(path.join(cacheDir, 'work-'));
  try {
    const pages = path.join(work, 'corpus.pdf');
    corpusPages(pages);
    // Image pages make up the size the corpus pages lack; each from its own file, so none is shared.
    const images: string[] = [];
    for (let size = fs.statSync(pages).size; size < TARGET_MB * MB && images.length < PAGES; ) {
      const img = path.join(work, `image${images.length}.pdf`);
      await imagePage(img, images.length);
      images.push(img);
      size += fs.statSync(img).size;
    }
    const repeats = Math.ceil((PAGES - images.length) / pageCount(pages));
    const joined = path.join(work, 'joined.pdf');
    qpdfWrite(['--empty', '--pages', ...images, ...Array<string>(repeats).fill(pages), '--', joined]);
    qpdfWrite([joined, '--pages', '.', `1-${PAGES}`, '--', `${file}.part`]);
    fs.renameSync(`${file}.part`, file);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return file;
}

// --- Engine memory ----------------------------------------------------------------------------------
// Quire starts every engine as `prlimit --as=… -- <engine> …` found on PATH. A shim named prlimit,
// first on PATH, runs the real one under GNU time, which logs the engine's peak RSS (prlimit execs
// the engine in the same process) and its command line.
const engineLog = path.join(tmp, 'engines.log');
const shimDir = path.join(tmp, 'shim');
fs.mkdirSync(shimDir);
const realPrlimit = execFileSync('sh', ['-c', 'command -v prlimit'], { encoding: 'utf8' }).trim();
fs.writeFileSync(path.join(shimDir, 'prlimit'), `#!/bin/sh\nexec /usr/bin/time -a -o "${engineLog}" -f '%M %C' ${realPrlimit} "$@"\n`, {
  mode: 0o755,
});

/** Peak RSS (KB) per engine since the last call, largest first: "qpdf 812 MB, pdftoppm 95 MB". */
function takeEngines(): string {
  const peaks = new Map<string, number>();
  for (const line of fs.existsSync(engineLog) ? fs.readFileSync(engineLog, 'utf8').split('\n') : []) {
    const m = /^(\d+) \S*prlimit .*? -- (\S+)/.exec(line);
    if (!m) continue;
    const name = path.basename(m[2]!);
    peaks.set(name, Math.max(peaks.get(name) ?? 0, Number(m[1])));
  }
  fs.rmSync(engineLog, { force: true });
  return [...peaks]
    .sort((a, b) => b[1] - a[1])
    .map(([name, kb]) => `${name} ${Math.round(kb / 1024)}`)
    .join(', ');
}

// --- Running ------------------------------------------------------------------------------------------

const input = await makeInput();
const inputSize = fs.statSync(input).size;
console.log(`input: ${input}, ${pageCount(input)} pages, ${(inputSize / MB).toFixed(0)} MB`);

const port = await freePort();
const server = await startServer(path.join(tmp, 'data'), port, {
  PATH: `${shimDir}:${process.env.PATH}`,
  ...visitorFileLimit(tmp, Math.ceil(TARGET_MB * 1.5)),
});
const pid = server.pid!;
const client = new Client(`http://127.0.0.1:${port}`);
const resetPeak = () => fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');

async function upload(file: string): Promise<string> {
  const form = new FormData();
  form.append('file', await fs.openAsBlob(file), path.basename(file));
  const res = await client.call('file/stream', { method: 'POST', body: form });
  if (res.code !== 0) throw new Error(`upload failed: ${res.code} ${res.msg}`);
  return res.data.file_id;
}

interface Row {
  step: string;
  result: string;
  seconds: number;
  apiPeakMb: number;
  engines: string;
}
const rows: Row[] = [];

/** Runs `work` and records its time, the API process's peak RSS and each engine's. */
async function measure(step: string, work: () => Promise<string>) {
  if (step !== 'upload' && STEPS && !STEPS.some((s) => step.toLowerCase().startsWith(s))) return;
  takeEngines();
  resetPeak();
  const start = performance.now();
  const result = await work().catch((e: Error) => `error: ${e.message}`);
  const row = {
    step,
    result,
    seconds: (performance.now() - start) / 1000,
    apiPeakMb: memoryOf(pid, 'VmHWM')! / MB,
    engines: takeEngines(),
  };
  rows.push(row);
  console.log(`${step}: ${result}, ${row.seconds.toFixed(1)} s, API peak ${row.apiPeakMb.toFixed(0)} MB, engines (MB) ${row.engines}`);
}

/** Queues a tool, waits for it and streams its download to disk: "done, 12 MB out" or the catalogue answer. */
async function runTool(pathname: string, body: object): Promise<string> {
  const created = await client.post(pathname, body);
  if (created.code !== 0) return `refused ${created.code} "${created.msg}"`;
  const entry = await client.waitTask(created.data.task_id, TASK_TIMEOUT_MS, 500);
  if (entry.status !== 0) return `failed ${entry.status} "${entry.msg}"`;
  const res = await client.raw(`/api/tools/v1/document/download-doc?task_id=${entry.task_id}`);
  const out = path.join(tmp, 'out');
  await pipeline(Readable.fromWeb(res.body as ReadableStream), fs.createWriteStream(out));
  const size = fs.statSync(out).size;
  fs.rmSync(out);
  return `done, ${(size / MB).toFixed(1)} MB out`;
}

try {
  console.log(`API process at rest: ${((memoryOf(pid, 'VmRSS') ?? 0) / MB).toFixed(0)} MB`);
  let big = '';
  await measure('upload', async () => {
    big = await upload(input);
    return 'done';
  });
  const small = await upload(await makePdf(path.join(tmp, 'small.pdf'), 2));
  const half = Math.floor(PAGES / 2);
  await measure('merge (+ 2 pages)', () => runTool('merge', { file_ids: [big, small] }));
  await measure('split (in two)', () => runTool('split', { file_id: big, mode: 'custom', ranges: `1-${half}, ${half + 1}-${PAGES}` }));
  await measure('rotate (all, +90)', () => runTool('document/rotate', { file_id: big, angle: 90, pages: 'all' }));
  await measure('delete page (1)', () => runTool('delete_page', { file_id: big, pages: '1' }));
  await measure('compress (medium)', () => runTool('compress', { file_id: big, level: 'medium' }));
  await measure('PDF to JPG', () => runTool('converter', { file_id: big, output_format: 'jpg' }));
  await measure('PDF to Word', () => runTool('converter', { file_id: big, output_format: 'docx' }));
  await measure('download (the upload)', async () => {
    const res = await client.raw(`/api/tools/v1/file/download?file_id=${big}`);
    await pipeline(Readable.fromWeb(res.body as ReadableStream), fs.createWriteStream(path.join(tmp, 'back.pdf')));
    return fs.statSync(path.join(tmp, 'back.pdf')).size === inputSize ? 'done, identical size' : 'wrong size';
  });

  console.log(`\ninput ${PAGES} pages, ${(inputSize / MB).toFixed(0)} MB\n`);
  console.log('| step | result | time s | API peak RSS MB | engines, peak RSS MB |');
  console.log('| --- | --- | ---: | ---: | --- |');
  for (const r of rows) console.log(`| ${r.step} | ${r.result} | ${r.seconds.toFixed(1)} | ${r.apiPeakMb.toFixed(0)} | ${r.engines} |`);
  console.log(`\nqpdf ${execFileSync('qpdf', ['--version'], { encoding: 'utf8' }).split('\n')[0]}, Node ${process.version}`);
} finally {
  server.kill('SIGTERM');
  await until('the server stopped', () => server.exitCode !== null || server.signalCode !== null);
  fs.rmSync(tmp, { recursive: true, force: true });
}
