import { describe, expect, it } from 'vitest';
import {
  comparedPages,
  MAX_COMPARED_PAGES,
  parsePgm,
  resampledSimilarity,
  similarity,
  worstPageSimilarity,
  type GreyPage,
} from './pageLikeness.js';

/** A white page with a black square of `side` pixels at (x, y). */
function page(width: number, height: number, square?: { x: number; y: number; side: number }): GreyPage {
  const pixels = Buffer.alloc(width * height, 255);
  if (square)
    for (let y = square.y; y < square.y + square.side; y++) pixels.fill(0, y * width + square.x, y * width + square.x + square.side);
  return { width, height, pixels };
}

describe('page likeness', () => {
  it('finds the same page alike and a moved square less so, the more it moved', () => {
    const before = page(200, 200, { x: 40, y: 40, side: 60 });
    expect(similarity(before, before)).toBe(1);
    const nudged = similarity(before, page(200, 200, { x: 42, y: 40, side: 60 }));
    const moved = similarity(before, page(200, 200, { x: 100, y: 100, side: 60 }));
    expect(nudged).toBeLessThan(1);
    expect(moved).toBeLessThan(nudged);
    expect(moved).toBeLessThan(0.9);
  });

  it('takes a resampled page for the same only where the redrawn one is the same', () => {
    const before = page(200, 200, { x: 40, y: 40, side: 60 });
    expect(resampledSimilarity(before, before)).toBe(1);
    expect(resampledSimilarity(before, page(200, 200))).toBeLessThan(0.9);
    expect(resampledSimilarity(before, page(200, 200, { x: 100, y: 100, side: 60 }))).toBeLessThan(0.9);
    expect(resampledSimilarity(page(200, 200), page(200, 201))).toBe(0);
    expect(worstPageSimilarity([before], [page(200, 200)], resampledSimilarity)).toBe(resampledSimilarity(before, page(200, 200)));
  });

  it('scores pages of different sizes 0, and a page only one side could draw 0', () => {
    expect(similarity(page(200, 200), page(200, 201))).toBe(0);
    expect(worstPageSimilarity([page(50, 50), null], [page(50, 50), null])).toBe(1);
    expect(worstPageSimilarity([page(50, 50)], [null])).toBe(0);
  });

  it('reads a binary PGM and refuses a short one', () => {
    const pgm = Buffer.concat([Buffer.from('P5\n3 2\n255\n'), Buffer.from([0, 1, 2, 3, 4, 5])]);
    expect(parsePgm(pgm)).toEqual({ width: 3, height: 2, pixels: Buffer.from([0, 1, 2, 3, 4, 5]) });
    expect(parsePgm(pgm.subarray(0, pgm.length - 1))).toBeNull();
    expect(parsePgm(Buffer.from('P6\n3 2\n255\n'))).toBeNull();
  });

  it('compares every page of a short document and pages spread over a long one', () => {
    expect(comparedPages(3)).toEqual([1, 2, 3]);
    const spread = comparedPages(1000);
    expect(spread).toHaveLength(MAX_COMPARED_PAGES);
    expect(spread[0]).toBe(1);
    expect(spread.at(-1)).toBe(1000);
    expect(new Set(spread).size).toBe(MAX_COMPARED_PAGES);
  });
});
