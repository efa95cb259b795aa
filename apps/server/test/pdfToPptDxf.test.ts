// PDF to PowerPoint and to DXF (the converter with output_format pptx or dxf) over HTTP against a
// real Quire. Outputs are read with unzip and a DXF parser of the test's own, and opened by
// LibreOffice (its own process and profile, not the server's listeners), whose PDFs poppler reads.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, StandardFonts, TextRenderingMode, degrees, rgb, setTextRenderingMode } from 'pdf-lib';
import { ErrorCode, type TaskEntry } from '@quire/contracts';
import { quireForTests } from './harness.js';
import { encryptPdf } from './fixtures.js';
import { encodePng, screenshotRaster } from './imageFixtures.js';
import { isWhite, pageSizes, renderPage } from './convertFixtures.js';

const { client, dir } = quireForTests('pptdxf');
const file = (name: string) => path.join(dir, name);

/** GET converter to `format`, to the end of the task; the output is saved as `dest`. */
async function convert(fileId: string, format: string, dest: string, passwd?: string): Promise<TaskEntry> {
  const query = new URLSearchParams({ file_id: fileId, output_format: format, ...(passwd && { passwd }) });
  const created = await client.call(`converter?${query}`);
  if (created.code !== 0) return { status: created.code, msg: created.msg, outputs: [] } as unknown as TaskEntry;
  const entry = await client.waitTask(created.data.task_id);
  if (entry.status === 0) {
    const res = await client.raw(`/api/tools/v1/document/download-doc?task_id=${entry.task_id}`);
    expect(res.status).toBe(200);
    fs.writeFileSync(dest, Buffer.from(await res.arrayBuffer()));
  }
  return entry;
}

/** LibreOffice's PDF of each file (one soffice run, a profile of its own), named like it with .pdf. */
function officePdfs(files: string[]): string[] {
  const out = file('office');
  execFileSync(
    'soffice',
    [`-env:UserInstallation=file://${file('lo-profile')}`, '--headless', '--convert-to', 'pdf', '--outdir', out, ...files],
    { timeout: 120_000, stdio: 'ignore' },
  );
  return files.map((f) => path.join(out, `${path.basename(f, path.extname(f))}.pdf`));
}

const unzipList = (zip: string) => execFileSync('unzip', ['-Z1', zip]).toString().trim().split('\n');
const unzipText = (zip: string, part: string) => execFileSync('unzip', ['-p', zip, part]).toString();
const pdfText = (pdf: string) => execFileSync('pdftotext', ['-enc', 'UTF-8', pdf, '-']).toString();

/**
 * Three letter pages: a heading, a red bold line and a turned word over a filled rectangle, and a
 * 400 x 300 picture (its top 60 rows blue) drawn at half size, on page 2 with a square over it.
 */
async function deckPdf(dest: string): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const picture = await doc.embedPng(encodePng(screenshotRaster(400, 300)));
  for (let n = 1; n <= 3; n++) {
    const page = doc.addPage([612, 792]);
    page.drawRectangle({ x: 100, y: 200, width: 200, height: 100, color: rgb(0, 0.6, 0) });
    page.drawImage(picture, { x: 350, y: 450, width: 200, height: 150 });
    if (n === 2) page.drawRectangle({ x: 380, y: 470, width: 40, height: 40, color: rgb(1, 0, 0) });
    page.drawText(`Slide heading ${n}`, { x: 72, y: 700, size: 24, font });
    page.drawText('Bold red words', { x: 72, y: 650, size: 14, font: bold, color: rgb(0.8, 0, 0) });
    page.drawText('Turned', { x: 400, y: 400, size: 18, font, rotate: degrees(90) });
    // An OCR layer's way: text drawn invisibly (render mode 3).
    page.pushOperators(setTextRenderingMode(TextRenderingMode.Invisible));
    page.drawText('Hidden layer', { x: 72, y: 100, size: 12, font });
  }
  fs.writeFileSync(dest, await doc.save());
  return dest;
}

/** DXF group code / value pairs, then its entities (of the ENTITIES section) with their groups. */
function parseDxf(text: string) {
  const lines = text.split(/\r?\n/);
  const pairs: [number, string][] = [];
  for (let i = 0; i + 1 < lines.length; i += 2) pairs.push([Number(lines[i]!.trim()), lines[i + 1]!]);
  const sections = pairs.filter(([c, v]) => c === 0 && v === 'SECTION').length;
  const start = pairs.findIndex(([c, v], i) => c === 0 && v === 'SECTION' && pairs[i + 1]?.[1] === 'ENTITIES');
  const entities: { type: string; groups: [number, string][] }[] = [];
  for (let i = start + 2; i < pairs.length && pairs[i]![1] !== 'ENDSEC'; i++) {
    if (pairs[i]![0] === 0) entities.push({ type: pairs[i]![1], groups: [] });
    else entities.at(-1)!.groups.push(pairs[i]!);
  }
  return { pairs, sections, entities };
}

const group = (g: [number, string][], code: number) => g.filter(([c]) => c === code).map(([, v]) => v);
const near = (a: number, b: number) => Math.abs(a - b) < 0.01;
const mm = (pt: number) => (pt * 25.4) / 72;

describe('PDF to PowerPoint', () => {
  let pptx: string;
  beforeAll(async () => {
    const id = await client.uploadId(await deckPdf(file('deck.pdf')));
    pptx = file('deck.pptx');
    const entry = await convert(id, 'pptx', pptx);
    expect(entry.status).toBe(0);
    expect(entry.outputs.map((o) => o.name)).toEqual(['deck.pptx']);
  });

  it('has one slide per page, the page size, each page text in its own slide as editable runs', () => {
    const parts = unzipList(pptx);
    expect(parts.filter((p) => /^ppt\/slides\/slide\d+\.xml$/.test(p)).sort()).toEqual([
      'ppt/slides/slide1.xml',
      'ppt/slides/slide2.xml',
      'ppt/slides/slide3.xml',
    ]);
    // 12700 EMU to the point.
    expect(unzipText(pptx, 'ppt/presentation.xml')).toContain('<p:sldSz cx="7772400" cy="10058400"/>');
    for (const n of [1, 2, 3]) {
      const slide = unzipText(pptx, `ppt/slides/slide${n}.xml`);
      const runs = [...slide.matchAll(/<a:t>([^<]*)<\/a:t>/g)].map((m) => m[1]);
      expect(runs).toEqual([`Slide heading ${n}`, 'Bold red words', 'Turned', 'Hidden layer']);
      expect(slide).toMatch(/sz="1400" b="1" i="0"[^>]*><a:solidFill><a:srgbClr val="CC0000"\/>/);
      // The turned word's box is turned a quarter clockwise on the slide (90° counter-clockwise in PDF space).
      expect(slide).toContain('rot="16200000"');
      // Invisible text stays invisible and selectable.
      expect(slide).toMatch(/<a:noFill\/><a:latin typeface="Arial"\/>[\s\S]*?<a:t>Hidden layer<\/a:t>/);
    }
  });

  it('makes a picture with nothing over it a picture of its own, at its own resolution', async () => {
    const slide = unzipText(pptx, 'ppt/slides/slide1.xml');
    // 350 pt from the left, 792 - 600 from the top, 200 x 150 pt.
    expect(slide).toContain('<p:cNvPr id="3" name="Picture 1"/>');
    expect(slide).toContain('<a:off x="4445000" y="2438400"/><a:ext cx="2540000" cy="1905000"/>');
    const png = execFileSync('unzip', ['-p', pptx, 'ppt/media/page1-image1.png']);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([400, 300]);
    // Page 2 draws a square over it: there it stays in the background picture.
    expect(unzipText(pptx, 'ppt/slides/slide2.xml')).not.toContain('<p:pic>');
    expect(
      unzipList(pptx)
        .filter((p) => p.startsWith('ppt/media/'))
        .sort(),
    ).toEqual([
      'ppt/media/page1-image1.png',
      'ppt/media/page1.png',
      'ppt/media/page2.png',
      'ppt/media/page3-image1.png',
      'ppt/media/page3.png',
    ]);
  });

  it('shows the page without its text as the background picture', async () => {
    const slide = unzipText(pptx, 'ppt/slides/slide1.xml');
    expect(slide).toContain('<p:bg><p:bgPr><a:blipFill');
    // The picture, decoded by pdf-lib and drawn by poppler: the green rectangle, and paper where the heading was.
    const png = execFileSync('unzip', ['-p', pptx, 'ppt/media/page1.png']);
    const doc = await PDFDocument.create();
    const image = await doc.embedPng(png);
    expect([image.width, image.height]).toEqual([1275, 1650]);
    doc.addPage([612, 792]).drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
    fs.writeFileSync(file('background.pdf'), await doc.save());
    const page = renderPage(file('background.pdf'));
    const [r, g, b] = page.rgb(200, 792 - 250);
    expect(r! < 40 && g! > 120 && b! < 40).toBe(true);
    for (let x = 72; x < 250; x += 2) for (let y = 792 - 720; y < 792 - 695; y += 2) expect(isWhite(page.rgb(x, y))).toBe(true);
    // Nor the separate picture: paper where it is on the page.
    expect(isWhite(page.rgb(450, 200))).toBe(true);
  });

  it('opens in LibreOffice: three pages of that size holding the text', () => {
    const [pdf] = officePdfs([pptx]);
    expect(pageSizes(pdf!)).toEqual([
      [612, 792],
      [612, 792],
      [612, 792],
    ]);
    const pages = pdfText(pdf!).split('\f');
    for (const n of [1, 2, 3]) expect(pages[n - 1]).toMatch(new RegExp(`Slide heading ${n}[^]*Bold red words`));
    // The heading sits where it was: dark pixels in the line above its baseline (72 pt from the left, 92 from the top).
    const page = renderPage(pdf!);
    let ink = 0;
    for (let x = 72; x < 250; x++) for (let y = 80; y < 92; y++) if (page.rgb(x, y)[0]! < 100) ink++;
    expect(ink).toBeGreaterThan(100);
    const [r, g, b] = page.rgb(200, 792 - 250);
    expect(r! < 40 && g! > 120 && b! < 40).toBe(true);
    // The picture's blue band at its top.
    expect(page.rgb(450, 200)).toEqual([40, 60, 120]);
  });
});

describe('PDF to DXF', () => {
  let drawing: string;
  beforeAll(async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (const n of [1, 2]) {
      const page = doc.addPage([595, 842]);
      page.drawRectangle({ x: 100, y: 200, width: 200, height: 100, borderColor: rgb(0, 0, 1), borderWidth: 2 });
      page.drawLine({ start: { x: 100, y: 150 }, end: { x: 400, y: 150 }, thickness: 1 });
      page.drawText(`Drawing${n}`, { x: 72, y: 700, size: 24, font });
      page.drawText('Maße 50%', { x: 72, y: 600, size: 12, font });
    }
    fs.writeFileSync(file('drawing.pdf'), await doc.save());
    const id = await client.uploadId(file('drawing.pdf'));
    drawing = file('drawing.dxf');
    const entry = await convert(id, 'dxf', drawing);
    expect(entry.status).toBe(0);
    expect(entry.outputs.map((o) => o.name)).toEqual(['drawing.dxf']);
  });

  it('holds the rectangle, the line and the word in millimetres, y up, page 2 on its own layer to the right', () => {
    const dxf = parseDxf(fs.readFileSync(drawing, 'latin1'));
    expect(dxf.pairs[0]).toEqual([0, 'SECTION']);
    expect(dxf.pairs.at(-1)).toEqual([0, 'EOF']);
    expect(dxf.sections).toBe(3);
    const onLayer = (layer: string) => dxf.entities.filter((e) => group(e.groups, 8)[0] === layer);
    for (const [layer, dx] of [
      ['PAGE_1', 0],
      ['PAGE_2', mm(595) + 10],
    ] as const) {
      const entities = onLayer(layer);
      const lines = entities.filter((e) => e.type === 'LINE').map((e) => [10, 20, 11, 21].map((c) => Number(group(e.groups, c)[0])));
      expect(lines).toHaveLength(1);
      expect(lines[0]!.map((v, i) => near(v, [dx + mm(100), mm(150), dx + mm(400), mm(150)][i]!))).toEqual([true, true, true, true]);
      // The rectangle: a closed POLYLINE whose VERTEXes are its corners.
      const polyline = entities.findIndex((e) => e.type === 'POLYLINE');
      expect(group(entities[polyline]!.groups, 70)).toEqual(['1']);
      const vertices = entities
        .slice(
          polyline + 1,
          entities.findIndex((e) => e.type === 'SEQEND'),
        )
        .map((e) => [Number(group(e.groups, 10)[0]), Number(group(e.groups, 20)[0])]);
      const corners = [
        [100, 200],
        [300, 200],
        [300, 300],
        [100, 300],
      ].map(([x, y]) => [dx + mm(x!), mm(y!)]);
      for (const c of corners) expect(vertices.some((v) => near(v[0]!, c[0]!) && near(v[1]!, c[1]!))).toBe(true);
      expect(group(entities[polyline]!.groups, 62)).toEqual(['5']);
      const text = entities.filter((e) => e.type === 'TEXT');
      // Beyond ASCII as \U+ escapes; a percent sign as %%%.
      expect(text.map((e) => group(e.groups, 1)[0])).toEqual([`Drawing${layer.slice(-1)}`, 'Ma\\U+00DFe 50%%%']);
      expect(near(Number(group(text[0]!.groups, 10)[0]), dx + mm(72))).toBe(true);
      expect(near(Number(group(text[0]!.groups, 20)[0]), mm(700))).toBe(true);
    }
  });

  it('opens in LibreOffice Draw, text and drawing shown', () => {
    const [pdf] = officePdfs([drawing]);
    const text = pdfText(pdf!);
    for (const word of ['Drawing1', 'Drawing2', 'Maße 50%']) expect(text).toContain(word);
    const page = renderPage(pdf!);
    let ink = 0;
    for (let x = 0; x < page.width; x += 2)
      for (let y = 0; y < page.height; y += 2) if (page.rgb(x, y)[2]! > 150 && page.rgb(x, y)[0]! < 100) ink++;
    // The blue rectangles are drawn.
    expect(ink).toBeGreaterThan(10);
  });
});

describe('PDF to PowerPoint and DXF: inputs', () => {
  it('open an encrypted PDF with its password', async () => {
    const plain = await deckPdf(file('plain.pdf'));
    const id = await client.uploadId(encryptPdf(plain, file('locked.pdf'), 'secret1'));
    expect((await convert(id, 'pptx', file('x.pptx'))).status).toBe(ErrorCode.Encrypted);
    expect((await convert(id, 'dxf', file('x.dxf'), 'wrong12')).status).toBe(ErrorCode.WrongPassword);
    expect((await convert(id, 'pptx', file('locked.pptx'), 'secret1')).status).toBe(0);
    expect(unzipText(file('locked.pptx'), 'ppt/slides/slide3.xml')).toContain('<a:t>Slide heading 3</a:t>');
    expect((await convert(id, 'dxf', file('locked.dxf'), 'secret1')).status).toBe(0);
    expect(fs.readFileSync(file('locked.dxf'), 'latin1')).toContain('\n1\nSlide heading 2\n');
  });

  it('take PDFs only', async () => {
    fs.writeFileSync(file('notes.txt'), 'plain text\n');
    const id = await client.uploadId(file('notes.txt'));
    expect((await convert(id, 'pptx', file('n.pptx'))).status).toBe(ErrorCode.NotPdf);
  });
});
