// Images past the pixel bound, and the largest camera photos under it, through every tool that
// decodes an uploaded image. A PNG of 16383² (800 KB, 268 megapixels: libvips' own bound) ran each
// of them for 14–47 s at up to 1.6 GB; it is refused (4012, too many pixels) from its header when
// the task is made. A photo of 102 megapixels, as the largest cameras take, still compresses and
// becomes a PDF. Outputs are read by ImageMagick's identify and poppler, not by sharp.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, tooManyPixelsMessage } from '@quire/contracts';
import { pngBomb } from './bombFixtures.js';
import { EngineMemoryWatch } from './engineMemory.js';
import { quireForTests, type Envelope } from './harness.js';
import { random } from './imageFixtures.js';

/** The requirement: an image past the bound is answered within this long, no engine past 512 MB. */
const ANSWER_WITHIN_MS = 10_000;
const REFUSAL_MEMORY_BOUND_KB = 512 * 1024;
/** A 102-megapixel JPEG written again needs some 7 bytes a pixel (its coefficients, for optimised coding). */
const PHOTO_MEMORY_BOUND_KB = 1024 * 1024;

const served = quireForTests('large-images');
const { client, dir } = served;
const file = (name: string) => path.join(dir, name);
const watch = new EngineMemoryWatch();

afterAll(() => watch.stop());

const converter = (query: Record<string, string>) => client.call(`converter?${new URLSearchParams(query)}`);

/** Each tool that decodes an uploaded image, called as its page calls it. */
const imageTools: { tool: string; call: (id: string) => Promise<Envelope> }[] = [
  { tool: 'compress image', call: (id) => client.post('images_process', { file_id: id, action: 'compress', level: 'medium' }) },
  { tool: 'convert image', call: (id) => client.post('images_process', { file_id: id, action: 'convert', format: 'jpg' }) },
  { tool: 'image to icon', call: (id) => client.post('images_process', { file_id: id, action: 'convert', format: 'ico', ico_size: 64 }) },
  { tool: 'resize image', call: (id) => client.post('images_process', { file_id: id, action: 'resize', percent: 50 }) },
  { tool: 'rotate image', call: (id) => client.post('images_process', { file_id: id, action: 'rotate', angle: 90 }) },
  {
    tool: 'crop image',
    call: (id) => client.post('images_process', { file_id: id, action: 'crop', margins: { top: 10, right: 10, bottom: 10, left: 10 } }),
  },
  { tool: 'images to PDF', call: (id) => client.post('images_merge_pdf', { file_ids: [id] }) },
  { tool: 'image to PDF (converter)', call: (id) => converter({ file_id: id, output_format: 'pdf' }) },
  { tool: 'image to text (OCR)', call: (id) => client.post('image/images-ocr-merge-pdf', { file_ids: [id], output_format: 'txt' }) },
  { tool: 'image to Word (converter with OCR)', call: (id) => converter({ file_id: id, output_format: 'docx', using_ocr: 'true' }) },
];

/** The refusal when the task is made, or else the task's own end: its code and message. */
async function outcome(created: Envelope): Promise<[number, string]> {
  if (created.code !== 0) return [created.code, created.msg];
  const entry = await client.waitTask(created.data.task_id);
  return [entry.status, entry.msg];
}

describe('a PNG of 16383 x 16383 pixels', () => {
  let bombId: string;

  beforeAll(async () => {
    const bomb = await pngBomb(file('bomb.png'));
    expect(fs.statSync(bomb).size).toBeLessThan(1024 * 1024);
    // ImageMagick's policy opens nothing this wide; file(1) reads the header.
    expect(execFileSync('file', ['-b', bomb], { encoding: 'utf8' })).toMatch(/^PNG image data, 16383 x 16383, 8-bit\/color RGB/);
    // Nothing decodes it at upload; each tool refuses it.
    bombId = await client.uploadId(bomb);
  });

  it.each(imageTools)('is refused by $tool within 10 s for its pixels (4012)', async ({ call }) => {
    const start = Date.now();
    const [code, msg] = await outcome(await call(bombId));
    expect([code, msg]).toEqual([ErrorCode.TooLarge, tooManyPixelsMessage]);
    expect(Date.now() - start).toBeLessThan(ANSWER_WITHIN_MS);
  });

  it('started no engine past 512 MB, and the server serves on', async () => {
    expect(watch.peakKb, `peak in ${watch.peakCommand}`).toBeLessThan(REFUSAL_MEMORY_BOUND_KB);
    const small = file('small.png');
    await sharp({ create: { width: 40, height: 30, channels: 3, background: '#336699' } })
      .png()
      .toFile(small);
    const entry = await client.runTool(
      'images_process',
      { file_id: await client.uploadId(small), action: 'rotate', angle: 90 },
      file('small-out.png'),
    );
    expect(entry.status, entry.msg).toBe(0);
    expect(execFileSync('identify', ['-format', '%w %h', file('small-out.png')], { encoding: 'utf8' })).toBe('30 40');
  });
});

describe('a photo of 102 megapixels (11648 x 8736, a medium-format camera)', () => {
  const [width, height] = [11648, 8736];
  let photoId: string;

  beforeAll(async () => {
    // Smooth colour fields with fine grain: a sixteenth-size picture of waves and noise, enlarged.
    const [w, h] = [width / 16, height / 16];
    const rand = random(5);
    const small = Buffer.alloc(w * h * 3);
    for (let i = 0; i < small.length; i++) {
      const [x, y] = [Math.floor(i / 3) % w, Math.floor(i / 3 / w)];
      small[i] = 128 + 60 * Math.sin(x / 40 + (i % 3)) * Math.cos(y / 30) + (rand() - 0.5) * 50;
    }
    const photo = file('photo.jpg');
    // Baseline with standard tables, as a camera writes it (and cheap to make: nothing is held whole).
    await sharp(small, { raw: { width: w, height: h, channels: 3 } })
      .resize(width, height, { kernel: 'cubic' })
      .jpeg({ quality: 85, optimiseCoding: false })
      .toFile(photo);
    expect(fs.statSync(photo).size).toBeLessThan(20 * 1024 * 1024);
    photoId = await client.uploadId(photo);
  }, 120_000);

  /** Runs a tool on the photo: its download, and the engines' peak and the time it took, as measured. */
  async function measured(pathname: string, body: object, dest: string) {
    watch.peakKb = 0;
    const start = Date.now();
    const entry = await client.runTool(pathname, body, dest);
    const seconds = (Date.now() - start) / 1000;
    console.info(
      `${pathname} on ${width} x ${height}: ${seconds} s, engines' peak ${Math.round(watch.peakKb / 1024)} MB (${watch.peakCommand})`,
    );
    expect(entry.status, entry.msg).toBe(0);
    expect(watch.peakKb, `peak in ${watch.peakCommand}`).toBeLessThan(PHOTO_MEMORY_BOUND_KB);
  }

  it('compresses to a smaller JPEG of the same size in pixels', async () => {
    const out = file('photo-compressed.jpg');
    await measured('images_process', { file_id: photoId, action: 'compress', level: 'medium' }, out);
    expect(execFileSync('identify', ['-format', '%m %w %h', out], { encoding: 'utf8' })).toBe(`JPEG ${width} ${height}`);
    expect(fs.statSync(out).size).toBeLessThan(fs.statSync(file('photo.jpg')).size);
  }, 120_000);

  it('becomes a one-page PDF holding the photo at its full size', async () => {
    const out = file('photo.pdf');
    await measured('images_merge_pdf', { file_ids: [photoId] }, out);
    // Poppler reads it (qpdf --check takes half a minute over this photo on a busy machine).
    expect(execFileSync('pdfinfo', [out], { encoding: 'utf8' })).toMatch(/^Pages:\s+1$/m);
    const images = execFileSync('pdfimages', ['-list', out], { encoding: 'utf8' }).split('\n')[2]!.trim().split(/\s+/);
    expect(images.slice(3, 5)).toEqual([String(width), String(height)]);
  }, 120_000);
});
