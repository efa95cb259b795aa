// Redact: areas and text hits are removed from the content (not just covered), and what could
// still carry them goes too: overlapping or mentioning annotations and form fields, bookmark
// titles that mention them, and the document's metadata (Info and XMP).
import type * as mupdf from 'mupdf';
import { searchPattern } from '@quire/contracts/textSearch';
import { findHits } from './searchBudget.js';
import type { JobResults, RedactArea, RedactJob } from './jobs.js';
import { charsOf, markAndApply, pageText, quadBounds } from './pageText.js';
import { openPdf, progress, save } from './program.js';

const intersects = (a: mupdf.Rect, b: mupdf.Rect) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

const mentions = (value: string, patterns: RegExp[]) => patterns.some((p) => findHits(value, p).length > 0);

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

export function redact(job: RedactJob): JobResults['redact'] {
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
        const text = pageText(page, 'whole');
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
