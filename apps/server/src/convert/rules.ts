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

/** The page's rules across and down; a rectangle gives its four edges. */
function splitRules(rules: Box[]): { horizontal: Box[]; vertical: Box[] } {
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
  return { horizontal, vertical };
}

/** A rectangle of a grid's cells, rows r0 to r1 and columns c0 to c1 (inclusive). */
export interface CellArea {
  r0: number;
  c0: number;
  r1: number;
  c1: number;
}

/**
 * The grid's cells as the rules draw them: a boundary between two grid cells that no rule (or
 * cell rectangle's edge) runs along is inside one merged cell. A boundary with no rule on it
 * anywhere in the table came from gaps in the text (or MuPDF's table hunt) and always separates.
 * Cells grow right, then down, as long as no rule crosses them; every grid cell is in one area.
 */
export function cellAreas(grid: RawTable, rules: Box[]): CellArea[] {
  const { xs, ys } = grid;
  const { horizontal, vertical } = splitRules(rules);
  const near = (a: number, b: number) => Math.abs(a - b) <= 2 * SNAP;
  const mid = (b: Box, axis: 0 | 1) => (b[axis] + b[axis + 2]!) / 2;
  const down = xs.map((x) => vertical.filter((v) => near(mid(v, 0), x) && v[3] > ys[0]! && v[1] < ys.at(-1)!));
  const across = ys.map((y) => horizontal.filter((h) => near(mid(h, 1), y) && h[2] > xs[0]! && h[0] < xs.at(-1)!));
  /** Whether the boundary left of column c separates the cells of row r, and the one above row r those of column c. */
  const wallLeft = (r: number, c: number) =>
    !down[c]!.length || down[c]!.some((v) => v[1] <= (ys[r]! + ys[r + 1]!) / 2 && v[3] >= (ys[r]! + ys[r + 1]!) / 2);
  const wallAbove = (r: number, c: number) =>
    !across[r]!.length || across[r]!.some((h) => h[0] <= (xs[c]! + xs[c + 1]!) / 2 && h[2] >= (xs[c]! + xs[c + 1]!) / 2);
  const rows = ys.length - 1;
  const cols = xs.length - 1;
  const taken = Array.from({ length: rows }, () => Array<boolean>(cols).fill(false));
  const areas: CellArea[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      if (taken[r]![c]) continue;
      let c1 = c;
      while (c1 + 1 < cols && !taken[r]![c1 + 1] && !wallLeft(r, c1 + 1)) c1++;
      let r1 = r;
      const open = (row: number) => {
        for (let k = c; k <= c1; k++) if (taken[row]![k] || wallAbove(row, k) || (k > c && wallLeft(row, k))) return false;
        return true;
      };
      while (r1 + 1 < rows && open(r1 + 1)) r1++;
      for (let i = r; i <= r1; i++) for (let k = c; k <= c1; k++) taken[i]![k] = true;
      areas.push({ r0: r, c0: c, r1, c1 });
    }
  }
  return areas;
}

export function ruledGrids(rules: Box[], lines: RawLine[]): RawTable[] {
  const { horizontal, vertical } = splitRules(rules);
  const segments = [...horizontal.map((b) => ({ b, across: true })), ...vertical.map((b) => ({ b, across: false }))];
  if (segments.length < 3 || segments.length > MAX_SEGMENTS) return [];
  // Touching rules are one figure (union-find).
  const parent = segments.map((_, i) => i);
  const root = (i: number): number => {
    if (parent[i] !== i) parent[i] = root(parent[i]!);
    return parent[i]!;
  };
  // Rules across of the same length, one under the other, are one figure too: tables ruled only
  // between rows (no verticals) draw nothing that touches.
  const stacked = (a: Box, b: Box) =>
    Math.abs(a[0] - b[0]) <= 2 * SNAP && Math.abs(a[2] - b[2]) <= 2 * SNAP && Math.abs(a[1] - b[1]) <= MAX_ROW_GAP;
  for (let i = 0; i < segments.length; i++) {
    const a = grow(segments[i]!.b, SNAP);
    for (let j = i + 1; j < segments.length; j++) {
      const b = segments[j]!;
      if (touch(a, b.b) || (segments[i]!.across && b.across && stacked(segments[i]!.b, b.b))) parent[root(i)] = root(j);
    }
  }
  const figures = new Map<number, typeof segments>();
  for (const [i, s] of segments.entries()) figures.set(root(i), [...(figures.get(root(i)) ?? []), s]);
  const grids: RawTable[] = [];
  for (const figure of figures.values()) {
    const box: Box = [
      Math.min(...figure.map((s) => s.b[0])),
      Math.min(...figure.map((s) => s.b[1])),
      Math.max(...figure.map((s) => s.b[2])),
      Math.max(...figure.map((s) => s.b[3])),
    ];
    if (box[2] - box[0] < 20 || box[3] - box[1] < 10) continue;
    const rowRules = cluster(figure.filter((s) => s.across).map((s) => (s.b[1] + s.b[3]) / 2));
    const colRules = cluster(figure.filter((s) => !s.across).map((s) => (s.b[0] + s.b[2]) / 2));
    let ys = cluster([box[1], ...rowRules, box[3]]);
    let xs = cluster([box[0], ...colRules, box[2]]);
    const inside = lines.filter((l) => {
      const [cx, cy] = [(l.bbox[0] + l.bbox[2]) / 2, (l.bbox[1] + l.bbox[3]) / 2];
      return cx > box[0] && cx < box[2] && cy > box[1] && cy < box[3];
    });
    if (xs.length === 2 && rowRules.length >= 3)
      xs = cluster([
        ...xs,
        ...gaps(
          inside.map((l) => [l.bbox[0], l.bbox[2]]),
          box[0],
          box[2],
          6,
        ),
      ]);
    if (ys.length === 2 && colRules.length >= 3)
      ys = cluster([
        ...ys,
        ...gaps(
          inside.map((l) => [l.bbox[1], l.bbox[3]]),
          box[1],
          box[3],
          1,
        ),
      ]);
    if (xs.length >= 3 && ys.length >= 3) grids.push({ xs, ys });
  }
  return grids;
}
