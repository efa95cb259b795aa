import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PageGeometry } from './geometryTypes.js';
import { aciColor, dxfString, writeDxf } from './dxf.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-dxf-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const page = (over: Partial<PageGeometry>): PageGeometry => ({
  width: 72,
  height: 144,
  lines: [],
  paths: [],
  images: [],
  background: null,
  ...over,
});
const run = { font: 'Arial', size: 10, bold: false, italic: false, color: [0, 0, 0] as [number, number, number] };

describe('DXF writer', () => {
  it('matches colours to the nearest AutoCAD colour index', () => {
    expect(aciColor([0, 0, 0])).toBe(7);
    expect(aciColor([250, 10, 10])).toBe(1);
    expect(aciColor([0, 0, 200])).toBe(5);
    expect(aciColor([130, 130, 130])).toBe(8);
  });

  it('keeps TEXT strings to ASCII, escaping the rest', () => {
    expect(dxfString('Größe 5%')).toBe('Gr\\U+00F6\\U+00DFe 5%%%');
    expect(dxfString('Ω≈€')).toBe('\\U+03A9\\U+2248\\U+20AC');
  });

  it('writes pages side by side on their own layers, in millimetres with y up', async () => {
    const out = path.join(dir, 'two.dxf');
    await writeDxf(
      [
        page({
          paths: [
            {
              subpaths: [
                { points: [0, 0, 72, 144], closed: false },
                { points: [0, 0, 72, 0, 72, 72], closed: true },
              ],
              stroke: [255, 0, 0],
              fill: null,
            },
          ],
          lines: [
            { x: 36, y: 72, angle: -90, width: 20, size: 10, invisible: false, runs: [{ ...run, text: 'Up' }] },
            { x: 0, y: 0, angle: 0, width: 1, size: 10, invisible: true, runs: [{ ...run, text: 'hidden' }] },
          ],
        }),
        page({
          lines: [
            {
              x: 0,
              y: 144,
              angle: 0,
              width: 20,
              size: 10,
              invisible: false,
              runs: [
                { ...run, text: 'B' },
                { ...run, text: 'c' },
              ],
            },
          ],
        }),
      ],
      out,
    );
    const text = fs.readFileSync(out, 'latin1');
    // Page 1: 25.4 mm wide, 50.8 mm high; page 2 starts 10 mm to its right.
    expect(text).toContain('0\nLINE\n8\nPAGE_1\n62\n1\n10\n0\n20\n50.8\n30\n0\n11\n25.4\n21\n0\n31\n0\n');
    expect(text).toContain('0\nPOLYLINE\n8\nPAGE_1\n62\n1\n66\n1\n10\n0\n20\n0\n30\n0\n70\n1\n0\nVERTEX\n8\nPAGE_1\n10\n0\n20\n50.8\n');
    expect(text.match(/\nVERTEX\n/g)).toHaveLength(3);
    expect(text).toContain('0\nTEXT\n8\nPAGE_1\n62\n7\n10\n12.7\n20\n25.4\n30\n0\n40\n2.469\n1\nUp\n50\n90\n');
    expect(text).toContain('0\nTEXT\n8\nPAGE_2\n62\n7\n10\n35.4\n20\n0\n');
    expect(text).toContain('\n1\nBc\n');
    expect(text).not.toContain('hidden');
    expect(text).toContain('9\n$EXTMAX\n10\n60.8\n20\n50.8\n');
    expect(text.endsWith('0\nENDSEC\n0\nEOF\n')).toBe(true);
  });
});
