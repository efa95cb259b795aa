// From what MuPDF reads off the pages (RawPage) to the document model: reading order, paragraphs
// (lines joined, hyphenation undone), headings by text size, list items by their markers, tables
// from ruled grids (rules.ts, with the cells their rules merge) and those MuPDF's table hunt finds, images in place. Pure functions: unit tested on their own.
import type {
  Block,
  Box,
  CellSpan,
  DocModel,
  DocPage,
  ListItem,
  PlacedText,
  RawBlock,
  RawImage,
  RawLine,
  RawPage,
  RawSpan,
  RawTable,
  Run,
} from './model.js';
import { runsText, spanLookup } from './model.js';
import { cellAreas, ruledGrids, type CellArea } from './rules.js';

/** Text this much larger than the body (and short) is a heading. */
const HEADING_RATIO = 1.15;
const HEADING_MAX_CHARS = 150;
/** An image over this share of a page with plenty of text is its background (or the scan under an OCR layer). */
const BACKGROUND_SHARE = 0.8;
const BACKGROUND_MIN_CHARS = 200;

const width = (b: Box) => b[2] - b[0];
const height = (b: Box) => b[3] - b[1];
const union = (boxes: Box[]): Box => [
  Math.min(...boxes.map((b) => b[0])),
  Math.min(...boxes.map((b) => b[1])),
  Math.max(...boxes.map((b) => b[2])),
  Math.max(...boxes.map((b) => b[3])),
];
const center = (b: Box): [number, number] => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2];
const inside = ([x, y]: [number, number], b: Box, slack = 2) =>
  x >= b[0] - slack && x <= b[2] + slack && y >= b[1] - slack && y <= b[3] + slack;

const allSpans = (pages: RawPage[]) => pages.flatMap((p) => p.blocks.flatMap((b) => b.lines.flatMap((l) => l.spans)));

/** The size most of the text is set in (by characters), the body text's. */
export function bodySizeOf(pages: RawPage[]): number {
  const weight = new Map<number, number>();
  for (const s of allSpans(pages)) weight.set(s.size, (weight.get(s.size) ?? 0) + s.text.trim().length);
  let best = 0;
  let size = 11;
  for (const [s, w] of weight) if (w > best) [best, size] = [w, s];
  return size;
}

/** Whether most characters are set in a serif face. */
export function bodySerifOf(pages: RawPage[]): boolean {
  let serif = 0;
  let sans = 0;
  for (const s of allSpans(pages)) {
    if (s.mono) continue;
    if (s.serif) serif += s.text.length;
    else sans += s.text.length;
  }
  return serif >= sans;
}

// ---------------------------------------------------------------------------------------------
// Reading order: recursive XY-cut. Items are split where a band of empty space crosses the whole
// set: into columns when each is wide, else in two at the widest gap between rows (so a heading
// over two columns comes first), else into narrow columns; each part is ordered the same way. Overlapping items fall back
// to top to bottom, left to right.

function cut<T>(items: T[], box: (t: T) => Box, axis: 0 | 1): T[][] {
  const sorted = [...items].sort((a, b) => box(a)[axis] - box(b)[axis]);
  const groups: T[][] = [];
  let end = -Infinity;
  for (const item of sorted) {
    const b = box(item);
    // A point of overlap is tolerated: boxes of adjacent lines often touch.
    if (groups.length && b[axis] < end - 1) {
      groups.at(-1)!.push(item);
      end = Math.max(end, b[axis + 2]!);
    } else {
      groups.push([item]);
      end = b[axis + 2]!;
    }
  }
  return groups;
}

export function readingOrder<T>(items: T[], box: (t: T) => Box): T[] {
  if (items.length <= 1) return items;
  // Columns come first where each is a real column (a quarter of the width or more): paragraphs of
  // two columns that happen to line up must not be read across. Narrow ones (a form's labels) are
  // read row by row.
  const columns = cut(items, box, 0);
  const span = Math.max(...items.map((i) => box(i)[2])) - Math.min(...items.map((i) => box(i)[0]));
  const wide = (g: T[]) => Math.max(...g.map((i) => box(i)[2])) - Math.min(...g.map((i) => box(i)[0])) >= span / 4;
  if (columns.length > 1 && columns.every(wide)) return columns.flatMap((g) => readingOrder(g, box));
  // Rows are split at the widest gap only: below a heading, columns may still follow.
  const rows = cut(items, box, 1);
  if (rows.length > 1) {
    const bottom = (g: T[]) => Math.max(...g.map((i) => box(i)[3]));
    const top = (g: T[]) => Math.min(...g.map((i) => box(i)[1]));
    let at = 1;
    for (let i = 2; i < rows.length; i++) if (top(rows[i]!) - bottom(rows[i - 1]!) > top(rows[at]!) - bottom(rows[at - 1]!)) at = i;
    return [...readingOrder(rows.slice(0, at).flat(), box), ...readingOrder(rows.slice(at).flat(), box)];
  }
  if (columns.length > 1) return columns.flatMap((g) => readingOrder(g, box));
  return [...items].sort((a, b) => box(a)[1] - box(b)[1] || box(a)[0] - box(b)[0]);
}

// ---------------------------------------------------------------------------------------------
// Lines to rows (one baseline) to paragraphs.

interface Row {
  spans: RawSpan[];
  lines: RawLine[];
  box: Box;
  baseline: number;
  size: number;
}

const text = (spans: RawSpan[]) => spans.map((s) => s.text).join('');

function dominantSize(spans: RawSpan[]): number {
  const weight = new Map<number, number>();
  for (const s of spans) weight.set(s.size, (weight.get(s.size) ?? 0) + s.text.length);
  return [...weight].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
}

/** Lines on one baseline become one row, left to right, a space between them. */
export function rowsOf(lines: RawLine[]): Row[] {
  const rows: Row[] = [];
  for (const line of [...lines].sort((a, b) => a.baseline - b.baseline || a.bbox[0] - b.bbox[0])) {
    const size = dominantSize(line.spans) || height(line.bbox);
    const row = line.sideways
      ? undefined
      : [...rows].reverse().find((r) => !r.lines[0]!.sideways && Math.abs(r.baseline - line.baseline) < 0.4 * Math.max(size, r.size));
    if (row) row.lines.push(line);
    else rows.push({ spans: [], lines: [line], box: line.bbox, baseline: line.baseline, size });
  }
  for (const row of rows) {
    row.lines.sort((a, b) => a.bbox[0] - b.bbox[0]);
    for (const line of row.lines) {
      const prev = row.spans.at(-1);
      if (prev && !/\s$/.test(prev.text) && !/^\s/.test(line.spans[0]!.text))
        row.spans.push({ ...prev, text: ' ', x0: prev.x1, x1: line.bbox[0] });
      row.spans.push(...line.spans);
    }
    row.box = union(row.lines.map((l) => l.bbox));
    row.size = dominantSize(row.spans);
  }
  return rows;
}

const BULLET = /^\s*([•●○◦▪▫■□◆◇►▸‣⁃∙·\u2043\uf0b7\uf0a7\uf076\uf0d8\uf0fc\uf0a8]|[-–—*](?=\s))\s*/u;
const NUMBER = /^\s*\(?(\d{1,3}|[a-zA-Z]|[ivxlcIVXLC]{1,5})[.)](?=\s)\s*/;

const ROMAN: Record<string, number> = { i: 1, v: 5, x: 10, l: 50, c: 100 };

/** The value of a list number: 12, b (2), iv (4). A lone i, v, x… counts as a letter. */
export function markerValue(label: string): number {
  if (/^\d+$/.test(label)) return Number(label);
  if (label.length === 1) return label.toLowerCase().charCodeAt(0) - 96;
  const digits = [...label.toLowerCase()].map((c) => ROMAN[c]!);
  return digits.reduce((sum, d, i) => sum + (d < (digits[i + 1] ?? 0) ? -d : d), 0);
}

/** The list marker a row starts with, if any: its length in characters, whether it numbers, and its number. */
export function listMarker(s: string): { length: number; ordered: boolean; value?: number } | null {
  const bullet = BULLET.exec(s);
  if (bullet && s.length > bullet[0].length) return { length: bullet[0].length, ordered: false };
  const number = NUMBER.exec(s);
  if (number && s.length > number[0].length) return { length: number[0].length, ordered: true, value: markerValue(number[1]!) };
  return null;
}

interface Para {
  rows: Row[];
  marker: ReturnType<typeof listMarker>;
}

/** Splits a block's rows into paragraphs: at list markers, wide gaps, size changes, short sentence-ending lines, first-line indents. */
export function paragraphsOf(rows: Row[]): Para[] {
  if (!rows.length) return [];
  const steps = rows
    .slice(1)
    .map((r, i) => r.baseline - rows[i]!.baseline)
    .sort((a, b) => a - b);
  const step = steps[Math.floor(steps.length / 2)] ?? 0;
  const left = Math.min(...rows.map((r) => r.box[0]));
  const right = Math.max(...rows.map((r) => r.box[2]));
  const paras: Para[] = [];
  for (const [i, row] of rows.entries()) {
    const marker = listMarker(text(row.spans));
    const prev = rows[i - 1];
    const para = paras.at(-1);
    let fresh = !prev || !para || !!marker || row.lines[0]!.sideways || prev.lines[0]!.sideways;
    if (!fresh && prev && para) {
      const size = Math.max(row.size, prev.size);
      const gap = row.baseline - prev.baseline;
      const prevText = text(prev.spans).trimEnd();
      const allBold = (r: Row) => r.spans.every((s) => s.bold || !s.text.trim());
      fresh =
        (gap > 1.3 * step && gap > 1.5 * size) ||
        gap > 2.2 * size ||
        Math.abs(row.size - prev.size) > 1 ||
        (allBold(prev) && !allBold(row)) ||
        (prev.box[2] < right - Math.max(3 * size, 0.15 * (right - left)) && /[.!?:;"”»)]$/.test(prevText)) ||
        // A first-line indent opens a paragraph; a list item's wrapped lines are indented past its marker, not a new one.
        (!para.marker && row.box[0] > left + 1.2 * size && prev.box[0] < left + 0.5 * size && i > 1);
    }
    if (fresh) paras.push({ rows: [row], marker });
    else para!.rows.push(row);
  }
  return paras;
}

/** Spans of a paragraph's rows as runs: rows joined by a space, or by nothing where a word was hyphenated across them. */
export function runsOf(rows: Row[], skip = 0): Run[] {
  const runs: Run[] = [];
  const push = (s: RawSpan, t: string) => {
    if (!t) return;
    const last = runs.at(-1);
    const style: Omit<Run, 'text'> = {
      ...(s.bold && { bold: true }),
      ...(s.italic && { italic: true }),
      ...(s.mono && { mono: true }),
      ...(s.serif && { serif: true }),
      ...(s.color !== '000000' && { color: s.color }),
      size: s.size,
    };
    if (
      last &&
      last.size === style.size &&
      last.color === style.color &&
      (['bold', 'italic', 'mono', 'serif'] as const).every((k) => !!last[k] === !!style[k])
    )
      last.text += t;
    else runs.push({ text: t, ...style });
  };
  for (const [i, row] of rows.entries()) {
    let toSkip = i === 0 ? skip : 0;
    for (const s of row.spans) {
      let t = s.text.replace(/\s+/g, ' ');
      if (toSkip > 0) {
        const n = Math.min(toSkip, s.text.length);
        t = s.text.slice(n).replace(/\s+/g, ' ');
        toSkip -= n;
      }
      push(s, t);
    }
    const last = runs.at(-1);
    if (!last || i === rows.length - 1) continue;
    last.text = last.text.trimEnd();
    const next = text(rows[i + 1]!.spans).trimStart();
    if (/\p{L}[-\u00ad]$/u.test(last.text) && /^\p{Ll}/u.test(next)) last.text = last.text.slice(0, -1);
    else if (last.text.endsWith('\u00ad')) last.text = last.text.slice(0, -1);
    else last.text += ' ';
  }
  // Leading and trailing spaces of the whole paragraph go; an emptied run goes with them.
  if (runs[0]) runs[0].text = runs[0].text.trimStart();
  if (runs.at(-1)) runs.at(-1)!.text = runs.at(-1)!.text.trimEnd();
  return runs.filter((r) => r.text);
}

// ---------------------------------------------------------------------------------------------
// Tables.

interface Table {
  box: Box;
  rows: Run[][][][];
  spans: CellSpan[];
  lines: Set<RawLine>;
}

const indexIn = (edges: number[], v: number) => {
  for (let i = 0; i < edges.length - 1; i++) if (v < edges[i + 1]!) return i;
  return edges.length - 2;
};

const overlaps = (a: Box, b: Box) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
/** A cell holding nothing but a list marker: MuPDF's table hunt takes a list's markers and texts for two columns. */
const MARKER_ONLY = /^\s*([•●○◦▪▫■□◆◇►▸‣⁃∙·\uf0b7\uf0a7\uf076\uf0d8\uf0fc\uf0a8*–—-]|\(?(\d{1,3}|[a-zA-Z]|[ivxlcIVXLC]{1,5})[.)])\s*$/u;

/**
 * The table a grid makes of the lines inside it, or null when it does not look like one. A grid
 * drawn with rules (lines or cell rectangles) needs two rows with two cells of text; one found in
 * aligned text alone needs three rows and most cells filled. A column of bare list markers is a list.
 */
export function tableOf(grid: RawTable, lines: RawLine[], rules: Box[]): Table | null {
  const box: Box = [grid.xs[0]!, grid.ys[0]!, grid.xs.at(-1)!, grid.ys.at(-1)!];
  const taken = lines.filter((l) => !l.sideways && inside(center(l.bbox), box));
  if (!taken.length) return null;
  const at = taken.map((l): [number, number] => [indexIn(grid.ys, center(l.bbox)[1]), indexIn(grid.xs, l.bbox[0] + 1)]);
  const within = (a: CellArea, [r, c]: [number, number]) => r >= a.r0 && r <= a.r1 && c >= a.c0 && c <= a.c1;
  // A merged cell's text starts in one grid cell: text starting in several is rows or columns the
  // rules leave undivided (a form's numbered lines, labels on one header bar), so they stay cells.
  const areas = cellAreas(grid, rules).flatMap((a) => {
    if (new Set(at.filter((p) => within(a, p)).map(String)).size < 2) return [a];
    const cells: CellArea[] = [];
    for (let r = a.r0; r <= a.r1; r++) for (let c = a.c0; c <= a.c1; c++) cells.push({ r0: r, c0: c, r1: r, c1: c });
    return cells;
  });
  // A line goes to the first grid cell of the (merged) cell it is in.
  const cells = new Map<string, RawLine[]>();
  taken.forEach((l, i) => {
    const area = areas.find((a) => within(a, at[i]!))!;
    const key = `${area.r0},${area.c0}`;
    cells.set(key, [...(cells.get(key) ?? []), l]);
  });
  // Rows and columns without any text are artefacts of merged cells or rules; neighbouring columns
  // never both holding text in a row are one column split by a merged cell above or below.
  const usedRows = [...new Set([...cells.keys()].map((k) => Number(k.split(',')[0])))].sort((a, b) => a - b);
  const columns = [...new Set([...cells.keys()].map((k) => Number(k.split(',')[1])))].sort((a, b) => a - b).map((c) => [c]);
  const filled = (r: number, group: number[]) => group.some((c) => cells.has(`${r},${c}`));
  for (let i = columns.length - 1; i > 0 && columns.length > 2; i--) {
    if (!usedRows.some((r) => filled(r, columns[i - 1]!) && filled(r, columns[i]!)))
      columns.splice(i - 1, 2, [...columns[i - 1]!, ...columns[i]!]);
  }
  const cellLines = (r: number, group: number[]) => group.flatMap((c) => cells.get(`${r},${c}`) ?? []);
  const rows = usedRows.map((r) => columns.map((group) => paragraphsOf(rowsOf(cellLines(r, group))).map((p) => runsOf(p.rows))));
  const texts = rows.map((row) => row.map((cell) => cell.map(runsText).join(' ')));
  const fullRows = texts.filter((row) => row.filter(Boolean).length >= 2).length;
  if (columns.length < 2 || fullRows < 2) return null;
  const markers = (c: number) => texts.filter((row) => row[c] && MARKER_ONLY.test(row[c])).length;
  if (columns.some((_, c) => markers(c) * 2 >= texts.filter((row) => row[c]).length)) return null;
  const ruled = rules.filter((r) => overlaps(r, box)).length >= 2;
  const share = texts.flat().filter(Boolean).length / (rows.length * columns.length);
  if (!ruled && (rows.length < 3 || share < 0.6 || runsOn(texts))) return null;
  return { box, rows, spans: spansOf(areas, usedRows, columns, texts), lines: new Set(taken) };
}

/**
 * Merged cells of the grid on the table's kept rows and column groups. A span is kept only where
 * it still covers more than one cell, overlaps no other, and the cells it covers hold no text.
 */
function spansOf(areas: CellArea[], usedRows: number[], columns: number[][], texts: string[][]): CellSpan[] {
  const spans: CellSpan[] = [];
  for (const a of areas) {
    const rows = usedRows.flatMap((r, i) => (r >= a.r0 && r <= a.r1 ? [i] : []));
    const cols = columns.flatMap((group, g) => (group.some((c) => c >= a.c0 && c <= a.c1) ? [g] : []));
    if (!rows.length || !cols.length || rows.length * cols.length < 2) continue;
    const span: CellSpan = { row: rows[0]!, col: cols[0]!, rowSpan: rows.length, colSpan: cols.length };
    const taken = spanLookup(spans);
    let free = true;
    for (const r of rows) for (const c of cols) if (taken(r, c) || ((r !== span.row || c !== span.col) && texts[r]![c])) free = false;
    if (free) spans.push(span);
  }
  return spans;
}

// ---------------------------------------------------------------------------------------------
// Pages.

type Item =
  | { kind: 'text'; box: Box; block: RawBlock }
  | { kind: 'table'; box: Box; table: Table }
  | { kind: 'image'; box: Box; image: RawImage };

interface Piece {
  block: Block;
  /** For list items: their indent and marker kind, to group them into lists. */
  item?: { x: number; ordered: boolean; value?: number };
}

/** The sizes headings come in across the document, largest first: their level is their rank (3 at most). */
export function headingSizes(pages: RawPage[], bodySize: number): number[] {
  const sizes = new Set<number>();
  for (const s of allSpans(pages)) if (s.size >= bodySize * HEADING_RATIO && s.text.trim()) sizes.add(s.size);
  return [...sizes].sort((a, b) => b - a);
}

function piecesOf(block: RawBlock, bodySize: number, headingLevels: number[]): Piece[] {
  return paragraphsOf(rowsOf(block.lines)).map((p): Piece => {
    if (p.marker) {
      return {
        block: { kind: 'paragraph', runs: runsOf(p.rows, p.marker.length) },
        item: { x: p.rows[0]!.box[0], ordered: p.marker.ordered, ...(p.marker.value !== undefined && { value: p.marker.value }) },
      };
    }
    const runs = runsOf(p.rows);
    const all = runsText(runs);
    const size = dominantSize(p.rows.flatMap((r) => r.spans));
    if (size >= bodySize * HEADING_RATIO && all.length <= HEADING_MAX_CHARS && p.rows.length <= 3 && /\p{L}/u.test(all)) {
      const rank = headingLevels.indexOf(size);
      const level = Math.min(3, Math.max(1, rank + 1)) as 1 | 2 | 3;
      return { block: { kind: 'heading', level, runs } };
    }
    return { block: { kind: 'paragraph', runs } };
  });
}

/**
 * A paragraph cut by the end of a column goes on in the next block: where the piece before ends
 * mid-sentence (a hyphenated word, or no closing punctuation) and the block's first paragraph
 * starts with a small letter in the same size, the two are one paragraph. Returns the block's
 * pieces left to add.
 */
function continueParagraph(before: Piece | undefined, next: Piece[]): Piece[] {
  const [first, ...rest] = next;
  const prev = before?.block;
  if (!first || prev?.kind !== 'paragraph' || first.block.kind !== 'paragraph' || first.item || before!.item) return next;
  const last = prev.runs.at(-1);
  const start = first.block.runs[0];
  if (!last || !start || last.size !== start.size || !/^\p{Ll}/u.test(start.text)) return next;
  if (/\p{L}-$/u.test(last.text)) last.text = last.text.slice(0, -1);
  else if (/[.!?:;…"”»)\]]$/.test(last.text)) return next;
  else last.text += ' ';
  prev.runs.push(...first.block.runs);
  return rest;
}

/**
 * Consecutive list items become one list; each item's level is the rank of its indent among the
 * list's. A numbered list's outer items must count on by one: where the numbers start again or
 * jump, a new list starts there, with that number (so Word numbers them as the PDF did).
 */
function groupLists(pieces: Piece[]): Block[] {
  const blocks: Block[] = [];
  let list: { ordered: boolean; start: number; last: number; x: number; items: (ListItem & { x: number })[] } | null = null;
  const close = () => {
    if (!list) return;
    // Each indent (within 4 points) is one level deeper than the one before it.
    const indents: number[] = [];
    for (const x of list.items.map((i) => i.x).sort((a, b) => a - b)) if (!indents.length || x - indents.at(-1)! > 4) indents.push(x);
    const levelOf = (x: number) => Math.min(2, indents.filter((i) => x >= i - 4).length - 1);
    const items = list.items.map((i) => ({ runs: i.runs, level: Math.max(0, levelOf(i.x)) }));
    blocks.push({ kind: 'list', ordered: list.ordered, ...(list.ordered && list.start !== 1 && { start: list.start }), items });
    list = null;
  };
  for (const piece of pieces) {
    const item = piece.item;
    if (!item || piece.block.kind !== 'paragraph') {
      close();
      blocks.push(piece.block);
      continue;
    }
    // A nested list of the other kind stays in its parent list (levels come from the indent).
    const outer = list && item.x <= Math.min(list.x, ...list.items.map((i) => i.x)) + 2;
    if (list && outer && (list.ordered !== item.ordered || (item.ordered && item.value !== list.last + 1))) close();
    list ??= { ordered: item.ordered, start: item.value ?? 1, last: (item.value ?? 1) - 1, x: item.x, items: [] };
    if (!list.items.length || outer) list.last = item.value ?? list.last + 1;
    list.items.push({ runs: piece.block.runs, level: 0, x: item.x });
  }
  close();
  return blocks;
}

/**
 * Whether a column's text runs on from one row into the next (a cell ending mid-sentence, the one
 * below going on in small letters): columns of running text side by side, not a table's cells.
 */
function runsOn(texts: string[][]): boolean {
  return texts.some((row, r) => row.some((cell, c) => /[^.!?:;]$/.test(cell) && /^\p{Ll}/u.test(texts[r + 1]?.[c] ?? '')));
}

/**
 * A grid of MuPDF's table hunt without its rows of running text: a row where a line of text runs
 * across a column boundary over half the grid's width is prose the hunt took in (a paragraph
 * above a form's fields, a body of text beside a short second column), not a row of cells; a
 * short label over two columns is a merged cell. The grid is cut at prose; each run of rows left
 * is a grid of its own, judged as a table by tableOf.
 */
export function withoutProseRows(grid: RawTable, lines: RawLine[]): RawTable[] {
  const inner = grid.xs.slice(1, -1);
  const box: Box = [grid.xs[0]!, grid.ys[0]!, grid.xs.at(-1)!, grid.ys.at(-1)!];
  const across = (l: RawLine) => width(l.bbox) > width(box) / 2 && inner.some((x) => l.bbox[0] < x - 2 && l.bbox[2] > x + 2);
  const prose = new Set(
    lines.filter((l) => !l.sideways && inside(center(l.bbox), box) && across(l)).map((l) => indexIn(grid.ys, center(l.bbox)[1])),
  );
  const parts: RawTable[] = [];
  let start = 0;
  for (let row = 0; row <= grid.ys.length - 1; row++) {
    if (row < grid.ys.length - 1 && !prose.has(row)) continue;
    if (row > start) parts.push({ xs: grid.xs, ys: grid.ys.slice(start, row + 1) });
    start = row + 1;
  }
  return parts;
}

export function analyzePage(page: RawPage, bodySize: number, headingLevels: number[]): DocPage {
  const allLines = page.blocks.flatMap((b) => b.lines);
  const tables: Table[] = [];
  // Grids drawn with rules first, then those MuPDF's table hunt found elsewhere.
  for (const grid of [...ruledGrids(page.rules, allLines), ...page.tables.flatMap((g) => withoutProseRows(g, allLines))]) {
    const box: Box = [grid.xs[0]!, grid.ys[0]!, grid.xs.at(-1)!, grid.ys.at(-1)!];
    if (tables.some((t) => overlaps(t.box, box))) continue;
    const table = tableOf(grid, allLines, page.rules);
    if (table) tables.push(table);
  }
  const inTable = (l: RawLine) => tables.some((t) => t.lines.has(l));
  const items: Item[] = [];
  for (const block of page.blocks) {
    const lines = block.lines.filter((l) => !inTable(l));
    if (lines.length)
      items.push({ kind: 'text', box: union(lines.map((l) => l.bbox)), block: { bbox: union(lines.map((l) => l.bbox)), lines } });
  }
  for (const table of tables) items.push({ kind: 'table', box: table.box, table });
  const chars = allLines.reduce((n, l) => n + text(l.spans).trim().length, 0);
  for (const image of page.images) {
    const background =
      width(image.bbox) * height(image.bbox) > BACKGROUND_SHARE * page.width * page.height && chars >= BACKGROUND_MIN_CHARS;
    if (!background) items.push({ kind: 'image', box: image.bbox, image });
  }
  const pieces: Piece[] = [];
  for (const item of readingOrder(items, (i) => i.box)) {
    if (item.kind === 'text') pieces.push(...continueParagraph(pieces.at(-1), piecesOf(item.block, bodySize, headingLevels)));
    else if (item.kind === 'table')
      pieces.push({ block: { kind: 'table', rows: item.table.rows, ...(item.table.spans.length && { spans: item.table.spans }) } });
    else {
      const { image } = item;
      pieces.push({
        block: {
          kind: 'image',
          file: image.file,
          mime: image.mime,
          width: width(image.bbox),
          height: height(image.bbox),
          pixels: image.pixels,
        },
      });
    }
  }
  const lines: PlacedText[][] = rowsOf(allLines.filter((l) => !inTable(l))).map((r) =>
    r.lines.map((l) => ({ x: l.bbox[0], text: text(l.spans).trim() })).filter((c) => c.text),
  );
  return { width: page.width, height: page.height, blocks: groupLists(pieces), lines: lines.filter((l) => l.length) };
}

export function analyze(pages: RawPage[], imagesDir: string): DocModel {
  const bodySize = bodySizeOf(pages);
  const levels = headingSizes(pages, bodySize);
  return { pages: pages.map((p) => analyzePage(p, bodySize, levels)), bodySize, bodySerif: bodySerifOf(pages), imagesDir };
}
