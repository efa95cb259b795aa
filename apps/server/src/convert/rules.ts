// Tables drawn with rules: MuPDF's table hunt misses many simple ruled tables (it segments them
// into columns instead), so the grids are also read from the page's lines and rectangles. Rules
// that touch form one figure; its distinct horizontal and vertical rules are the grid's row and
// column boundaries. A table ruled only across (rows) gets its columns from where its text leaves
// gaps, and one ruled only down (columns) its rows from its lines of text.
import type { Box, RawLine, RawTable } from './model.js';

/** Thinner than this (points) is a rule; a longer side than MIN_LENGTH makes it more than a dot. */
const THIN = 3;
const MIN_LENGTH = 8;
/** Rules this close are one boundary; figures this close touch. */
const SNAP = 2;
/** Pages with more vector pieces are drawings, not tables. */
const MAX_SEGMENTS = 3000;
/** Rules across further apart than this are not rows of one table. */
const MAX_ROW_GAP = 60;

/** Values within SNAP of the previous one are one value (their mean). */
export function cluster(values: number[]): number[] {
  const out: number[][] = [];
  for (const v of [...values].sort((a, b) => a - b)) {
    const last = out.at(-1);
    if (last && v - last.at(-1)! <= SNAP) last.push(v);
    else out.push([v]);
  }
  return out.map((g) => g.reduce((s, v) => s + v, 0) / g.length);
}

const grow = (b: Box, d: number): Box => [b[0] - d, b[1] - d, b[2] + d, b[3] + d];
const touch = (a: Box, b: Box) => a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];

/** Splits of [from, to] where no interval covers: the middles of the free gaps between intervals. */
function gaps(intervals: [number, number][], from: number, to: number, minGap: number): number[] {
  const cuts: number[] = [];
  let end = from;
  for (const [a, b] of [...intervals].sort((x, y) => x[0] - y[0])) {
    if (a - end >= minGap && end > from) cuts.push((a + end) / 2);
    end = Math.max(end, b);
  }
  return cuts.filter((c) => c > from && c < to);
}

export function ruledGrids(rules: Box[], lines: RawLine[]): RawTable[] {
  const horizontal: Box[] = [];
  const vertical: Box[] = [];
  for (const r of rules) {
    const w = r[2] - r[0];
    const h = r[3] - r[1];
    if (h <= THIN && w >= MIN_LENGTH) horizontal.push(r);
    else if (w <= THIN && h >= MIN_LENGTH) vertical.push(r);
    else if (w >= MIN_LENGTH && h >= MIN_LENGTH) {
      // A cell's rectangle (border or shading) gives its four edges.
      horizontal.push([r[0], r[1], r[2], r[1]], [r[0], r[3], r[2], r[3]]);
      vertical.push([r[0], r[1], r[0], r[3]], [r[2], r[1], r[2], r[3]]);
    }
  }
  const segments = [...horizontal.map((b) => ({ b, across: true })), ...vertical.map((b) => ({ b, across: false }))];
  if (segments.length < 3 || segments.length > MAX_SEGMENTS) return [];
  // Touching rules are one figure (union-find).
  const parent = segments.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  // Rules across of the same length, one under the other, are one figure too: tables ruled only
  // between rows (no verticals) draw nothing that touches.
  const stacked = (a: Box, b: Box) => Math.abs(a[0] - b[0]) <= 2 * SNAP && Math.abs(a[2] - b[2]) <= 2 * SNAP && Math.abs(a[1] - b[1]) <= MAX_ROW_GAP;
  for (let i = 0; i < segments.length; i++) {
    const a = grow(segments[i]!.b, SNAP);
    for (let j = i + 1; j < segments.length; j++) {
      const b = segments[j]!;
      if (touch(a, b.b) || (segments[i]!.across && b.across && stacked(segments[i]!.b, b.b))) parent[root(i)] = root(j);
    }
  }
  const figures = new Map<number, typeof segments>();
  segments.forEach((s, i) => figures.set(root(i), [...(figures.get(root(i)) ?? []), s]));
  const grids: RawTable[] = [];
  for (const figure of figures.values()) {
    const box: Box = [Math.min(...figure.map((s) => s.b[0])), Math.min(...figure.map((s) => s.b[1])), Math.max(...figure.map((s) => s.b[2])), Math.max(...figure.map((s) => s.b[3]))];
    if (box[2] - box[0] < 20 || box[3] - box[1] < 10) continue;
    const rowRules = cluster(figure.filter((s) => s.across).map((s) => (s.b[1] + s.b[3]) / 2));
    const colRules = cluster(figure.filter((s) => !s.across).map((s) => (s.b[0] + s.b[2]) / 2));
    let ys = cluster([box[1], ...rowRules, box[3]]);
    let xs = cluster([box[0], ...colRules, box[2]]);
    const inside = lines.filter((l) => {
      const [cx, cy] = [(l.bbox[0] + l.bbox[2]) / 2, (l.bbox[1] + l.bbox[3]) / 2];
      return cx > box[0] && cx < box[2] && cy > box[1] && cy < box[3];
    });
    if (xs.length === 2 && rowRules.length >= 3) xs = cluster([...xs, ...gaps(inside.map((l) => [l.bbox[0], l.bbox[2]]), box[0], box[2], 6)]);
    if (ys.length === 2 && colRules.length >= 3) ys = cluster([...ys, ...gaps(inside.map((l) => [l.bbox[1], l.bbox[3]]), box[1], box[3], 1)]);
    if (xs.length >= 3 && ys.length >= 3) grids.push({ xs, ys });
  }
  return grids;
}
