// PDF to images (the converter with an image output_format) and extract images, over HTTP against
// a real Quire. Image sizes are read from the files' own headers here, never by the engines used.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type TaskEntry } from '@quire/contracts';
import { quireForTests } from './harness.js';
import { encryptPdf, makePdf } from './fixtures.js';
import { encodeJpeg, encodePng, makeImagePdf, photoRaster, screenshotRaster } from './imageFixtures.js';

const served = quireForTests('toimages');
const { client, dir } = served;
const file = (name: string) => path.join(dir, name);

type Kind = 'png' | 'jpg' | 'bmp' | 'tiff';

/** The format and pixel size an image file declares in its header. */
function imageSize(b: Buffer): { kind: Kind; width: number; height: number } {
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return { kind: 'png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  if (b[0] === 0xff && b[1] === 0xd8) {
    // Walk the segments to the first start-of-frame marker.
    for (let i = 2; i + 9 < b.length; ) {
      if (b[i] !== 0xff) throw new Error('bad JPEG segment');
      const marker = b[i + 1]!;
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
        return { kind: 'jpg', height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
      }
      i += 2 + b.readUInt16BE(i + 2);
    }
    throw new Error('no JPEG frame');
  }
  if (b.subarray(0, 2).toString('latin1') === 'BM') return { kind: 'bmp', width: b.readInt32LE(18), height: Math.abs(b.readInt32LE(22)) };
  const order = b.subarray(0, 4).toString('latin1');
  if (order === 'II*\0' || order === 'MM\0*') {
    const le = order === 'II*\0';
    const u16 = (o: number) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
    const u32 = (o: number) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
    const ifd = u32(4);
    const tags: Record<number, number> = {};
    for (let n = 0; n < u16(ifd); n++) {
      const e = ifd + 2 + n * 12;
      tags[u16(e)] = u16(e + 2) === 3 ? u16(e + 8) : u32(e + 8);
    }
    return { kind: 'tiff', width: tags[256]!, height: tags[257]! };
  }
  throw new Error(`unknown image: ${b.subarray(0, 8).toString('hex')}`);
}

async function download(entry: TaskEntry, index?: number): Promise<Buffer> {
  const res = await client.raw(
    `/api/tools/v1/document/download-doc?task_id=${entry.task_id}${index === undefined ? '' : `&index=${index}`}`,
  );
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** GET converter to an image format, to the end of the task (or the refusal when it is made). */
async function toImages(fileId: string, format: string, extra: Record<string, string | number> = {}): Promise<TaskEntry> {
  const query = new URLSearchParams({
    file_id: fileId,
    output_format: format,
    ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, String(v)])),
  });
  const created = await client.call(`converter?${query}`);
  if (created.code !== 0) return { status: created.code, msg: created.msg, outputs: [] } as unknown as TaskEntry;
  return client.waitTask(created.data.task_id);
}

describe('PDF to images', () => {
  let letter3: string;
  beforeAll(async () => {
    letter3 = await client.uploadId(await makePdf(file('letter3.pdf'), 3, 'Doc', [612, 792]));
  });

  it('png at 72 dpi: one image per page, each the page size in pixels, also as a zip', async () => {
    const entry = await toImages(letter3, 'png', { dpi: 72 });
    expect(entry.status).toBe(0);
    expect(entry.outputs.map((o) => o.name)).toEqual(['letter3-1.png', 'letter3-2.png', 'letter3-3.png']);
    for (const i of [0, 1, 2]) expect(imageSize(await download(entry, i))).toEqual({ kind: 'png', width: 612, height: 792 });
    expect(entry.output_file_name).toBe('letter3.zip');
    fs.writeFileSync(file('letter3.zip'), await download(entry));
    expect(
      execFileSync('unzip', ['-Z1', file('letter3.zip')])
        .toString()
        .trim()
        .split('\n'),
    ).toHaveLength(3);
  });

  it.each([
    ['jpg', 150, 1275, 1650],
    ['bmp', 72, 612, 792],
    ['tiff', 36, 306, 396],
    ['png', 300, 2550, 3300],
  ] as const)('%s at %i dpi has its magic bytes and the page size at that resolution', async (format, dpi, width, height) => {
    const entry = await toImages(letter3, format, { dpi });
    expect(entry.status).toBe(0);
    expect(entry.outputs).toHaveLength(3);
    expect(entry.outputs[2]!.name).toBe(`letter3-3.${format}`);
    expect(imageSize(await download(entry, 2))).toEqual({ kind: format, width, height });
  });

  it('a BMP holds the page as drawn: white paper, bottom row first', async () => {
    const entry = await toImages(letter3, 'bmp', { dpi: 36 });
    const bmp = await download(entry, 0);
    const offset = bmp.readUInt32LE(10);
    const rowBytes = (306 * 3 + 3) & ~3;
    expect(bmp.length).toBe(offset + rowBytes * 396);
    // The bottom row (stored first) is blank paper; the text "Doc Page 1" is near the top.
    expect([...bmp.subarray(offset, offset + 306 * 3)].every((v) => v === 255)).toBe(true);
    const top = bmp.subarray(offset + rowBytes * (396 - 60), offset + rowBytes * 396);
    expect([...top].some((v) => v < 128)).toBe(true);
  });

  it('150 dpi unless told; a one-page PDF gives one image named after it', async () => {
    const one = await client.uploadId(await makePdf(file('one.pdf'), 1, 'One', [144, 72]));
    const entry = await toImages(one, 'jpg');
    expect(entry.status).toBe(0);
    expect(entry.outputs.map((o) => o.name)).toEqual(['one.jpg']);
    expect(entry.output_file_name).toBe('one.jpg');
    expect(imageSize(await download(entry))).toEqual({ kind: 'jpg', width: 300, height: 150 });
  });

  it("renders many pages in parallel runs, each image in its page's place in the zip", async () => {
    // 45 pages, each its own width (144 + 24n points: 300 + 50n pixels at 150 dpi), so that a page
    // out of place shows in its image's size; at 150 dpi they take several runs of pdftoppm.
    const doc = await PDFDocument.create();
    for (let n = 1; n <= 45; n++) doc.addPage([144 + 24 * n, 360]).drawText(`Page ${n}`, { x: 20, y: 300 });
    fs.writeFileSync(file('widths.pdf'), await doc.save());
    const entry = await toImages(await client.uploadId(file('widths.pdf')), 'jpg');
    expect(entry.status).toBe(0);
    fs.writeFileSync(file('widths.zip'), await download(entry));
    const names = Array.from({ length: 45 }, (_, i) => `widths-${i + 1}.jpg`);
    expect(
      execFileSync('unzip', ['-Z1', file('widths.zip')])
        .toString()
        .trim()
        .split('\n'),
    ).toEqual(names);
    const unzipped = file('widths');
    execFileSync('unzip', ['-q', '-o', file('widths.zip'), '-d', unzipped]);
    const sizes = execFileSync('identify', ['-format', '%m %w %h\n', ...names.map((n) => path.join(unzipped, n))]).toString();
    expect(sizes.trim().split('\n')).toEqual(names.map((_, i) => `JPEG ${300 + 50 * (i + 1)} 750`));
  });

  it('an encrypted PDF needs its password', async () => {
    const locked = await client.uploadId(encryptPdf(await makePdf(file('plain.pdf'), 2, 'Lock', [72, 72]), file('locked.pdf'), 'secret1'));
    expect((await toImages(locked, 'png')).status).toBe(ErrorCode.Encrypted);
    expect((await toImages(locked, 'png', { passwd: 'wrong12' })).status).toBe(ErrorCode.WrongPassword);
    const entry = await toImages(locked, 'png', { passwd: 'secret1', dpi: 72 });
    expect(entry.status).toBe(0);
    expect(imageSize(await download(entry, 1))).toEqual({ kind: 'png', width: 72, height: 72 });
  });

  it('refuses resolutions out of bounds, a non-PDF, and pages too large at the resolution', async () => {
    expect((await toImages(letter3, 'png', { dpi: 20 })).status).toBe(ErrorCode.InvalidParams);
    expect((await toImages(letter3, 'png', { dpi: 601 })).status).toBe(ErrorCode.InvalidParams);
    expect((await toImages(letter3, 'svg')).status).toBe(ErrorCode.InvalidParams);
    const png = file('pic.png');
    fs.writeFileSync(png, encodePng(screenshotRaster(20, 20)));
    expect((await toImages(await client.uploadId(png), 'png')).status).toBe(ErrorCode.NotPdf);
    const huge = await client.uploadId(await makePdf(file('huge.pdf'), 1, 'Huge', [14400, 14400]));
    const entry = await toImages(huge, 'png', { dpi: 600 });
    expect(entry.status).toBe(ErrorCode.InvalidParams);
    expect(entry.msg).toBe(
      'Page 1 would be 120,000 x 120,000 pixels at 600 dpi, more than can be rendered. Please choose a lower resolution.',
    );
  });
});

describe('extract images', () => {
  it("is described in the OpenAPI document, as is the converter's dpi", async () => {
    const doc = await (await fetch(`${served.quire.url}/api/docs`)).json();
    expect(doc.paths['/api/tools/v1/extract_images'].post.requestBody).toBeDefined();
    const dpi = doc.paths['/api/tools/v1/converter'].get.parameters.find((p: { name: string }) => p.name === 'dpi');
    expect(dpi.schema).toMatchObject({ type: 'integer', minimum: 36, maximum: 600 });
  });

  it('gives every embedded image at its own pixel size and format', async () => {
    const pdf = await makeImagePdf(file('pictures.pdf'), [
      { kind: 'jpg', bytes: await encodeJpeg(photoRaster(200, 120), 90) },
      { kind: 'png', bytes: encodePng(screenshotRaster(64, 48)) },
    ]);
    const entry = await client.runTool('extract_images', { file_id: await client.uploadId(pdf) }, file('pictures.zip'));
    expect(entry.status).toBe(0);
    expect(entry.outputs.map((o) => o.name)).toEqual(['pictures-1.jpg', 'pictures-2.png']);
    expect(imageSize(await download(entry, 0))).toEqual({ kind: 'jpg', width: 200, height: 120 });
    expect(imageSize(await download(entry, 1))).toEqual({ kind: 'png', width: 64, height: 48 });
    expect(
      execFileSync('unzip', ['-Z1', file('pictures.zip')])
        .toString()
        .trim()
        .split('\n'),
    ).toEqual(['pictures-1.jpg', 'pictures-2.png']);
  });

  it('opens an encrypted PDF with its password', async () => {
    const pdf = await makeImagePdf(file('pic1.pdf'), [{ kind: 'png', bytes: encodePng(screenshotRaster(33, 22)) }]);
    const id = await client.uploadId(encryptPdf(pdf, file('pic1-locked.pdf'), 'secret1'));
    expect((await client.post('extract_images', { file_id: id })).code).toBe(ErrorCode.Encrypted);
    const entry = await client.runTool('extract_images', { file_id: id, passwd: 'secret1' }, file('pic1.png'));
    expect(entry.status).toBe(0);
    expect(imageSize(fs.readFileSync(file('pic1.png')))).toEqual({ kind: 'png', width: 33, height: 22 });
  });

  it('a PDF without images fails with 3100 and says so', async () => {
    const id = await client.uploadId(await makePdf(file('text.pdf'), 2));
    const entry = await client.runTool('extract_images', { file_id: id }, file('none'));
    expect(entry.status).toBe(ErrorCode.InvalidParams);
    expect(entry.msg).toBe('No images found in this PDF.');
  });
});
