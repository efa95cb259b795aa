// Compress benchmark: Quire's Compress against `gs -dPDFSETTINGS=/ebook` in the same run, over
// every unencrypted PDF of the pdf.js corpus that Quire accepts.
//
//   node --import tsx bench/compress.ts                     (medium)
//   BENCH_LEVELS=high,medium,low node --import tsx bench/compress.ts
//   BENCH_FILES='^issue' node --import tsx bench/compress.ts   (only the files whose names match)
//   BENCH_IMAGES=1 node --import tsx bench/compress.ts          (only the files holding images)
//   BENCH_OUT=/tmp/out node --import tsx bench/compress.ts      (keeps the outputs, per method)
//
// Per file and method: the output size, the time, the worst page's SSIM against the input (both
// rendered grey by pdftoppm at 72 dpi, their crop boxes as readers show them), whether the file grew and whether it was damaged (the
// fingerprint of apps/server/src/engines/fingerprint.ts: pages, text, annotations, form fields,
// outlines, attachments). See bench/README.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fingerprintOf, sameFingerprint, type Fingerprint } from '../apps/server/src/engines/fingerprint.js';
import { parsePgm, similarity, type GreyPage } from '../apps/server/src/engines/pageLikeness.js';
import { inspectPdf } from '../apps/server/src/engines/qpdf.js';
import { tools } from '../apps/server/src/tools/registry.js';

const LEVELS = (process.env.BENCH_LEVELS ?? 'medium').split(',') as ('high' | 'medium' | 'low')[];
const FILES = new RegExp(process.env.BENCH_FILES ?? '');
const corpusDir = path.resolve(import.meta.dirname, '../test-corpus/pdfjs');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-compress-'));
const limits = { timeoutMs: 600_000, memoryMb: 4096 };
/** Where each method's outputs are kept (`<method>/<file>`), for looking into them afterwards; none when unset. */
const KEEP = process.env.BENCH_OUT;
/** The files issue 9 names: image-bearing, where Ghostscript's candidate used to be refused. */
const NAMED = ['160F-2019.pdf', 'issue6410.pdf', 'large_jpeg_downscale.pdf', 'bug854315.pdf', 'issue5475.pdf'];

// --- Methods ---------------------------------------------------------------------------------------

function run(cmd: string, args: string[]): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => resolve(code === 0));
  });
}

/** Writes `out` from `input`, or returns false when the method failed on it. */
type Method = { name: string; run(input: string, pages: number, out: string): Promise<boolean> };

const quire = (level: 'high' | 'medium' | 'low'): Method => ({
  name: `Quire ${level}`,
  async run(input, pages, out) {
    const workDir = fs.mkdtempSync(path.join(tmp, 'work-'));
    try {
      const [result] = await tools.compress.run(
        { inputs: [{ path: input, name: path.basename(input), pages }], workDir, limits, progress: () => {} },
        { file_id: '', level },
      );
      fs.copyFileSync(result!.path, out);
      return true;
    } catch {
      return false;
    } finally {
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  },
});

const gsEbook: Method = {
  name: 'gs /ebook',
  run: (input, _pages, out) =>
    run('gs', ['-q', '-dSAFER', '-dNOPAUSE', '-dBATCH', '-sDEVICE=pdfwrite', '-dPDFSETTINGS=/ebook', `-sOutputFile=${out}`, input]),
};

// --- SSIM ------------------------------------------------------------------------------------------

/** Grey renderings of every page at 72 dpi; null where poppler cannot render the file. */
function render(file: string): GreyPage[] | null {
  const dir = fs.mkdtempSync(path.join(tmp, 'render-'));
  try {
    execFileSync('pdftoppm', ['-r', '72', '-gray', '-cropbox', file, path.join(dir, 'p')], { stdio: 'ignore', timeout: 120_000 });
    const pages = fs
      .readdirSync(dir)
      .sort()
      .map((f) => parsePgm(fs.readFileSync(path.join(dir, f))));
    return pages.every((page) => page !== null) ? (pages as GreyPage[]) : null;
  } catch {
    return null;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The lowest SSIM over the pages, or null when either file cannot be rendered (a page count that differs scores 0). */
function worstPageSsim(before: GreyPage[] | null, after: GreyPage[] | null): number | null {
  if (!before || !after) return null;
  if (before.length !== after.length) return 0;
  return Math.min(1, ...before.map((page, i) => similarity(page, after[i]!)));
}

// --- Run -------------------------------------------------------------------------------------------

interface Outcome {
  file: string;
  inputBytes: number;
  images: boolean;
  imageHeavy: boolean;
  bytes: number;
  ms: number;
  ssim: number | null;
  failed: boolean;
  grown: boolean;
  damaged: boolean;
}

interface CorpusFile {
  file: string;
  pages: number;
  /** It draws images (pdfimages lists one or more) ... */
  images: boolean;
  /** ... and they are half its bytes or more, as stored. */
  imageHeavy: boolean;
}

const UNITS: Record<string, number> = { B: 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };

/** The bytes of the images the pages draw, as `pdfimages -list` sizes them (each image once), or null when it lists none. */
function storedImageBytes(file: string): number | null {
  let rows: string[];
  try {
    rows = execFileSync('pdfimages', ['-list', file], { stdio: ['ignore', 'pipe', 'ignore'], timeout: 60_000 })
      .toString()
      .split('\n')
      .slice(2)
      .filter((l) => l.trim());
  } catch {
    return null;
  }
  if (rows.length === 0) return null;
  const objects = new Map<string, number>();
  for (const row of rows) {
    const col = row.trim().split(/\s+/);
    const size = col[14]?.match(/^([\d.]+)([BKMG])$/);
    // An smask row carries its image's object number: the kind keeps the two apart.
    if (size) objects.set(`${col[2]} ${col[10]} ${col[11]}`, Number(size[1]) * UNITS[size[2]!]!);
  }
  return [...objects.values()].reduce((a, b) => a + b, 0);
}

/** The corpus files Quire accepts at upload (unencrypted, readable), with their page counts. */
async function corpus(): Promise<CorpusFile[]> {
  const names = fs
    .readFileSync(path.join(corpusDir, '../pdfjs-manifest.tsv'), 'utf8')
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t'))
    .filter((c) => c[0] && c[3] === 'no' && c[2] !== '-')
    .map((c) => c[0]!)
    .filter((name) => FILES.test(name));
  const files: CorpusFile[] = [];
  for (const name of names.sort()) {
    const file = path.join(corpusDir, name);
    const pages = await inspectPdf(file, undefined, limits).then(
      (f) => f.pages,
      () => 0,
    );
    if (!pages) continue;
    const imageBytes = storedImageBytes(file);
    const images = imageBytes !== null;
    const imageHeavy = images && imageBytes >= fs.statSync(file).size / 2;
    if (images || !process.env.BENCH_IMAGES) files.push({ file, pages, images, imageHeavy });
  }
  return files;
}

async function measure(
  method: Method,
  input: CorpusFile,
  before: {
    print: Fingerprint | null;
    pages: GreyPage[] | null;
  },
): Promise<Outcome> {
  const out = path.join(tmp, 'out.pdf');
  fs.rmSync(out, { force: true });
  const inputBytes = fs.statSync(input.file).size;
  const start = performance.now();
  const ok = (await method.run(input.file, input.pages, out)) && fs.existsSync(out);
  const ms = performance.now() - start;
  const base = { file: path.basename(input.file), inputBytes, images: input.images, imageHeavy: input.imageHeavy, ms };
  // A failed method leaves the input as it was: no gain, nothing lost.
  if (!ok) return { ...base, bytes: inputBytes, ssim: 1, failed: true, grown: false, damaged: false };
  const bytes = fs.statSync(out).size;
  if (KEEP) {
    const dir = path.join(KEEP, method.name.replace(/\W+/g, '-'));
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(out, path.join(dir, path.basename(input.file)));
  }
  const after = await fingerprintOf(out, input.pages, limits);
  return {
    ...base,
    bytes,
    ssim: worstPageSsim(before.pages, render(out)),
    failed: false,
    grown: bytes > inputBytes,
    damaged: before.print !== null && (after === null || !sameFingerprint(before.print, after)),
  };
}

const median = (xs: number[]) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function summary(name: string, rows: Outcome[]): string[] {
  const input = rows.reduce((s, r) => s + r.inputBytes, 0);
  const output = rows.reduce((s, r) => s + r.bytes, 0);
  const ssims = rows.map((r) => r.ssim).filter((s): s is number => s !== null);
  return [
    name,
    String(rows.length),
    kb(input),
    kb(output),
    pct(1 - output / input),
    pct(median(rows.map((r) => 1 - r.bytes / r.inputBytes))),
    ssims.length ? median(ssims).toFixed(4) : 'n/a',
    ssims.length ? Math.min(...ssims).toFixed(4) : 'n/a',
    String(ssims.filter((s) => s < 0.99).length),
    String(rows.filter((r) => r.grown).length),
    String(rows.filter((r) => r.damaged).length),
    String(rows.filter((r) => r.failed).length),
    (rows.reduce((s, r) => s + r.ms, 0) / 1000).toFixed(1),
  ];
}

async function main() {
  const methods = [...LEVELS.map(quire), gsEbook];
  const inputs = await corpus();
  console.log(
    `${inputs.length} corpus files (${inputs.filter((i) => i.images).length} with images, ${inputs.filter((i) => i.imageHeavy).length} of them images for half their bytes or more); methods: ${methods.map((m) => m.name).join(', ')}`,
  );
  const results = new Map<string, Outcome[]>(methods.map((m) => [m.name, []]));
  for (const [i, input] of inputs.entries()) {
    const before = { print: await fingerprintOf(input.file, input.pages, limits), pages: render(input.file) };
    const line: string[] = [];
    for (const m of methods) {
      const r = await measure(m, input, before);
      results.get(m.name)!.push(r);
      line.push(
        `${m.name} ${kb(r.bytes)} ${r.ssim?.toFixed(3) ?? 'n/a'}${r.damaged ? ' DAMAGED' : ''}${r.grown ? ' GROWN' : ''}${r.failed ? ' FAILED' : ''}`,
      );
    }
    console.log(`[${i + 1}/${inputs.length}] ${path.basename(input.file)} ${kb(fs.statSync(input.file).size)}: ${line.join(' | ')}`);
  }
  const header = [
    'files',
    'n',
    'input',
    'output',
    'total saved',
    'median saved',
    'median worst-page SSIM',
    'lowest worst-page SSIM',
    'SSIM < 0.99',
    'grown',
    'damaged',
    'failed',
    'time s',
  ];
  console.log();
  console.log(`| method | ${header.join(' | ')} |`);
  console.log(
    `|---|---|${header
      .slice(1)
      .map(() => '---:')
      .join('|')}|`,
  );
  const sets: [string, (r: Outcome) => boolean][] = [
    ['all', () => true],
    ['with images', (r) => r.images],
    ['images half the bytes or more', (r) => r.imageHeavy],
    ['issue 9 five', (r) => NAMED.includes(r.file)],
  ];
  for (const [setName, keep] of sets)
    for (const m of methods) console.log(`| ${m.name} | ${summary(setName, results.get(m.name)!.filter(keep)).join(' | ')} |`);
  console.log();
  console.log('The five files of issue 9, output bytes:');
  for (const name of NAMED)
    console.log(
      `  ${name}: ${methods.map((m) => `${m.name} ${results.get(m.name)!.find((r) => r.file === name)?.bytes ?? 'n/a'}`).join(', ')}`,
    );
  console.log();
  console.log(
    `${execFileSync('gs', ['--version']).toString().trim()} (Ghostscript); ${execFileSync('qpdf', ['--version']).toString().split('\n')[0]}; ` +
      `node ${process.version}; ${os.availableParallelism()} CPU(s).`,
  );
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(tmp, { recursive: true, force: true }));
