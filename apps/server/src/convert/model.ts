// The plain document model every PDF to document writer (docx, xlsx, html, rtf, txt, epub, pages) reads:
// made once per conversion from MuPDF's structured text (extract.ts) by analyze.ts.

/** [x0, y0, x1, y1] in points, origin at the top left of the page as shown. */
export type Box = [number, number, number, number];

// ---------------------------------------------------------------------------------------------
// What extraction reads from a page.

export interface RawSpan {
  text: string;
  size: number;
  bold: boolean;
  italic: boolean;
  mono: boolean;
  serif: boolean;
  /** RRGGBB. */
  color: string;
  /** Left and right edge of the span's characters. */
  x0: number;
  x1: number;
}

/** One MuPDF line: characters on one baseline without a wide gap. */
export interface RawLine {
  bbox: Box;
  baseline: number;
  /** Not written left to right (rotated or vertical text). */
  sideways: boolean;
  spans: RawSpan[];
}

export interface RawBlock {
  bbox: Box;
  lines: RawLine[];
}

export interface RawImage {
  bbox: Box;
  /** File name inside the images folder. */
  file: string;
  mime: ImageMime;
  /** Pixel size of the stored file. */
  pixels: [number, number];
}

/** A table MuPDF's table hunt found: the boundaries of its grid's columns and rows. */
export interface RawTable {
  xs: number[];
  ys: number[];
}

export interface RawPage {
  width: number;
  height: number;
  blocks: RawBlock[];
  images: RawImage[];
  tables: RawTable[];
  /** Boxes of the page's lines and rectangles (vector art): what tells a ruled table from aligned text. */
  rules: Box[];
}

// ---------------------------------------------------------------------------------------------
// The document model.

export type ImageMime = 'image/png' | 'image/jpeg';

export interface Run {
  text: string;
  bold?: boolean;
  italic?: boolean;
  mono?: boolean;
  /** A serif face (else sans serif, unless mono). */
  serif?: boolean;
  /** RRGGBB, where not black. */
  color?: string;
  /** Points. */
  size: number;
}

export interface ListItem {
  runs: Run[];
  /** Nesting, 0 to 2, from the item's indent. */
  level: number;
}

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3; runs: Run[] }
  | { kind: 'paragraph'; runs: Run[] }
  /** start: the first number of a numbered list, where it is not 1. */
  | { kind: 'list'; ordered: boolean; start?: number; items: ListItem[] }
  /** rows of cells; each cell holds paragraphs (runs each). spans: the cells that cover more than one. */
  | { kind: 'table'; rows: Run[][][][]; spans?: CellSpan[] }
  /** width and height: the size drawn on the page, in points. */
  | { kind: 'image'; file: string; mime: ImageMime; width: number; height: number; pixels: [number, number] };

/**
 * A table cell covering rowSpan rows and colSpan columns from rows[row][col], where its text is;
 * the cells it covers stay in rows, empty, so writers without merged cells write the plain grid.
 */
export interface CellSpan {
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
}

/** For a table's spans: the span covering a cell, if any. */
export function spanLookup(spans: CellSpan[] = []): (row: number, col: number) => CellSpan | undefined {
  const at = new Map<string, CellSpan>();
  for (const s of spans)
    for (let r = s.row; r < s.row + s.rowSpan; r++) for (let c = s.col; c < s.col + s.colSpan; c++) at.set(`${r},${c}`, s);
  return (row, col) => at.get(`${row},${col}`);
}

/** A stretch of text on one baseline, where it starts: what the spreadsheet writer splits into cells. */
export interface PlacedText {
  x: number;
  text: string;
}

export interface DocPage {
  /** Points. */
  width: number;
  height: number;
  blocks: Block[];
  /** The page's text lines (outside tables), top to bottom, each split where MuPDF saw a gap. */
  lines: PlacedText[][];
}

export interface DocModel {
  pages: DocPage[];
  /** The most common text size, points. */
  bodySize: number;
  /** Whether most text is set in a serif face. */
  bodySerif: boolean;
  /** Where the image files of the model are. */
  imagesDir: string;
}

export const runsText = (runs: Run[]) => runs.map((r) => r.text).join('');
