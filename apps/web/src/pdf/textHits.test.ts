import { describe, expect, it } from 'vitest';
import { joinItems, textHits, type ShownPage, type TextItemLike } from './textHits';

/** An upright A4 page: pdf.js's viewport flips y. */
const upright: ShownPage = { toShown: (x, y) => [x, 842 - y], width: 595, height: 842 };
/** The same page turned 90° clockwise: shown 842 wide, 595 high. */
const turned: ShownPage = { toShown: (x, y) => [842 - y, 595 - x], width: 842, height: 595 };

/** A line of 10-point text at (x, y), 5 points per character. */
const item = (str: string, x: number, y: number, hasEOL = false): TextItemLike => ({
  str,
  transform: [10, 0, 0, 10, x, y],
  width: str.length * 5,
  height: 10,
  hasEOL,
});

describe('text hits for the preview', () => {
  it('joins items, with a line break where pdf.js sees one', () => {
    expect(joinItems([item('Hello ', 0, 0), item('world', 30, 0, true), item('next', 0, -12)]).text).toBe('Hello world\nnext');
  });

  it('boxes a hit inside one item, from the bottom left of the page as shown', () => {
    const [hit] = textHits([item('Call Zanzibar now', 100, 700)], upright, [{ text: 'zanzibar', ignoreCase: true }]);
    expect(hit!.term).toBe(0);
    expect(hit!.rects).toHaveLength(1);
    const r = hit!.rects[0]!;
    expect(r.x).toBeCloseTo(125);
    expect(r.width).toBeCloseTo(40);
    // A quarter em below the baseline to 0.9 em above it.
    expect(r.y).toBeCloseTo(697.5);
    expect(r.height).toBeCloseTo(11.5);
  });

  it('boxes a phrase that runs across items and lines once per item, and tells the searches apart', () => {
    const items = [item('John', 72, 700, true), item('Smith and 555-1234', 72, 688)];
    const hits = textHits(items, upright, [
      { text: 'john smith', ignoreCase: true },
      { text: '\\d{3}-\\d{4}', regex: true, ignoreCase: false },
    ]);
    expect(hits.map((h) => [h.term, h.rects.length])).toEqual([
      [0, 2],
      [1, 1],
    ]);
  });

  it('follows the page rotation', () => {
    const [hit] = textHits([item('abc', 100, 500)], turned, [{ text: 'b', ignoreCase: false }]);
    const r = hit!.rects[0]!;
    // Text that ran left to right now runs top to bottom: the box is tall and narrow.
    expect(r.width).toBeCloseTo(11.5);
    expect(r.height).toBeCloseTo(5);
    expect(r.x).toBeCloseTo(842 - 509);
    // Down from the shown top at 595 - 110 .. 595 - 105: from the bottom, 105 up.
    expect(r.y).toBeCloseTo(105);
  });
});
