// OCR benchmark: seconds per page of Quire's OCR (Tesseract page by page, engines/ocr.ts) with 1
// and with 2 pages at once, against the `tesseract` command line on the same pages in the same run;
// and deskewing (OCRmyPDF over Tesseract).
//
//   node --import tsx bench/ocr.ts            (BENCH_REPS=3, BENCH_PAGES=8 by default)
//
// See bench/README.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { ocrPdf } from '../apps/server/src/engines/ocr.js';
import { charAccuracy, DPI, expectedText, makeScanImages, makeScannedPdf, ocrPages } from '../apps/server/test/ocrFixtures.js';

const REPS = Math.max(1, Number(process.env.BENCH_REPS) || 3);
const PAGES = Math.max(1, Number(process.env.BENCH_PAGES) || 8);
const LANGUAGES = ['eng', 'deu', 'fra'];
// The test set's pages, upright, repeated to PAGES (the sideways one is in the OCR tests).
const pages = Array.from({ length: PAGES }, (_, i) => ({ ...ocrPages[i % ocrPages.length]!, sideways: false }));
const limits = { timeoutMs: 120_000, memoryMb: 2048 };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-ocr-'));
interface Run {
  ms: number;
  /** CPU seconds of the engine processes. */
  cpu: number;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const meanAccuracy = (texts: string[]) => texts.reduce((sum, t, i) => sum + charAccuracy(expectedText(pages[i]!), t), 0) / texts.length;
/** CPU seconds (user + system) of every child process this one has waited for, from /proc (clock ticks of 1/100 s). */
function childCpu(): number {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}
const pageText = (pdf: string, page: number) =>
  execFileSync('pdftotext', ['-raw', '-f', String(page), '-l', String(page), '-enc', 'UTF-8', pdf, '-']).toString();

/** One page image through `tesseract` to a searchable PDF, with one thread. */
function tesseractPage(image: string, out: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('tesseract', [image, out, '--dpi', String(DPI), '-l', LANGUAGES.join('+'), 'pdf'], {
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      stdio: 'ignore',
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`tesseract failed on ${image}`))));
  });
}

/** Every page image through `tesseract`, `parallel` at a time. */
async function tesseractCli(images: string[], outDir: string, parallel: number): Promise<Run> {
  const [start, cpu] = [performance.now(), childCpu()];
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < images.length; i = next++) await tesseractPage(images[i]!, path.join(outDir, `page-${i + 1}`));
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  return { ms: performance.now() - start, cpu: childCpu() - cpu };
}

async function quire(input: string, out: string, jobs: number, deskew = false): Promise<Run> {
  const [start, cpu] = [performance.now(), childCpu()];
  await ocrPdf(input, out, PAGES, { languages: LANGUAGES, force: false, jobs, deskew }, limits);
  return { ms: performance.now() - start, cpu: childCpu() - cpu };
}

async function main() {
  const images = await makeScanImages(path.join(tmp, 'images'), pages);
  const scanned = await makeScannedPdf(path.join(tmp, 'scan.pdf'), pages);
  const cliDir = path.join(tmp, 'cli');
  fs.mkdirSync(cliDir);
  // Warm-up: page caches and the language models read once.
  await tesseractCli(images.slice(0, 1), cliDir, 1);
  const times = { cli: [] as Run[], cli2: [] as Run[], one: [] as Run[], two: [] as Run[], deskew: [] as Run[] };
  for (let rep = 0; rep < REPS; rep++) {
    times.cli.push(await tesseractCli(images, cliDir, 1));
    times.cli2.push(await tesseractCli(images, cliDir, 2));
    times.one.push(await quire(scanned, path.join(tmp, 'one.pdf'), 1));
    times.two.push(await quire(scanned, path.join(tmp, 'two.pdf'), 2));
    times.deskew.push(await quire(scanned, path.join(tmp, 'deskew.pdf'), 2, true));
  }
  const accuracy = {
    cli: meanAccuracy(images.map((_, i) => pageText(path.join(cliDir, `page-${i + 1}.pdf`), 1))),
    one: meanAccuracy(pages.map((_, i) => pageText(path.join(tmp, 'one.pdf'), i + 1))),
    two: meanAccuracy(pages.map((_, i) => pageText(path.join(tmp, 'two.pdf'), i + 1))),
    deskew: meanAccuracy(pages.map((_, i) => pageText(path.join(tmp, 'deskew.pdf'), i + 1))),
  };
  const wall = (runs: Run[]) => median(runs.map((r) => r.ms)) / 1000;
  const cpu = (runs: Run[]) => median(runs.map((r) => r.cpu));
  const row = (label: string, runs: Run[], acc: number) =>
    `| ${label} | ${(wall(runs) / PAGES).toFixed(2)} | ${(cpu(runs) / PAGES).toFixed(2)} | ${wall(runs).toFixed(1)} | ${(acc * 100).toFixed(1)}% |`;
  const version = execFileSync('tesseract', ['--version']).toString().split('\n')[0];
  const ocrmypdf = execFileSync('ocrmypdf', ['--version']).toString().trim();
  console.log(
    `${PAGES} A4 pages at ${DPI} dpi, languages ${LANGUAGES.join('+')}, ${REPS} reps (median), ${os.availableParallelism()} cores, load ${os.loadavg()[0]!.toFixed(1)}; ${version}, OCRmyPDF ${ocrmypdf}`,
  );
  console.log('| method | wall s/page | CPU s/page | wall total s | char accuracy |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  console.log(row('tesseract CLI, one page after another (OMP_THREAD_LIMIT=1)', times.cli, accuracy.cli));
  console.log(row('tesseract CLI, two pages at once (OMP_THREAD_LIMIT=1)', times.cli2, accuracy.cli));
  console.log(row('Quire, 1 worker', times.one, accuracy.one));
  console.log(row('Quire, 2 workers', times.two, accuracy.two));
  console.log(row('Quire, 2 workers, deskew (OCRmyPDF)', times.deskew, accuracy.deskew));
  // The CLI's own speed-up says how much of a second core the machine had free during the run.
  console.log(
    `speed-up from 1 to 2 workers: Quire ${(wall(times.one) / wall(times.two)).toFixed(2)}x, tesseract CLI ${(wall(times.cli) / wall(times.cli2)).toFixed(2)}x`,
  );
  console.log(
    `Quire / tesseract CLI: wall ${(wall(times.one) / wall(times.cli)).toFixed(2)}x (1 worker), ${(wall(times.two) / wall(times.cli2)).toFixed(2)}x (2); CPU ${(cpu(times.one) / cpu(times.cli)).toFixed(2)}x`,
  );
}

main()
  .catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(tmp, { recursive: true, force: true }));
