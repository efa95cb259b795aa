// What the MuPDF worker's "geometry" op (pageGeometry.ts) finds on each page, and what the PPTX
// and DXF writers (pptx.ts, dxf.ts) read. Coordinates are PDF points on the page as shown
// (crop box, after /Rotate), origin at its top left, y down.

export type Rgb = [number, number, number];

export interface TextRun {
  text: string;
  /** The family to ask for by name (subset tag and style suffixes taken off). */
  font: string;
  size: number;
  bold: boolean;
  italic: boolean;
  color: Rgb;
}

/** Glyphs on one baseline that read as one piece of text: a text box in PPTX, a TEXT in DXF. */
export interface TextLine {
  /** Origin of the first glyph, on the baseline. */
  x: number;
  y: number;
  /** Degrees, clockwise on the page as shown (y down). */
  angle: number;
  /** Advance from the first glyph's origin to the end of the last. */
  width: number;
  /** The largest font size on the line, points. */
  size: number;
  /** Text drawn invisibly (an OCR layer): selectable, never shown. */
  invisible: boolean;
  runs: TextRun[];
}

export interface Subpath {
  /** x0, y0, x1, y1, … with curves flattened to short lines. */
  points: number[];
  closed: boolean;
}

export interface PathShape {
  subpaths: Subpath[];
  stroke: Rgb | null;
  fill: Rgb | null;
}

/** A picture drawn upright and whole with nothing over it: a picture of its own on a slide. */
export interface PageImage {
  x: number;
  y: number;
  width: number;
  height: number;
  /** File name next to the geometry file. */
  file: string;
}

export interface PageGeometry {
  width: number;
  height: number;
  lines: TextLine[];
  /** Only when asked for (DXF). */
  paths: PathShape[];
  /** Only when a background is asked for (PPTX); DXF leaves images out. */
  images: PageImage[];
  /** File name (next to the geometry file) of the page drawn without its editable text and separate pictures, if it draws anything else. */
  background: string | null;
}

/** Per document: more than this many path points fails the task rather than giving a file no program opens. */
export const MAX_PATH_POINTS = 2_000_000;
/** Per page: glyphs beyond this are left in the background picture. */
export const MAX_PAGE_GLYPHS = 100_000;
