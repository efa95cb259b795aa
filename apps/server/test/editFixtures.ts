// Fixtures and independent readers for the tests of Crop, Redact and Replace text: PDFs with
// text, a raster image, annotations and metadata made with pdf-lib; poppler and qpdf to read
// the results (page boxes, rendered pixels, words with their boxes, images, annotations).
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { PDFDocument, PDFHexString, PDFName, PDFString, StandardFonts, degrees, rgb, type PDFPage } from 'pdf-lib';
import { encodePng } from './imageFixtures.js';

export type Box = [number, number, number, number];

export interface TextLine {
  text: string;
  x: number;
  y: number;
  size?: number;
  color?: [number, number, number];
}

export interface PageSpec {
  size?: [number, number];
  rotate?: number;
  cropBox?: Box;
  lines?: TextLine[];
  /** A solid-colour PNG drawn at this rectangle (x, y, width, height in points). */
  image?: { rect: Box; color: [number, number, number] };
  /** A sticky note (Text annotation) at the rectangle with these contents. */
  notes?: { rect: Box; contents: string }[];
  /** A text comment (FreeText annotation, Helvetica 11 pt) at the rectangle showing these contents. */
  comments?: { rect: Box; contents: string }[];
  /** Filled-in text fields (x, y, width, height in points). */
  fields?: { name: string; value: string; rect: Box }[];
}

export interface DocSpec {
  pages: PageSpec[];
  title?: string;
  subject?: string;
  /** An XMP packet on the catalog, carrying this text. */
  xmp?: string;
  /** One bookmark to page 1 with this title. */
  bookmark?: string;
}

function addNote(doc: PDFDocument, page: PDFPage, rect: Box, contents: string, subtype: 'Text' | 'FreeText' = 'Text') {
  const look = subtype === 'Text' ? { Name: 'Comment' } : { DA: PDFString.of('0 g /Helv 11 Tf') };
  const annot = doc.context.obj({ Type: 'Annot', Subtype: subtype, Rect: rect, Contents: PDFString.of(contents), ...look });
  const ref = doc.context.register(annot);
  const annots = page.node.Annots();
  if (annots) annots.push(ref);
  else page.node.set(PDFName.of('Annots'), doc.context.obj([ref]));
}

/** A PDF of Helvetica text, images, notes and metadata as `spec` says. */
export async function makeDoc(file: string, spec: DocSpec): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  if (spec.title) doc.setTitle(spec.title);
  if (spec.subject) doc.setSubject(spec.subject);
  for (const p of spec.pages) {
    const page = doc.addPage(p.size ?? [595, 842]);
    if (p.rotate) page.setRotation(degrees(p.rotate));
    if (p.cropBox) page.setCropBox(p.cropBox[0], p.cropBox[1], p.cropBox[2] - p.cropBox[0], p.cropBox[3] - p.cropBox[1]);
    if (p.image) {
      const [x, y, w, h] = p.image.rect;
      const pixels = Buffer.alloc(64 * 64 * 3);
      for (let i = 0; i < 64 * 64; i++) pixels.set(p.image.color, i * 3);
      const png = await doc.embedPng(encodePng({ width: 64, height: 64, channels: 3, pixels }));
      page.drawImage(png, { x, y, width: w, height: h });
    }
    for (const l of p.lines ?? []) {
      page.drawText(l.text, { x: l.x, y: l.y, size: l.size ?? 14, font, color: rgb(...(l.color ?? [0, 0, 0])) });
    }
    for (const n of p.notes ?? []) addNote(doc, page, n.rect, n.contents);
    for (const c of p.comments ?? []) addNote(doc, page, c.rect, c.contents, 'FreeText');
    for (const f of p.fields ?? []) {
      const field = doc.getForm().createTextField(f.name);
      field.setText(f.value);
      field.addToPage(page, { x: f.rect[0], y: f.rect[1], width: f.rect[2], height: f.rect[3], font });
    }
  }
  if (spec.xmp) {
    const packet = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:description>${spec.xmp}</dc:description></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
    const stream = doc.context.stream(packet, { Type: 'Metadata', Subtype: 'XML' });
    doc.catalog.set(PDFName.of('Metadata'), doc.context.register(stream));
  }
  if (spec.bookmark) {
    const outlines = doc.context.nextRef();
    const item = doc.context.register(
      doc.context.obj({ Title: PDFHexString.fromText(spec.bookmark), Parent: outlines, Dest: [doc.getPage(0).ref, 'Fit'] }),
    );
    doc.context.assign(outlines, doc.context.obj({ Type: 'Outlines', First: item, Last: item, Count: 1 }));
    doc.catalog.set(PDFName.of('Outlines'), outlines);
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, await doc.save({ useObjectStreams: false }));
  return file;
}

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { maxBuffer: 64 * 1024 * 1024 }).toString();

/** Each page's boxes as pdfinfo -box reports them. */
export function pageBoxes(file: string): { crop: Box; trim: Box; media: Box; rot: number }[] {
  const out = run('pdfinfo', ['-box', '-f', '1', '-l', '100000', file]);
  const pages: { crop: Box; trim: Box; media: Box; rot: number }[] = [];
  const box = (page: string, name: string) => {
    const m = out.match(new RegExp(`Page\\s+${page} ${name}:\\s+([-\\d.]+)\\s+([-\\d.]+)\\s+([-\\d.]+)\\s+([-\\d.]+)`));
    return m ? (m.slice(1, 5).map(Number) as Box) : null;
  };
  for (let n = 1; box(String(n), 'MediaBox'); n++) {
    const rot = Number(out.match(new RegExp(`Page\\s+${n} rot:\\s+(\\d+)`))?.[1] ?? 0);
    pages.push({ media: box(String(n), 'MediaBox')!, crop: box(String(n), 'CropBox')!, trim: box(String(n), 'TrimBox')!, rot });
  }
  return pages;
}

export interface Raster {
  width: number;
  height: number;
  /** Grey level 0–255 at a pixel. */
  at(x: number, y: number): number;
  /** Mean grey level over a rectangle of pixels. */
  mean(x0: number, y0: number, x1: number, y1: number): number;
}

function readPgm(bytes: Buffer): Raster {
  const header = bytes.toString('latin1', 0, 64).match(/^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/);
  if (!header) throw new Error('not a PGM');
  const [width, height] = [Number(header[1]), Number(header[2])];
  const data = bytes.subarray(header[0].length);
  const at = (x: number, y: number) => data[y * width + x]!;
  return {
    width,
    height,
    at,
    mean(left, top, right, bottom) {
      const [x0, y0, x1, y1] = [Math.ceil(left), Math.ceil(top), Math.floor(right), Math.floor(bottom)];
      let sum = 0;
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) sum += at(x, y);
      return sum / Math.max(1, (x1 - x0) * (y1 - y0));
    },
  };
}

/** Page `page` rendered in grey by pdftoppm at 72 dpi (one pixel per point), as shown (CropBox, rotation). */
export function renderPage(file: string, page: number, dpi = 72): Raster {
  // -cropbox: what viewers show (pdftoppm renders the MediaBox unless told).
  return readPgm(
    execFileSync('pdftoppm', ['-cropbox', '-gray', '-r', String(dpi), '-f', String(page), '-l', String(page), file], {
      maxBuffer: 256 * 1024 * 1024,
    }),
  );
}

/** Mean red, green and blue over a box of page `page` rendered at 72 dpi (points from the top left as shown). */
export function colourIn(file: string, page: number, [x0, y0, x1, y1]: Box): [number, number, number] {
  const ppm = execFileSync('pdftoppm', ['-cropbox', '-r', '72', '-f', String(page), '-l', String(page), file], {
    maxBuffer: 64 * 1024 * 1024,
  });
  const header = ppm.toString('latin1', 0, 64).match(/^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/)!;
  const width = Number(header[1]);
  const data = ppm.subarray(header[0].length);
  const sum = [0, 0, 0];
  let n = 0;
  for (let y = Math.ceil(y0); y < Math.floor(y1); y++)
    for (let x = Math.ceil(x0); x < Math.floor(x1); x++, n++) for (let c = 0; c < 3; c++) sum[c]! += data[(y * width + x) * 3 + c]!;
  return sum.map((v) => v / Math.max(1, n)) as [number, number, number];
}

/** The page's words with their boxes as pdftotext -bbox gives them (points, top-left origin, as shown). */
export function words(file: string, page: number): { word: string; box: Box }[] {
  const html = run('pdftotext', ['-bbox', '-f', String(page), '-l', String(page), file, '-']);
  return [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
    word: m[5]!.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>'),
    box: m.slice(1, 5).map(Number) as Box,
  }));
}

export const text = (file: string) => run('pdftotext', ['-layout', file, '-']);

/** The first image of the file, extracted by pdfimages, in grey levels (its own pixel grid). */
export function firstImage(file: string, dir: string): Raster {
  const prefix = path.join(dir, `img-${path.basename(file, '.pdf')}`);
  run('pdfimages', ['-f', '1', '-l', '1', file, prefix]);
  const ppm = fs.readFileSync(`${prefix}-000.ppm`);
  // pdfimages writes RGB (P6): convert to grey for the same reader.
  const header = ppm.toString('latin1', 0, 64).match(/^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/)!;
  const [w, h] = [Number(header[1]), Number(header[2])];
  const rgbData = ppm.subarray(header[0].length);
  const grey = Buffer.alloc(w * h);
  for (let i = 0; i < w * h; i++) grey[i] = Math.round((rgbData[i * 3]! + rgbData[i * 3 + 1]! + rgbData[i * 3 + 2]!) / 3);
  return readPgm(Buffer.concat([Buffer.from(`P5\n${w} ${h}\n255\n`), grey]));
}

/** The file decompressed by qpdf (QDF), to look for strings left anywhere in it. */
export const rawContent = (file: string) =>
  execFileSync('qpdf', ['--qdf', '--object-streams=disable', '--decode-level=all', file, '-'], { maxBuffer: 256 * 1024 * 1024 }).toString(
    'latin1',
  );

/** The annotations of each page per qpdf --json: subtype and contents. */
export function annotations(file: string): { page: number; subtype: string; contents: string }[] {
  const json = JSON.parse(run('qpdf', ['--json=2', '--json-key=pages', '--json-key=qpdf', file]));
  const objects = json.qpdf[1] as Record<string, { value?: Record<string, unknown> }>;
  const found: { page: number; subtype: string; contents: string }[] = [];
  (json.pages as { object: string }[]).forEach((p, i) => {
    const page = objects[`obj:${p.object}`]?.value as Record<string, unknown>;
    let annots = page?.['/Annots'] as string | string[] | undefined;
    if (typeof annots === 'string') annots = objects[`obj:${annots}`]?.value as unknown as string[];
    for (const ref of annots ?? []) {
      const a = objects[`obj:${ref}`]?.value as Record<string, string>;
      found.push({ page: i + 1, subtype: a?.['/Subtype'] ?? '', contents: (a?.['/Contents'] ?? '').replace(/^[ub]:/, '') });
    }
  });
  return found;
}

/** The form's fields and their values per qpdf --json. */
export function formFields(file: string): { name: string; value: string }[] {
  const json = JSON.parse(run('qpdf', ['--json=2', '--json-key=acroform', file]));
  return (json.acroform.fields as { fullname: string; value: string | null }[]).map((f) => ({
    name: f.fullname,
    value: (f.value ?? '').replace(/^[ub]:/, ''),
  }));
}

/** qpdf --check passes (exit 0, or 3 for warnings only). */
export function qpdfCheckOk(file: string): boolean {
  try {
    execFileSync('qpdf', ['--check', file], { stdio: 'ignore' });
    return true;
  } catch (e) {
    return (e as { status?: number }).status === 3;
  }
}

export const pdfinfo = (file: string) => run('pdfinfo', [file]);
export const pdffonts = (file: string) => run('pdffonts', [file]);
