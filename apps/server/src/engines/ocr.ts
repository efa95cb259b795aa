// OCR with OCRmyPDF over Tesseract. OCRmyPDF keeps each page's image as it is and adds Tesseract's
// own invisible text layer (the sandwich renderer, whose text order is Tesseract's reading order);
// it skips pages that already have text, turns sideways pages upright (Tesseract's OSD), deskews
// when asked, and recognises pages in parallel, one Tesseract thread each, each page under its own time limit.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ErrorCode, ocrUnavailableMessage, ocrUnknownLanguageMessage, QuireError } from '@quire/contracts';
import type { EngineLimits } from './qpdf.js';
import { boundFor, EngineTimeout, JOB_BOUNDS, runEngine, tookTooLong } from './run.js';

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
 * (3999 with NEED_OCR's message).
 */
export async function checkLanguages(languages: string[]): Promise<void> {
  const have = await installedLanguages().catch((): string[] => []);
  if (have.length === 0) throw new QuireError(ErrorCode.ServiceDown, ocrUnavailableMessage);
  const missing = languages.find((l) => !have.includes(l));
  if (missing) throw new QuireError(ErrorCode.InvalidParams, ocrUnknownLanguageMessage(missing));
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
  } catch (e) {
    if (e instanceof EngineTimeout) throw tookTooLong();
    throw e;
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
