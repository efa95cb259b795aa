// OCR with Tesseract, page by page (ADR 0110): each page without text is rendered by pdftoppm and
// recognised by one single-threaded Tesseract, pages in parallel, each under its own time limit;
// Tesseract's invisible text layer (its text-only PDF, in its reading order) is laid over the
// original page by qpdf, so every page image stays byte for byte as it was, and a page whose text
// runs sideways or upside down gets a /Rotate that shows it upright. Forced OCR (pages rasterised
// anew) and deskewing (page images re-encoded) are OCRmyPDF's, over the same Tesseract.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { ErrorCode, PDF_IMAGE_MAX_PIXELS, QuireError } from '@quire/contracts';
import { pageSizes } from './poppler.js';
import { type EngineLimits, qpdf, succeeded } from './qpdf.js';
import { inLanes } from './lanes.js';
import { boundFor, EngineTimeout, JOB_BOUNDS, runEngine, tookTooLong } from './run.js';
import { refusal } from '../texts/words.js';

let installed: Promise<string[]> | undefined;

/** Tesseract's installed languages (not its script-detection and equation models), asked once. */
export function installedLanguages(): Promise<string[]> {
  installed ??= runEngine('tesseract', ['--list-langs'], { timeoutMs: JOB_BOUNDS.inspect.baseMs, memoryMb: JOB_BOUNDS.inspect.memoryMb })
    .then((r) => {
      if (r.exitCode !== 0) throw new Error(`tesseract --list-langs failed: ${r.stderr}`);
      return r.stdout
        .split('\n')
        .slice(1)
        .map((l) => l.trim())
        .filter((l) => l && l !== 'osd' && l !== 'equ');
    })
    .catch((e: unknown) => {
      installed = undefined;
      throw e;
    });
  return installed;
}

/**
 * Refuses a language that is not installed (3100), and every OCR on a server without Tesseract
 * (4018, the spec's NEED_OCR).
 */
export async function checkLanguages(languages: string[]): Promise<void> {
  const have = await installedLanguages().catch((): string[] => []);
  if (have.length === 0) throw new QuireError(ErrorCode.NeedOcr);
  const missing = languages.find((l) => !have.includes(l));
  if (missing) throw refusal(ErrorCode.InvalidParams, 'error.ocr.unknownLanguage', { language: missing });
}

export interface OcrOptions {
  languages: string[];
  /** Recognise pages that already have text too: OCRmyPDF rasterises them first. */
  force: boolean;
  /** Straighten skewed pages: OCRmyPDF then re-encodes every page image it recognised. */
  deskew?: boolean;
  /** Pages recognised at once; the machine's cores unless given. */
  jobs?: number;
  /** Share (0–1) of the pages seen so far. */
  onProgress?(fraction: number): void;
}

/** OCRmyPDF's exit codes that say the input is at fault. */
const INPUT_ERRORS = new Set([2, 8]);
/** OSD's confidence needed to turn a page; OCRmyPDF's default (14) leaves short sideways pages lying. */
const ROTATE_THRESHOLD = 5;

/**
 * Writes a searchable copy of the (unencrypted) PDF `input` to `output` and Tesseract's text of
 * each recognised page to `output`.txt (pages separated by form feeds).
 */
export async function ocrPdf(input: string, output: string, pages: number, opts: OcrOptions, limits: EngineLimits): Promise<void> {
  const jobs = Math.max(1, opts.jobs ?? os.availableParallelism());
  const ocr = opts.force || opts.deskew ? ocrmypdf : tesseractPages;
  try {
    await ocr(input, output, pages, { ...opts, jobs }, limits);
  } catch (e) {
    if (e instanceof EngineTimeout) throw tookTooLong();
    throw e;
  }
}

/** Resolution of a page with no image to go by, and the range a page image's own is kept in. */
const DEFAULT_DPI = 300;
const MIN_DPI = 150;
const MAX_DPI = 600;
/** Mean word confidence (0–100) under which a page is read again with orientation detection: upside-down text reads as gibberish. */
const LOW_CONFIDENCE = 70;

type Engine = (command: string, args: string[], limits: EngineLimits) => Promise<string>;
/** Runs an engine that must succeed on a readable PDF; a failure is the file's (3124). */
const mustRun: Engine = async (command, args, limits) => {
  const res = await runEngine(command, args, limits);
  if (res.exitCode !== 0) throw new QuireError(ErrorCode.Damaged);
  return res.stdout;
};

/**
 * The resolution to recognise each page at: its images' own (the finest, so a scan is read
 * pixel for pixel), within MIN_DPI–MAX_DPI, DEFAULT_DPI without images; never a bitmap over
 * PDF_IMAGE_MAX_PIXELS.
 */
async function pageResolutions(input: string, pages: number, limits: EngineLimits): Promise<number[]> {
  const dpi = new Array<number>(pages).fill(0);
  // pdfimages -list: page, num, type, width, height, color, comp, bpc, enc, interp, object, ID, x-ppi, y-ppi, ...
  for (const line of (await mustRun('pdfimages', ['-list', input], boundFor('inspect', limits))).split('\n').slice(2)) {
    const c = line.trim().split(/\s+/).map(Number);
    if (c[0]! >= 1 && c[0]! <= pages) dpi[c[0]! - 1] = Math.max(dpi[c[0]! - 1]!, c[12] || 0, c[13] || 0);
  }
  const sizes = await pageSizes(input, pages, limits);
  return dpi.map((d, i) => {
    const size = sizes[i] ?? { w: 612, h: 792 };
    const fits = Math.floor(72 * Math.sqrt(PDF_IMAGE_MAX_PIXELS / (size.w * size.h)));
    return Math.min(d ? Math.min(Math.max(Math.round(d), MIN_DPI), MAX_DPI) : DEFAULT_DPI, fits);
  });
}

interface Recognised {
  /** Tesseract's text-only PDF of the page. */
  pdf: string;
  text: string;
  /** Clockwise quarter turns, in degrees, that show the page's text upright. */
  rotate: number;
}

/**
 * How far a text-only PDF's text is turned: the direction most of its lines run (their text
 * matrices), as the clockwise /Rotate that shows them upright.
 */
async function textTurn(pdf: string): Promise<number> {
  const votes = new Map<number, number>();
  const raw = await fs.readFile(pdf);
  for (const m of raw.toString('latin1').matchAll(/\/FlateDecode[\s\S]*?stream\r?\n/g)) {
    const start = m.index + m[0].length;
    const content = (
      await promisify(zlib.inflate)(raw.subarray(start, raw.indexOf('endstream', start))).catch(() => Buffer.alloc(0))
    ).toString('latin1');
    for (const [, a, b] of content.matchAll(/(-?[\d.]+) (-?[\d.]+) -?[\d.]+ -?[\d.]+ -?[\d.]+ -?[\d.]+ Tm/g)) {
      const turn = (Math.round(Math.atan2(Number(b), Number(a)) / (Math.PI / 2)) * 90 + 360) % 360;
      votes.set(turn, (votes.get(turn) ?? 0) + 1);
    }
  }
  return [...votes].sort((x, y) => y[1] - x[1])[0]?.[0] ?? 0;
}

/** hOCR's mean word confidence (0–100) of one page; a page without words has nothing to read again. */
function meanConfidence(hocrPage: string): number {
  const confidences = [...hocrPage.matchAll(/x_wconf (\d+)/g)].map((m) => Number(m[1]));
  return confidences.length ? confidences.reduce((a, b) => a + b, 0) / confidences.length : 100;
}

/**
 * Page images (`images`, one file or a list file) through one single-threaded Tesseract, which
 * loads its models once for them all: each page's text-only PDF (`base`-N.pdf), text and mean
 * word confidence. Each page may take the per-call time limit.
 */
async function tesseract(
  images: string,
  count: number,
  base: string,
  dpi: number,
  opts: OcrOptions,
  extra: string[],
  limits: EngineLimits,
) {
  const args = [images, base, '--dpi', String(dpi), '-l', opts.languages.join('+'), ...extra, '-c', 'textonly_pdf=1', 'pdf', 'txt', 'hocr'];
  const res = await runEngine('env', ['OMP_THREAD_LIMIT=1', 'tesseract', ...args], boundFor('ocr', limits, count));
  if (res.exitCode !== 0) throw new Error(`tesseract failed (${res.exitCode}): ${res.stderr.slice(-2000)}`);
  const split = await qpdf([`${base}.pdf`, '--split-pages', `${base}-%d.pdf`], limits, { job: 'rewrite', pages: count });
  if (!succeeded(split.exitCode)) throw new Error(`qpdf could not split the text layers: ${split.stderr}`);
  const texts = (await fs.readFile(`${base}.txt`, 'utf8')).split('\f');
  const hocr = (await fs.readFile(`${base}.hocr`, 'utf8')).split("class='ocr_page'").slice(1);
  return Array.from({ length: count }, (_, i) => ({
    pdf: `${base}-${i + 1}.pdf`,
    text: texts[i]?.trim() ?? '',
    confidence: meanConfidence(hocr[i] ?? ''),
  }));
}

/**
 * Renders `pages` at `dpi` (MuPDF, each as shown) and recognises them in one Tesseract run, in
 * the page layout analysis of the `tesseract` command line, which reads text turned a quarter
 * either way; a page read with low confidence (upside down, say) is read again with Tesseract's
 * orientation detection (--psm 1), and the better reading kept.
 */
async function recogniseBatch(input: string, pages: number[], dpi: number, dir: string, opts: OcrOptions, limits: EngineLimits) {
  const base = path.join(dir, `batch-${pages[0]}`);
  const images = pages.map((p) => `${base}-page-${p}.pgm`);
  await mustRun('mutool', ['draw', '-q', '-r', String(dpi), '-c', 'gray', '-o', `${base}-page-%d.pgm`, input, pages.join(',')], {
    ...boundFor('render', limits, pages.length),
  });
  await fs.writeFile(`${base}.list`, `${images.join('\n')}\n`);
  const readings = await tesseract(`${base}.list`, pages.length, base, dpi, opts, [], limits);
  const done = new Map<number, Recognised>();
  for (const [i, page] of pages.entries()) {
    let best = readings[i]!;
    if (best.confidence < LOW_CONFIDENCE) {
      const [osd] = await tesseract(images[i]!, 1, `${base}-osd-${page}`, dpi, opts, ['--psm', '1'], limits);
      if (osd!.confidence > best.confidence) best = osd!;
    }
    done.set(page, { pdf: best.pdf, text: best.text, rotate: await textTurn(best.pdf) });
  }
  await Promise.all(images.map((image) => fs.rm(image)));
  return done;
}

/**
 * Pages per Tesseract run at most: it loads its models once per run (about half a page's time with
 * three languages), and the page images of a run wait on disk. One digit, as qpdf --split-pages numbers them.
 */
const BATCH = 8;

/** Consecutive runs of at most `size` pages that share a resolution. */
function batches(todo: number[], dpi: number[], size: number): number[][] {
  const out: number[][] = [];
  for (const page of todo) {
    const last = out.at(-1);
    if (last && last.length < size && dpi[last[0]! - 1] === dpi[page - 1]) last.push(page);
    else out.push([page]);
  }
  return out;
}

/** The per-page OCR (see the top of this file). */
async function tesseractPages(input: string, output: string, pages: number, opts: OcrOptions & { jobs: number }, limits: EngineLimits) {
  // A page with any text of its own is left alone, as OCRmyPDF's --skip-text does.
  const texts = (await mustRun('pdftotext', ['-enc', 'UTF-8', input, '-'], boundFor('text', limits, pages))).split('\f');
  const todo = Array.from({ length: pages }, (_, i) => i + 1).filter((page) => !texts[page - 1]?.trim());
  const dpi = todo.length ? await pageResolutions(input, pages, limits) : [];
  // Every worker gets pages: a short document is shared out evenly.
  const queue = batches(todo, dpi, Math.min(BATCH, Math.ceil(todo.length / opts.jobs)));
  const tmp = await fs.mkdtemp(path.join(path.dirname(output), 'ocr-tmp-'));
  try {
    const done = new Map<number, Recognised>();
    await inLanes(queue, opts.jobs, async (batch) => {
      for (const [page, recognised] of await recogniseBatch(input, batch, dpi[batch[0]! - 1]!, tmp, opts, limits))
        done.set(page, recognised);
      opts.onProgress?.(done.size / todo.length);
    });
    await graft(input, output, todo, done, tmp, limits);
    const sidecar = Array.from({ length: pages }, (_, i) => done.get(i + 1)?.text ?? `[OCR skipped on page(s) ${i + 1}]`);
    await fs.writeFile(`${output}.txt`, sidecar.join('\n\f'));
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

/**
 * Lays each recognised page's text layer over its page (qpdf --overlay, the stream data of the
 * original left exactly as it was) and turns the pages whose text is sideways upright.
 */
async function graft(input: string, output: string, todo: number[], done: Map<number, Recognised>, tmp: string, limits: EngineLimits) {
  if (todo.length === 0) {
    await fs.copyFile(input, output);
    return;
  }
  const layers = path.join(tmp, 'layers.pdf');
  // qpdf places an overlay as the page is shown (its /Rotate applied): a layer turned with its page stays over its text.
  const turns = (at: (p: number, i: number) => number) =>
    todo.flatMap((p, i) => (done.get(p)!.rotate ? [`--rotate=+${done.get(p)!.rotate}:${at(p, i)}`] : []));
  const one = await qpdf(['--empty', '--pages', ...todo.map((p) => done.get(p)!.pdf), '--', ...turns((_, i) => i + 1), layers], limits, {
    job: 'rewrite',
    pages: todo.length,
  });
  if (!succeeded(one.exitCode)) throw new Error(`qpdf could not join the text layers: ${one.stderr}`);
  const res = await qpdf(
    [
      '--stream-data=preserve',
      input,
      '--overlay',
      layers,
      `--to=${todo.join(',')}`,
      `--from=1-${todo.length}`,
      '--',
      ...turns((p) => p),
      output,
    ],
    limits,
    { job: 'rewrite', pages: todo.length },
  );
  if (!succeeded(res.exitCode)) throw new QuireError(ErrorCode.Damaged);
}

/** OCRmyPDF, for forced OCR and deskewing (see the top of this file). */
async function ocrmypdf(input: string, output: string, pages: number, opts: OcrOptions & { jobs: number }, limits: EngineLimits) {
  const { jobs } = opts;
  const perPage = boundFor('ocr', limits, 1);
  const tmp = await fs.mkdtemp(path.join(path.dirname(output), 'ocr-tmp-'));
  const seen = new Set<string>();
  const args = [
    ...['-c', 'exec "$@" 2>&1', 'sh'],
    // One thread per Tesseract: the pages are the parallelism; OCRmyPDF's temporary files stay in the job's folder.
    ...['env', 'OMP_THREAD_LIMIT=1', `TMPDIR=${tmp}`, 'ocrmypdf'],
    ...['-l', opts.languages.join('+'), opts.force ? '--force-ocr' : '--skip-text'],
    ...['--rotate-pages', '--rotate-pages-threshold', String(ROTATE_THRESHOLD), ...(opts.deskew ? ['--deskew'] : [])],
    // pdf, not PDF/A: no Ghostscript rewrite of the document; no optimisation or linearisation: images and objects stay as they were.
    ...['--output-type', 'pdf', '--pdf-renderer', 'sandwich', '--optimize', '0', '--fast-web-view', '1000000'],
    ...['--jobs', String(jobs), '--tesseract-timeout', String(Math.ceil(perPage.timeoutMs / 1000))],
    ...['--sidecar', `${output}.txt`, input, output],
  ];
  try {
    const res = await runEngine('sh', args, {
      ...perPage,
      // Each page may use its own bound; the task's own limit (signal) still bounds the whole.
      timeoutMs: perPage.timeoutMs * Math.ceil(pages / jobs),
      // OCRmyPDF logs each page it takes up as "   N ...".
      onLine: (line) => {
        const page = line.match(/^\s+(\d+) /)?.[1];
        if (page && !seen.has(page)) {
          seen.add(page);
          opts.onProgress?.(seen.size / pages);
        }
      },
    });
    if (INPUT_ERRORS.has(res.exitCode)) throw new QuireError(ErrorCode.Damaged);
    if (res.exitCode !== 0) throw new Error(`ocrmypdf failed (${res.exitCode}): ${res.stdout.slice(-2000)}`);
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

/**
 * The text of an OCR output in reading order, page by page: Tesseract's own for the pages it
 * recognised, pdftotext's for the pages left alone because they had text.
 */
export async function ocrText(output: string, limits: EngineLimits): Promise<string> {
  const pages: string[] = [];
  for (const chunk of (await fs.readFile(`${output}.txt`, 'utf8')).split('\f')) {
    const skipped = chunk.trim().match(/^\[OCR skipped on page\(s\) (\d+)(?:-(\d+))?\]$/);
    if (!skipped) {
      pages.push(chunk.trim());
      continue;
    }
    const [from, to] = [Number(skipped[1]), Number(skipped[2] ?? skipped[1])];
    for (let page = from; page <= to; page++) {
      const res = await runEngine(
        'pdftotext',
        ['-f', String(page), '-l', String(page), '-enc', 'UTF-8', output, '-'],
        boundFor('text', limits, 1),
      );
      pages.push(res.stdout.replace(/\f/g, '').trim());
    }
  }
  return `${pages.join('\n\n')}\n`;
}
