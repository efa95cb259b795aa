// Where searched text sits on a page, read from pdf.js text items, to preview what Redact and
// Replace text will mark. The search itself is the server's (@quire/contracts textSearch); the
// boxes are approximate (pdf.js gives an item's width, not each glyph's: a character's share of
// it is measured in a similar font), which is enough to show the hits: the server finds and
// removes the exact glyphs.
import { findHits, searchPattern, type SearchSpec } from '@quire/contracts';

/** The fields of a pdf.js TextItem this needs. */
export interface TextItemLike {
  str: string;
  /** Text matrix in the page's user space: [a, b, c, d, e, f], the font size folded in. */
  transform: number[];
  /** Advance width in user space. */
  width: number;
  /** Font height in user space. */
  height: number;
  hasEOL?: boolean;
  /** The generic family pdf.js reports for the item's font (serif, sans-serif, monospace). */
  fontFamily?: string;
}

/** The width of `text` in `fontFamily` in any unit: only ratios of it are used. */
export type Measure = (text: string, fontFamily: string) => number;

const byLength: Measure = (text) => text.length;

/** A rectangle in points, from the bottom left of the page as shown (CropBox, after /Rotate): the API's areas. */
export interface ShownRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ShownPage {
  /** A user-space point on the shown page, y down (pdf.js's viewport at scale 1). */
  toShown(x: number, y: number): [number, number];
  width: number;
  height: number;
}

interface PageText {
  text: string;
  /** For each UTF-16 unit of text: its item and offset, or null for an item break. */
  at: ({ item: number; offset: number } | null)[];
}

/** The page's text as one string: items joined as they come, a line break where pdf.js sees one. */
export function joinItems(items: readonly TextItemLike[]): PageText {
  const parts: string[] = [];
  const at: PageText['at'] = [];
  items.forEach((item, i) => {
    parts.push(item.str);
    for (let o = 0; o < item.str.length; o++) at.push({ item: i, offset: o });
    if (item.hasEOL) {
      parts.push('\n');
      at.push(null);
    }
  });
  return { text: parts.join(''), at };
}

/** The box of characters [from, to) of an item, from its baseline a quarter em down to the ascent. */
function segmentRect(item: TextItemLike, from: number, to: number, page: ShownPage, measure: Measure): ShownRect {
  const [a = 1, b = 0, c = 0, d = 1, e = 0, f = 0] = item.transform;
  const along = Math.hypot(a, b) || 1;
  const up = Math.hypot(c, d) || 1;
  const size = item.height || up;
  const family = item.fontFamily ?? 'sans-serif';
  const whole = measure(item.str, family) || 1;
  const [s0, s1] = [from, to].map((i) => (item.width * measure(item.str.slice(0, i), family)) / whole) as [number, number];
  const corners = [
    [s0, -0.25 * size],
    [s1, -0.25 * size],
    [s0, 0.9 * size],
    [s1, 0.9 * size],
  ].map(([s, t]) => page.toShown(e + (a / along) * s! + (c / up) * t!, f + (b / along) * s! + (d / up) * t!));
  const xs = corners.map((p) => p[0]);
  const ys = corners.map((p) => p[1]);
  const [x0, x1, top, bottom] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  return { x: x0, y: page.height - bottom, width: x1 - x0, height: bottom - top };
}

export interface TextHit {
  /** Index of the search that found it. */
  term: number;
  /** The boxes of the items it spans. */
  rects: ShownRect[];
}

/** Each hit of any of the searches, in the order of the searches. */
export function textHits(
  items: readonly TextItemLike[],
  page: ShownPage,
  searches: readonly SearchSpec[],
  measure: Measure = byLength,
): TextHit[] {
  if (!searches.length) return [];
  const joined = joinItems(items);
  const hits: TextHit[] = [];
  for (const [term, spec] of searches.entries()) {
    for (const hit of findHits(joined.text, searchPattern(spec))) {
      // Consecutive characters of one item make one box.
      const spans: { item: number; from: number; to: number }[] = [];
      for (const pos of joined.at.slice(hit.index, hit.index + hit.length)) {
        if (!pos) continue;
        const last = spans.at(-1);
        if (last && last.item === pos.item && last.to === pos.offset) last.to++;
        else spans.push({ item: pos.item, from: pos.offset, to: pos.offset + 1 });
      }
      if (spans.length) hits.push({ term, rects: spans.map((s) => segmentRect(items[s.item]!, s.from, s.to, page, measure)) });
    }
  }
  return hits;
}
