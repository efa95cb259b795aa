// Sign: signature images and typed text (names, dates) written into the pages' content, and, for a
// digital signature, a signature field whose appearance is one of those marks and whose value holds
// the placeholders pdfSignature.ts fills. Saved as an incremental update where the file allows it,
// so the bytes an earlier signature covers stay as they were.
import fs from 'node:fs';
import path from 'node:path';
import * as mupdf from 'mupdf';
import { ErrorCode } from '@quire/contracts/errors';
import type { JobResults, SignJob, SignMark } from './jobs.js';
import { JobFailure } from '../jobFailure.js';
import { openPdf, progress } from './program.js';

/** The ByteRange's three unknown numbers before pdfSignature.ts writes the real ones in their room. */
export const BYTE_RANGE_PLACEHOLDER = 2147483647;

/** Text is set this tall relative to its box, and never wider than the box. */
const TEXT_HEIGHT_SHARE = 0.7;

const num = (n: number) => Number(n.toFixed(4)).toString();
const matrixOps = (m: mupdf.Matrix) => `${m.map(num).join(' ')} cm`;

/** A page's own Resources dictionary (an inherited one is copied onto the page first). */
function ownResources(doc: mupdf.PDFDocument, page: mupdf.PDFObject): mupdf.PDFObject {
  const own = page.get('Resources');
  if (own.isDictionary()) return own;
  const copy = doc.newDictionary();
  const inherited = page.getInheritable('Resources');
  if (inherited.isDictionary())
    inherited.forEach((value, key) => {
      copy.put(key, value);
    });
  page.put('Resources', copy);
  return copy;
}

/** parent[key] as a dictionary or an array, made and put there when it is not one yet. */
function childOf(doc: mupdf.PDFDocument, parent: mupdf.PDFObject, key: string, kind: 'dictionary' | 'array'): mupdf.PDFObject {
  const found = parent.get(key);
  if (kind === 'dictionary' ? found.isDictionary() : found.isArray()) return found;
  const made = kind === 'dictionary' ? doc.newDictionary() : doc.newArray();
  parent.put(key, made);
  return made;
}

const hexRgb = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255);

/**
 * A font embedded with only the glyphs it shows. MuPDF.js subsets a whole document only, so the
 * font is subset in a scratch document of its own and grafted from there. TrueType only: MuPDF's
 * subset of a CFF font (the .otf handwriting fonts, some 100 KB whole) leaves charstrings poppler
 * complains about.
 */
function embedFont(doc: mupdf.PDFDocument, font: mupdf.Font, file: string, glyphs: Set<number>): mupdf.PDFObject {
  if (path.extname(file) !== '.ttf') return doc.addFont(font);
  const scratch = new mupdf.PDFDocument();
  const ref = scratch.addFont(font);
  const shown = [...glyphs].map((g) => g.toString(16).padStart(4, '0')).join('');
  const resources = scratch.addObject({ Font: { F: ref } });
  scratch.insertPage(-1, scratch.addPage([0, 0, 100, 100], 0, resources, `BT /F 10 Tf <${shown}> Tj ET`));
  scratch.subsetFonts();
  return doc.graftObject(ref);
}

class MarkWriter {
  private readonly images = new Map<string, mupdf.PDFObject>();
  private readonly fonts = new Map<string, mupdf.Font>();
  private readonly fontRefs = new Map<string, mupdf.PDFObject>();
  /** The font file each text is set in, and the glyphs each file must keep. */
  private readonly fileOfText = new Map<SignMark, string>();
  private readonly glyphsOfFile = new Map<string, Set<number>>();
  private names = 0;

  constructor(
    private readonly doc: mupdf.PDFDocument,
    marks: readonly SignMark[],
  ) {
    for (const mark of marks) {
      if (!mark.text) continue;
      const chars = [...mark.text.value];
      const covers = (font: mupdf.Font) => chars.every((c) => /\s/.test(c) || font.encodeCharacter(c) > 0);
      const file = [mark.text.fontFile, mark.text.fallbackFontFile].find((f) => covers(this.font(f)));
      if (!file) throw new JobFailure(ErrorCode.InvalidParams, 'The text has characters none of the signature fonts can show.');
      this.fileOfText.set(mark, file);
      const glyphs = this.glyphsOfFile.get(file) ?? new Set();
      for (const c of chars) glyphs.add(this.font(file).encodeCharacter(c));
      this.glyphsOfFile.set(file, glyphs);
    }
  }

  private font(file: string): mupdf.Font {
    let font = this.fonts.get(file);
    if (!font) {
      // Named after its file (DancingScript-Regular): the name the PDF's font dictionary shows.
      font = new mupdf.Font(path.basename(file, path.extname(file)), fs.readFileSync(file));
      this.fonts.set(file, font);
    }
    return font;
  }

  private fontRef(file: string): mupdf.PDFObject {
    let ref = this.fontRefs.get(file);
    if (!ref) {
      ref = embedFont(this.doc, this.font(file), file, this.glyphsOfFile.get(file)!);
      this.fontRefs.set(file, ref);
    }
    return ref;
  }

  private uniqueName(prefix: string) {
    return `${prefix}${++this.names}`;
  }

  /**
   * The content operators drawing `mark`, its resources added to `resources`. `toPdf` maps the
   * page as shown (origin top left, y down) to the space the operators are drawn in.
   */
  ops(mark: SignMark, resources: mupdf.PDFObject, toPdf: mupdf.Matrix): string {
    // In the page as shown, y grows downwards: the mark's own space is flipped to stand upright.
    const upright = (m: mupdf.Matrix) => matrixOps(mupdf.Matrix.concat(m, toPdf));
    if (mark.image) {
      let ref = this.images.get(mark.image);
      if (!ref) {
        ref = this.doc.addImage(new mupdf.Image(fs.readFileSync(mark.image)));
        this.images.set(mark.image, ref);
      }
      const name = this.uniqueName('QuireSignImage');
      childOf(this.doc, resources, 'XObject', 'dictionary').put(name, ref);
      return `q ${upright([mark.width, 0, 0, -mark.height, mark.x, mark.y + mark.height])} /${name} Do Q\n`;
    }
    const text = mark.text!;
    const file = this.fileOfText.get(mark)!;
    const font = this.font(file);
    const glyphs = [...text.value].map((c) => font.encodeCharacter(c));
    const advance = glyphs.reduce((sum, g) => sum + font.advanceGlyph(g), 0) || 1;
    const size = Math.min(mark.height * TEXT_HEIGHT_SHARE, mark.width / advance);
    const name = this.uniqueName('QuireSignFont');
    childOf(this.doc, resources, 'Font', 'dictionary').put(name, this.fontRef(file));
    const baseline = mark.y + (mark.height + size * TEXT_HEIGHT_SHARE) / 2;
    const hex = glyphs.map((g) => g.toString(16).padStart(4, '0')).join('');
    const [r, g, b] = hexRgb(text.color).map(num);
    return `q ${upright([1, 0, 0, -1, mark.x, baseline])} BT /${name} ${num(size)} Tf ${r} ${g} ${b} rg 0 0 Td <${hex}> Tj ET Q\n`;
  }
}

/** The page's transform inverted: from the page as shown (what the marks are placed on) to its PDF space. */
const shownToPdf = (doc: mupdf.PDFDocument, index: number): mupdf.Matrix =>
  mupdf.Matrix.invert((doc.loadPage(index) as mupdf.PDFPage).getTransform());

export function sign(job: SignJob): JobResults['sign'] {
  const doc = openPdf(job.input, job.password);
  const writer = new MarkWriter(doc, job.marks);
  const appearance = job.field?.appearance;
  const byPage = new Map<number, string>();
  for (const [i, mark] of job.marks.entries()) {
    if (i === appearance) continue;
    const page = doc.findPage(mark.page - 1);
    byPage.set(mark.page, (byPage.get(mark.page) ?? '') + writer.ops(mark, ownResources(doc, page), shownToPdf(doc, mark.page - 1)));
    progress(i + 1, job.marks.length + 1);
  }
  for (const [n, ops] of byPage) {
    const page = doc.findPage(n - 1);
    // The page's own content may leave the graphics state changed: it is wrapped in q … Q first.
    const contents = doc.newArray();
    contents.push(doc.addStream('q\n', {}));
    const old = page.get('Contents');
    if (old.isArray())
      old.forEach((part) => {
        contents.push(part);
      });
    else if (!old.isNull()) contents.push(old);
    contents.push(doc.addStream(`Q\n${ops}`, {}));
    page.put('Contents', contents);
  }
  if (job.field && appearance !== undefined) addSignatureField(doc, writer, job.field, job.marks[appearance]!);
  const incremental = doc.canBeSavedIncrementally();
  // A full rewrite only where MuPDF had to repair the file: there is no earlier signature to keep
  // then. An encrypted input stays encrypted either way: MuPDF encrypts what it appends with the
  // file's own key, all but a signature's /Contents, which PDF readers hash as written.
  const encrypt = job.password === undefined ? 'none' : 'keep';
  fs.writeFileSync(
    job.output,
    doc.saveToBuffer(incremental ? 'incremental,compress' : `garbage,compress,encrypt=${encrypt}`).asUint8Array(),
  );
  return { marks: job.marks.length, incremental };
}

/** A signature field (a widget on the mark's page) whose value has a ByteRange and Contents to fill. */
function addSignatureField(doc: mupdf.PDFDocument, writer: MarkWriter, field: NonNullable<SignJob['field']>, mark: SignMark) {
  const page = doc.findPage(mark.page - 1);
  const toPdf = shownToPdf(doc, mark.page - 1);
  const rect = mupdf.Rect.transform([mark.x, mark.y, mark.x + mark.width, mark.y + mark.height], toPdf);
  // The appearance's box is the widget's own rectangle, so it is drawn in page space unchanged.
  const resources = doc.newDictionary();
  const ops = writer.ops(mark, resources, toPdf);
  const form = doc.newDictionary();
  form.put('Type', doc.newName('XObject'));
  form.put('Subtype', doc.newName('Form'));
  form.put('BBox', rect);
  form.put('Resources', resources);
  const appearance = doc.addStream(ops, form);

  const value = doc.newDictionary();
  value.put('Type', doc.newName('Sig'));
  value.put('Filter', doc.newName('Adobe.PPKLite'));
  value.put('SubFilter', doc.newName('ETSI.CAdES.detached'));
  const byteRange = doc.newArray();
  for (const n of [0, BYTE_RANGE_PLACEHOLDER, BYTE_RANGE_PLACEHOLDER, BYTE_RANGE_PLACEHOLDER]) byteRange.push(doc.newInteger(n));
  value.put('ByteRange', byteRange);
  value.put('Contents', doc.newByteString(new Uint8Array(field.contentsBytes)));
  value.put('M', doc.newString(field.signedAt));
  value.put('Name', doc.newString(field.signer));
  if (field.reason) value.put('Reason', doc.newString(field.reason));
  if (field.location) value.put('Location', doc.newString(field.location));
  if (field.contactInfo) value.put('ContactInfo', doc.newString(field.contactInfo));

  const widget = doc.newDictionary();
  widget.put('Type', doc.newName('Annot'));
  widget.put('Subtype', doc.newName('Widget'));
  widget.put('FT', doc.newName('Sig'));
  widget.put('T', doc.newString(field.name));
  widget.put('F', doc.newInteger(4));
  widget.put('Rect', rect);
  widget.put('P', page);
  widget.put('V', doc.addObject(value));
  const ap = doc.newDictionary();
  ap.put('N', appearance);
  widget.put('AP', ap);
  const widgetRef = doc.addObject(widget);
  childOf(doc, page, 'Annots', 'array').push(widgetRef);

  const root = doc.getTrailer().get('Root');
  const existingForm = root.get('AcroForm');
  const acroForm = existingForm.isDictionary() ? existingForm : doc.addObject(doc.newDictionary());
  if (!existingForm.isDictionary()) root.put('AcroForm', acroForm);
  childOf(doc, acroForm, 'Fields', 'array').push(widgetRef);
  // 3: the document has signatures, and is to be changed by incremental updates only.
  acroForm.put('SigFlags', doc.newInteger(3));
}
