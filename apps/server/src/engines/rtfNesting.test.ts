import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withSoundNesting } from './rtfNesting.js';

describe('RTF nesting levels', () => {
  it('sets impossible levels inside tables across the file, wherever a read chunk ends, and leaves the rest as it was', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-rtf-'));
    try {
      // Thousands of rows, so the copy's 64 KB chunks end inside control words; body text keeps \itap0 (Word writes it so).
      const row = (i: number) =>
        `\\pard\\itap0 Body ${i}\\par\\trowd\\cellx3000\\pard\\intbl\\itap1 Outer ${i}\\cell\\pard\\intbl\\itap0 Inner ${i}\\nestcell{\\*\\nesttableprops\\trowd\\cellx2000\\nestrow}\\pard\\intbl\\itap-3 Tail ${i}\\cell\\row\n`;
      const rtf = `{\\rtf1\\ansi ${Array.from({ length: 5000 }, (_, i) => row(i)).join('')}}`;
      fs.writeFileSync(path.join(dir, 'in.rtf'), rtf);
      await withSoundNesting(path.join(dir, 'in.rtf'), path.join(dir, 'out.rtf'));
      const out = fs.readFileSync(path.join(dir, 'out.rtf'), 'latin1');
      expect(out).not.toMatch(/\\intbl\\itap(0|-)/);
      expect(out.match(/\\pard\\itap0 Body/g)).toHaveLength(5000);
      expect(out.match(/\\intbl\\itap2 Inner/g)).toHaveLength(5000);
      expect(out.match(/\\intbl\\itap3 Tail/g)).toHaveLength(5000);
      expect(out.replace(/\\itap-?\d+/g, '')).toBe(rtf.replace(/\\itap-?\d+/g, ''));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
