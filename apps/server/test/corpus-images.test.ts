// Every real-world image of test-corpus/images through the image tools (convert to PNG, resize
// by half): each output decodes (ImageMagick) at the size expected of it, or the call fails with a
// catalogue error. Never a crash, a hang or an unlisted code.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorMessages, resizedSize } from '@quire/contracts';
import { Client, startQuire, type Running } from './harness.js';
import { decodeImage } from './imageDecode.js';
import { corpusRoot } from './corpusSupport.js';

const corpus = path.join(corpusRoot, 'images');
let quire: Running;
let client: Client;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-corpus-images-'));
  quire = await startQuire();
  client = new Client(quire.url);
});

afterAll(async () => {
  await quire.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The first frame's size as seen (EXIF orientations 5–8 swap it), as ImageMagick reads it; null if it cannot. */
function expectedSize(file: string): [number, number] | null {
  try {
    const out = execFileSync('identify', ['-format', '%m %w %h %W %H %[orientation]\n', `${file}[0]`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const [format, w, h, pageW, pageH, orientation] = out.trim().split(' ');
    // A GIF frame may be smaller than its canvas; decoders give the whole canvas.
    const size: [number, number] = format === 'GIF' ? [Number(pageW), Number(pageH)] : [Number(w), Number(h)];
    return ['LeftTop', 'RightTop', 'RightBottom', 'LeftBottom'].includes(orientation!) ? [size[1], size[0]] : size;
  } catch {
    return null;
  }
}

describe('image corpus through the image tools', () => {
  it('converts every image to PNG and resizes it by half, or fails with a catalogue error', async () => {
    const counts = { decoded: 0, refused: 0, failed: 0 };
    const codes: Record<string, number> = {};
    for (const name of fs.readdirSync(corpus).sort()) {
      const input = path.join(corpus, name);
      const upload = await client.upload(input);
      if (upload.code !== 0) {
        expect(errorMessages, `${name}: upload ${upload.code}`).toHaveProperty(String(upload.code));
        counts.refused++;
        continue;
      }
      const expected = expectedSize(input);
      for (const [action, body] of [
        ['convert', { action: 'convert', format: 'png' }],
        ['resize', { action: 'resize', percent: 50 }],
      ] as const) {
        const created = await client.post('images_process', { file_id: upload.data.file_id, ...body });
        if (created.code !== 0) {
          expect(errorMessages, `${name} ${action}: ${created.code}`).toHaveProperty(String(created.code));
          codes[`${name} ${action}`] = created.code;
          counts.refused++;
          continue;
        }
        const entry = await client.waitTask(created.data.task_id);
        if (entry.status !== 0) {
          expect(errorMessages, `${name} ${action}: ${entry.status} ${entry.msg}`).toHaveProperty(String(entry.status));
          codes[`${name} ${action}`] = entry.status;
          counts.failed++;
          continue;
        }
        const out = path.join(dir, `${name}-${action}.out`);
        await client.download(entry.task_id, out);
        const frame = decodeImage(out)[0]!;
        if (expected) {
          const size = action === 'convert' ? expected : resizedSize(expected[0], expected[1], 50);
          expect([frame.width, frame.height], `${name} ${action}`).toEqual(size);
        }
        if (action === 'convert') expect(frame.format).toBe('PNG');
        counts.decoded++;
      }
    }
    console.log('image corpus:', counts, codes);
    // Most of the corpus is valid: a run where nothing decodes is broken, not cautious.
    expect(counts.decoded).toBeGreaterThanOrEqual(40);
  });
});
