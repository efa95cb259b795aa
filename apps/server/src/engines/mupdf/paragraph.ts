// Setting a paragraph's text again: words wrapped onto its lines, and the lines aligned as the
// paragraph's own were (left, centred, flush right, or justified with its last line ragged).
import type * as mupdf from 'mupdf';
import type { TextFont } from './contentText.js';
import type { Run } from './pageObjects.js';

/** A stretch of text in one font, size and colour; `paragraphEnd`: a line break follows it. */
export interface Piece {
  text: string;
  font: TextFont;
  size: number;
  color: number[];
  paragraphEnd?: boolean;
}

/** Text placed on a line: its pieces at their offsets along the baseline from `origin`. */
export interface SetLine {
  origin: mupdf.Point;
  parts: { piece: Piece; at: number; operand: string }[];
  /** The line ends its paragraph: a justified paragraph leaves it ragged. */
  paragraphEnd?: boolean;
}

export const widthOf = (p: Piece) => p.font.show(p.text).advance * p.size;

/** Splits pieces into words, each keeping the spaces after it, for wrapping. */
function words(pieces: Piece[]): Piece[] {
  return pieces.flatMap((p) => {
    const split = (p.text.match(/\S+\s*|\s+/g) ?? []).map((text) => ({ ...p, text, paragraphEnd: false }));
    if (split.length) split.at(-1)!.paragraphEnd = p.paragraphEnd === true;
    return split;
  });
}

/** The width of a line's text, without the spaces that end it. */
export const lineWidth = (line: SetLine) => {
  const last = line.parts.at(-1);
  return last ? last.at + widthOf({ ...last.piece, text: last.piece.text.trimEnd() }) : 0;
};

/**
 * Lays the pieces out along the writing direction, wrapping before `available` (the distance
 * available from each line's start, the last repeated); the lines go on the baselines given, then on
 * at `leading`. A piece that ends a paragraph ends its line.
 */
export function wrap(pieces: Piece[], starts: mupdf.Point[], available: number[], leading: number, dir: mupdf.Point): SetLine[] {
  const lines: SetLine[] = [];
  let line: SetLine | null = null;
  let x = 0;
  const startOf = (i: number): mupdf.Point => {
    const known = starts[i];
    if (known) return known;
    const last = starts.at(-1)!;
    const extra = i - starts.length + 1;
    // Down the page, across the writing direction: (-dy, dx) turned to y down is (−dir[1], dir[0]).
    return [last[0] - dir[1] * leading * extra, last[1] + dir[0] * leading * extra];
  };
  for (const word of words(pieces)) {
    const w = widthOf(word);
    const limit = available[lines.length - 1] ?? available.at(-1)!;
    if (!line || line.paragraphEnd || (x > 0 && x + widthOf({ ...word, text: word.text.trimEnd() }) > limit + 0.5)) {
      line = { origin: startOf(lines.length), parts: [] };
      lines.push(line);
      x = 0;
      if (!word.text.trim()) continue;
    }
    const prev = line.parts.at(-1);
    if (prev && prev.piece.font === word.font && prev.piece.size === word.size && prev.piece.color === word.color) {
      prev.piece = { ...prev.piece, text: prev.piece.text + word.text };
      prev.operand = prev.piece.font.show(prev.piece.text).operand;
    } else line.parts.push({ piece: word, at: x, operand: word.font.show(word.text).operand });
    if (word.paragraphEnd) line.paragraphEnd = true;
    x += w;
  }
  if (line) line.paragraphEnd = true;
  return lines;
}

/** How a paragraph's lines are set, from where they begin and end. */
export type Alignment =
  | { kind: 'left' }
  | { kind: 'right'; right: number }
  | { kind: 'center'; center: number }
  /** `ends`: the lines that end a paragraph inside the block (short ones), besides its last. */
  | { kind: 'justify'; right: number; ends: Set<number> };

/** Lines whose edges differ by less than this (points) end alike: justified text's vary by half a point. */
const EDGE_TOLERANCE = 1;

/** Where each line of a horizontal paragraph begins and ends its ink (spaces left out). */
function lineEdges(block: Run[]): { line: number; left: number; right: number }[] {
  const edges = new Map<number, { line: number; left: number; right: number }>();
  for (const run of block)
    [...run.text].forEach((ch, i) => {
      if (/\s/.test(ch)) return;
      const quad = run.chars[i]!.quad;
      const known = edges.get(run.line);
      if (!known) edges.set(run.line, { line: run.line, left: quad[0], right: quad[2] });
      else [known.left, known.right] = [Math.min(known.left, quad[0]), Math.max(known.right, quad[2])];
    });
  return [...edges.values()];
}

/**
 * The paragraph's alignment. Justified: lines all but the last end at one right edge (short lines
 * inside may end paragraphs of their own, up to a quarter of them), the lines after the first begin
 * at one left edge; flush right: every line ends at one edge; centred: every line has one centre.
 * Rotated text, and a paragraph of one line, whose alignment cannot be seen, are set flush left.
 */
export function alignmentOf(block: Run[]): Alignment {
  const dir = block[0]?.chars[0]?.dir;
  const lines = lineEdges(block);
  if (!dir || dir[0] < 0.99 || lines.length < 2) return { kind: 'left' };
  const alike = (values: number[]) => Math.max(...values) - Math.min(...values) < EDGE_TOLERANCE;
  const right = Math.max(...lines.map((l) => l.right));
  const body = lines.slice(0, -1);
  const short = body.filter((l) => l.right < right - EDGE_TOLERANCE);
  const full = body.length - short.length;
  // A line after a short one may be indented: it starts a paragraph.
  const continuing = lines.filter((_, i) => i > 0 && !short.includes(lines[i - 1]!));
  if (lines.length >= 3 && full >= 2 && full >= 0.75 * body.length && alike(continuing.map((l) => l.left)))
    return { kind: 'justify', right, ends: new Set(short.map((l) => l.line)) };
  if (alike(lines.map((l) => l.left))) return { kind: 'left' };
  if (alike(lines.map((l) => l.right))) return { kind: 'right', right };
  const centers = lines.map((l) => (l.left + l.right) / 2);
  if (alike(centers)) return { kind: 'center', center: (Math.max(...centers) + Math.min(...centers)) / 2 };
  return { kind: 'left' };
}

/**
 * A line placed as its paragraph's alignment sets it: moved along its baseline to end at the right
 * edge or to centre, or (justified, unless it ends a paragraph) its words spread to end at the right
 * edge, each word drawn at its own place, which serves every kind of font alike.
 */
export function aligned(line: SetLine, alignment: Alignment): SetLine {
  const width = lineWidth(line);
  const x = line.origin[0];
  if (alignment.kind === 'right') return { ...line, origin: [alignment.right - width, line.origin[1]] };
  if (alignment.kind === 'center') return { ...line, origin: [alignment.center - width / 2, line.origin[1]] };
  if (alignment.kind === 'left' || line.paragraphEnd) return line;
  const placed = line.parts.flatMap(({ piece, at }) => {
    let offset = at;
    return words([piece]).map((word) => {
      const part = { piece: word, at: offset, operand: word.font.show(word.text).operand };
      offset += widthOf(word);
      return part;
    });
  });
  // Only spaces between words stretch: not the ones ending the line, nor a change of style inside a word.
  const gaps = placed.filter((_, i) => i > 0 && /\s$/.test(placed[i - 1]!.piece.text)).length;
  const extra = alignment.right - x - width;
  if (gaps === 0 || extra <= 0) return line;
  let gapsBefore = 0;
  const parts = placed.map((p, i) => {
    if (i > 0 && /\s$/.test(placed[i - 1]!.piece.text)) gapsBefore++;
    return { ...p, at: p.at + (gapsBefore * extra) / gaps };
  });
  return { ...line, parts };
}
