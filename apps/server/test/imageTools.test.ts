// The image tools (POST images_process) and PDF to GIF, over HTTP against a real Quire. Every
// output is decoded in full by ImageMagick (identify with a pixel checksum), never by sharp.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, errorMessages, imageTooLargeMessage, tooManyPixelsMessage, type TaskEntry } from '@quire/contracts';
import { Client, quireForTests, startQuire } from './harness.js';
import { makePdf } from './fixtures.js';
import { encodeJpeg, encodePng, photoRaster } from './imageFixtures.js';
import { decodeImage as decode } from './imageDecode.js';

const corpus = path.join(import.meta.dirname, '../../../test-corpus/images');
const served = quireForTests('imagetools');
const { client, dir } = served;
const file = (name: string) => path.join(dir, name);

const sizeOf = (f: string) => decode(f).map((fr) => [fr.width, fr.height])[0];

/** A fixture in `format`, written from the PNG by ImageMagick. */
function convertFixture(png: string, format: string): string {
  const out = file(`photo.${format}`);
  execFileSync('convert', [png, out]);
  return out;
}

async function runAction(fileId: string, body: Record<string, unknown>, dest: string): Promise<TaskEntry> {
  return client.runTool('images_process', { file_id: fileId, ...body }, dest);
}

/** The refusal when the task is made, or the failed task's code and message. */
async function failure(fileId: string, body: Record<string, unknown>): Promise<[number, string]> {
  const created = await client.post('images_process', { file_id: fileId, ...body });
  if (created.code !== 0) return [created.code, created.msg];
  const entry = await client.waitTask(created.data.task_id);
  return [entry.status, entry.msg];
}

let png: string;
const inputs: Record<string, string> = {};

beforeAll(async () => {
  const photo = photoRaster(200, 100, 7);
  png = file('photo.png');
  fs.writeFileSync(png, encodePng(photo));
  fs.writeFileSync(file('photo.jpg'), await encodeJpeg(photo, 90));
  Object.assign(inputs, { PNG: png, JPEG: file('photo.jpg') });
  for (const [format, ext] of [
    ['GIF', 'gif'],
    ['BMP', 'bmp'],
    ['TIFF', 'tiff'],
    ['WEBP', 'webp'],
  ] as const)
    inputs[format] = convertFixture(png, ext);
});

describe('images_process actions', () => {
  it.each(['PNG', 'JPEG', 'GIF', 'BMP', 'TIFF', 'WEBP'])(
    'resizes a %s of 200 x 100 by half to 100 x 50 in its own format',
    async (format) => {
      const id = await client.uploadId(inputs[format]!);
      const out = file(`resized-${format}`);
      const entry = await runAction(id, { action: 'resize', percent: 50 }, out);
      expect(entry.status).toBe(0);
      expect(decode(out)).toEqual([{ format: format === 'BMP' ? 'BMP3' : format, width: 100, height: 50 }]);
      expect(entry.outputs[0]!.name).toBe(`photo-resized${path.extname(inputs[format]!)}`);
    },
  );

  it('crops 10 px from each side and turns an image by 90, 180 and 270 degrees', async () => {
    const id = await client.uploadId(png);
    expect((await runAction(id, { action: 'crop', margins: { top: 10, right: 10, bottom: 10, left: 10 } }, file('crop.png'))).status).toBe(
      0,
    );
    expect(sizeOf(file('crop.png'))).toEqual([180, 80]);
    expect((await runAction(id, { action: 'crop', margins: { top: 0, right: 150, bottom: 30, left: 5 } }, file('crop2.png'))).status).toBe(
      0,
    );
    expect(sizeOf(file('crop2.png'))).toEqual([45, 70]);
    for (const [angle, size] of [
      [90, [100, 200]],
      [180, [200, 100]],
      [270, [100, 200]],
    ] as const) {
      const entry = await runAction(id, { action: 'rotate', angle }, file(`rot${angle}.png`));
      expect(entry.status).toBe(0);
      expect(sizeOf(file(`rot${angle}.png`))).toEqual(size);
    }
  });

  it('turns the image upright by its EXIF orientation before cropping, resizing or converting', async () => {
    // Stored 450 x 600 with orientation 5 (transposed): seen as 600 x 450.
    const id = await client.uploadId(path.join(corpus, 'Landscape_5.jpg'));
    await runAction(id, { action: 'convert', format: 'png' }, file('upright.png'));
    expect(sizeOf(file('upright.png'))).toEqual([600, 450]);
    await runAction(id, { action: 'crop', margins: { top: 0, right: 100, bottom: 50, left: 0 } }, file('upright-crop.jpg'));
    expect(sizeOf(file('upright-crop.jpg'))).toEqual([500, 400]);
    // No orientation is left in the output to turn it a second time.
    expect(execFileSync('identify', ['-format', '%[orientation]', file('upright-crop.jpg')], { encoding: 'utf8' })).toMatch(
      /^(Undefined|TopLeft)$/,
    );
  });

  it.each([
    ['jpg', 'JPEG', [200, 100]],
    ['png', 'PNG', [200, 100]],
    ['bmp', 'BMP3', [200, 100]],
    ['gif', 'GIF', [200, 100]],
    ['tiff', 'TIFF', [200, 100]],
    ['webp', 'WEBP', [200, 100]],
  ] as const)('converts to %s', async (format, magick, size) => {
    const id = await client.uploadId(inputs.JPEG!);
    const out = file(`converted.${format}`);
    const entry = await runAction(id, { action: 'convert', format }, out);
    expect(entry.status).toBe(0);
    expect(entry.outputs[0]!.name).toBe(`photo.${format}`);
    expect(decode(out)).toEqual([{ format: magick, width: size[0], height: size[1] }]);
  });

  it('converts to PNG unless told otherwise, and to a 16 x 16 ICO unless another size is chosen', async () => {
    const id = await client.uploadId(inputs.GIF!);
    expect((await runAction(id, { action: 'convert' }, file('default.png'))).outputs[0]!.name).toBe('photo.png');
    expect(decode(file('default.png'))[0]!.format).toBe('PNG');
    for (const [size, body] of [
      [16, { action: 'convert', format: 'ico' }],
      [48, { action: 'convert', format: 'ico', ico_size: 48 }],
      [256, { action: 'convert', format: 'ico', ico_size: 256 }],
    ] as const) {
      const out = file(`icon-${size}.ico`);
      const entry = await runAction(id, body, out);
      expect(entry.outputs[0]!.name).toBe('photo.ico');
      const bytes = fs.readFileSync(out);
      // An icon directory with one entry, read here as ImageMagick's ICO decoder reads it.
      expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2), bytes.readUInt16LE(4)]).toEqual([0, 1, 1]);
      expect(sizeOf(`ico:${out}`)).toEqual([size, size]);
    }
  });

  it('keeps an animated GIF animated when resizing or turning it, and WebP from it too', async () => {
    const id = await client.uploadId(path.join(corpus, 'animated-loop-3.gif'));
    await runAction(id, { action: 'rotate', angle: 90 }, file('anim-rot.gif'));
    const rotated = decode(file('anim-rot.gif'));
    expect(rotated).toHaveLength(10);
    // ImageMagick reports each frame's own box; the canvas is the first frame's.
    expect([rotated[0]!.width, rotated[0]!.height]).toEqual([285, 370]);
    await runAction(id, { action: 'convert', format: 'webp' }, file('anim.webp'));
    expect(decode(file('anim.webp'))).toHaveLength(10);
    // PNG holds one frame: the first.
    await runAction(id, { action: 'resize', percent: 200 }, file('anim-big.gif'));
    expect(decode(file('anim-big.gif'))[0]).toEqual({ format: 'GIF', width: 740, height: 570 });
  });

  it('compresses at each level to a file no larger, of the same pixel size, smaller the higher the level', async () => {
    for (const [name, format] of [
      ['concert.jpg', 'JPEG'],
      ['test-pattern.png', 'PNG'],
      ['hopper_lzw.tif', 'TIFF'],
      ['4.webp', 'WEBP'],
      ['transparent.gif', 'GIF'],
    ] as const) {
      const input = path.join(corpus, name);
      const inputSize = fs.statSync(input).size;
      const id = await client.uploadId(input);
      const before = sizeOf(input);
      const sizes: number[] = [];
      for (const level of ['low', 'medium', 'high']) {
        const out = file(`compressed-${level}-${name}`);
        const entry = await runAction(id, { action: 'compress', level }, out);
        expect(entry.status).toBe(0);
        const output = entry.outputs[0]!;
        expect(output.input_size).toBe(inputSize);
        expect(output.size).toBeLessThanOrEqual(inputSize);
        if (output.unchanged) expect(fs.readFileSync(out).equals(fs.readFileSync(input))).toBe(true);
        else expect(output.name).toBe(name.replace('.', '-compressed.'));
        expect(decode(out)).toEqual([{ format, width: before![0], height: before![1] }]);
        sizes.push(output.size);
      }
      expect(sizes[2], name).toBeLessThan(inputSize);
      expect(
        [...sizes].sort((a, b) => b - a),
        name,
      ).toEqual(sizes);
    }
  });

  it('returns an image it cannot make smaller as it was, marked unchanged (medium by default)', async () => {
    // A flat grey PNG of 72 bytes: any re-encoding is larger.
    fs.writeFileSync(file('flat.png'), encodePng({ width: 16, height: 16, channels: 1, pixels: Buffer.alloc(256, 128) }));
    const id = await client.uploadId(file('flat.png'));
    const entry = await runAction(id, { action: 'compress' }, file('flat-out.png'));
    expect(entry.outputs[0]).toMatchObject({ name: 'flat.png', unchanged: true, input_size: 72, size: 72 });
    expect(fs.readFileSync(file('flat-out.png')).equals(fs.readFileSync(file('flat.png')))).toBe(true);
  });
});

describe('images_process refusals', () => {
  it('refuses images over 20 MB with the spec message, before anything decodes them', async () => {
    // A valid PNG header followed by 21 MB: the size alone refuses it.
    const big = file('big.png');
    fs.writeFileSync(big, Buffer.concat([encodePng(photoRaster(8, 8)), Buffer.alloc(21 * 1024 * 1024)]));
    const id = await client.uploadId(big);
    expect(await client.post('images_process', { file_id: id, action: 'resize', percent: 50 })).toMatchObject({
      code: ErrorCode.TooLarge,
      msg: imageTooLargeMessage,
    });
  });

  it('refuses a decompression bomb when the task is made, from its header alone', async () => {
    // 2 KB of GIF declaring a frame of 65535 x 66601 pixels.
    const id = await client.uploadId(path.join(corpus, 'decompression_bomb.gif'));
    const res = await client.post('images_process', { file_id: id, action: 'convert', format: 'png' });
    expect(res).toMatchObject({ code: ErrorCode.TooLarge, msg: tooManyPixelsMessage, data: null });
  });

  it('refuses files that are no image it takes with 3102', async () => {
    const pdf = await makePdf(file('doc.pdf'), 1);
    for (const f of [pdf, path.join(corpus, 'rainbow-451x461.heic')]) {
      const id = await client.uploadId(f);
      expect(await failure(id, { action: 'rotate', angle: 90 })).toEqual([ErrorCode.WrongType, errorMessages[ErrorCode.WrongType]]);
    }
  });

  it('refuses damaged images at upload with 3105', async () => {
    for (const name of ['broken.png', 'broken-corrupt-header.jpg']) {
      expect(await client.upload(path.join(corpus, name))).toMatchObject({
        code: ErrorCode.Unreadable,
        msg: errorMessages[ErrorCode.Unreadable],
      });
    }
  });

  it('checks the options: margins that leave nothing, bounds and unknown values get 3100', async () => {
    const id = await client.uploadId(png);
    expect(await failure(id, { action: 'crop', margins: { top: 50, right: 0, bottom: 50, left: 0 } })).toEqual([
      ErrorCode.InvalidParams,
      'The margins leave nothing of the image: it is 200 x 100 pixels.',
    ]);
    for (const body of [
      { action: 'resize', percent: 0 },
      { action: 'resize', percent: 501 },
      { action: 'rotate', angle: 45 },
      { action: 'convert', format: 'svg' },
      { action: 'convert', format: 'ico', ico_size: 20 },
      { action: 'compress', level: 'extreme' },
      { action: 'crop', margins: { top: -1, right: 0, bottom: 0, left: 0 } },
      { action: 'sharpen' },
    ]) {
      const [code] = await failure(id, body);
      expect(code, JSON.stringify(body)).toBe(ErrorCode.InvalidParams);
    }
  });

  it('refuses a resize whose result would hold more pixels than a decoder can, before resizing', async () => {
    // 6000 x 6000 of flat grey: a small file; at 300 % it would be 18000 x 18000 pixels.
    fs.writeFileSync(file('wide.png'), encodePng({ width: 6000, height: 6000, channels: 1, pixels: Buffer.alloc(36_000_000, 200) }));
    const id = await client.uploadId(file('wide.png'));
    expect(await failure(id, { action: 'resize', percent: 300 })).toEqual([
      ErrorCode.InvalidParams,
      'The resized image would be 18,000 x 18,000 pixels, more than can be processed. Please choose a smaller percentage.',
    ]);
  });

  it('stops a job at its memory bound with 3125', async () => {
    // Turning 8000 x 8000 pixels needs them all at once (64 MB of grey), more than 100 MB leaves beside Node.
    fs.writeFileSync(file('square.png'), encodePng({ width: 8000, height: 8000, channels: 1, pixels: Buffer.alloc(64_000_000, 90) }));
    const tight = await startQuire({ engineMemoryMb: 100 });
    try {
      const c = new Client(tight.url);
      const created = await c.post('images_process', { file_id: await c.uploadId(file('square.png')), action: 'rotate', angle: 90 });
      const entry = await c.waitTask(created.data.task_id);
      expect([entry.status, entry.msg]).toEqual([
        ErrorCode.TaskFailed,
        'Processing stopped before it finished: the image may need more memory than allowed.',
      ]);
    } finally {
      await tight.stop();
    }
  });

  it('is described in the OpenAPI document', async () => {
    const doc = await (await fetch(`${served.quire.url}/api/docs`)).json();
    const schema = JSON.stringify(doc.paths['/api/tools/v1/images_process'].post.requestBody);
    for (const word of ['compress', 'crop', 'convert', 'resize', 'rotate', 'ico_size', 'percent', 'margins', 'angle'])
      expect(schema).toContain(word);
  });
});

describe('PDF to GIF', () => {
  it('renders each page of a two-page PDF at 72 dpi as a GIF of 612 x 792', async () => {
    const pdf = await makePdf(file('letter.pdf'), 2, 'Gif', [612, 792]);
    const id = await client.uploadId(pdf);
    const created = await client.call(`converter?${new URLSearchParams({ file_id: id, output_format: 'gif', dpi: '72' })}`);
    expect(created.code).toBe(0);
    const entry = await client.waitTask(created.data.task_id);
    expect(entry.status).toBe(0);
    expect(entry.outputs.map((o) => o.name)).toEqual(['letter-1.gif', 'letter-2.gif']);
    for (const index of [0, 1]) {
      const res = await client.raw(`/api/tools/v1/document/download-doc?task_id=${entry.task_id}&index=${index}`);
      const out = file(`page-${index}.gif`);
      fs.writeFileSync(out, Buffer.from(await res.arrayBuffer()));
      expect(decode(out)).toEqual([{ format: 'GIF', width: 612, height: 792 }]);
    }
  });
});
