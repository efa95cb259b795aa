// Poppler's command-line tools (Debian's poppler-utils): pages rendered to images (pdftoppm) and
// embedded images written out as they are stored (pdfimages). Every call is bounded by runEngine.
// Inputs are plain PDFs: an encrypted or damaged upload is first made so by qpdf (editableInput).
import fs from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, PDF_IMAGE_MAX_PIXELS, QuireError, type PdfImageFormat } from '@quire/contracts';
import type { EngineLimits } from './qpdf.js';
import { boundFor, EngineTimeout, runEngine, tookTooLong } from './run.js';
import { ppmToBmp } from './bmp.js';
import { inLanes } from './lanes.js';
import type { ImagePlacement } from './mupdf/jobs.js';
import { runImageJob } from './sharp.js';
import { refusal } from '../texts/words.js';
import { type PageLayout, parsePageLayout } from './popplerLayout.js';

/** `tooLong`: what a run that ran out of time says. */
async function poppler(command: string, args: string[], limits: EngineLimits, tooLong = tookTooLong) {
  try {
    return await runEngine(command, args, limits);
  } catch (e) {
    if (e instanceof EngineTimeout) throw tooLong();
    throw e;
  }
}

/** A render out of time says what would make it fit: fewer pages, a lower resolution. */
const renderTookTooLong = () => refusal(ErrorCode.TaskFailed, 'error.task.renderTooLong');

/** Width and height in points of each page as shown (crop box), from pdfinfo. */
export async function pageSizes(file: string, pages: number, limits: EngineLimits): Promise<{ w: number; h: number }[]> {
  const res = await poppler('pdfinfo', ['-f', '1', '-l', String(pages), file], boundFor('inspect', limits));
  const sizes: { w: number; h: number }[] = [];
  for (const m of res.stdout.matchAll(/^Page\s+(\d+) size:\s+([\d.]+) x ([\d.]+)/gm))
    sizes[Number(m[1]) - 1] = { w: Number(m[2]), h: Number(m[3]) };
  return sizes;
}

/** Refuses a page whose bitmap at `dpi` would hold more than PDF_IMAGE_MAX_PIXELS pixels. */
export function checkRenderSize(page: number, size: { w: number; h: number } | undefined, dpi: number): void {
  if (!size) return;
  const w = Math.ceil((size.w * dpi) / 72);
  const h = Math.ceil((size.h * dpi) / 72);
  if (w * h > PDF_IMAGE_MAX_PIXELS) {
    throw refusal(ErrorCode.InvalidParams, 'error.limit.pageRender', { page, width: w, height: h, dpi });
  }
}

const pdftoppmFormat: Record<PdfImageFormat, string[]> = {
  jpg: ['-jpeg', '-jpegopt', 'quality=90'],
  png: ['-png'],
  tiff: ['-tiff', '-tiffcompression', 'lzw'],
  // pdftoppm writes no BMP: it writes a PPM, which is turned into a BMP here.
  bmp: [],
  // Nor GIF: its PNG is encoded as GIF by sharp (engines/sharp.ts).
  gif: ['-png'],
};
const pdftoppmExt: Record<PdfImageFormat, string> = { jpg: 'jpg', png: 'png', tiff: 'tif', bmp: 'ppm', gif: 'png' };

/**
 * Pixels one pdftoppm run renders at most (about ten A4 pages at 150 dpi, two at 300): a run's
 * time bound is its pages', and the configured per-call limit caps it, so a run is kept to what
 * a page cost when each had a run of its own.
 */
const RUN_PIXELS = 20_000_000;

/**
 * Every page of `file` (its crop box, `sizes` in points as pageSizes reads them) rendered at
 * `dpi`, in runs of pages one after another split between `lanes` pdftoppm processes at a time;
 * each run's images are written as it ends. Returns the images in page order.
 */
export async function renderEachPage(
  file: string,
  sizes: ({ w: number; h: number } | undefined)[],
  pages: number,
  render: { format: PdfImageFormat; dpi: number; lanes: number },
  outDir: string,
  limits: EngineLimits,
  onProgress: (fraction: number) => void,
): Promise<string[]> {
  const { format, dpi, lanes } = render;
  // A short document is shared out between the lanes; a page of unknown size counts as A4.
  const maxPages = Math.ceil(pages / lanes);
  const runs: { first: number; last: number }[] = [];
  let pixels = 0;
  for (let page = 1; page <= pages; page++) {
    const size = sizes[page - 1] ?? { w: 595, h: 842 };
    const pagePixels = ((size.w * dpi) / 72) * ((size.h * dpi) / 72);
    const run = runs.at(-1);
    if (run && run.last - run.first + 1 < maxPages && pixels + pagePixels <= RUN_PIXELS) {
      run.last = page;
      pixels += pagePixels;
    } else {
      runs.push({ first: page, last: page });
      pixels = pagePixels;
    }
  }
  const images: string[][] = [];
  let done = 0;
  await inLanes(runs, lanes, async ({ first, last }, i) => {
    images[i] = await renderPages(file, first, last, format, dpi, path.join(outDir, `pages-${first}`), limits);
    done += last - first + 1;
    onProgress(done / pages);
  });
  return images.flat();
}

/**
 * Renders pages `first` to `last` (their crop boxes) in one pdftoppm run, which opens the document
 * once for them all: a run per page read a 300 MB file's cross-references 2,000 times. The images
 * go into `outDir`, a folder of their own; returned in page order. The run's time bound is its pages'.
 */
async function renderPages(
  file: string,
  first: number,
  last: number,
  format: PdfImageFormat,
  dpi: number,
  outDir: string,
  limits: EngineLimits,
): Promise<string[]> {
  await fs.mkdir(outDir, { recursive: true });
  const args = [
    ...pdftoppmFormat[format],
    '-r',
    String(dpi),
    '-cropbox',
    '-f',
    String(first),
    '-l',
    String(last),
    file,
    path.join(outDir, 'page'),
  ];
  const res = await poppler('pdftoppm', args, boundFor('render', limits, last - first + 1), renderTookTooLong);
  // pdftoppm writes "page-<n>.<ext>", n zero-padded to the page count's digits.
  const name = new RegExp(`^page-(\\d+)\\.${pdftoppmExt[format]}$`);
  const written = new Map<number, string>();
  for (const f of await fs.readdir(outDir)) {
    const page = Number(f.match(name)?.[1]);
    if (page >= first && page <= last && (await fs.stat(path.join(outDir, f))).size > 0) written.set(page, path.join(outDir, f));
  }
  if (res.exitCode !== 0 || written.size !== last - first + 1) {
    await Promise.all([...written.values()].map((f) => fs.rm(f, { force: true })));
    throw new QuireError(ErrorCode.Damaged);
  }
  const pages = [...written.entries()].sort((a, b) => a[0] - b[0]).map(([, f]) => f);
  if (format !== 'bmp' && format !== 'gif') return pages;
  const converted: string[] = [];
  for (const page of pages) converted.push(await convertRendered(page, format, limits));
  return converted;
}

/** A page pdftoppm wrote as PPM or PNG, written again as the BMP or GIF it cannot write itself; the original removed. */
async function convertRendered(written: string, format: 'bmp' | 'gif', limits: EngineLimits): Promise<string> {
  const converted = `${written.slice(0, -path.extname(written).length)}.${format}`;
  try {
    if (format === 'bmp') await ppmToBmp(written, converted);
    else
      await runImageJob(
        {
          input: written,
          inputFormat: 'png',
          output: converted,
          format,
          params: { action: 'convert', format, ico_size: 16 },
          // The page was bounded before it was rendered, by the renders' own limit.
          maxPixels: PDF_IMAGE_MAX_PIXELS,
        },
        path.dirname(written),
        limits,
      );
  } finally {
    await fs.rm(written, { force: true });
  }
  return converted;
}

/**
 * Every image the pages draw, as stored: JPEG and JPEG 2000 streams unchanged, CMYK images as
 * TIFF, the rest (JBIG2 and CCITT faxes too, which no image viewer opens raw) as PNG. Returns the
 * written files in page order.
 */
export async function extractImages(file: string, pages: number, outDir: string, limits: EngineLimits): Promise<string[]> {
  const args = ['-png', '-tiff', '-j', '-jp2', file, path.join(outDir, 'img')];
  const res = await poppler('pdfimages', args, boundFor('render', limits, pages));
  const number = (f: string) => Number.parseInt(f.slice(4), 10);
  const files = (await fs.readdir(outDir)).filter((f) => /^img-\d+\./.test(f)).sort((a, b) => number(a) - number(b));
  if (res.exitCode !== 0 && files.length === 0) throw new QuireError(ErrorCode.Damaged);
  return files.map((f) => path.join(outDir, f));
}

/**
 * The first page as a PNG whose longer side is `longSidePx` (a page of any size makes a bitmap of
 * that bound), written to `output`; 3124 when poppler cannot draw it.
 */
export async function firstPageThumbnail(file: string, output: string, longSidePx: number, limits: EngineLimits): Promise<void> {
  if (!output.endsWith('.png')) throw new Error(`a thumbnail is written as .png, not ${output}`);
  // pdftoppm adds the extension itself to the name it is given.
  const args = ['-png', '-singlefile', '-f', '1', '-l', '1', '-scale-to', String(longSidePx), file, output.slice(0, -'.png'.length)];
  const res = await poppler('pdftoppm', args, boundFor('render', limits, 1));
  const written = await fs.stat(output).catch(() => null);
  if (res.exitCode !== 0 || !written?.size) {
    await fs.rm(output, { force: true });
    throw new QuireError(ErrorCode.Damaged);
  }
}

/**
 * The page count the document's root declares, as pdfinfo reads it without walking the page tree
 * (far quicker than qpdf on a file of many objects), or null when poppler cannot open it without a password.
 */
export async function declaredPages(file: string, limits: EngineLimits): Promise<number | null> {
  const res = await poppler('pdfinfo', ['-f', '1', '-l', '0', file], boundFor('inspect', limits));
  const pages = res.stdout.match(/^Pages:\s+(\d+)$/m)?.[1];
  return res.exitCode === 0 && pages ? Number(pages) : null;
}

/** The pages poppler finds, written anew as they are with a page tree of their own (pdfunite). False when it finds none. */
export async function rewritePages(input: string, output: string, limits: EngineLimits): Promise<boolean> {
  const res = await poppler('pdfunite', [input, output], boundFor('rewrite', limits));
  if (res.exitCode === 0) return true;
  await fs.rm(output, { force: true });
  return false;
}

/**
 * Each image XObject the pages draw (inline images and masks aside, stencil masks included) with
 * its lowest resolution on them, per axis: where it is drawn largest, every pixel it keeps must
 * still be there.
 */
export async function imagePlacements(file: string, pages: number, limits: EngineLimits): Promise<ImagePlacement[]> {
  // It reads every page's content, as a text extraction does: 2,000 pages take it 25 s on a busy machine.
  const res = await poppler('pdfimages', ['-list', file], boundFor('text', limits, pages));
  const placements = new Map<number, ImagePlacement>();
  // page num type width height color comp bpc enc interp object generation x-ppi y-ppi size ratio
  for (const line of res.stdout.split('\n').slice(2)) {
    const col = line.trim().split(/\s+/);
    const [object, xPpi, yPpi] = [Number(col[10]), Number(col[12]), Number(col[13])];
    if (col.length < 16 || !['image', 'stencil'].includes(col[2]!) || !(object > 0) || !(xPpi > 0) || !(yPpi > 0)) continue;
    const seen = placements.get(object);
    placements.set(object, { object, xPpi: Math.min(xPpi, seen?.xPpi ?? xPpi), yPpi: Math.min(yPpi, seen?.yPpi ?? yPpi) });
  }
  return [...placements.values()];
}

/**
 * pdftotext -bbox-layout of the first `pages` pages, written to `out` (a long document's layout is
 * more than a captured stdout holds; popplerLayout.ts reads it); 3124 for a file poppler cannot read.
 */
export async function writePageLayout(file: string, pages: number, out: string, limits: EngineLimits): Promise<void> {
  const res = await poppler(
    'pdftotext',
    ['-q', '-bbox-layout', '-enc', 'UTF-8', '-f', '1', '-l', String(pages), file, out],
    boundFor('text', limits, pages),
  );
  if (res.exitCode !== 0) throw new QuireError(ErrorCode.Damaged);
}

/**
 * The text of the first `pages` pages (one string per page, blocks apart by a blank line) and its
 * lines with their heights, from one pdftotext -bbox-layout run written to `workFile`; the file is
 * removed after.
 */
export async function pageLayout(file: string, pages: number, workFile: string, limits: EngineLimits): Promise<PageLayout> {
  try {
    await writePageLayout(file, pages, workFile, limits);
    return parsePageLayout(await fs.readFile(workFile, 'utf8'));
  } finally {
    await fs.rm(workFile, { force: true });
  }
}
