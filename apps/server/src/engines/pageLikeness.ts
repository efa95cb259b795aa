// How alike two versions of a document look: sample pages drawn in grey by poppler and compared by
// their structural similarity (SSIM). The fingerprint (fingerprint.ts) tells whether a rewrite
// kept the text and structure; this tells whether it kept the look: a rebuilding engine can move,
// resize or recolour what it draws while every word and field stays.
import fs from 'node:fs/promises';
import path from 'node:path';
import { pageSizes } from './poppler.js';
import type { EngineLimits } from './qpdf.js';
import { boundFor, runEngine } from './run.js';

/** A page drawn in grey, one byte a pixel, row after row. */
export interface GreyPage {
  width: number;
  height: number;
  pixels: Buffer;
}

/** Pages are drawn at a screen's resolution, where a reader sees a page whole and a lost detail shows ... */
const DRAWN_DPI = 72;
/** ... a large page (a poster, a drawing) smaller, so that no drawing holds more than 4 million pixels. */
const MAX_SIDE_PX = 2000;
/** The most pages compared: a long document is judged on pages spread over it. */
export const MAX_COMPARED_PAGES = 12;

/** Up to MAX_COMPARED_PAGES page numbers spread evenly over `pages`, the first and the last among them. */
export function comparedPages(pages: number): number[] {
  if (pages <= MAX_COMPARED_PAGES) return Array.from({ length: pages }, (_, i) => i + 1);
  const step = (pages - 1) / (MAX_COMPARED_PAGES - 1);
  return Array.from({ length: MAX_COMPARED_PAGES }, (_, i) => 1 + Math.round(i * step));
}

/** A binary PGM (P5, 8 bits) as pdftoppm -gray writes it. */
export function parsePgm(data: Buffer): GreyPage | null {
  const header = data
    .subarray(0, 64)
    .toString('latin1')
    .match(/^P5\s+(\d+)\s+(\d+)\s+255\s/);
  if (!header) return null;
  const [width, height] = [Number(header[1]), Number(header[2])];
  const pixels = data.subarray(header[0].length, header[0].length + width * height);
  return pixels.length === width * height ? { width, height, pixels } : null;
}

/**
 * The `pages` of `file` drawn in grey (crop box, at DRAWN_DPI or with MAX_SIDE_PX on its longest
 * side, whichever is smaller); null for a page poppler cannot draw.
 */
export async function drawnPages(file: string, pages: number[], workDir: string, limits: EngineLimits): Promise<(GreyPage | null)[]> {
  const sizes = await pageSizes(file, Math.max(...pages), limits);
  const drawn: (GreyPage | null)[] = [];
  for (const page of pages) {
    const base = path.join(workDir, `likeness-${path.basename(file, '.pdf')}-${page}`);
    const side = Math.max(sizes[page - 1]?.w ?? 0, sizes[page - 1]?.h ?? 0);
    const scale = (side * DRAWN_DPI) / 72 > MAX_SIDE_PX ? ['-scale-to', String(MAX_SIDE_PX)] : ['-r', String(DRAWN_DPI)];
    const args = ['-gray', '-cropbox', ...scale, '-f', String(page), '-l', String(page), '-singlefile', file, base];
    try {
      const res = await runEngine('pdftoppm', args, boundFor('render', limits, 1));
      drawn.push(res.exitCode === 0 ? parsePgm(await fs.readFile(`${base}.pgm`).catch(() => Buffer.alloc(0))) : null);
    } finally {
      await fs.rm(`${base}.pgm`, { force: true });
    }
  }
  return drawn;
}

const WINDOW = 8;
const STRIDE = 4;
const C1 = (0.01 * 255) ** 2;
const C2 = (0.03 * 255) ** 2;

/**
 * Over 8 × 8 windows every 4 pixels of two grey pages of the same size, the mean SSIM and the mean
 * of its brightness × contrast terms alone (SSIM without its structure term: how alike the windows'
 * tone and contrast are, wherever their pixels lie).
 */
function windowed(a: GreyPage, b: GreyPage): { ssim: number; toneAndContrast: number } {
  const n = WINDOW * WINDOW;
  let [ssim, toneAndContrast, windows] = [0, 0, 0];
  for (let y = 0; y + WINDOW <= a.height; y += STRIDE) {
    for (let x = 0; x + WINDOW <= a.width; x += STRIDE) {
      let [sa, sb, saa, sbb, sab] = [0, 0, 0, 0, 0];
      for (let dy = 0; dy < WINDOW; dy++) {
        const row = (y + dy) * a.width + x;
        for (let dx = 0; dx < WINDOW; dx++) {
          const [pa, pb] = [a.pixels[row + dx]!, b.pixels[row + dx]!];
          sa += pa;
          sb += pb;
          saa += pa * pa;
          sbb += pb * pb;
          sab += pa * pb;
        }
      }
      const [ma, mb] = [sa / n, sb / n];
      const [va, vb, cov] = [saa / n - ma * ma, sbb / n - mb * mb, sab / n - ma * mb];
      const tone = (2 * ma * mb + C1) / (ma * ma + mb * mb + C1);
      ssim += (tone * (2 * cov + C2)) / (va + vb + C2);
      toneAndContrast += (tone * (2 * Math.sqrt(Math.max(va, 0) * Math.max(vb, 0)) + C2)) / (va + vb + C2);
      windows++;
    }
  }
  return { ssim: ssim / windows, toneAndContrast: toneAndContrast / windows };
}

/** Mean SSIM of two grey pages of the same size over 8 × 8 windows every 4 pixels; 0 when their sizes differ. */
export function similarity(a: GreyPage, b: GreyPage): number {
  if (a.width !== b.width || a.height !== b.height) return 0;
  if (a.width < WINDOW || a.height < WINDOW) return a.pixels.equals(b.pixels) ? 1 : 0;
  return windowed(a, b).ssim;
}

/** How many pixels a side the coarse look of a page averages. */
const COARSE = 4;

/** The page at a quarter of its resolution: the mean of each 4 × 4 block of pixels. */
function coarse(page: GreyPage): GreyPage {
  const [width, height] = [Math.floor(page.width / COARSE), Math.floor(page.height / COARSE)];
  const pixels = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let dy = 0; dy < COARSE; dy++) {
        const row = (y * COARSE + dy) * page.width + x * COARSE;
        for (let dx = 0; dx < COARSE; dx++) sum += page.pixels[row + dx]!;
      }
      pixels[y * width + x] = Math.round(sum / (COARSE * COARSE));
    }
  }
  return { width, height, pixels };
}

/**
 * How alike a page looks after its images were resampled, where nothing else was redrawn: its
 * similarity, or, when higher, the lower of its similarity at a quarter of the resolution (18 dpi)
 * and of its tone and contrast at full resolution. Fine texture (grain, noise) brought to another
 * resolution keeps its tone, contrast and layout but not its pixels' places, which SSIM counts as
 * lost structure (Gaussian noise from 300 to 150 dpi scores 0.83); an image blanked, blurred,
 * recoloured or moved loses tone, contrast or its coarse layout and is still found different.
 */
export function resampledSimilarity(a: GreyPage, b: GreyPage): number {
  const fine = similarity(a, b);
  if (fine === 0 || a.width < COARSE * WINDOW || a.height < COARSE * WINDOW) return fine;
  return Math.max(fine, Math.min(windowed(a, b).toneAndContrast, similarity(coarse(a), coarse(b))));
}

/**
 * The lowest similarity between the pages of two drawings of a document, page for page: 0 where
 * one of them could not be drawn while the other was, 1 where neither could.
 */
export function worstPageSimilarity(
  before: (GreyPage | null)[],
  after: (GreyPage | null)[],
  measure: (a: GreyPage, b: GreyPage) => number = similarity,
): number {
  let worst = 1;
  for (const [i, a] of before.entries()) {
    const b = after[i];
    if (!a && !b) continue;
    worst = Math.min(worst, a && b ? measure(a, b) : 0);
  }
  return worst;
}
