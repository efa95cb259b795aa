// MuPDF (MuPDF.js, WebAssembly) in a child process. mupdf.ts bundles it and starts it through
// runEngine, so it runs under a time limit and a memory bound, and a crash cannot take the server down.
// It reads its job from the JSON file named on its command line, writes "progress N" lines as it
// goes, and ends with one JSON line: the answer (mupdfJobs.ts).
import fs from 'node:fs';
import * as mupdf from 'mupdf';
// Just these two modules: the package's index would bring its zod schemas into the worker's bundle.
import { ErrorCode, errorMessages } from '@quire/contracts/errors';
import { searchPattern, type Hit } from '@quire/contracts/textSearch';
import { findHits, SearchTooSlow } from './searchBudget.js';
import { extractModel, walkWithAstralChars } from '../convert/extract.js';
import { writeDocument } from '../convert/writeDocument.js';
import {
  PROGRESS_PREFIX,
  type CropJob,
  type JobResults,
  type MupdfAnswer,
  type MupdfJob,
  type RedactArea,
  type RedactJob,
  type ReplaceJob,
} from './mupdfJobs.js';
import { cropBox, normalizeBox, normalizeRotation, pointsToMm, visibleBox } from './pageBoxes.js';
import { pageGeometry } from '../convert/pageGeometry.js';

/** A failure the user can act on, with its catalogue code. */
class JobFailure extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const answer = (a: MupdfAnswer) => process.stdout.write(`${JSON.stringify(a)}\n`);

function progress(done: number, total: number) {
  process.stdout.write(`${PROGRESS_PREFIX}${Math.round((done / Math.max(1, total)) * 100)}\n`);
}

function openPdf(file: string): mupdf.PDFDocument {
  try {
    const doc = mupdf.Document.openDocument(fs.readFileSync(file), 'application/pdf').asPDF();
    if (!doc) throw new Error('not a PDF');
    return doc;
  } catch (e) {
    process.stderr.write(`open failed: ${(e as Error).message}\n`);
    throw new JobFailure(ErrorCode.Damaged, errorMessages[ErrorCode.Damaged]);
  }
}

/**
 * Garbage collection drops the objects an edit left unreferenced: removed text must not survive
 * as an orphan. Never encrypted: an /Encrypt that MuPDF finds in a damaged file must not return.
 */
function save(doc: mupdf.PDFDocument, file: string) {
  fs.writeFileSync(file, doc.saveToBuffer('garbage,compress,encrypt=none').asUint8Array());
}

const numbers = (obj: mupdf.PDFObject): number[] | null => {
  if (!obj.isArray()) return null;
  const out: number[] = [];
  for (let i = 0; i < obj.length; i++) out.push(obj.get(i).asNumber());
  return out;
};

// ---------------------------------------------------------------------------------------------
// Crop: a new CropBox (and TrimBox) inside each page's visible box.

function crop(job: CropJob): JobResults['crop'] {
  const doc = openPdf(job.input);
  const count = doc.countPages();
  const pages = job.pages === 'all' ? Array.from({ length: count }, (_, i) => i + 1) : job.pages;
  for (const [done, n] of pages.entries()) {
    const page = doc.findPage(n - 1);
    // A page without a usable MediaBox is shown as US Letter, as MuPDF and pdf.js do.
    const media = normalizeBox(numbers(page.getInheritable('MediaBox'))) ?? [0, 0, 612, 792];
    const box = visibleBox(media, normalizeBox(numbers(page.getInheritable('CropBox'))));
    const rotation = normalizeRotation(page.getInheritable('Rotate').asNumber() || 0);
    // Margins are physical lengths: a page with a /UserUnit larger than one point needs fewer units.
    const unit = page.get('UserUnit').asNumber() || 1;
    const m = job.margins;
    const next = cropBox(box, rotation, { top: m.top / unit, right: m.right / unit, bottom: m.bottom / unit, left: m.left / unit });
    if (!next) {
      const [w, h] = [box[2] - box[0], box[3] - box[1]].map((v) => pointsToMm(v * unit).toFixed(1));
      const [shownW, shownH] = rotation % 180 ? [h, w] : [w, h];
      throw new JobFailure(ErrorCode.InvalidParams, `The margins leave no page area on page ${n}, which is ${shownW} × ${shownH} mm.`);
    }
    page.put('CropBox', next);
    page.put('TrimBox', next);
    progress(done + 1, pages.length);
  }
  save(doc, job.output);
  return { pages: pages.length };
}

// ---------------------------------------------------------------------------------------------
// Text as MuPDF reads it from a page, with each character's place, for the searches.

interface Char {
  quad: mupdf.Quad;
  origin: mupdf.Point;
  font: mupdf.Font;
  size: number;
  color: number[];
  /** Unit vector of the line's writing direction, in page space (y down). */
  dir: mupdf.Point;
  line: number;
}

interface PageText {
  /** Lines joined by "\n", so a phrase search can run across a line break. */
  text: string;
  /** The character behind each UTF-16 unit of `text` (undefined for the line breaks). */
  at: (Char | undefined)[];
}

function pageText(page: mupdf.PDFPage): PageText {
  const parts: string[] = [];
  const at: (Char | undefined)[] = [];
  let line = 0;
  let dir: mupdf.Point = [1, 0];
  const stext = page.toStructuredText('');
  walkWithAstralChars(stext, {
    beginLine(_bbox, _wmode, direction) {
      line++;
      dir = direction;
    },
    onChar(c, origin, font, size, quad, color) {
      const char: Char = { quad, origin, font, size, color: [...color], dir, line };
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

function charsOf(text: PageText, hit: Hit): Char[] {
  const chars: Char[] = [];
  for (const c of text.at.slice(hit.index, hit.index + hit.length)) if (c && chars.at(-1) !== c) chars.push(c);
  return chars;
}

function quadBounds(quads: mupdf.Quad[]): mupdf.Rect {
  const xs = quads.flatMap((q) => [q[0], q[2], q[4], q[6]]);
  const ys = quads.flatMap((q) => [q[1], q[3], q[5], q[7]]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

const intersects = (a: mupdf.Rect, b: mupdf.Rect) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

const mentions = (value: string, patterns: RegExp[]) => patterns.some((p) => findHits(value, p).length > 0);

/** Marks a Redact annotation over each rectangle (and its quads, for text), then applies them all. */
function markAndApply(page: mupdf.PDFPage, marks: { rect: mupdf.Rect; quads?: mupdf.Quad[] }[], blackBoxes: boolean) {
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

// ---------------------------------------------------------------------------------------------
// Redact: areas and text hits are removed from the content (not just covered), and what could
// still carry them goes too: overlapping or mentioning annotations and form fields, bookmark
// titles that mention them, and the document's metadata (Info and XMP).

/** An area given from the bottom left of the page as shown, in MuPDF's page space (top left, y down). */
function areaRect(page: mupdf.PDFPage, a: RedactArea): mupdf.Rect {
  const [x0, , , y1] = page.getBounds();
  return [x0 + a.x, y1 - a.y - a.height, x0 + a.x + a.width, y1 - a.y];
}

const TEXT_KEYS = ['Contents', 'RC', 'T', 'Subj', 'TU', 'V', 'DV'];

/** Whether a dictionary's text entries (contents, titles, field values) mention a searched text. */
const dictMentions = (obj: mupdf.PDFObject, patterns: RegExp[]) =>
  TEXT_KEYS.some((key) => {
    const value = obj.get(key);
    return value.isString() && mentions(value.asString(), patterns);
  });

/** A widget's field and the fields above it, the widget's own dictionary first (a damaged /Parent chain may loop). */
function fieldChain(widget: mupdf.PDFObject): mupdf.PDFObject[] {
  const chain: mupdf.PDFObject[] = [];
  const seen = new Set<number>();
  for (let obj = widget; obj.isDictionary(); obj = obj.get('Parent')) {
    const num = obj.asIndirect();
    if (num && seen.has(num)) break;
    seen.add(num);
    chain.push(obj);
  }
  return chain;
}

/**
 * Deletes the annotations over a mark or mentioning a searched text; returns how many. Form
 * widgets are only collected: their whole field goes later (removeFields), since its value and
 * the appearances of its other widgets would carry the text on.
 */
function removeAnnotations(page: mupdf.PDFPage, rects: mupdf.Rect[], patterns: RegExp[], doomedFields: Set<number>): number {
  const over = (annot: mupdf.PDFAnnotation) => rects.some((r) => intersects(r, annot.getBounds()));
  // Redact annotations already in the file are marks too: applying them is the point.
  const doomed: mupdf.PDFAnnotation[] = page
    .getAnnotations()
    .filter((a) => a.getType() !== 'Redact' && (over(a) || dictMentions(a.getObject(), patterns)));
  for (const widget of page.getWidgets()) {
    const chain = fieldChain(widget.getObject());
    if (!over(widget) && !chain.some((field) => dictMentions(field, patterns))) continue;
    const root = chain.at(-1)!.asIndirect();
    // A field that is not an object of its own cannot be found again: its widget goes now.
    if (root) doomedFields.add(root);
    else doomed.push(widget);
  }
  for (const annot of doomed) page.deleteAnnotation(annot);
  return doomed.length;
}

/** Takes the doomed form fields out of the form, and their widgets off every page; returns how many widgets. */
function removeFields(doc: mupdf.PDFDocument, doomed: Set<number>): number {
  if (!doomed.size) return 0;
  let removed = 0;
  for (let i = 0; i < doc.countPages(); i++) {
    const page = doc.loadPage(i);
    for (const widget of page.getWidgets()) {
      if (doomed.has(fieldChain(widget.getObject()).at(-1)!.asIndirect())) {
        page.deleteAnnotation(widget);
        removed++;
      }
    }
    page.destroy();
  }
  const fields = doc.getTrailer().get('Root', 'AcroForm', 'Fields');
  if (fields.isArray()) for (let i = fields.length - 1; i >= 0; i--) if (doomed.has(fields.get(i).asIndirect())) fields.delete(i);
  return removed;
}

/** Bookmark titles lose the searched texts; returns how many changed. */
function scrubOutlines(doc: mupdf.PDFDocument, patterns: RegExp[]): number {
  if (!patterns.length) return 0;
  let changed = 0;
  const seen = new Set<number>();
  const stack = [doc.getTrailer().get('Root', 'Outlines', 'First')];
  // A damaged outline may loop; each item is visited once.
  while (stack.length) {
    const item = stack.pop()!;
    if (!item.isDictionary()) continue;
    const num = item.asIndirect();
    if (num && seen.has(num)) continue;
    seen.add(num);
    const title = item.get('Title');
    if (title.isString()) {
      const old = title.asString();
      const scrubbed = patterns.reduce((t, p) => t.replace(p, '█'), old);
      if (scrubbed !== old) {
        item.put('Title', doc.newString(scrubbed)); // a bare JS string would become a name
        changed++;
      }
    }
    stack.push(item.get('Next'), item.get('First'));
  }
  return changed;
}

function stripMetadata(doc: mupdf.PDFDocument) {
  const trailer = doc.getTrailer();
  trailer.delete('Info');
  const root = trailer.get('Root');
  root.delete('Metadata');
  root.delete('PieceInfo');
  for (let i = 0; i < doc.countPages(); i++) {
    const page = doc.findPage(i);
    page.delete('Metadata');
    page.delete('PieceInfo');
  }
}

function redact(job: RedactJob): JobResults['redact'] {
  const doc = openPdf(job.input);
  const patterns = job.texts.map((t) => searchPattern({ ...t, ignoreCase: true }));
  const areasOn = new Map<number, RedactArea[]>();
  for (const a of job.areas) areasOn.set(a.page, [...(areasOn.get(a.page) ?? []), a]);
  const result = { areas: 0, textHits: 0, annotations: 0, outlineTitles: 0 };
  const doomedFields = new Set<number>();
  const count = doc.countPages();
  for (let i = 0; i < count; i++) {
    const areas = areasOn.get(i + 1) ?? [];
    if (areas.length || patterns.length) {
      const page = doc.loadPage(i);
      const marks: { rect: mupdf.Rect; quads?: mupdf.Quad[] }[] = areas.map((a) => ({ rect: areaRect(page, a) }));
      result.areas += areas.length;
      if (patterns.length) {
        const text = pageText(page);
        for (const pattern of patterns) {
          for (const hit of findHits(text.text, pattern)) {
            const quads = charsOf(text, hit).map((c) => c.quad);
            if (!quads.length) continue;
            marks.push({ rect: quadBounds(quads), quads });
            result.textHits++;
          }
        }
      }
      result.annotations += removeAnnotations(
        page,
        marks.map((m) => m.rect),
        patterns,
        doomedFields,
      );
      if (marks.length) markAndApply(page, marks, true);
      page.destroy();
    }
    progress(i + 1, count);
  }
  result.annotations += removeFields(doc, doomedFields);
  result.outlineTitles = scrubOutlines(doc, patterns);
  stripMetadata(doc);
  save(doc, job.output);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Replace text: each hit is removed as a redaction would remove it (no box), and the new text is
// written on the same baseline, in the same size and colour, in the original font where that font
// has every glyph needed, else in the standard font of its style.

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

function winAnsiCode(cp: number): number | undefined {
  if ((cp >= 0x20 && cp < 0x7f) || (cp >= 0xa0 && cp <= 0xff)) return cp;
  return WIN_ANSI_EXTRA[cp];
}

const codePoints = (text: string) => [...text].map((c) => c.codePointAt(0)!);
const isSpace = (cp: number) => /\s/.test(String.fromCodePoint(cp));
const hex = (n: number, digits: number) => n.toString(16).padStart(digits, '0');

/** The font's own name, without a subset tag ("ABCDEF+Helvetica"). */
const baseName = (font: mupdf.Font) => font.getName().replace(/^[A-Z]{6}\+/, '');

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

/** Every character that is not white space has a glyph with ink (subsets may keep empty glyphs). */
function hasGlyphs(font: mupdf.Font, text: string): boolean {
  const bbox = (gid: number) => {
    const t = new mupdf.Text();
    t.showGlyph(font, mupdf.Matrix.identity, gid, 0);
    const r = t.getBounds(null as unknown as mupdf.StrokeState, mupdf.Matrix.identity); // null: filled, not stroked
    t.destroy();
    return r;
  };
  return codePoints(text).every((cp) => {
    if (isSpace(cp)) return true;
    const gid = font.encodeCharacter(cp);
    if (gid <= 0) return false;
    const r = bbox(gid);
    return r[2] > r[0] && r[3] > r[1];
  });
}

interface TextFont {
  resource: mupdf.PDFObject;
  /** A TJ operand showing `text`, and its advance in text space units (ems). */
  show(text: string): { operand: string; advance: number };
}

/** Fonts added to the document for new text, made once each. */
class FontPicker {
  private made = new Map<string, TextFont | null>();
  constructor(private readonly doc: mupdf.PDFDocument) {}

  /** The font for `text` set in place of text in `original`, and the fallback's name if it is not the original. */
  pick(original: mupdf.Font, text: string): { font: TextFont; fallback: string | null } {
    const name = baseName(original);
    const latin = codePoints(text).every((cp) => winAnsiCode(cp) !== undefined);
    if (hasGlyphs(original, text)) {
      // A standard font need not be embedded: the same name in WinAnsi encoding is the same font.
      if (BASE14.has(name) && latin) return { font: this.simple(name), fallback: null };
      const own = this.identity(`font:${original.pointer}`, original);
      if (own) return { font: own, fallback: null };
    }
    const standard = standardLike(original);
    const font = latin ? this.simple(standard) : (this.identity(`std:${standard}`, new mupdf.Font(standard)) ?? this.simple(standard));
    return { font, fallback: standard };
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
    if (this.made.has(key)) return this.made.get(key)!;
    let made: TextFont | null = null;
    try {
      made = {
        resource: this.doc.addFont(font),
        show: (text) => {
          // A font subset without a space glyph still gets its gap: a TJ offset of a quarter em.
          const parts: string[] = [];
          let advance = 0;
          for (const cp of codePoints(text)) {
            const gid = Math.max(0, font.encodeCharacter(cp));
            if (gid === 0 && isSpace(cp)) {
              parts.push('-250');
              advance += 0.25;
            } else {
              parts.push(`<${hex(gid, 4)}>`);
              advance += font.advanceGlyph(gid);
            }
          }
          return { operand: `[${parts.join(' ')}]`, advance };
        },
      };
    } catch {
      made = null;
    }
    this.made.set(key, made);
    return made;
  }
}

const num = (n: number) => String(Number(n.toFixed(4)));

/** A resource name not yet used in the page's font dictionary. */
function fontName(fonts: mupdf.PDFObject, taken: Map<mupdf.PDFObject, string>, resource: mupdf.PDFObject): string {
  const known = taken.get(resource);
  if (known) return known;
  let i = 0;
  while (!fonts.get(`Quire${i}`).isNull()) i++;
  const name = `Quire${i}`;
  fonts.put(name, resource);
  taken.set(resource, name);
  return name;
}

/** The page's own resource dictionary (copied from an ancestor if inherited) with a font dictionary. */
function pageFonts(doc: mupdf.PDFDocument, page: mupdf.PDFObject): mupdf.PDFObject {
  let resources = page.get('Resources');
  if (!resources.isDictionary()) {
    const inherited = page.getInheritable('Resources');
    resources = doc.newDictionary();
    if (inherited.isDictionary()) inherited.forEach((value, key) => resources.put(key, value));
    page.put('Resources', resources);
  }
  let fonts = resources.get('Font');
  if (!fonts.isDictionary()) {
    fonts = doc.newDictionary();
    resources.put('Font', fonts);
  }
  return fonts;
}

/** Appends content to the page, after the existing content wrapped in q/Q so its state cannot leak into ours. */
function appendContent(doc: mupdf.PDFDocument, page: mupdf.PDFObject, content: string) {
  const old = page.get('Contents');
  const contents = doc.newArray();
  contents.push(doc.addStream('q\n', {}));
  if (old.isArray()) old.forEach((c) => contents.push(c));
  else if (!old.isNull()) contents.push(old);
  contents.push(doc.addStream(`Q\n${content}`, {}));
  page.put('Contents', contents);
}

function colorOp(color: number[]): string {
  const c = color.map(num).join(' ');
  return color.length === 1 ? `${c} g` : color.length === 4 ? `${c} k` : `${c} rg`;
}

function replace(job: ReplaceJob): JobResults['replace'] {
  const doc = openPdf(job.input);
  const pattern = searchPattern({ text: job.search, ignoreCase: false });
  const fonts = new FontPicker(doc);
  let replaced = 0;
  let fallbackFont: string | null = null;
  const count = doc.countPages();
  for (let i = 0; i < count; i++) {
    const page = doc.loadPage(i);
    const text = pageText(page);
    const edits = findHits(text.text, pattern)
      .map((hit) => ({ hit, chars: charsOf(text, hit) }))
      .filter((e) => e.chars.length > 0);
    if (edits.length) {
      markAndApply(
        page,
        edits.map((e) => ({ rect: quadBounds(e.chars.map((c) => c.quad)), quads: e.chars.map((c) => c.quad) })),
        false,
      );
      replaced += edits.length;
      if (job.replace) {
        const obj = page.getObject();
        const fontDict = pageFonts(doc, obj);
        const names = new Map<mupdf.PDFObject, string>();
        const toUser = mupdf.Matrix.invert(page.getTransform());
        const ops: string[] = [];
        for (const { hit, chars } of edits) {
          const first = chars[0]!;
          const { font, fallback } = fonts.pick(first.font, job.replace);
          fallbackFont ??= fallback;
          const { operand, advance } = font.show(job.replace);
          // The old text's width along its line, from its first character's start to its last's end on that line.
          const sameLine = chars.filter((c) => c.line === first.line);
          const last = sameLine.at(-1)!;
          const [dx, dy] = first.dir;
          const oldWidth = (last.quad[6] - first.quad[4]) * dx + (last.quad[7] - first.quad[5]) * dy;
          const newWidth = advance * first.size;
          // Longer text is narrowed (to half at most) rather than written over the words after it.
          const followed = /^[^\n]*\S/.test(text.text.slice(hit.index + hit.length).split('\n', 1)[0] ?? '');
          const scale = followed && newWidth > oldWidth && oldWidth > 0 ? Math.max(50, (oldWidth / newWidth) * 100) : 100;
          // The text matrix in page space (y down): x along the line, y up from the baseline.
          const s = first.size;
          const inPage: mupdf.Matrix = [s * dx, s * dy, s * dy, -s * dx, first.origin[0], first.origin[1]];
          const tm = mupdf.Matrix.concat(inPage, toUser);
          const name = fontName(fontDict, names, font.resource);
          ops.push(`BT /${name} 1 Tf ${colorOp(first.color)} ${num(scale)} Tz ${tm.map(num).join(' ')} Tm ${operand} TJ ET`);
        }
        appendContent(doc, obj, `${ops.join('\n')}\n`);
      }
    }
    page.destroy();
    progress(i + 1, count);
  }
  save(doc, job.output);
  return { count: replaced, fallbackFont };
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const job = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as MupdfJob;
  // MuPDF reports what it repairs on stderr; the server captures it for failures only.
  mupdf.setLog({ warning: (m) => process.stderr.write(`warning: ${m}\n`), error: (m) => process.stderr.write(`error: ${m}\n`) });
  try {
    if (job.op === 'geometry')
      return answer({ ok: true, result: pageGeometry(job, openPdf(job.input), progress, (code, msg) => new JobFailure(code, msg)) });
    if (job.op === 'extract') {
      const doc = openPdf(job.input);
      await writeDocument(extractModel(doc, job.imagesDir, progress), job.format, job.title, job.output);
      return answer({ ok: true, result: { pages: doc.countPages() } });
    }
    const result = job.op === 'crop' ? crop(job) : job.op === 'redact' ? redact(job) : replace(job);
    answer({ ok: true, result });
  } catch (e) {
    if (e instanceof JobFailure || e instanceof SearchTooSlow) answer({ ok: false, code: e.code, msg: e.message });
    else {
      process.stderr.write(`${(e as Error).stack ?? e}\n`);
      answer({ ok: false, code: ErrorCode.TaskFailed, msg: 'This PDF could not be processed.' });
    }
  }
}

void main();
