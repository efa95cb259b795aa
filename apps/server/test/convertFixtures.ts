// Images made in code for the conversion tests: white pictures with a red square in their top-left
// corner (so a page render shows which way up an image went in), in the formats images to PDF takes.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { PDFDocument, rgb } from 'pdf-lib';

export const RED_SQUARE = 30;

/** A PDF page of `width` x `height` points, white, with the red square at its top left. */
async function picture(width: number, height: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([width, height]);
  page.drawRectangle({ x: 0, y: 0, width, height, color: rgb(1, 1, 1) });
  page.drawRectangle({ x: 0, y: height - RED_SQUARE, width: RED_SQUARE, height: RED_SQUARE, color: rgb(1, 0, 0) });
  return doc.save();
}

/** A `width` x `height` pixel image (1 pixel per point at 72 dpi) rendered by poppler: png, jpeg or tiff. */
export async function makeImage(file: string, width: number, height: number): Promise<string> {
  const format = path.extname(file).slice(1).replace('jpg', 'jpeg').replace('tif', 'tiff');
  const pdf = `${file}.src.pdf`;
  fs.writeFileSync(pdf, await picture(width, height));
  const base = file.slice(0, -path.extname(file).length);
  execFileSync('pdftoppm', ['-r', '72', `-${format === 'tiff' ? 'tiff' : format}`, '-singlefile', pdf, base]);
  fs.rmSync(pdf);
  // pdftoppm names its output .jpg / .tif / .png: move it to the name asked for.
  const made = `${base}.${{ jpeg: 'jpg', tiff: 'tif', png: 'png' }[format]}`;
  if (made !== file) fs.renameSync(made, file);
  return file;
}

/** An uncompressed 24-bit BMP of the same picture, written by hand (poppler writes no BMP). */
export function makeBmp(file: string, width: number, height: number): string {
  const rowSize = Math.ceil((width * 3) / 4) * 4;
  const header = Buffer.alloc(54);
  header.write('BM', 0, 'latin1');
  header.writeUInt32LE(54 + rowSize * height, 2);
  header.writeUInt32LE(54, 10);
  header.writeUInt32LE(40, 14);
  header.writeInt32LE(width, 18);
  header.writeInt32LE(height, 22);
  header.writeUInt16LE(1, 26);
  header.writeUInt16LE(24, 28);
  const pixels = Buffer.alloc(rowSize * height, 0xff);
  for (let y = 0; y < height; y++) {
    // Rows are stored bottom-up; pixels as blue, green, red.
    const top = height - 1 - y;
    for (let x = 0; x < Math.min(width, RED_SQUARE); x++) if (top < RED_SQUARE) pixels.set([0, 0, 255], y * rowSize + x * 3);
  }
  fs.writeFileSync(file, Buffer.concat([header, pixels]));
  return file;
}

/** The JPEG with an EXIF block saying how it is to be turned (orientation 1–8). */
export function withExifOrientation(jpeg: string, orientation: number, out: string): string {
  const tiff = Buffer.alloc(26);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  tiff.writeUInt16LE(1, 8); // one entry
  tiff.writeUInt16LE(0x0112, 10); // Orientation
  tiff.writeUInt16LE(3, 12); // SHORT
  tiff.writeUInt32LE(1, 14);
  tiff.writeUInt16LE(orientation, 18);
  tiff.writeUInt32LE(0, 22); // no next IFD
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const marker = Buffer.from([0xff, 0xe1, 0, 0]);
  marker.writeUInt16BE(payload.length + 2, 2);
  const data = fs.readFileSync(jpeg);
  fs.writeFileSync(out, Buffer.concat([data.subarray(0, 2), marker, payload, data.subarray(2)]));
  return out;
}

/** The pixels of page `page` rendered at 72 dpi: rgb(x, y) with y from the top. */
export function renderPage(pdf: string, page = 1) {
  const root = `${pdf}-render`;
  execFileSync('pdftoppm', ['-r', '72', '-f', String(page), '-l', String(page), '-singlefile', pdf, root]);
  const ppm = fs.readFileSync(`${root}.ppm`);
  fs.rmSync(`${root}.ppm`);
  const [, w, h] = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.toString('latin1', 0, 50))!;
  const headerLength = ppm.indexOf(0x0a, ppm.indexOf(0x0a, ppm.indexOf(0x0a) + 1) + 1) + 1;
  const width = Number(w);
  return {
    width,
    height: Number(h),
    rgb: (x: number, y: number) => [...ppm.subarray(headerLength + (y * width + x) * 3, headerLength + (y * width + x) * 3 + 3)],
  };
}

export const isRed = ([r, g, b]: number[]) => r! > 200 && g! < 80 && b! < 80;
export const isWhite = ([r, g, b]: number[]) => r! > 230 && g! > 230 && b! > 230;

/** Page sizes in points, as pdfinfo reports them. */
export function pageSizes(pdf: string): [number, number][] {
  const out = execFileSync('pdfinfo', ['-f', '1', '-l', '10000', pdf]).toString();
  return [...out.matchAll(/Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
}

/** Each image as pdfimages lists it: page, pixel size and the resolution it is drawn at. */
export function imagesOf(pdf: string) {
  const out = execFileSync('pdfimages', ['-list', pdf]).toString().split('\n').slice(2).filter(Boolean);
  return out
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f[2] === 'image')
    .map((f) => ({ page: Number(f[0]), width: Number(f[3]), height: Number(f[4]), xppi: Number(f[12]), yppi: Number(f[13]) }));
}
