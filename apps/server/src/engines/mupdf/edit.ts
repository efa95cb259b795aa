// The editor's save: each operation written into the PDF with MuPDF. Text edits go into the page's
// content stream (the old glyphs removed as a redaction removes them, the new ones set in the run's
// own font where it has them); annotations are PDF annotations; form values go into the fields.
import fs from 'node:fs';
import path from 'node:path';
import * as mupdf from 'mupdf';
import type { EditOperation, EditRect, FontFamilyId } from '@quire/contracts';
import { ErrorCode, errorMessages } from '@quire/contracts/errors';
import { fontFamilies, nearestFamily } from '@quire/contracts/fonts';
import type { FontFiles, FontStyle } from '../fontFiles.js';
import { appendContent, colorOp, identityFont, num, pageResources, resourceName, type TextFont } from './contentText.js';
import type { EditJob, JobResults } from './jobs.js';
import { annotationId, fromEditRect, onStates, type PageImage, readImages, readRuns, type Run } from './pageObjects.js';
import { markAndApply, quadBounds } from './pageText.js';
import { aligned, alignmentOf, type Piece, type SetLine, widthOf, wrap } from './paragraph.js';
import { JobFailure } from '../jobFailure.js';
import type { TextKey } from '../../texts/words.js';
import { openPdf, progress, save } from './program.js';
import { baseName, FontPicker, winAnsiCode } from './replace.js';

type Op<K extends EditOperation['op']> = Extract<EditOperation, { op: K }>;

const gone = (what: string) => new JobFailure(ErrorCode.EditTargetGone, `${errorMessages[ErrorCode.EditTargetGone]} (${what})`);

const rgb = (hex: string): [number, number, number] => {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];
  return [r, g, b];
};

const CJK = /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;

/** The editor's fonts: the runs' own, and the 21 families' files, each embedded once. */
class EditFonts {
  private readonly picker: FontPicker;
  private readonly families = new Map<string, { font: mupdf.Font; text: TextFont }>();
  readonly fallbacks = new Set<string>();
  private readonly reusedFonts = new Map<number, TextFont>();
  private reused(run: Run, text: string, page: PageState) {
    return reusedFont(run, text, page, this.reusedFonts);
  }
  get embeddedFiles() {
    return this.families.size > 0;
  }
  constructor(
    private readonly doc: mupdf.PDFDocument,
    private readonly files: FontFiles,
  ) {
    this.picker = new FontPicker(doc);
  }

  /** A family in a style (the first family installed when this one is not). */
  family(id: FontFamilyId, bold: boolean, italic: boolean): { font: mupdf.Font; text: TextFont } {
    const style: FontStyle = bold ? (italic ? 'boldItalic' : 'bold') : italic ? 'italic' : 'regular';
    const installed = this.files[id] ?? Object.values(this.files)[0];
    if (!installed) throw new JobFailure(ErrorCode.TaskFailed, 'No fonts are installed for the editor.');
    const file = installed[style];
    const cached = this.families.get(file);
    if (cached) return cached;
    // Named after its file (DejaVuSans-Bold), as pdffonts and other readers will show it.
    const font = new mupdf.Font(path.basename(file, path.extname(file)), fs.readFileSync(file));
    const text = identityFont(this.doc, font);
    if (!text) throw new JobFailure(ErrorCode.TaskFailed, { key: 'error.edit.fontFailed', params: { font: id } });
    const made = { font, text };
    this.families.set(file, made);
    return made;
  }

  /** The run's own font, where it has the glyphs of `text`; null when another would stand in for it. */
  own(run: Run, text: string, page: PageState): TextFont | null {
    return this.reused(run, text, page) ?? this.picker.own(run.font, text);
  }

  /**
   * The font a run's new text is set in: the run's own where it has the glyphs and no other style is
   * asked for, else the family asked for, else the family nearest the run's font (noted as a fallback).
   */
  forRun(run: Run, text: string, ask: { font?: FontFamilyId; bold?: boolean; italic?: boolean }, page: PageState): TextFont {
    const name = baseName(run.font);
    const bold = run.font.isBold() || /bold|black|heavy/i.test(name);
    const italic = run.font.isItalic() || /italic|oblique/i.test(name);
    const restyled = (ask.bold !== undefined && ask.bold !== bold) || (ask.italic !== undefined && ask.italic !== italic);
    if (!ask.font && !restyled) {
      const own = this.own(run, text, page);
      if (own) return own;
    }
    const family =
      ask.font ?? (CJK.test(text) ? 'droid-sans-fallback' : nearestFamily({ name, serif: run.font.isSerif(), mono: run.font.isMono() }));
    if (!ask.font && !restyled) this.fallbacks.add(fontFamilies.find((f) => f.id === family)!.name);
    return this.family(family, ask.bold ?? bold, ask.italic ?? italic).text;
  }
}

/**
 * The run's own font resource, written again with its own codes, where the page already draws every
 * character of `text` in it (a subset font has the glyphs it draws, whatever its cmap says). Simple
 * fonts in WinAnsi or standard encoding only; others are re-embedded or replaced.
 */
function reusedFont(run: Run, text: string, page: PageState, made: Map<number, TextFont>): TextFont | null {
  const drawn = new Set(page.runs!.filter((r) => r.font.pointer === run.font.pointer).flatMap((r) => [...r.text]));
  if (![...text].every((ch) => /\s/.test(ch) || drawn.has(ch))) return null;
  const fonts = page.page.getObject().getInheritable('Resources').get('Font');
  if (!fonts.isDictionary()) return null;
  let resource: mupdf.PDFObject | null = null;
  fonts.forEach((font) => {
    if (!resource && font.get('BaseFont').isName() && font.get('BaseFont').asName() === run.font.getName()) resource = font;
  });
  const found = resource as mupdf.PDFObject | null;
  if (!found) return null;
  const simple = ['TrueType', 'Type1'].includes(found.get('Subtype').isName() ? found.get('Subtype').asName() : '');
  const codes = simple ? fontCodes(found) : null;
  if (!codes || ![...text].every((ch) => /\s/.test(ch) || codes(ch) !== undefined)) return null;
  const known = made.get(found.asIndirect());
  if (known) return known;
  const widths = found.get('Widths');
  const firstChar = found.get('FirstChar').isNumber() ? found.get('FirstChar').asNumber() : 0;
  const width = (code: number) => {
    const w = widths.isArray() ? widths.get(code - firstChar) : null;
    return w?.isNumber() ? w.asNumber() / 1000 : 0.5;
  };
  const font: TextFont = {
    resource: found,
    show: (shown) => {
      // A space the font has no code for is a gap of a quarter em, as for re-embedded subsets.
      const parts = [...shown].map((ch) => codes(ch) ?? -1);
      return {
        operand: `[${parts.map((c) => (c < 0 ? '-250' : `<${c.toString(16).padStart(2, '0')}>`)).join(' ')}]`,
        advance: parts.reduce((sum, c) => sum + (c < 0 ? 0.25 : width(c)), 0),
      };
    },
  };
  made.set(found.asIndirect(), font);
  return font;
}

/**
 * The code of each character in a simple font: its ToUnicode map turned round (subsets number their
 * glyphs as they please), else WinAnsi's where the font says it uses that encoding; null when neither is known.
 */
function fontCodes(font: mupdf.PDFObject): ((ch: string) => number | undefined) | null {
  const toUnicode = font.get('ToUnicode');
  if (toUnicode.isStream()) {
    const cmap = toUnicode.readStream().asString();
    const codes = new Map<string, number>();
    const unicode = (hex: string) => String.fromCodePoint(...(hex.match(/.{4}/g) ?? []).map((u) => Number.parseInt(u, 16)));
    for (const block of cmap.match(/beginbfchar([\s\S]*?)endbfchar/g) ?? [])
      for (const [, code, dst] of block.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g))
        codes.set(unicode(dst!), Number.parseInt(code!, 16));
    for (const block of cmap.match(/beginbfrange([\s\S]*?)endbfrange/g) ?? [])
      for (const [, lo, hi, dst] of block.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>/g)) {
        const first = Number.parseInt(dst!, 16);
        for (let c = Number.parseInt(lo!, 16); c <= Number.parseInt(hi!, 16); c++)
          codes.set(String.fromCodePoint(first + c - Number.parseInt(lo!, 16)), c);
      }
    return (ch) => codes.get(ch);
  }
  const encoding = font.get('Encoding');
  if (encoding.isName() && encoding.asName() === 'WinAnsiEncoding') return (ch) => winAnsiCode(ch.codePointAt(0)!);
  return null;
}

/** Writes text into pages: the content each page gets at the end of its edits. */
class PageWriter {
  private readonly names = new Map<mupdf.PDFObject, string>();
  private readonly ops: string[] = [];
  constructor(
    private readonly doc: mupdf.PDFDocument,
    private readonly page: mupdf.PDFPage,
  ) {}

  private name(kind: 'Font' | 'XObject' | 'ExtGState', resource: mupdf.PDFObject) {
    return resourceName(pageResources(this.doc, this.page.getObject(), kind), this.names, resource);
  }

  /** Page space (y down, as shown) to the page's user space. */
  private get toUser() {
    return mupdf.Matrix.invert(this.page.getTransform());
  }

  text(lines: SetLine[], dir: mupdf.Point) {
    const [dx, dy] = dir;
    for (const line of lines)
      for (const { piece, at, operand } of line.parts) {
        const s = piece.size;
        const inPage: mupdf.Matrix = [s * dx, s * dy, s * dy, -s * dx, line.origin[0] + at * dx, line.origin[1] + at * dy];
        const tm = mupdf.Matrix.concat(inPage, this.toUser);
        this.ops.push(
          `BT /${this.name('Font', piece.font.resource)} 1 Tf ${colorOp(piece.color)} ${tm.map(num).join(' ')} Tm ${operand} TJ ET`,
        );
      }
  }

  /** Drawing in page space: `body` is content whose coordinates are the editor's. */
  drawing(body: string, opacity = 1) {
    let gs = '';
    if (opacity < 1) {
      const state = this.doc.newDictionary();
      state.put('CA', opacity);
      state.put('ca', opacity);
      gs = `/${this.name('ExtGState', this.doc.addObject(state))} gs `;
    }
    this.ops.push(`q ${this.toUser.map(num).join(' ')} cm ${gs}${body} Q`);
  }

  image(image: mupdf.Image, rect: EditRect) {
    const name = this.name('XObject', this.doc.addImage(image));
    // The unit square of the image, its bottom left at the rectangle's bottom left (y down).
    this.drawing(`${num(rect.width)} 0 0 ${num(-rect.height)} ${num(rect.x)} ${num(rect.y + rect.height)} cm /${name} Do`);
  }

  /** Writes what is pending; done before a redaction, which rewrites the page's content and resources. */
  flush() {
    if (this.ops.length) appendContent(this.doc, this.page.getObject(), `${this.ops.join('\n')}\n`);
    this.ops.length = 0;
    this.names.clear();
  }
}

const pathOfRect = (r: EditRect) => `${num(r.x)} ${num(r.y)} ${num(r.width)} ${num(r.height)} re`;

function pathOfEllipse(r: EditRect): string {
  const k = 0.5523;
  const [cx, cy, rx, ry] = [r.x + r.width / 2, r.y + r.height / 2, r.width / 2, r.height / 2];
  const p = (...n: number[]) => n.map(num).join(' ');
  return [
    `${p(cx + rx, cy)} m`,
    `${p(cx + rx, cy + k * ry, cx + k * rx, cy + ry, cx, cy + ry)} c`,
    `${p(cx - k * rx, cy + ry, cx - rx, cy + k * ry, cx - rx, cy)} c`,
    `${p(cx - rx, cy - k * ry, cx - k * rx, cy - ry, cx, cy - ry)} c`,
    `${p(cx + k * rx, cy - ry, cx + rx, cy - k * ry, cx + rx, cy)} c h`,
  ].join(' ');
}

function shapeContent(o: Op<'shape'>): string {
  const paint = `${o.stroke ? `${colorOp(rgb(o.stroke)).toUpperCase()} ${num(o.width)} w ` : ''}${o.fill ? `${colorOp(rgb(o.fill))} ` : ''}`;
  const op = o.stroke && o.fill ? 'B' : o.fill ? 'f' : 'S';
  if (o.kind === 'rect' || o.kind === 'ellipse') {
    if (!o.rect) throw new JobFailure(ErrorCode.InvalidParams, `A ${o.kind} needs its rect.`);
    return `${paint}${o.kind === 'rect' ? pathOfRect(o.rect) : pathOfEllipse(o.rect)} ${op}`;
  }
  if (!o.points) throw new JobFailure(ErrorCode.InvalidParams, `A ${o.kind} needs its points.`);
  const [[x0, y0], [x1, y1]] = o.points;
  const stroke = o.stroke ?? '#000000';
  let body = `${colorOp(rgb(stroke)).toUpperCase()} ${num(o.width)} w 1 J ${num(x0)} ${num(y0)} m ${num(x1)} ${num(y1)} l S`;
  if (o.kind === 'arrow') {
    // A filled head three line widths wide (at least 6 points), pointing along the line.
    const len = Math.hypot(x1 - x0, y1 - y0) || 1;
    const [ux, uy] = [(x1 - x0) / len, (y1 - y0) / len];
    const head = Math.max(6, o.width * 3);
    const [bx, by] = [x1 - ux * head, y1 - uy * head];
    const p = (x: number, y: number) => `${num(x)} ${num(y)}`;
    body += ` ${colorOp(rgb(stroke))} ${p(x1, y1)} m ${p(bx - uy * head * 0.5, by + ux * head * 0.5)} l ${p(bx + uy * head * 0.5, by - ux * head * 0.5)} l h f`;
  }
  return body;
}

/** Lines of a text box: the given line breaks, then words wrapped at its width. */
function textBox(o: Op<'addText'>, font: TextFont): SetLine[] {
  const leading = o.size * 1.2;
  const color = rgb(o.color);
  const lines = o.text.split(/\r?\n/).flatMap((paragraph) => {
    const piece: Piece = { text: paragraph, font, size: o.size, color };
    return paragraph.trim() ? wrap([piece], [[0, 0]], [o.rect.width], 0, [1, 0]) : [{ origin: [0, 0] as mupdf.Point, parts: [] }];
  });
  return lines.map((line, i) => {
    const width = line.parts.reduce((w, p) => w + widthOf({ ...p.piece, text: p.piece.text.trimEnd() }), 0);
    const shift = o.align === 'center' ? (o.rect.width - width) / 2 : o.align === 'right' ? o.rect.width - width : 0;
    return { ...line, origin: [o.rect.x + shift, o.rect.y + o.size * 0.85 + i * leading] };
  });
}

const quadOf = (r: EditRect): mupdf.Quad => [r.x, r.y, r.x + r.width, r.y, r.x, r.y + r.height, r.x + r.width, r.y + r.height];

const annotationTypes: Record<Op<'annotate'>['type'], mupdf.PDFAnnotationType> = {
  highlight: 'Highlight',
  underline: 'Underline',
  strikeout: 'StrikeOut',
  note: 'Text',
  ink: 'Ink',
  square: 'Square',
  circle: 'Circle',
  line: 'Line',
  freetext: 'FreeText',
  stamp: 'Stamp',
};

function annotate(page: mupdf.PDFPage, o: Op<'annotate'>) {
  const needs = (what: string) => new JobFailure(ErrorCode.InvalidParams, `A ${o.type} annotation needs its ${what}.`);
  const annot = page.createAnnotation(annotationTypes[o.type]);
  const color = rgb(o.color);
  if (o.type === 'highlight' || o.type === 'underline' || o.type === 'strikeout') {
    if (!o.quads?.length) throw needs('quads');
    annot.setQuadPoints(o.quads.map(quadOf));
  } else if (o.type === 'ink') {
    if (!o.ink?.length) throw needs('ink');
    annot.setInkList(o.ink.map((stroke) => stroke.map(([x, y]) => [x, y] as mupdf.Point)));
    annot.setBorderWidth(o.width);
  } else if (o.type === 'line') {
    if (!o.points) throw needs('points');
    annot.setLine(o.points[0], o.points[1]);
    annot.setBorderWidth(o.width);
  } else {
    if (!o.rect) throw needs('rect');
    annot.setRect(fromEditRect(o.rect));
    if (o.type === 'square' || o.type === 'circle') annot.setBorderWidth(o.width);
    if (o.type === 'freetext') annot.setDefaultAppearance('Helv', o.font_size, color);
    if (o.type === 'stamp' && o.image) annot.setStampImage(decodeImage(o.image));
    else if (o.type === 'stamp' && o.contents) annot.setIcon(o.contents.replace(/[^A-Za-z]/g, '') || 'Draft');
  }
  if (o.type !== 'freetext') annot.setColor(color);
  annot.setOpacity(o.opacity);
  if (o.contents !== undefined) annot.setContents(o.contents);
  if (o.author !== undefined) annot.setAuthor(o.author);
  annot.update();
}

function findAnnotation(page: mupdf.PDFPage, id: string): mupdf.PDFAnnotation {
  const annot = page.getAnnotations().find((a) => annotationId(a) === id);
  if (!annot) throw gone(`annotation ${id}`);
  return annot;
}

function editAnnotation(page: mupdf.PDFPage, o: Op<'editAnnotation'>) {
  const annot = findAnnotation(page, o.annotation);
  if (o.rect) annot.setRect(fromEditRect(o.rect));
  if (o.color) annot.setColor(rgb(o.color));
  if (o.opacity !== undefined) annot.setOpacity(o.opacity);
  if (o.contents !== undefined) annot.setContents(o.contents);
  if (o.author !== undefined) annot.setAuthor(o.author);
  annot.update();
}

type FieldRefusal = Extract<TextKey, `error.edit.field${string}`>;

function fillForm(doc: mupdf.PDFDocument, o: Op<'fillForm'>) {
  const widgets: mupdf.PDFWidget[] = [];
  for (let i = 0; i < doc.countPages(); i++) widgets.push(...doc.loadPage(i).getWidgets());
  for (const [name, value] of Object.entries(o.fields)) {
    const refuse = (key: FieldRefusal, option?: unknown) =>
      new JobFailure(ErrorCode.EditFieldUnknown, { key, params: { name, option: String(option) } });
    const mine = widgets.filter((w) => w.getName() === name);
    const first = mine[0];
    if (!first) throw refuse('error.edit.fieldUnknown');
    if (first.isReadOnly()) throw refuse('error.edit.fieldReadOnly');
    if (first.isCheckbox() || first.isRadioButton()) {
      // A check box: true checks it; a radio group: the option named is chosen (the widget with that on state).
      if (first.isCheckbox()) {
        if (typeof value !== 'boolean') throw refuse('error.edit.fieldCheckbox');
        if (value !== (first.getValue() !== 'Off')) first.toggle();
        first.update();
        continue;
      }
      const target = mine.find((w) => onStates(w).includes(String(value)));
      if (!target) throw refuse('error.edit.fieldNoOption', value);
      if (target.getValue() !== value) target.toggle();
      target.update();
    } else if (first.isChoice()) {
      if (typeof value !== 'string' || !first.getOptions().includes(value)) throw refuse('error.edit.fieldNoOption', value);
      first.setChoiceValue(value);
      first.update();
    } else if (first.isText()) {
      if (typeof value !== 'string') throw refuse('error.edit.fieldTakesText');
      first.setTextValue(value);
      first.update();
    } else throw refuse('error.edit.fieldNotFillable');
  }
}

/**
 * MuPDF's rearrangePages drops the document's form (Root /AcroForm) whatever pages stay: the form is
 * put back, with the fields that still have a widget on one of the pages.
 */
function rearrangeKeepingForm(doc: mupdf.PDFDocument, indices: number[]) {
  const root = doc.getTrailer().get('Root');
  const form = root.get('AcroForm');
  doc.rearrangePages(indices);
  if (!form.isDictionary()) return;
  const onPages = new Set<number>();
  for (let i = 0; i < doc.countPages(); i++) {
    const annots = doc.loadPage(i).getObject().get('Annots');
    if (annots.isArray()) for (let k = 0; k < annots.length; k++) if (annots.get(k).isIndirect()) onPages.add(annots.get(k).asIndirect());
  }
  // A field is shown by its own widget or by one of its kids' (a bounded depth: a looping tree ends).
  const shown = (field: mupdf.PDFObject, depth: number): boolean => {
    if (field.isIndirect() && onPages.has(field.asIndirect())) return true;
    const kids = field.get('Kids');
    if (depth >= 32 || !kids.isArray()) return false;
    for (let k = 0; k < kids.length; k++) if (shown(kids.get(k), depth + 1)) return true;
    return false;
  };
  const fields = form.get('Fields');
  const kept = doc.newArray();
  if (fields.isArray()) for (let k = 0; k < fields.length; k++) if (shown(fields.get(k), 0)) kept.push(fields.get(k));
  form.put('Fields', kept);
  root.put('AcroForm', form);
}

/** The pages operation: the new document page by page; answers each new page's page of the file as uploaded (null: blank). */
function rearrange(doc: mupdf.PDFDocument, o: Op<'pages'>): (number | null)[] {
  const indices: number[] = [];
  o.order.forEach((entry, i) => {
    if (entry.from !== 'blank') {
      indices.push(entry.from - 1);
      return;
    }
    // A blank page the size of the page before it as shown (of the first page at the start).
    const before = o.order
      .slice(0, i)
      .reverse()
      .find((e) => e.from !== 'blank')?.from;
    const model = doc.loadPage(typeof before === 'number' ? before - 1 : 0);
    const [x0, y0, x1, y1] = model.getBounds();
    doc.insertPage(doc.countPages(), doc.addPage([0, 0, x1 - x0, y1 - y0], 0, doc.newDictionary(), ''));
    indices.push(doc.countPages() - 1);
  });
  rearrangeKeepingForm(doc, indices);
  o.order.forEach((entry, i) => {
    if (!entry.rotate) return;
    const page = doc.loadPage(i).getObject();
    page.put('Rotate', (Number(page.getInheritable('Rotate').valueOf()) + entry.rotate) % 360);
  });
  return o.order.map((e) => (e.from === 'blank' ? null : e.from));
}

/** What each page's edits need to know of it before any edit: its runs and images as the file has them. */
interface PageState {
  page: mupdf.PDFPage;
  writer: PageWriter;
  runs?: Run[];
  images?: PageImage[];
}

/**
 * Sets the edited runs of one paragraph (text block) in one pass, so that edits of several runs
 * cannot disturb each other (the page sends one operation per run). Where every edited line still
 * fits its paragraph, only those lines are set again; otherwise the paragraph re-flows from the
 * first edited line on. Lines keep the paragraph's alignment; flush left, a line is set again from
 * its first edited run only, leaving the text before it as it was.
 */
function replaceText(state: PageState, fonts: EditFonts, ops: Op<'replaceText'>[]) {
  const runs = state.runs!;
  const edits = new Map<Run, Op<'replaceText'>>();
  for (const o of ops) {
    const run = runs.find((r) => r.id === o.run);
    if (!run) throw gone(`text ${o.run}`);
    // A run edited twice takes its last text.
    edits.set(run, o);
  }
  const edited = (r: Run) => edits.has(r);
  const run = runs.find(edited)!;
  const block = runs.filter((r) => r.block === run.block);
  const dir = run.chars[0]!.dir;
  const alignment = alignmentOf(block);
  const pieces = new Map<Run, Piece>();
  const pieceOf = (r: Run): Piece => {
    const known = pieces.get(r);
    if (known) return known;
    const o = edits.get(r);
    const piece: Piece = o
      ? { text: o.text, font: fonts.forRun(r, o.text || ' ', o, state), size: o.size ?? r.size, color: o.color ? rgb(o.color) : r.color }
      : { text: r.text, font: fonts.forRun(r, r.text, {}, state), size: r.size, color: r.color };
    pieces.set(r, piece);
    return piece;
  };
  // The run a line is set again from: its first edited one when flush left, else the line's first.
  const lineRuns = (line: number) => block.filter((r) => r.line === line);
  const setFrom = (line: number) => {
    const own = lineRuns(line);
    return alignment.kind === 'left' ? own.find(edited)! : own[0]!;
  };
  const rest = (from: Run, sameLine: boolean) => block.slice(block.indexOf(from)).filter((r) => !sameLine || r.line === from.line);
  // The paragraph's right edge, measured along the line from a point. A paragraph of one line (a
  // title, a table cell) has no lines of its own to flow into: it grows along its line up to the
  // page's text margin (as wide as its left one), rather than down over what follows it.
  const [pageLeft, , pageRight] = state.page.getBounds();
  const textLeft = Math.min(...runs.map((r) => r.blockBbox[0]));
  const oneLine = block.every((r) => r.line === run.line);
  const rightEdge = oneLine ? Math.max(run.blockBbox[2], pageRight - (textLeft - pageLeft)) : run.blockBbox[2];
  // A centred or flush-right line moves along its baseline: it may take the paragraph's whole width.
  const moves = alignment.kind === 'center' || alignment.kind === 'right';
  const room = (p: mupdf.Point) => (dir[0] > 0.99 ? rightEdge - (moves ? run.blockBbox[0] : p[0]) : Number.POSITIVE_INFINITY);
  const editedLines = [...new Set(block.filter(edited).map((r) => r.line))];
  const width = (pieces: Piece[]) => pieces.reduce((w, p) => w + widthOf(p), 0);
  const ends = alignment.kind === 'justify' ? alignment.ends : new Set<number>();
  const lastLine = block.at(-1)!.line;
  // Each edited line as edited fits: those lines alone are set again; else the paragraph re-flows.
  // A justified line must also stay full (the next line's first word still not fitting on it), or
  // its spaces would gape: the paragraph re-flows and words move up.
  const fits = editedLines.every((line) => {
    const from = setFrom(line);
    const natural = width(rest(from, true).map(pieceOf));
    const available = room(from.chars[0]!.origin);
    if (natural > available + 0.5) return false;
    if (alignment.kind !== 'justify' || ends.has(line) || line === lastLine) return true;
    const next = rest(block.find((r) => r.line > line)!, true)
      .map(pieceOf)
      .find((p) => p.text.trim());
    const word = next?.text.trimStart().split(/\s/)[0];
    return !next || natural + widthOf({ ...next, text: ` ${word}` }) > available + 0.5;
  });
  /** The runs' pieces in order: runs of one line follow each other; a line ends in a space or, ending its paragraph, a break. */
  const joined = (moved: Run[]) => {
    const text: Piece[] = [];
    moved.forEach((r, i) => {
      let piece = pieceOf(r);
      const next = moved[i + 1];
      const endsLine = next?.line !== r.line;
      if (endsLine && (ends.has(r.line) || r.line === lastLine)) piece = { ...piece, paragraphEnd: true };
      else if (endsLine && next && !/\s$/.test(piece.text)) piece = { ...piece, text: `${piece.text} ` };
      const before = text.at(-1);
      // An emptied run leaves one space between its neighbours, not two.
      if (before && !before.paragraphEnd && /\s$/.test(before.text)) piece = { ...piece, text: piece.text.trimStart() };
      if (piece.text) text.push(piece);
      else if (piece.paragraphEnd && before) text[text.length - 1] = { ...before, paragraphEnd: true };
    });
    return text;
  };
  /** Lines set again from `moved` (one line alone when `wide`), wrapped and aligned. */
  const setAgain = (moved: Run[], wide: boolean): SetLine[] => {
    const lineStarts = new Map<number, mupdf.Point>();
    for (const r of moved) if (!lineStarts.has(r.line)) lineStarts.set(r.line, r.chars[0]!.origin);
    const starts = [...lineStarts.values()];
    const leading = starts.length > 1 ? Math.hypot(starts[1]![0] - starts[0]![0], starts[1]![1] - starts[0]![1]) : run.size * 1.2;
    // Lines after the first start at the paragraph's left edge as the file has them.
    const lines = wrap(joined(moved), starts, wide ? [Number.POSITIVE_INFINITY] : starts.map(room), leading, dir);
    // A line set again alone ends its paragraph only where the file's did (an emptied line has none).
    const last = lines.at(-1);
    if (wide && last) last.paragraphEnd = ends.has(moved[0]!.line) || moved[0]!.line === lastLine;
    return lines.map((l) => aligned(l, alignment));
  };
  // The text of the paragraph not set again is written again too, each glyph where it was, so that
  // the paragraph's text stays together in the content and reads back as one paragraph; a run whose
  // own font cannot be written again stays as it is.
  const kept = (rs: Run[]) =>
    rs.flatMap((r) => {
      const font = fonts.own(r, r.text, state);
      return font ? [{ run: r, line: glyphsInPlace(r, font) }] : [];
    });
  const lines: { runs: Run[]; lines: SetLine[] }[] = [];
  const keep = (rs: Run[]) => {
    const done = kept(rs);
    lines.push({ runs: done.map((k) => k.run), lines: done.map((k) => k.line) });
  };
  const reset = (moved: Run[], wide: boolean) => lines.push({ runs: moved, lines: setAgain(moved, wide) });
  if (fits) {
    for (const line of new Set(block.map((r) => r.line))) {
      const own = lineRuns(line);
      if (!editedLines.includes(line)) {
        keep(own);
        continue;
      }
      const from = setFrom(line);
      keep(own.slice(0, own.indexOf(from)));
      reset(rest(from, true), true);
    }
  } else {
    const from = block.indexOf(setFrom(editedLines[0]!));
    keep(block.slice(0, from));
    reset(block.slice(from), false);
  }
  state.writer.flush();
  markAndApply(
    state.page,
    lines.flatMap(({ runs: rs }) => rs.map((r) => ({ rect: quadBounds(r.chars.map((c) => c.quad)), quads: r.chars.map((c) => c.quad) }))),
    false,
  );
  state.writer.text(
    lines.flatMap((l) => l.lines),
    dir,
  );
}

/** A run written again in its own font with each glyph at its place (TJ offsets make up for kerning and spacing). */
function glyphsInPlace(run: Run, font: TextFont): SetLine {
  const dir = run.chars[0]!.dir;
  const operands: string[] = [];
  [...run.text].forEach((ch, i) => {
    const shown = font.show(ch);
    operands.push(shown.operand.slice(1, -1));
    const [here, next] = [run.chars[i]!.origin, run.chars[i + 1]?.origin];
    if (!next) return;
    const gap = (next[0] - here[0]) * dir[0] + (next[1] - here[1]) * dir[1] - shown.advance * run.size;
    if (Math.abs(gap) > 0.005) operands.push(num((-gap / run.size) * 1000));
  });
  const piece: Piece = { text: run.text, font, size: run.size, color: run.color };
  return { origin: run.chars[0]!.origin, parts: [{ piece, at: 0, operand: `[${operands.join(' ')}]` }] };
}

function findImage(state: PageState, id: string): PageImage {
  const image = state.images!.find((i) => i.id === id);
  if (!image) throw gone(`image ${id}`);
  return image;
}

/** Takes an image off the page: a redaction at its centre that removes the images it touches, and nothing else. */
function removeImage({ page, writer }: PageState, image: PageImage) {
  writer.flush();
  const [x0, y0, x1, y1] = image.bbox;
  const [cx, cy] = [(x0 + x1) / 2, (y0 + y1) / 2];
  const annot = page.createAnnotation('Redact');
  annot.setRect([cx - 0.5, cy - 0.5, cx + 0.5, cy + 0.5]);
  page.applyRedactions(false, mupdf.PDFPage.REDACT_IMAGE_REMOVE, mupdf.PDFPage.REDACT_LINE_ART_NONE, mupdf.PDFPage.REDACT_TEXT_NONE);
}

function decodeImage(base64: string): mupdf.Image {
  const bytes = Buffer.from(base64, 'base64');
  const png = bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
  const refuse = () => new JobFailure(ErrorCode.EditImageUnreadable, errorMessages[ErrorCode.EditImageUnreadable]);
  if (!png && !jpeg) throw refuse();
  try {
    const image = new mupdf.Image(bytes);
    if (image.getWidth() < 1 || image.getHeight() < 1) throw refuse();
    return image;
  } catch {
    throw refuse();
  }
}

export function edit(job: EditJob): JobResults['edit'] {
  const doc = openPdf(job.input);
  const fonts = new EditFonts(doc, job.fonts);
  const order = job.operations.find((o): o is Op<'pages'> => o.op === 'pages');
  const origin: (number | null)[] = order ? rearrange(doc, order) : Array.from({ length: doc.countPages() }, (_, i) => i + 1);
  const states = new Map<number, PageState>();
  const stateOf = (pageNumber: number): PageState => {
    const known = states.get(pageNumber);
    if (known) return known;
    if (pageNumber > doc.countPages())
      throw new JobFailure(ErrorCode.EditPageMissing, { key: 'error.page.missing', params: { page: pageNumber } });
    const page = doc.loadPage(pageNumber - 1);
    const state: PageState = { page, writer: new PageWriter(doc, page) };
    states.set(pageNumber, state);
    return state;
  };
  // Runs and images are read before any edit, so ids name what the file as uploaded has.
  for (const o of job.operations) {
    if (o.op !== 'replaceText' && o.op !== 'moveImage' && o.op !== 'deleteImage') continue;
    const state = stateOf(o.page);
    const uploaded = origin[o.page - 1] ?? 0;
    if (o.op === 'replaceText') state.runs ??= readRuns(state.page, uploaded);
    else state.images ??= readImages(state.page, uploaded);
  }
  // The text edits of one paragraph are set together, where the first of them stands.
  const paragraphs = new Map<string, Op<'replaceText'>[]>();
  for (const o of job.operations) {
    if (o.op !== 'replaceText') continue;
    const block = stateOf(o.page).runs!.find((r) => r.id === o.run)?.block;
    const key = block === undefined ? `${o.page} ${o.run}` : `${o.page}.${block}`;
    paragraphs.set(key, [...(paragraphs.get(key) ?? []), o]);
  }
  const editsFrom = new Map([...paragraphs.values()].map((ops) => [ops[0]!, ops]));
  job.operations.forEach((o, i) => {
    switch (o.op) {
      case 'pages':
        break;
      case 'replaceText': {
        const ops = editsFrom.get(o);
        if (ops) replaceText(stateOf(o.page), fonts, ops);
        break;
      }
      case 'addText': {
        const { text } = fonts.family(o.font, o.bold, o.italic);
        stateOf(o.page).writer.text(textBox(o, text), [1, 0]);
        break;
      }
      case 'addImage':
        stateOf(o.page).writer.image(decodeImage(o.image), o.rect);
        break;
      case 'moveImage': {
        const state = stateOf(o.page);
        const image = findImage(state, o.image);
        removeImage(state, image);
        state.writer.image(image.image, o.rect);
        break;
      }
      case 'deleteImage': {
        const state = stateOf(o.page);
        removeImage(state, findImage(state, o.image));
        break;
      }
      case 'whiteout':
        stateOf(o.page).writer.drawing(`${colorOp(rgb(o.color))} ${pathOfRect(o.rect)} f`);
        break;
      case 'shape':
        stateOf(o.page).writer.drawing(shapeContent(o), o.opacity);
        break;
      case 'annotate':
        annotate(stateOf(o.page).page, o);
        break;
      case 'editAnnotation':
        editAnnotation(stateOf(o.page).page, o);
        break;
      case 'deleteAnnotation': {
        const { page } = stateOf(o.page);
        page.deleteAnnotation(findAnnotation(page, o.annotation));
        break;
      }
      case 'fillForm':
        fillForm(doc, o);
        break;
      case 'flatten':
        for (const state of states.values()) state.writer.flush();
        doc.bake(o.annotations, true);
        break;
    }
    progress(i + 1, job.operations.length + 1);
  });
  for (const state of states.values()) state.writer.flush();
  // The families' files were embedded whole: only the glyphs used are kept.
  if (fonts.embeddedFiles) {
    try {
      doc.subsetFonts();
    } catch (e) {
      process.stderr.write(`font subsetting failed: ${(e as Error).message}\n`);
    }
  }
  save(doc, job.output);
  return { fallbackFonts: [...fonts.fallbacks] };
}
