// Text as MuPDF reads it from a page, with each character's place, for the searches of Redact and
// Replace text, and the redaction that takes the hits out of the content.
import * as mupdf from 'mupdf';
import type { Hit } from '@quire/contracts/textSearch';

/**
 * MuPDF.js (1.28) hands the walker each character through String.fromCharCode, which cuts code
 * points past U+FFFF to 16 bits (mathematical letters, emoji and rare CJK come out as unrelated
 * characters). For the walk, fromCharCode of a single code point is fromCodePoint.
 */
export function walkWithAstralChars(stext: mupdf.StructuredText, walker: Parameters<mupdf.StructuredText['walk']>[0]) {
  const fromCharCode = String.fromCharCode;
  String.fromCharCode = (...codes: number[]) =>
    codes.length === 1 && codes[0]! > 0xffff && codes[0]! <= 0x10ffff ? String.fromCodePoint(codes[0]!) : fromCharCode(...codes);
  try {
    stext.walk(walker);
  } finally {
    String.fromCharCode = fromCharCode;
  }
}

export interface Char {
  quad: mupdf.Quad;
  origin: mupdf.Point;
  font: mupdf.Font;
  size: number;
  color: number[];
  /** Unit vector of the line's writing direction, in page space (y down). */
  dir: mupdf.Point;
  line: number;
  /** The text block (a paragraph, as MuPDF groups lines) the line is in. */
  block: number;
}

export interface PageText {
  /** Lines joined by "\n", so a phrase search can run across a line break. */
  text: string;
  /** The character behind each UTF-16 unit of `text` (undefined for the line breaks). */
  at: (Char | undefined)[];
}

/**
 * `whole` reads past the crop box too: text the page does not show is still in the file, so a
 * redaction must take it out and a replacement must change it (pdftotext and copy-paste find it).
 */
export function pageText(page: mupdf.PDFPage, reach: 'shown' | 'whole' = 'shown'): PageText {
  const parts: string[] = [];
  const at: (Char | undefined)[] = [];
  let line = 0;
  let block = 0;
  let dir: mupdf.Point = [1, 0];
  const stext = page.toStructuredText(reach === 'whole' ? 'clip=no' : '');
  walkWithAstralChars(stext, {
    beginTextBlock() {
      block++;
    },
    beginLine(_bbox, _wmode, direction) {
      line++;
      dir = direction;
    },
    onChar(c, origin, font, size, quad, color) {
      const char: Char = { quad, origin, font, size, color: [...color], dir, line, block };
      parts.push(c);
      for (let i = 0; i < c.length; i++) at.push(char);
    },
    endLine() {
      parts.push('\n');
      at.push(undefined);
    },
  });
  stext.destroy();
  return { text: parts.join(''), at };
}

export function charsOf(text: PageText, hit: Hit): Char[] {
  const chars: Char[] = [];
  for (const c of text.at.slice(hit.index, hit.index + hit.length)) if (c && chars.at(-1) !== c) chars.push(c);
  return chars;
}

export function quadBounds(quads: mupdf.Quad[]): mupdf.Rect {
  const xs = quads.flatMap((q) => [q[0], q[2], q[4], q[6]]);
  const ys = quads.flatMap((q) => [q[1], q[3], q[5], q[7]]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** Marks a Redact annotation over each rectangle (and its quads, for text), then applies them all. */
export function markAndApply(page: mupdf.PDFPage, marks: { rect: mupdf.Rect; quads?: mupdf.Quad[] }[], blackBoxes: boolean) {
  for (const mark of marks) {
    const annot = page.createAnnotation('Redact');
    annot.setRect(mark.rect);
    if (mark.quads) annot.setQuadPoints(mark.quads);
  }
  if (blackBoxes) {
    // Images keep their size with the covered pixels blanked; vector art wholly inside a mark goes.
    page.applyRedactions(
      true,
      mupdf.PDFPage.REDACT_IMAGE_PIXELS,
      mupdf.PDFPage.REDACT_LINE_ART_REMOVE_IF_COVERED,
      mupdf.PDFPage.REDACT_TEXT_REMOVE,
    );
  } else {
    page.applyRedactions(false, mupdf.PDFPage.REDACT_IMAGE_NONE, mupdf.PDFPage.REDACT_LINE_ART_NONE, mupdf.PDFPage.REDACT_TEXT_REMOVE);
  }
}
