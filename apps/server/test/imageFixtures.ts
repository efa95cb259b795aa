// Image-heavy PDFs made in code, for the compress tests and bench: photo-like pictures (smooth
// colour fields with sensor-like noise), screenshots kept as lossless PNG, and scanned text pages,
// grey or black and white.
// Raster encoding uses only zlib here and poppler's pdftoppm for JPEG, so nothing else is needed.
import fs from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import {
  PDFDocument,
  StandardFonts,
  concatTransformationMatrix,
  drawObject,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  setFillingRgbColor,
} from 'pdf-lib';

export interface Raster {
  width: number;
  height: number;
  /** 1 (grey) or 3 (RGB) bytes per pixel */
  channels: 1 | 3;
  pixels: Buffer;
}

/** A deterministic pseudo-random source, so generated files are the same on every run. */
export function random(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/** A photo-like RGB picture: overlapping soft colour waves, a few hard edges and fine noise. */
export function photoRaster(width: number, height: number, seed = 1): Raster {
  const rand = random(seed);
  const waves = Array.from({ length: 9 }, () => ({ fx: rand() * 0.02, fy: rand() * 0.02, phase: rand() * 6.3, c: Math.floor(rand() * 3) }));
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const rgbv = [110, 120, 100];
      for (const w of waves) rgbv[w.c]! += 45 * Math.sin(x * w.fx + y * w.fy + w.phase);
      // A hard-edged "object" in each quadrant-ish area, as photos have edges JPEG must keep.
      if (((x / 97) | 0) % 5 === 0 && ((y / 131) | 0) % 4 === 1) rgbv[0]! += 60;
      for (let c = 0; c < 3; c++) {
        const v = rgbv[c]! + (rand() - 0.5) * 18;
        pixels[(y * width + x) * 3 + c] = Math.min(255, Math.max(0, v));
      }
    }
  }
  return { width, height, channels: 3, pixels };
}

/** A screenshot-like picture: flat panels, thin rules and blocks of "text", best kept lossless. */
export function screenshotRaster(width: number, height: number, seed = 1): Raster {
  const rand = random(seed);
  const pixels = Buffer.alloc(width * height * 3, 0xf4);
  const fill = (x0: number, y0: number, w: number, h: number, color: number[]) => {
    for (let y = y0; y < Math.min(height, y0 + h); y++)
      for (let x = x0; x < Math.min(width, x0 + w); x++) pixels.set(color, (y * width + x) * 3);
  };
  fill(0, 0, width, 60, [40, 60, 120]);
  fill(0, 60, 220, height, [228, 232, 240]);
  for (let y = 100; y < height - 40; y += 28) {
    let x = 260;
    while (x < width - 80) {
      const w = 20 + Math.floor(rand() * 90);
      fill(x, y, w, 12, [60, 60, 70]);
      x += w + 10;
    }
  }
  return { width, height, channels: 3, pixels };
}

/** A PNG of 8-bit grey or RGB pixels from its IDAT data (the filtered rows, deflated). */
export function pngFile(width: number, height: number, colour: 'grey' | 'rgb', idat: Buffer): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
    return Buffer.concat([head, data, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = colour === 'rgb' ? 2 : 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Encodes a raster as PNG (filter 0 rows, deflated). */
export function encodePng(r: Raster): Buffer {
  const stride = r.width * r.channels;
  const raw = Buffer.alloc((stride + 1) * r.height);
  for (let y = 0; y < r.height; y++) r.pixels.copy(raw, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  return pngFile(r.width, r.height, r.channels === 3 ? 'rgb' : 'grey', zlib.deflateSync(raw, { level: 6 }));
}

/** Renders a PDF's first page with pdftoppm to JPEG bytes (the way a camera or scanner would save it). */
function renderJpeg(pdf: string, dpi: number, quality: number, gray: boolean): Buffer {
  const prefix = pdf.replace(/\.pdf$/, '');
  execFileSync('pdftoppm', [
    '-f',
    '1',
    '-l',
    '1',
    '-r',
    String(dpi),
    ...(gray ? ['-gray'] : []),
    '-jpeg',
    '-jpegopt',
    `quality=${quality}`,
    '-singlefile',
    pdf,
    prefix,
  ]);
  return readFileSync(`${prefix}.jpg`);
}

/** A raster as a JPEG of the same pixel size and the given quality. */
export async function encodeJpeg(r: Raster, quality: number): Promise<Buffer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-jpeg-'));
  try {
    const doc = await PDFDocument.create();
    const png = await doc.embedPng(encodePng(r));
    doc.addPage([r.width, r.height]).drawImage(png, { x: 0, y: 0, width: r.width, height: r.height });
    const pdf = path.join(dir, 'frame.pdf');
    await fs.writeFile(pdf, await doc.save());
    return renderJpeg(pdf, 72, quality, r.channels === 1);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

export type ImagePage = { kind: 'jpg' | 'png'; bytes: Buffer; caption?: string };

/** A PDF of A4 pages, each one image filling the page, with an optional line of real text. */
export async function makeImagePdf(file: string, pages: ImagePage[]): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const p of pages) {
    const image = p.kind === 'jpg' ? await doc.embedJpg(p.bytes) : await doc.embedPng(p.bytes);
    const page = doc.addPage([595, 842]);
    page.drawImage(image, { x: 0, y: 0, width: 595, height: 842 });
    if (p.caption) {
      page.drawRectangle({ x: 40, y: 40, width: 515, height: 40, color: rgb(1, 1, 1) });
      page.drawText(p.caption, { x: 50, y: 54, size: 16, font });
    }
  }
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, await doc.save());
  return file;
}

/** `count` pages of photos at `dpi` over A4, JPEG quality 92, each captioned "Photo N". */
export async function makePhotoPdf(file: string, count: number, dpi = 300): Promise<string> {
  const [w, h] = [Math.round((595 / 72) * dpi), Math.round((842 / 72) * dpi)];
  const pages: ImagePage[] = [];
  for (let n = 1; n <= count; n++) pages.push({ kind: 'jpg', bytes: await encodeJpeg(photoRaster(w, h, n), 92), caption: `Photo ${n}` });
  return makeImagePdf(file, pages);
}

/** `count` pages of screenshots kept as PNG at `dpi`, each captioned "Screen N". */
export async function makeScreenshotPdf(file: string, count: number, dpi = 200): Promise<string> {
  const [w, h] = [Math.round((595 / 72) * dpi), Math.round((842 / 72) * dpi)];
  const pages: ImagePage[] = [];
  for (let n = 1; n <= count; n++) pages.push({ kind: 'png', bytes: encodePng(screenshotRaster(w, h, n)), caption: `Screen ${n}` });
  return makeImagePdf(file, pages);
}

/** A page of running text, the original of a scan. */
async function textPagePdf(file: string, label: string): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  const page = doc.addPage([595, 842]);
  page.drawText(label, { x: 72, y: 770, size: 20, font });
  const words = 'the quick brown fox jumps over a lazy dog while seven wizards quietly judge boxing matches'.split(' ');
  for (let line = 0; line < 48; line++) {
    const text = Array.from({ length: 12 }, (_, i) => words[(line * 7 + i * 3) % words.length]).join(' ');
    page.drawText(text, { x: 72, y: 740 - line * 14, size: 11, font });
  }
  await fs.writeFile(file, await doc.save());
  return file;
}

/** A scan: pages of text rendered at `dpi` to grey JPEGs (quality 90), with no text layer. */
export async function makeScannedPdf(file: string, count: number, dpi = 300): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-scan-'));
  try {
    const pages: ImagePage[] = [];
    for (let n = 1; n <= count; n++) {
      const src = await textPagePdf(path.join(dir, `src-${n}.pdf`), `Scanned page ${n}`);
      pages.push({ kind: 'jpg', bytes: renderJpeg(src, dpi, 90, true) });
    }
    return await makeImagePdf(file, pages);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** A 1-bit image as a PDF holds it: rows packed from the high bit, each starting on a byte; 0 is black. */
export interface BitonalSamples {
  width: number;
  height: number;
  samples: Uint8Array;
}

/**
 * A page of text scanned in black and white at `dpi`: drawn grey, then thresholded with noise as a
 * scanner's binarisation does, so that edges are ragged and no two letters are alike, with a few
 * specks of dust. Clean renders would repeat whole rows of glyphs, which Flate finds and a scan
 * never has.
 */
export async function bitonalScan(label: string, dpi: number, seed = 1): Promise<BitonalSamples> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-bitonal-'));
  try {
    const src = await textPagePdf(path.join(dir, 'src.pdf'), label);
    execFileSync('pdftoppm', ['-r', String(dpi), '-gray', '-singlefile', src, path.join(dir, 'page')]);
    const pgm = readFileSync(path.join(dir, 'page.pgm'));
    const [, w, h] = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.toString('latin1', 0, 40))!;
    const [width, height] = [Number(w), Number(h)];
    const grey = pgm.subarray(pgm.length - width * height);
    const stride = Math.ceil(width / 8);
    const samples = Buffer.alloc(stride * height, 0xff);
    const rand = random(seed);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const black = grey[y * width + x]! + (rand() - 0.5) * 140 < 128 || rand() < 0.0003;
        if (black) samples[y * stride + (x >> 3)]! &= ~(0x80 >> (x & 7));
      }
    return { width, height, samples };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * A black-and-white scan: `count` A4 pages, each a 1-bit image at `dpi` stored with Flate (as
 * scanner software writes them) and captioned "Bitonal page N" in real text. Odd pages are
 * DeviceGray images; even ones stencil masks painted dark blue, as some scanners write them.
 */
export async function makeBitonalScanPdf(file: string, count: number, dpi = 300): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= count; n++) {
    const scan = await bitonalScan(`Scanned page ${n}`, dpi, n);
    const stencil = n % 2 === 0;
    const image = doc.context.register(
      doc.context.flateStream(scan.samples, {
        Type: 'XObject',
        Subtype: 'Image',
        Width: scan.width,
        Height: scan.height,
        ...(stencil ? { ImageMask: true } : { ColorSpace: 'DeviceGray', BitsPerComponent: 1 }),
      }),
    );
    const page = doc.addPage([595, 842]);
    const name = page.node.newXObject('Scan', image);
    page.pushOperators(
      pushGraphicsState(),
      setFillingRgbColor(0.1, 0.1, 0.5),
      concatTransformationMatrix(595, 0, 0, 842, 0, 0),
      drawObject(name),
      popGraphicsState(),
    );
    page.drawText(`Bitonal page ${n}`, { x: 400, y: 20, size: 10, font });
  }
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, await doc.save());
  return file;
}
