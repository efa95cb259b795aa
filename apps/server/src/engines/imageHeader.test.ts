import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { largestFrame, readImageHeader } from './imageHeader.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-header-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const write = (name: string, bytes: number[] | Buffer) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, Buffer.from(bytes));
  return file;
};
const u16be = (n: number) => [n >> 8, n & 255];
const u16le = (n: number) => [n & 255, n >> 8];

describe('image headers', () => {
  it('reads a JPEG frame header past its APP segments, with EXIF orientation and JFIF density', async () => {
    const jfif = [0xff, 0xe0, ...u16be(16), ...Buffer.from('JFIF\0'), 1, 2, 1, ...u16be(300), ...u16be(300), 0, 0];
    const tiff = [
      ...Buffer.from('MM\0*'),
      0,
      0,
      0,
      8,
      ...u16be(1),
      ...u16be(0x0112),
      ...u16be(3),
      0,
      0,
      0,
      1,
      ...u16be(6),
      0,
      0,
      0,
      0,
      0,
      0,
    ];
    const exif = [0xff, 0xe1, ...u16be(2 + 6 + tiff.length), ...Buffer.from('Exif\0\0'), ...tiff];
    const sof = [0xff, 0xc2, ...u16be(11), 8, ...u16be(480), ...u16be(640), 1, 1, 0x11, 0];
    const header = await readImageHeader(write('a.jpg', [0xff, 0xd8, ...jfif, ...exif, ...sof, 0xff, 0xd9]));
    expect(header).toEqual({
      format: 'jpeg',
      frames: [{ width: 640, height: 480 }],
      orientation: 6,
      dpi: { x: 300, y: 300 },
      jpegFrameMarker: 0xc2,
    });
  });

  it('finds a GIF frame far outside its logical screen (a decompression bomb)', async () => {
    const gif = [...Buffer.from('GIF89a'), ...u16le(32), ...u16le(32), 0, 0, 0];
    const frame = [0x2c, ...u16le(0), ...u16le(60000), ...u16le(50000), ...u16le(40000), 0, 2, 0];
    const header = await readImageHeader(write('bomb.gif', [...gif, ...frame])); // cut short: no data, no trailer
    expect(header?.frames).toEqual([{ width: 50000, height: 100000 }]);
    expect(largestFrame(header!)).toBe(5e9);
  });

  it('lists every page of a TIFF, and refuses a chain of pages that loops', async () => {
    const ifd = (width: number, next: number) => [
      ...u16le(2),
      ...u16le(256),
      ...u16le(3),
      1,
      0,
      0,
      0,
      ...u16le(width),
      0,
      0,
      ...u16le(257),
      ...u16le(4),
      1,
      0,
      0,
      0,
      20,
      0,
      0,
      0,
      next,
      0,
      0,
      0,
    ];
    const two = [...Buffer.from('II*\0'), 8, 0, 0, 0, ...ifd(10, 38), ...ifd(30, 0)];
    expect((await readImageHeader(write('two.tif', two)))?.frames).toEqual([
      { width: 10, height: 20 },
      { width: 30, height: 20 },
    ]);
    const loop = [...Buffer.from('II*\0'), 8, 0, 0, 0, ...ifd(10, 8)];
    expect(await readImageHeader(write('loop.tif', loop))).toBeNull();
  });

  it('reads OS/2 and Windows BMP headers, a bottom-up height as positive', async () => {
    const os2 = [...Buffer.from('BM'), ...Array(12).fill(0), 12, 0, 0, 0, ...u16le(127), ...u16le(64), 1, 0, 8, 0, ...Array(8).fill(0)];
    expect((await readImageHeader(write('os2.bmp', os2)))?.frames).toEqual([{ width: 127, height: 64 }]);
    const win = Buffer.alloc(54);
    win.write('BM', 0, 'latin1');
    win.writeUInt32LE(40, 14);
    win.writeInt32LE(200, 18);
    win.writeInt32LE(-100, 22);
    expect((await readImageHeader(write('win.bmp', win)))?.frames).toEqual([{ width: 200, height: 100 }]);
  });

  it('answers null for what is no image or is cut short', async () => {
    expect(await readImageHeader(write('x.png', Buffer.from('not a png at all')))).toBeNull();
    expect(await readImageHeader(write('short.jpg', [0xff, 0xd8, 0xff, 0xe0, 0, 16, 1]))).toBeNull();
  });
});
