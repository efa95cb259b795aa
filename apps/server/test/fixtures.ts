// PDFs made in code for tests: every page says "Page N" (and the document's label), so
// pdftotext can prove which pages an output holds and in what order.
import fs from 'node:fs/promises';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { PDFDocument, StandardFonts } from 'pdf-lib';

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
