// PDFs made in code for tests: every page says "Page N" (and the document's label), so
// pdftotext can prove which pages an output holds and in what order.
import fs from 'node:fs/promises';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import * as mupdf from 'mupdf';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { encodePng, photoRaster } from './imageFixtures.js';

export async function makePdf(
  file: string,
  pages: number,
  label = 'Doc',
  size: [number, number] = [595, 842],
  attachment?: Uint8Array,
): Promise<string> {
  const doc = await PDFDocument.create();
  if (attachment) await doc.attach(attachment, 'payload.bin', { mimeType: 'application/octet-stream' });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) {
    const page = doc.addPage(size);
    page.drawText(`${label} Page ${n}`, { x: 72, y: size[1] - 100, size: 24, font });
  }
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, await doc.save());
  return file;
}

/** The font makeBrandedPdf embeds whole (Debian's fonts-dejavu-core, which setup installs). */
const BRAND_FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

/**
 * A PDF whose pages say "<label> Page N" in DejaVu Sans, embedded whole, under a photo-like logo:
 * files made by it share their font program, font dictionary and image byte for byte, as the
 * documents of one template do. Made with MuPDF, since pdf-lib embeds no TrueType font by itself.
 */
export async function makeBrandedPdf(file: string, pages: number, label: string): Promise<string> {
  const doc = new mupdf.PDFDocument();
  const font = doc.addSimpleFont(new mupdf.Font('DejaVuSans', await fs.readFile(BRAND_FONT)), 'Latin');
  const logo = doc.addImage(new mupdf.Image(encodePng(photoRaster(240, 120))));
  for (let n = 1; n <= pages; n++) {
    const resources = doc.addObject({ Font: { F1: font }, XObject: { Logo: logo } });
    const content = `q 120 0 0 60 72 740 cm /Logo Do Q BT /F1 24 Tf 72 680 Td (${label} Page ${n}) Tj ET`;
    doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, content));
  }
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, doc.saveToBuffer('compress').asUint8Array());
  return file;
}

/** An AES-256 copy that needs `password` to open (made with qpdf, as a user's tool would). */
export function encryptPdf(src: string, dest: string, password: string): string {
  execFileSync('qpdf', ['--encrypt', password, password, '256', '--', src, dest]);
  return dest;
}

export const npages = (file: string, password?: string) =>
  Number(
    execFileSync('qpdf', [...(password ? [`--password=${password}`] : []), '--show-npages', file])
      .toString()
      .trim(),
  );

/** The "Page N" labels pdftotext finds, in page order: ["A Page 1", "B Page 2", …]. */
export function pageLabels(file: string): string[] {
  const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
  return text
    .split('\f')
    .map((t) => t.match(/(\w+ Page \d+)/)?.[1] ?? '')
    .filter((t, i, all) => t || i < all.length - 1);
}

/** Each page's /Rotate as pdfinfo reports it. */
export function rotations(file: string): number[] {
  const out = execFileSync('pdfinfo', ['-f', '1', '-l', '100000', file]).toString();
  return [...out.matchAll(/Page\s+\d+ rot:\s+(\d+)/g)].map((m) => Number(m[1]));
}

/** qpdf --requires-password: 0 the password (if any) does not open it, 2 not encrypted, 3 encrypted and opened. */
export function requiresPassword(f: string, password?: string): number {
  try {
    execFileSync('qpdf', ['--requires-password', ...(password === undefined ? [] : [`--password=${password}`]), f]);
    return 0;
  } catch (e) {
    return (e as { status: number }).status;
  }
}
