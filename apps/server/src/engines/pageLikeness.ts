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

/** Mean SSIM of two grey pages of the same size over 8 × 8 windows every 4 pixels; 0 when their sizes differ. */
export function similarity(a: GreyPage, b: GreyPage): number {
  if (a.width !== b.width || a.height !== b.height) return 0;
  if (a.width < WINDOW || a.height < WINDOW) return a.pixels.equals(b.pixels) ? 1 : 0;
  const n = WINDOW * WINDOW;
  let sum = 0;
  let windows = 0;
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
      sum += ((2 * ma * mb + C1) * (2 * cov + C2)) / ((ma * ma + mb * mb + C1) * (va + vb + C2));
      windows++;
    }
  }
  return sum / windows;
}

/**
 * The lowest similarity between the pages of two drawings of a document, page for page: 0 where
 * one of them could not be drawn while the other was, 1 where neither could.
 */
export function worstPageSimilarity(before: (GreyPage | null)[], after: (GreyPage | null)[]): number {
  let worst = 1;
  for (const [i, a] of before.entries()) {
    const b = after[i];
    if (!a && !b) continue;
    worst = Math.min(worst, a && b ? similarity(a, b) : 0);
  }
  return worst;
}
