// The JBIG2 encoder against independent decoders: Debian's jbig2dec on the bare stream, and
// poppler (pdftoppm) and MuPDF (mutool draw) on a PDF holding it, which must draw every pixel as
// they draw the same samples stored unfiltered.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { type BitonalSamples as Bitonal, bitonalScan, random } from '../../../test/imageFixtures.js';
import { encodeJbig2, MqEncoder } from './jbig2.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-jbig2-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const strideOf = (width: number) => Math.ceil(width / 8);

function bitonal(width: number, height: number, black: (x: number, y: number) => boolean): Bitonal {
  const stride = strideOf(width);
  // Padding bits set, as some writers leave them: they must not matter.
  const samples = new Uint8Array(stride * height).fill(0xff);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (black(x, y)) samples[y * stride + (x >> 3)]! &= ~(0x80 >> (x & 7));
  return { width, height, samples };
}

const isBlack = (b: Bitonal, x: number, y: number) => ((b.samples[y * strideOf(b.width) + (x >> 3)]! >> (7 - (x & 7))) & 1) === 0;

/** The pixels that differ between the image and a PBM (1 black) of the same size. */
function differingPixels(b: Bitonal, pbm: Buffer): number {
  const match = /^P4\s+(\d+)\s+(\d+)\s/.exec(pbm.toString('latin1', 0, 40));
  expect(match && [Number(match[1]), Number(match[2])]).toEqual([b.width, b.height]);
  const body = pbm.subarray(match![0].length);
  let differing = 0;
  for (let y = 0; y < b.height; y++)
    for (let x = 0; x < b.width; x++)
      if ((((body[y * strideOf(b.width) + (x >> 3)]! >> (7 - (x & 7))) & 1) === 1) !== isBlack(b, x, y)) differing++;
  return differing;
}

/** What Debian's jbig2dec decodes from the stream as an embedded one (no file header), as PBM. */
function jbig2dec(stream: Uint8Array, name: string): Buffer {
  fs.writeFileSync(path.join(dir, `${name}.jb2`), stream);
  execFileSync('jbig2dec', ['--embedded', '-t', 'pbm', '-o', path.join(dir, `${name}.pbm`), path.join(dir, `${name}.jb2`)]);
  return fs.readFileSync(path.join(dir, `${name}.pbm`));
}

/** A one-page PDF drawing the image one point per pixel, its dictionary holding `entries`. */
function imagePdf(file: string, b: Bitonal, entries: string, filter: string, data: Uint8Array) {
  const content = `q ${b.width} 0 0 ${b.height} 0 0 cm /Im0 Do Q`;
  const objects: (string | [string, Uint8Array])[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${b.width} ${b.height}] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>`,
    [`<< /Type /XObject /Subtype /Image /Width ${b.width} /Height ${b.height} ${entries} ${filter} /Length ${data.length} >>`, data],
    [`<< /Length ${content.length} >>`, Buffer.from(content)],
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  const offsets: number[] = [];
  let at = parts[0]!.length;
  for (const [i, o] of objects.entries()) {
    offsets.push(at);
    const bytes =
      typeof o === 'string'
        ? Buffer.from(`${i + 1} 0 obj\n${o}\nendobj\n`)
        : Buffer.concat([Buffer.from(`${i + 1} 0 obj\n${o[0]}\nstream\n`), o[1], Buffer.from('\nendstream\nendobj\n')]);
    parts.push(bytes);
    at += bytes.length;
  }
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`));
  fs.writeFileSync(file, Buffer.concat(parts));
}

/** The page drawn grey at 72 dpi (one pixel per image pixel) by poppler and by MuPDF. */
function drawings(pdf: string): Buffer[] {
  const prefix = pdf.replace(/\.pdf$/, '');
  execFileSync('pdftoppm', ['-r', '72', '-gray', '-singlefile', pdf, `${prefix}-poppler`]);
  execFileSync('mutool', ['draw', '-q', '-r', '72', '-c', 'gray', '-o', `${prefix}-mupdf.pgm`, pdf]);
  return [fs.readFileSync(`${prefix}-poppler.pgm`), fs.readFileSync(`${prefix}-mupdf.pgm`)];
}

describe('MQ encoder', () => {
  it('codes the test sequence of T.88 annex H.2 to the bytes the standard lists', () => {
    const decisions = [
      0x00, 0x02, 0x00, 0x51, 0x00, 0x00, 0x00, 0xc0, 0x03, 0x52, 0x87, 0x2a, 0xaa, 0xaa, 0xaa, 0xaa, 0x82, 0xc0, 0x20, 0x00, 0xfc, 0xd7,
      0x9e, 0xf6, 0xbf, 0x7f, 0xed, 0x90, 0x4f, 0x46, 0xa3, 0xbf,
    ];
    const mq = new MqEncoder(1);
    for (const byte of decisions) for (let bit = 7; bit >= 0; bit--) mq.encode(0, (byte >> bit) & 1);
    expect(Buffer.from(mq.finish()).toString('hex')).toBe('84c73bfce1a1430402200000410dbb86f4317fff88ff37471adb6adfffac');
  });
});

describe('JBIG2 encoder', () => {
  const rand = random(7);
  const cases: [string, () => Bitonal | Promise<Bitonal>][] = [
    ['1 × 1 white', () => bitonal(1, 1, () => false)],
    ['1 × 1 black', () => bitonal(1, 1, () => true)],
    ['all white', () => bitonal(200, 120, () => false)],
    ['all black', () => bitonal(200, 120, () => true)],
    ['random, 7 wide', () => bitonal(7, 50, () => rand() < 0.5)],
    ['random, 9 wide', () => bitonal(9, 31, () => rand() < 0.5)],
    ['random, 13 × 1', () => bitonal(13, 1, () => rand() < 0.5)],
    ['random, 301 × 157', () => bitonal(301, 157, () => rand() < 0.5)],
    ['sparse noise', () => bitonal(517, 203, () => rand() < 0.01)],
    ['stripes and repeated rows', () => bitonal(123, 300, (x, y) => (y >> 3) % 3 === 0 || x % 17 === 0)],
    ['one column black at each edge', () => bitonal(33, 40, (x) => x === 0 || x === 32)],
    ['a page of text scanned at 100 dpi', () => bitonalScan('Scanned at 100 dpi', 100)],
  ];

  it.each(cases)('%s: jbig2dec decodes every pixel as given', async (_, make) => {
    const image = await make();
    expect(differingPixels(image, jbig2dec(encodeJbig2(image.samples, image.width, image.height), 'case'))).toBe(0);
  });

  it('encodes an A4 page of text scanned at 300 dpi losslessly, in under half of what Flate takes', async () => {
    const page = await bitonalScan('Scanned at 300 dpi', 300);
    const stream = encodeJbig2(page.samples, page.width, page.height);
    expect(differingPixels(page, jbig2dec(stream, 'page'))).toBe(0);
    expect(stream.length).toBeLessThan(zlib.deflateSync(page.samples, { level: 9 }).length * 0.5);
  });

  // JBIG2Decode hands out the inverse of the JBIG2 bitmap (JBIG2's 1 is black): the samples the
  // image had, so a stencil mask, an inverted /Decode and a plain grey image draw as before.
  it.each([
    ['DeviceGray', '/ColorSpace /DeviceGray /BitsPerComponent 1'],
    ['DeviceGray with /Decode [1 0]', '/ColorSpace /DeviceGray /BitsPerComponent 1 /Decode [1 0]'],
    ['a stencil mask', '/ImageMask true /BitsPerComponent 1'],
    ['a stencil mask with /Decode [1 0]', '/ImageMask true /BitsPerComponent 1 /Decode [1 0]'],
  ])('%s draws the same in poppler and MuPDF as its unfiltered samples', async (name, entries) => {
    const image = await bitonalScan(name, 72);
    const slug = name.replace(/\W+/g, '-');
    imagePdf(path.join(dir, `${slug}-raw.pdf`), image, entries, '', image.samples);
    imagePdf(
      path.join(dir, `${slug}-jbig2.pdf`),
      image,
      entries,
      '/Filter /JBIG2Decode',
      encodeJbig2(image.samples, image.width, image.height),
    );
    const list = execFileSync('pdfimages', ['-list', path.join(dir, `${slug}-jbig2.pdf`)]).toString();
    expect(list.split('\n')[2]!.trim().split(/\s+/)[8]).toBe('jbig2');
    const [raw, jbig2] = [drawings(path.join(dir, `${slug}-raw.pdf`)), drawings(path.join(dir, `${slug}-jbig2.pdf`))];
    // Not a blank page: the text is drawn.
    expect(raw[0]!.subarray(-image.width * image.height).filter((v) => v < 128).length).toBeGreaterThan(1000);
    expect(jbig2[0]!.equals(raw[0]!)).toBe(true);
    expect(jbig2[1]!.equals(raw[1]!)).toBe(true);
  });
});
