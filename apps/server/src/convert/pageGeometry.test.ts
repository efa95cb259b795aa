import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import * as mupdf from 'mupdf';
import { PDFDocument, PDFName, StandardFonts, TextRenderingMode, rgb, setTextRenderingMode } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMupdf } from '../engines/mupdf.js';
import type { PageGeometry } from './geometryTypes.js';
import { flatten, fontFamily, LineBuilder, toRgb } from './pageGeometry.js';

const style = { font: 'Arial', bold: false, italic: false, color: [0, 0, 0] as [number, number, number] };
/** Glyphs of a 10 pt font, each 5 pt wide, left to right from (x, y). */
const glyphs = (text: string, x: number, y: number) =>
  [...text].map((char, i) => ({ char, x: x + 5 * i, y, dx: 1, dy: 0, size: 10, advance: 5, style, invisible: false }));

describe('LineBuilder', () => {
  it('joins glyphs on a baseline, puts a space in a word gap and splits at a column gap', () => {
    const b = new LineBuilder();
    for (const g of [...glyphs('Hello', 72, 100), ...glyphs('world', 72 + 25 + 3, 100), ...glyphs('Price', 300, 100)]) b.add(g);
    const lines = b.finish();
    expect(lines.map((l) => l.runs.map((r) => r.text).join(''))).toEqual(['Hello world', 'Price']);
    expect(lines[0]).toMatchObject({ x: 72, y: 100, angle: 0, width: 53, size: 10 });
  });

  it('starts a new line off the baseline and a new run where the style changes', () => {
    const b = new LineBuilder();
    for (const g of glyphs('Ab', 72, 100)) b.add(g);
    b.add({ ...glyphs('c', 82, 100)[0]!, style: { ...style, bold: true } });
    for (const g of glyphs('Next', 72, 114)) b.add(g);
    const lines = b.finish();
    expect(lines.map((l) => l.runs.map((r) => [r.text, r.bold]))).toEqual([
      [
        ['Ab', false],
        ['c', true],
      ],
      [['Next', false]],
    ]);
  });

  it('drops an overprint of the same text (fake bold) and lines of spaces only', () => {
    const b = new LineBuilder();
    for (const g of [...glyphs('Bold', 72, 100), ...glyphs('Bold', 72.4, 100), ...glyphs('   ', 72, 200)]) b.add(g);
    expect(b.finish().map((l) => l.runs[0]!.text)).toEqual(['Bold']);
  });
});

describe('helpers', () => {
  it('names fonts by family', () => {
    expect(fontFamily('ABCDEF+TimesNewRomanPS-BoldItalicMT')).toBe('Times New Roman');
    expect(fontFamily('Helvetica-Oblique')).toBe('Arial');
    expect(fontFamily('XYZABC+Calibri-Bold')).toBe('Calibri');
    expect(fontFamily('GaramondPremrPro,Italic')).toBe('GaramondPremrPro');
  });

  it('turns device colours into RGB', () => {
    expect(toRgb(mupdf.ColorSpace.DeviceGray, [0.5])).toEqual([128, 128, 128]);
    expect(toRgb(mupdf.ColorSpace.DeviceCMYK, [0, 1, 1, 0])).toEqual([255, 0, 0]);
    expect(toRgb(mupdf.ColorSpace.DeviceRGB, [0, 0.6, 1])).toEqual([0, 153, 255]);
  });

  it('flattens curves in page space', () => {
    const p = new mupdf.Path();
    p.moveTo(0, 0);
    p.curveTo(0, 50, 100, 50, 100, 0);
    p.closePath();
    const [sub] = flatten(p, [1, 0, 0, 1, 10, 20]);
    expect(sub!.closed).toBe(true);
    expect(sub!.points.slice(0, 2)).toEqual([10, 20]);
    expect(sub!.points.slice(-2)).toEqual([110, 20]);
    expect(sub!.points.length / 2).toBeGreaterThan(10);
    // The curve's top, at t = 1/2: y = 3/4 of the control points' height.
    const ys = sub!.points.filter((_, i) => i % 2 === 1);
    expect(Math.max(...ys)).toBeCloseTo(20 + 37.5, 1);
  });
});

describe('the geometry job', () => {
  let dir: string;
  let pages: PageGeometry[];
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-geometry-'));
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([612, 792]);
    // A media box from 100 100 to 712 892: geometry is relative to the page's top left corner.
    page.setMediaBox(100, 100, 612, 792);
    page.drawText('Top line', { x: 172, y: 792, size: 20, font, color: rgb(1, 0, 0) });
    page.drawRectangle({ x: 200, y: 300, width: 100, height: 50, color: rgb(0, 0, 1), borderColor: rgb(0, 0, 0), borderWidth: 1 });
    page.pushOperators(setTextRenderingMode(TextRenderingMode.Invisible));
    page.drawText('OCR layer', { x: 172, y: 500, size: 10, font });
    const input = path.join(dir, 'in.pdf');
    fs.writeFileSync(input, await doc.save());
    const output = path.join(dir, 'geometry.json');
    await runMupdf({ op: 'geometry', input, output, paths: true, backgroundDpi: 72 }, 1, dir, { timeoutMs: 60_000, memoryMb: 1024 });
    pages = JSON.parse(fs.readFileSync(output, 'utf8')) as PageGeometry[];
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('finds the text, visible and not, in page space', () => {
    const [page] = pages;
    expect([page!.width, page!.height]).toEqual([612, 792]);
    expect(page!.lines.map((l) => [l.runs[0]!.text, Math.round(l.x), Math.round(l.y), l.invisible, l.runs[0]!.color])).toEqual([
      ['Top line', 72, 100, false, [255, 0, 0]],
      ['OCR layer', 72, 392, true, [0, 0, 0]],
    ]);
  });

  it('keeps a filled and stroked rectangle as one shape', () => {
    const [page] = pages;
    expect(page!.paths).toHaveLength(1);
    const shape = page!.paths[0]!;
    expect([shape.fill, shape.stroke]).toEqual([
      [0, 0, 255],
      [0, 0, 0],
    ]);
    const pts = shape.subpaths[0]!.points.map(Math.round);
    expect(Math.min(...pts.filter((_, i) => i % 2 === 0))).toBe(100);
    expect(Math.min(...pts.filter((_, i) => i % 2 === 1))).toBe(892 - 350);
  });

  it('draws the rest of the page as the background picture, at the page size', () => {
    const file = path.join(dir, pages[0]!.background!);
    const png = fs.readFileSync(file);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([612, 792]);
  });
});

describe('a tiling pattern with text in its cell', () => {
  it('keeps both passes in step: text after two pattern fills is taken once, not drawn too', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-geometry-tile-'));
    try {
      const doc = await PDFDocument.create();
      const font = await doc.embedFont(StandardFonts.Helvetica);
      const page = doc.addPage([300, 300]);
      const fontRef = font.ref;
      const cell = doc.context.stream('BT /F1 8 Tf 2 6 Td (x) Tj ET', {
        PatternType: 1,
        PaintType: 1,
        TilingType: 1,
        BBox: [0, 0, 20, 20],
        XStep: 20,
        YStep: 20,
        Resources: { Font: { F1: fontRef } },
      });
      const resources = doc.context.obj({ Font: { F1: fontRef }, Pattern: { P1: doc.context.register(cell) } });
      page.node.set(PDFName.of('Resources'), resources);
      const content = '/Pattern cs /P1 scn 0 0 100 100 re f 150 0 100 100 re f BT /F1 24 Tf 0 g 50 200 Td (After) Tj ET';
      page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(content)));
      const input = path.join(dir, 'tile.pdf');
      fs.writeFileSync(input, await doc.save());
      const output = path.join(dir, 'geometry.json');
      await runMupdf({ op: 'geometry', input, output, paths: false, backgroundDpi: 72 }, 1, dir, { timeoutMs: 60_000, memoryMb: 1024 });
      const [geometry] = JSON.parse(fs.readFileSync(output, 'utf8')) as PageGeometry[];
      expect(geometry!.lines.map((l) => l.runs.map((r) => r.text).join(''))).toEqual(['After']);
      // The background, decoded by pdf-lib and drawn by poppler: the pattern's x marks, no "After".
      const bg = await PDFDocument.create();
      const image = await bg.embedPng(fs.readFileSync(path.join(dir, geometry!.background!)));
      bg.addPage([300, 300]).drawImage(image, { x: 0, y: 0, width: 300, height: 300 });
      fs.writeFileSync(path.join(dir, 'bg.pdf'), await bg.save());
      execFileSync('pdftoppm', ['-r', '72', '-gray', '-singlefile', path.join(dir, 'bg.pdf'), path.join(dir, 'bg')]);
      const pgm = fs.readFileSync(path.join(dir, 'bg.pgm'));
      const pixels = pgm.subarray(pgm.length - 300 * 300);
      const dark = (x0: number, y0: number, x1: number, y1: number) => {
        let n = 0;
        for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (pixels[y * 300 + x]! < 128) n++;
        return n;
      };
      expect(dark(50, 80, 130, 100)).toBe(0);
      expect(dark(0, 200, 100, 300)).toBeGreaterThan(20);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
