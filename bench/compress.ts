// Compress benchmark: Quire's three levels against the two common recipes, in the same run.
//
//   node --import tsx bench/compress.ts            (BENCH_REPS=3 by default)
//
// Inputs are generated in code (photos, a scan, screenshots, a born-digital report) plus the
// largest unencrypted files of the pdf.js corpus. For each input and method it reports the output
// size, the time (median of BENCH_REPS runs), how close the pages look to the input's (PSNR of
// the rendered pages) and whether text, annotations, form fields, outlines and attachments
// survived. See bench/README.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { fingerprintOf, sameFingerprint } from '../apps/server/src/engines/fingerprint.js';
import { inspectPdf } from '../apps/server/src/engines/qpdf.js';
import { tools } from '../apps/server/src/tools/registry.js';
import { makePhotoPdf, makeScannedPdf, makeScreenshotPdf } from '../apps/server/test/imageFixtures.js';

const REPS = Math.max(1, Number(process.env.BENCH_REPS) || 3);
const CORPUS_FILES = 25;
const corpusDir = path.resolve(import.meta.dirname, '../test-corpus/pdfjs');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-compress-'));
const limits = { timeoutMs: 600_000, memoryMb: 4096 };

// --- Methods ---------------------------------------------------------------------------------------

function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 || (cmd === 'qpdf' && code === 3) ? resolve() : reject(new Error(`${cmd} exited ${code}: ${stderr.slice(0, 300)}`)),
    );
  });
}

/** Writes `out` from `input`; Quire's tool module is called in-process as the worker calls it. */
type Method = { name: string; run(input: string, out: string): Promise<void> };

const quire = (level: 'high' | 'medium' | 'low'): Method => ({
  name: `Quire ${level}`,
  async run(input, out) {
    const workDir = fs.mkdtempSync(path.join(tmp, 'work-'));
    // The page count as the upload finds it (qpdf's page-tree walk).
    const { pages } = await inspectPdf(input, undefined, limits);
    const [result] = await tools.compress.run(
      { inputs: [{ path: input, name: path.basename(input), pages }], workDir, limits, progress: () => {} },
      { file_id: '', level },
    );
    fs.copyFileSync(result!.path, out);
    fs.rmSync(workDir, { recursive: true, force: true });
  },
});

const methods: Method[] = [
  quire('high'),
  quire('medium'),
  quire('low'),
  {
    name: 'gs /ebook',
    run: (input, out) =>
      run('gs', ['-q', '-dSAFER', '-dNOPAUSE', '-dBATCH', '-sDEVICE=pdfwrite', '-dPDFSETTINGS=/ebook', `-sOutputFile=${out}`, input]),
  },
  { name: 'qpdf', run: (input, out) => run('qpdf', ['--object-streams=generate', '--recompress-flate', input, out]) },
];

// --- Measures --------------------------------------------------------------------------------------

/** Grey renderings of every page at 100 dpi (on-screen reading size), as raw PGM pixels; null where poppler cannot render the file. */
function render(file: string): Buffer[] | null {
  const dir = fs.mkdtempSync(path.join(tmp, 'render-'));
  try {
    execFileSync('pdftoppm', ['-r', '100', '-gray', file, path.join(dir, 'p')], { stdio: 'ignore' });
  } catch {
    fs.rmSync(dir, { recursive: true, force: true });
    return null;
  }
  const pages = fs
    .readdirSync(dir)
    .sort()
    .map((f) => {
      const pgm = fs.readFileSync(path.join(dir, f));
      // Header: "P5\n<w> <h>\n255\n"
      let offset = 0;
      for (let fields = 0; fields < 4; offset++) if (pgm[offset] === 0x0a || pgm[offset] === 0x20) fields++;
      return pgm.subarray(offset);
    });
  fs.rmSync(dir, { recursive: true, force: true });
  return pages;
}

/** Peak signal-to-noise ratio of the output's pages against the input's (dB; ∞ when identical). */
function psnr(before: Buffer[] | null, after: Buffer[] | null): number | null {
  if (!before || !after || before.length !== after.length) return null;
  let sq = 0;
  let n = 0;
  for (const [i, a] of before.entries()) {
    const b = after[i]!;
    if (a.length !== b.length) return null;
    for (let j = 0; j < a.length; j++) sq += (a[j]! - b[j]!) ** 2;
    n += a.length;
  }
  return sq === 0 ? Infinity : 10 * Math.log10((255 * 255) / (sq / n));
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

interface Result {
  bytes: number;
  ms: number;
  /** mean PSNR over the inputs whose pages could be compared, and how many those were */
  psnr: number | null;
  compared: number;
  /** inputs whose text and structure all survived */
  kept: number;
  larger: number;
  invalid: number;
}

/** Runs a method over a set of inputs: REPS timed runs each, then checks the last output. */
async function measure(method: Method, inputs: string[]): Promise<Result> {
  const r: Result = { bytes: 0, ms: 0, psnr: null, compared: 0, kept: 0, larger: 0, invalid: 0 };
  const psnrs: number[] = [];
  for (const input of inputs) {
    const out = path.join(tmp, 'out.pdf');
    const times: number[] = [];
    for (let i = 0; i < REPS; i++) {
      fs.rmSync(out, { force: true });
      const start = performance.now();
      await method.run(input, out);
      times.push(performance.now() - start);
    }
    r.ms += median(times);
    const size = fs.statSync(out).size;
    r.bytes += size;
    if (size > fs.statSync(input).size) r.larger++;
    try {
      execFileSync('qpdf', ['--check', out], { stdio: 'ignore' });
    } catch (e) {
      if ((e as { status: number }).status !== 3) r.invalid++;
    }
    const { pages } = await inspectPdf(input, undefined, limits);
    const [a, b] = [await fingerprintOf(input, pages, limits), await fingerprintOf(out, pages, limits)];
    if (a && b && sameFingerprint(a, b)) r.kept++;
    const p = psnr(render(input), render(out));
    if (p !== null) psnrs.push(Math.min(p, 99));
  }
  r.compared = psnrs.length;
  if (psnrs.length) r.psnr = psnrs.reduce((x, y) => x + y, 0) / psnrs.length;
  return r;
}

// --- Inputs ----------------------------------------------------------------------------------------

/** A born-digital report: text and vector charts, as a word processor would write it. */
async function makeReport(file: string, pages: number) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  for (let n = 1; n <= pages; n++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`Quarterly report, section ${n}`, { x: 60, y: 780, size: 18, font: bold });
    for (let line = 0; line < 30; line++) {
      page.drawText(`Line ${line + 1} of section ${n}: revenue, costs and the outlook for the next quarter in some detail.`, {
        x: 60,
        y: 740 - line * 14,
        size: 10,
        font,
      });
    }
    for (let bar = 0; bar < 12; bar++) {
      const h = 40 + ((bar * 37 + n * 13) % 120);
      page.drawRectangle({ x: 70 + bar * 38, y: 120, width: 26, height: h, color: rgb(0.2, 0.4, 0.7 - bar * 0.03) });
    }
  }
  fs.writeFileSync(file, await doc.save());
  return file;
}

/** The largest unencrypted files of the pdf.js corpus that Quire accepts (real-world, born-digital, odd). */
async function corpusSample(): Promise<string[]> {
  const manifest = fs
    .readFileSync(path.join(corpusDir, '../pdfjs-manifest.tsv'), 'utf8')
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t'))
    .filter((c) => c[0] && c[3] === 'no' && c[2] !== '-');
  const sample: string[] = [];
  for (const [name] of manifest.sort((a, b) => Number(b[1]) - Number(a[1]))) {
    if (sample.length === CORPUS_FILES) break;
    const file = path.join(corpusDir, name!);
    // Refused at upload (3124, damaged) is no compress input.
    if (
      await inspectPdf(file, undefined, limits).then(
        () => true,
        () => false,
      )
    )
      sample.push(file);
  }
  return sample;
}

// --- Main ------------------------------------------------------------------------------------------

const kb = (n: number) => (n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(2)} MB` : `${(n / 1024).toFixed(0)} KB`);

async function main() {
  console.log(`Generating inputs in ${tmp} …`);
  const cases: { name: string; inputs: string[] }[] = [
    { name: 'photos: 4 A4 pages, 300 dpi JPEG q92', inputs: [await makePhotoPdf(path.join(tmp, 'photos.pdf'), 4, 300)] },
    { name: 'scan: 6 A4 pages, 300 dpi grey JPEG q90', inputs: [await makeScannedPdf(path.join(tmp, 'scan.pdf'), 6, 300)] },
    { name: 'screenshots: 4 A4 pages, 200 dpi PNG', inputs: [await makeScreenshotPdf(path.join(tmp, 'screens.pdf'), 4, 200)] },
    { name: 'born-digital report: 40 pages (pdf-lib)', inputs: [await makeReport(path.join(tmp, 'report.pdf'), 40)] },
    { name: `pdf.js corpus: the ${CORPUS_FILES} largest unencrypted files Quire accepts`, inputs: await corpusSample() },
  ];
  console.log(`Running each method ${REPS}× per input (median time) …`);
  const rows: string[][] = [];
  for (const c of cases) {
    const inputBytes = c.inputs.reduce((s, f) => s + fs.statSync(f).size, 0);
    for (const m of methods) {
      const r = await measure(m, c.inputs);
      const saved = ((1 - r.bytes / inputBytes) * 100).toFixed(1);
      const many = c.inputs.length > 1;
      rows.push([
        c.name,
        kb(inputBytes),
        m.name,
        kb(r.bytes),
        `${saved}%`,
        (r.ms / 1000).toFixed(2),
        (r.psnr === null ? 'n/a' : r.psnr >= 99 ? 'identical' : r.psnr.toFixed(1)) + (many ? ` (${r.compared} files)` : ''),
        many ? `${r.kept}/${c.inputs.length}` : r.kept ? 'yes' : 'NO',
        many ? `${r.larger}` : r.larger ? 'LARGER' : '-',
        many ? `${r.invalid}` : r.invalid ? 'INVALID' : '-',
      ]);
      console.log(`  ${c.name} | ${m.name}: ${kb(r.bytes)} (${saved}%), ${(r.ms / 1000).toFixed(2)} s`);
    }
  }
  const header = [
    'input',
    'input size',
    'method',
    'output size',
    'saved',
    'time s',
    'PSNR dB',
    'kept text+structure',
    'larger than input',
    'fails qpdf --check',
  ];
  console.log();
  console.log(`| ${header.join(' | ')} |`);
  console.log(`|${header.map((_, i) => (i < 3 ? '---' : '---:')).join('|')}|`);
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  console.log();
  console.log(
    `Time: wall clock of one run (Quire: the tool module in-process, every engine call and check included), median of ${REPS}, ` +
      `summed over the inputs of a row; ${os.availableParallelism()} CPU(s). PSNR: grey renderings at 100 dpi of every page against the input's, ` +
      'averaged over the inputs poppler can render before and after (higher is closer; 99 counts as identical).',
  );
  console.log(
    `${execFileSync('gs', ['--version']).toString().trim()} (Ghostscript); ${execFileSync('qpdf', ['--version']).toString().split('\n')[0]}; node ${process.version}.`,
  );
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(tmp, { recursive: true, force: true }));
