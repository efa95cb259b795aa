import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePpmHeader, ppmToBmp } from './bmp.js';

describe('PPM to BMP', () => {
  it('reads a header with a comment', () => {
    expect(parsePpmHeader(Buffer.from('P6\n# made by hand\n3 2\n255\nxxxxxx'))).toEqual({ width: 3, height: 2, offset: 26 });
    expect(() => parsePpmHeader(Buffer.from('P5\n3 2\n255\n'))).toThrow();
  });

  it('writes rows bottom up, in BGR order, padded to 4 bytes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bmp-'));
    try {
      // 1 x 2: red above blue.
      fs.writeFileSync(path.join(dir, 'in.ppm'), Buffer.concat([Buffer.from('P6\n1 2\n255\n'), Buffer.from([255, 0, 0, 0, 0, 255])]));
      await ppmToBmp(path.join(dir, 'in.ppm'), path.join(dir, 'out.bmp'));
      const bmp = fs.readFileSync(path.join(dir, 'out.bmp'));
      expect(bmp.toString('latin1', 0, 2)).toBe('BM');
      expect([bmp.readUInt32LE(2), bmp.readInt32LE(18), bmp.readInt32LE(22), bmp.readUInt16LE(28)]).toEqual([62, 1, 2, 24]);
      expect([...bmp.subarray(54)]).toEqual([255, 0, 0, 0, 0, 0, 255, 0]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
