// Files are checked at upload, not when a tool first runs on them: an empty file, a damaged image or
// office container, a PDF over the page limit each get their catalogue answer at once, and the sound
// files beside them (checked by identify) are taken.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, errorMessages } from '@quire/contracts';
import { corpusRoot } from './corpusSupport.js';
import { makePdf } from './fixtures.js';
import { Client, startQuire, type Running } from './harness.js';

let quire: Running;
let client: Client;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-upload-checks-'));
const images = path.join(corpusRoot, 'images');
const office = path.join(corpusRoot, 'office');

beforeAll(async () => {
  quire = await startQuire({ maxPages: 3 });
  client = new Client(quire.url);
});
afterAll(async () => {
  await quire.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const unreadable = { code: ErrorCode.Unreadable, msg: errorMessages[ErrorCode.Unreadable], data: null };

describe('checks at upload', () => {
  it('says an empty file is empty, whatever its name', async () => {
    for (const name of ['empty.pdf', 'empty.png', 'empty.docx', 'empty.txt']) {
      fs.writeFileSync(path.join(dir, name), '');
      expect(await client.upload(path.join(dir, name)), name).toEqual({ code: ErrorCode.Empty, msg: 'The file is empty.', data: null });
    }
  });

  it('refuses images that do not decode with 3105, and takes the sound ones with their frames', async () => {
    for (const name of ['broken.png', 'broken-corrupt-header.jpg', 'broken-crash-2020-10-test.tif']) {
      expect(await client.upload(path.join(images, name)), name).toEqual(unreadable);
    }
    // A cut-off JPEG: its header is whole, its pixels are not.
    const whole = fs.readFileSync(path.join(images, 'concert.jpg'));
    fs.writeFileSync(path.join(dir, 'cut.jpg'), whole.subarray(0, Math.floor(whole.length / 3)));
    expect(await client.upload(path.join(dir, 'cut.jpg'))).toEqual(unreadable);
    // BMP decoded by MuPDF, WebP, a 3-page TIFF.
    for (const name of ['concert.jpg', 'rgb24.bmp', '4.webp', 'multipage.tiff']) {
      const res = await client.upload(path.join(images, name));
      expect(res.code, `${name}: ${res.msg}`).toBe(0);
      const [w, h] = execFileSync('identify', ['-format', '%w %h\n', path.join(images, name)])
        .toString()
        .split('\n')[0]!
        .split(' ');
      expect([res.data.page_w, res.data.page_h], name).toEqual([Number(w), Number(h)]);
    }
    // A lossless JPEG, which ImageMagick cannot read but libvips can.
    expect((await client.upload(path.join(images, 'testimgl.jpg'))).code).toBe(0);
  });

  it('refuses office files whose zip or compound file is broken with 3105, and takes the sound ones', async () => {
    for (const name of [
      'broken-clusterfuzz-testcase-minimized-POIXWPFFuzzer-5313273089884160.docx',
      'broken-clusterfuzz-testcase-minimized-POIHSLFFuzzer-6614960949821440.ppt',
      'broken-clusterfuzz-testcase-minimized-POIHPBFFuzzer-4701121678278656.pub',
    ]) {
      expect(await client.upload(path.join(office, name)), name).toEqual(unreadable);
    }
    for (const name of ['Word95.doc', 'SampleBrochure.pub', '50299.xlsx', 'unicode.odt', 'SmartArt.pptx', 'password.xls']) {
      const res = await client.upload(path.join(office, name));
      expect(res.code, `${name}: ${res.msg}`).toBe(0);
      expect(res.data.encrypted, name).toBe(name === 'password.xls');
    }
  });

  it('names the page limit when a PDF is over it', async () => {
    await makePdf(path.join(dir, 'four.pdf'), 4, 'Four');
    expect(await client.upload(path.join(dir, 'four.pdf'))).toEqual({
      code: ErrorCode.TooManyPages,
      msg: 'The number of pages exceeds the limit of 3 pages.',
      data: { upgrade: 'normalPageLimit', limit: 3 },
    });
  });
});
