// Replace text: each hit is removed as a redaction would remove it (no box), and the new text is
// written on the same baseline, in the same size and colour, in the original font where that font
// has every glyph needed, else in the standard font of its style.
import * as mupdf from 'mupdf';
import { searchPattern } from '@quire/contracts/textSearch';
import { findHits } from './searchBudget.js';
import type { JobResults, ReplaceJob } from './jobs.js';
import { type Char, charsOf, markAndApply, pageText, quadBounds } from './pageText.js';
import { openPdf, progress, save } from './program.js';
import {
  appendContent,
  codePoints,
  colorOp,
  resourceName,
  hasGlyphs,
  hex,
  identityFont,
  num,
  pageResources,
  type TextFont,
} from './contentText.js';

const BASE14 = new Set([
  'Helvetica',
  'Helvetica-Bold',
  'Helvetica-Oblique',
  'Helvetica-BoldOblique',
  'Times-Roman',
  'Times-Bold',
  'Times-Italic',
  'Times-BoldItalic',
  'Courier',
  'Courier-Bold',
  'Courier-Oblique',
  'Courier-BoldOblique',
]);

/** WinAnsiEncoding (what MuPDF's simple Latin fonts use) beyond ASCII and Latin-1. */
const WIN_ANSI_EXTRA: Record<number, number> = {
  0x20ac: 0x80,
  0x201a: 0x82,
  0x0192: 0x83,
  0x201e: 0x84,
  0x2026: 0x85,
  0x2020: 0x86,
  0x2021: 0x87,
  0x02c6: 0x88,
  0x2030: 0x89,
  0x0160: 0x8a,
  0x2039: 0x8b,
  0x0152: 0x8c,
  0x017d: 0x8e,
  0x2018: 0x91,
  0x2019: 0x92,
  0x201c: 0x93,
  0x201d: 0x94,
  0x2022: 0x95,
  0x2013: 0x96,
  0x2014: 0x97,
  0x02dc: 0x98,
  0x2122: 0x99,
  0x0161: 0x9a,
  0x203a: 0x9b,
  0x0153: 0x9c,
  0x017e: 0x9e,
  0x0178: 0x9f,
};

export function winAnsiCode(cp: number): number | undefined {
  if ((cp >= 0x20 && cp < 0x7f) || (cp >= 0xa0 && cp <= 0xff)) return cp;
  return WIN_ANSI_EXTRA[cp];
}

/** The font's own name, without a subset tag ("ABCDEF+Helvetica"). */
export const baseName = (font: mupdf.Font) => font.getName().replace(/^[A-Z]{6}\+/, '');

/** The standard font closest in style: family from the name or flags, then weight and slant. */
function standardLike(font: mupdf.Font): string {
  const name = baseName(font);
  // Names are better evidence than the descriptor's flags, which some producers set carelessly.
  const family =
    /courier|mono/i.test(name) || font.isMono()
      ? 'Courier'
      : /sans|arial|helvetica|gothic/i.test(name)
        ? 'Helvetica'
        : /times|serif|roman/i.test(name) || font.isSerif()
          ? 'Times'
          : 'Helvetica';
  const bold = font.isBold() || /bold|black|heavy/i.test(name);
  const slanted = font.isItalic() || /italic|oblique/i.test(name);
  if (family === 'Times') return `Times-${bold ? (slanted ? 'BoldItalic' : 'Bold') : slanted ? 'Italic' : 'Roman'}`;
  const style = `${bold ? 'Bold' : ''}${slanted ? 'Oblique' : ''}`;
  return style ? `${family}-${style}` : family;
}

/** Fonts added to the document for new text, made once each. */
export class FontPicker {
  private made = new Map<string, TextFont | null>();
  constructor(private readonly doc: mupdf.PDFDocument) {}

  /** The font for `text` set in place of text in `original`, and the fallback's name if it is not the original. */
  pick(original: mupdf.Font, text: string): { font: TextFont; fallback: string | null } {
    const own = this.own(original, text);
    if (own) return { font: own, fallback: null };
    const latin = codePoints(text).every((cp) => winAnsiCode(cp) !== undefined);
    const standard = standardLike(original);
    const font = latin ? this.simple(standard) : (this.identity(`std:${standard}`, new mupdf.Font(standard)) ?? this.simple(standard));
    return { font, fallback: standard };
  }

  /** The original font itself, where it has every glyph `text` needs and can be written again. */
  own(original: mupdf.Font, text: string): TextFont | null {
    if (!hasGlyphs(original, text)) return null;
    const name = baseName(original);
    // A standard font need not be embedded: the same name in WinAnsi encoding is the same font.
    if (BASE14.has(name) && codePoints(text).every((cp) => winAnsiCode(cp) !== undefined)) return this.simple(name);
    return this.identity(`font:${original.pointer}`, original);
  }

  private simple(name: string): TextFont {
    const key = `simple:${name}`;
    const cached = this.made.get(key);
    if (cached) return cached;
    const font = new mupdf.Font(name);
    const made: TextFont = {
      resource: this.doc.addSimpleFont(font, 'Latin'),
      show: (text) => {
        const cps = codePoints(text).map((cp) => [cp, winAnsiCode(cp) ?? 0x3f] as const);
        return {
          operand: `[<${cps.map(([, code]) => hex(code, 2)).join('')}>]`,
          advance: cps.reduce((sum, [cp]) => sum + font.advanceGlyph(font.encodeCharacter(cp)), 0),
        };
      },
    };
    this.made.set(key, made);
    return made;
  }

  /** The font embedded as Identity-H (glyph ids), or null when MuPDF cannot embed it (Type 3, bare CFF). */
  private identity(key: string, font: mupdf.Font): TextFont | null {
    if (!this.made.has(key)) this.made.set(key, identityFont(this.doc, font));
    return this.made.get(key)!;
  }
}

/**
 * How new text longer than the old fits its place: `none` runs on past it (nothing follows on its
 * line), `narrow` narrows it to half at most (words follow it), `shrink` narrows it and then sets it
 * smaller until it fits (a translated line, whose neighbours above, below and beside stay put).
 */
export type Fit = 'none' | 'narrow' | 'shrink';

/** New text in place of the characters `chars` (on one line from the first). */
export interface InPlaceEdit {
  chars: Char[];
  text: string;
  fit: Fit;
  /** Edits of one group (a translated paragraph's lines) are all fitted by the tightest one's ratio, so the paragraph reads evenly. */
  group?: number;
}

/**
 * The character whose font, size and colour most of `chars` have: a line opening with a bold
 * "Abstract." goes on in its regular font.
 */
function dominantStyle(chars: readonly Char[]): Char {
  const key = (c: Char) => `${c.font.getName()}|${c.size}|${c.color.join(',')}`;
  const counts = new Map<string, number>();
  for (const c of chars) counts.set(key(c), (counts.get(key(c)) ?? 0) + 1);
  return chars.reduce((best, c) => (counts.get(key(c))! > counts.get(key(best))! ? c : best));
}

/** The narrowest text is set before it is set smaller instead. */
const MIN_NARROW_PERCENT = 50;

/**
 * Removes the characters of every edit (as a redaction removes them, no box), then writes each
 * edit's text on the first character's baseline in its size and colour, in the original font where
 * it has the glyphs; answers the standard font used instead where one was needed (not the font itself).
 */
export function writeInPlace(doc: mupdf.PDFDocument, page: mupdf.PDFPage, fonts: FontPicker, edits: InPlaceEdit[]): string | null {
  if (!edits.length) return null;
  markAndApply(
    page,
    edits.map((e) => ({ rect: quadBounds(e.chars.map((c) => c.quad)), quads: e.chars.map((c) => c.quad) })),
    false,
  );
  let fallbackFont: string | null = null;
  const set = edits
    .filter((e) => e.text)
    .map((edit) => {
      const first = edit.chars[0]!;
      const line = edit.chars.filter((c) => c.line === first.line);
      const style = dominantStyle(line);
      const { font, fallback } = fonts.pick(style.font, edit.text);
      if (fallback !== baseName(style.font)) fallbackFont ??= fallback;
      const { operand, advance } = font.show(edit.text);
      // The old text's width along its line, from its first character's start to its last's end on that line.
      const last = line.at(-1)!;
      const [dx, dy] = first.dir;
      const oldWidth = (last.quad[6] - first.quad[4]) * dx + (last.quad[7] - first.quad[5]) * dy;
      const newWidth = advance * style.size;
      const ratio = edit.fit !== 'none' && newWidth > oldWidth && oldWidth > 0 ? (oldWidth / newWidth) * 100 : 100;
      return { edit, first, style, font, operand, ratio };
    });
  const tightest = new Map<number, number>();
  for (const { edit, ratio } of set)
    if (edit.group !== undefined) tightest.set(edit.group, Math.min(ratio, tightest.get(edit.group) ?? 100));
  const obj = page.getObject();
  const fontDict = pageResources(doc, obj, 'Font');
  const names = new Map<mupdf.PDFObject, string>();
  const toUser = mupdf.Matrix.invert(page.getTransform());
  const ops = set.map(({ edit, first, style, font, operand, ratio: own }) => {
    const ratio = edit.group === undefined ? own : tightest.get(edit.group)!;
    const scale = Math.max(MIN_NARROW_PERCENT, ratio);
    const s = edit.fit === 'shrink' ? (style.size * ratio) / scale : style.size;
    const [dx, dy] = first.dir;
    // The text matrix in page space (y down): x along the line, y up from the baseline.
    const inPage: mupdf.Matrix = [s * dx, s * dy, s * dy, -s * dx, first.origin[0], first.origin[1]];
    const tm = mupdf.Matrix.concat(inPage, toUser);
    const name = resourceName(fontDict, names, font.resource);
    return `BT /${name} 1 Tf ${colorOp(style.color)} ${num(scale)} Tz ${tm.map(num).join(' ')} Tm ${operand} TJ ET`;
  });
  if (ops.length) appendContent(doc, obj, `${ops.join('\n')}\n`);
  return fallbackFont;
}

export function replace(job: ReplaceJob): JobResults['replace'] {
  const doc = openPdf(job.input);
  const pattern = searchPattern({ text: job.search, ignoreCase: false });
  const fonts = new FontPicker(doc);
  let replaced = 0;
  let fallbackFont: string | null = null;
  const count = doc.countPages();
  for (let i = 0; i < count; i++) {
    const page = doc.loadPage(i);
    const text = pageText(page, 'whole');
    const edits = findHits(text.text, pattern)
      .map((hit): InPlaceEdit => {
        // Longer text is narrowed (to half at most) rather than written over the words after it.
        const followed = /^[^\n]*\S/.test(text.text.slice(hit.index + hit.length).split('\n', 1)[0] ?? '');
        return { chars: charsOf(text, hit), text: job.replace, fit: followed ? 'narrow' : 'none' };
      })
      .filter((e) => e.chars.length > 0);
    replaced += edits.length;
    // Written on every page: `??=` would skip the call once a fallback is known.
    const fallback = writeInPlace(doc, page, fonts, edits);
    fallbackFont ??= fallback;
    page.destroy();
    progress(i + 1, count);
  }
  save(doc, job.output);
  return { count: replaced, fallbackFont };
}
