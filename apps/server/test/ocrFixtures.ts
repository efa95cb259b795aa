// The OCR test set, made at test time from known text: each page is typeset (pdf-lib's standard
// fonts, several sizes), rendered by pdftoppm to a grey raster, optionally spoiled with noise or
// turned sideways, and kept as a PNG, so the test knows exactly which text each scan holds.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import { encodePng, type Raster } from './imageFixtures.js';

export interface OcrPage {
  lang: 'eng' | 'deu' | 'fra';
  font: StandardFonts;
  size: number;
  lines: string[];
  /** The scan lies on its side: the page must be turned upright by OCR. */
  sideways?: boolean;
  /** Salt-and-pepper noise over this share of the pixels. */
  noise?: number;
  /** The scan lies skewed by this many degrees (counter-clockwise), as a sheet fed in askew. */
  skew?: number;
}

export const ocrPages: OcrPage[] = [
  {
    lang: 'eng',
    font: StandardFonts.TimesRoman,
    size: 14,
    lines: [
      'Invoice number 4711 was paid in full on Monday.',
      'The quick brown fox jumps over the lazy dog.',
      'Please keep this receipt for your records.',
    ],
  },
  {
    lang: 'eng',
    font: StandardFonts.Courier,
    size: 12,
    lines: ['Shipping address: 42 Harbour Street, Leeds.', 'Delivery expected within seven working days.'],
    noise: 0.03,
  },
  {
    lang: 'deu',
    font: StandardFonts.Helvetica,
    size: 16,
    lines: ['Sehr geehrte Damen und Herren,', 'die Prüfung der Unterlagen ist abgeschlossen.', 'Grüße aus München und schönes Wochenende.'],
  },
  {
    lang: 'fra',
    font: StandardFonts.TimesRoman,
    size: 16,
    lines: ['Madame, Monsieur,', 'nous avons bien reçu votre lettre du début août.', 'Veuillez agréer nos salutations très distinguées.'],
    sideways: true,
  },
];

export const DPI = 200;

/** The page's text as OCR should give it back: its lines, one per line. */
export const expectedText = (p: OcrPage) => p.lines.join('\n');

/** A grey raster read from pdftoppm's PGM output. */
function readPgm(buf: Buffer): Raster {
  const header = buf.toString('latin1', 0, 64).match(/^P5\s+(\d+)\s+(\d+)\s+255\s/);
  if (!header) throw new Error('not a PGM');
  const [width, height] = [Number(header[1]), Number(header[2])];
  return { width, height, channels: 1, pixels: buf.subarray(header[0].length, header[0].length + width * height) };
}

/** Deterministic salt-and-pepper noise. */
function addNoise(r: Raster, share: number): Raster {
  const pixels = Buffer.from(r.pixels);
  let s = 12345;
  const rand = () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
  for (let i = 0; i < pixels.length; i++) if (rand() < share) pixels[i] = rand() < 0.5 ? 0 : 255;
  return { ...r, pixels };
}

/** Typesets one page (A4) and renders it at DPI to a grey raster. */
async function scan(p: OcrPage, dir: string, n: number): Promise<Raster> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(p.font);
  const page = doc.addPage([595, 842]);
  for (const [i, line] of p.lines.entries()) page.drawText(line, { x: 60, y: 760 - i * p.size * 1.8, size: p.size, font });
  const src = path.join(dir, `text-${n}.pdf`);
  await fs.writeFile(src, await doc.save());
  execFileSync('pdftoppm', ['-r', String(DPI), '-gray', '-singlefile', src, path.join(dir, `scan-${n}`)]);
  const raster = readPgm(await fs.readFile(path.join(dir, `scan-${n}.pgm`)));
  return p.noise ? addNoise(raster, p.noise) : raster;
}

/** Each page as a PNG file (scan-N.png in `dir`), as a scanner or phone would save it. */
export async function makeScanImages(dir: string, pages: OcrPage[] = ocrPages): Promise<string[]> {
  await fs.mkdir(dir, { recursive: true });
  const files: string[] = [];
  for (const [i, p] of pages.entries()) {
    const file = path.join(dir, `scan-${i + 1}.png`);
    await fs.writeFile(file, encodePng(await scan(p, dir, i + 1)));
    files.push(file);
  }
  return files;
}

/**
 * An image-only PDF of the pages (no text layer), each image filling its A4 page; a sideways page
 * is drawn turned a quarter on a landscape page, as a scan fed in the wrong way round looks.
 */
export async function makeScannedPdf(file: string, pages: OcrPage[] = ocrPages): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-ocr-set-'));
  try {
    const doc = await PDFDocument.create();
    for (const [i, p] of pages.entries()) {
      const image = await doc.embedPng(encodePng(await scan(p, dir, i + 1)));
      if (p.sideways) doc.addPage([842, 595]).drawImage(image, { x: 0, y: 595, width: 595, height: 842, rotate: degrees(-90) });
      else if (p.skew)
        doc
          .addPage([595, 842])
          .drawImage(image, { ...turnedAboutCentre(595, 842, p.skew), width: 595, height: 842, rotate: degrees(p.skew) });
      else doc.addPage([595, 842]).drawImage(image, { x: 0, y: 0, width: 595, height: 842 });
    }
    await fs.writeFile(file, await doc.save());
    return file;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** Where a page-sized image turned by `angle` about its corner must start for its centre to stay at the page's. */
function turnedAboutCentre(w: number, h: number, angle: number) {
  const [cos, sin] = [Math.cos((angle * Math.PI) / 180), Math.sin((angle * Math.PI) / 180)];
  return { x: w / 2 - ((w / 2) * cos - (h / 2) * sin), y: h / 2 - ((w / 2) * sin + (h / 2) * cos) };
}

/** Character accuracy: 1 - edit distance / expected length, over whitespace-normalised text. */
export function charAccuracy(expected: string, actual: string): number {
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
  const [a, b] = [norm(expected), norm(actual)];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return Math.max(0, 1 - prev[b.length]! / a.length);
}
