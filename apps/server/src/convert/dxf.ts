// PDF to DXF: every page's vector paths and text as an ASCII DXF of AutoCAD R12 (AC1009), the
// version every CAD program and LibreOffice Draw read. Millimetres, y up as in PDF; each page on
// a layer of its own (PAGE_1, PAGE_2…) and placed to the right of the one before. Paths become
// LINEs (one segment) and POLYLINEs (curves flattened to short segments, closed where the PDF
// closes them; a filled area is its outline: R12 has no hatch), text one TEXT per line. Images
// and shadings are left out.
import { once } from 'node:events';
import fs from 'node:fs';
import type { PageGeometry, Rgb } from './geometryTypes.js';

const MM_PER_POINT = 25.4 / 72;
/** Space between pages side by side, millimetres. */
const PAGE_GAP = 10;
/** A TEXT's height is that of its capitals, about this part of the font size. */
const CAP_HEIGHT = 0.7;

/** The AutoCAD Color Index entries a colour is matched to: the seven named ones and greys (7 is black on paper, white on screen). */
const ACI: [number, Rgb][] = [
  [1, [255, 0, 0]],
  [2, [255, 255, 0]],
  [3, [0, 255, 0]],
  [4, [0, 255, 255]],
  [5, [0, 0, 255]],
  [6, [255, 0, 255]],
  [7, [0, 0, 0]],
  [8, [128, 128, 128]],
  [9, [192, 192, 192]],
  [250, [51, 51, 51]],
  [252, [105, 105, 105]],
  [254, [190, 190, 190]],
  [255, [255, 255, 255]],
];

export function aciColor(rgb: Rgb): number {
  let best = ACI[0]!;
  let bestDist = Infinity;
  for (const entry of ACI) {
    const d = entry[1].reduce((sum, v, i) => sum + (v - rgb[i]!) ** 2, 0);
    if (d < bestDist) [best, bestDist] = [entry, d];
  }
  return best[0];
}

const num = (v: number) => String(Number(v.toFixed(3)));

/**
 * TEXT content in ASCII, every other character as \U+XXXX, which AutoCAD and LibreOffice read
 * whatever code page they assume (LibreOffice takes bytes beyond ASCII as DOS code page 437); "%%"
 * would start a control code, so a percent sign is written %%%.
 */
export function dxfString(text: string): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (ch === '%') out += '%%%';
    else if (cp >= 0x20 && cp < 0x7f) out += ch;
    else if (cp >= 0xa0 && cp <= 0xffff) out += `\\U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return out;
}

/** Group code / value pairs, one per line each, as DXF has them. */
class DxfOut {
  private parts: string[] = [];
  size = 0;
  constructor(private readonly stream: fs.WriteStream) {}

  pair(code: number, value: string | number) {
    const s = `${code}\n${value}\n`;
    this.parts.push(s);
    this.size += s.length;
  }

  /** Writes the pairs that make up one record, in order. */
  pairs(...pairs: [code: number, value: string | number][]) {
    for (const [code, value] of pairs) this.pair(code, value);
  }

  /** Writes what was gathered once there is a megabyte of it (or `always`), waiting while the file catches up. */
  async flush(always = false) {
    if (!always && this.size < 1 << 20) return;
    // Everything written is ASCII (see dxfString).
    const ready = this.stream.write(Buffer.from(this.parts.join(''), 'ascii'));
    this.parts = [];
    this.size = 0;
    if (!ready) await once(this.stream, 'drain');
  }
}

/** Writes the drawing to `out`, a page's geometry at a time. */
export async function writeDxf(pages: PageGeometry[], out: string): Promise<void> {
  const stream = fs.createWriteStream(out);
  const done = new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  const w = new DxfOut(stream);
  const offsets: number[] = [];
  let x = 0;
  for (const page of pages) {
    offsets.push(x);
    x += page.width * MM_PER_POINT + PAGE_GAP;
  }
  const height = Math.max(...pages.map((p) => p.height)) * MM_PER_POINT;
  const section = (name: string) => w.pairs([0, 'SECTION'], [2, name]);
  const endSection = () => w.pair(0, 'ENDSEC');

  section('HEADER');
  w.pairs([9, '$ACADVER'], [1, 'AC1009']);
  w.pairs([9, '$DWGCODEPAGE'], [3, 'ANSI_1252']);
  w.pairs([9, '$INSUNITS'], [70, 4]);
  w.pairs([9, '$EXTMIN'], [10, 0], [20, 0], [30, 0]);
  w.pairs([9, '$EXTMAX'], [10, num(Math.max(0, x - PAGE_GAP))], [20, num(height)], [30, 0]);
  endSection();

  section('TABLES');
  w.pairs([0, 'TABLE'], [2, 'LTYPE'], [70, 1]);
  w.pairs([0, 'LTYPE'], [2, 'CONTINUOUS'], [70, 0], [3, 'Solid line'], [72, 65], [73, 0], [40, 0]);
  w.pair(0, 'ENDTAB');
  w.pairs([0, 'TABLE'], [2, 'LAYER'], [70, pages.length]);
  pages.forEach((_, i) => {
    w.pairs([0, 'LAYER'], [2, `PAGE_${i + 1}`], [70, 0], [62, 7], [6, 'CONTINUOUS']);
  });
  w.pair(0, 'ENDTAB');
  w.pairs([0, 'TABLE'], [2, 'STYLE'], [70, 1]);
  w.pairs([0, 'STYLE'], [2, 'STANDARD'], [70, 0], [40, 0], [41, 1], [50, 0], [71, 0], [42, 2.5], [3, 'txt'], [4, '']);
  w.pair(0, 'ENDTAB');
  endSection();

  section('ENTITIES');
  for (const [i, page] of pages.entries()) {
    const layer = `PAGE_${i + 1}`;
    const X = (v: number) => num(offsets[i]! + v * MM_PER_POINT);
    const Y = (v: number) => num((page.height - v) * MM_PER_POINT);
    for (const shape of page.paths) {
      const color = aciColor(shape.stroke ?? shape.fill ?? [0, 0, 0]);
      for (const sp of shape.subpaths) {
        const p = sp.points;
        if (p.length === 4 && !sp.closed) {
          w.pairs([0, 'LINE'], [8, layer], [62, color]);
          w.pairs([10, X(p[0]!)], [20, Y(p[1]!)], [30, 0], [11, X(p[2]!)], [21, Y(p[3]!)], [31, 0]);
          continue;
        }
        w.pairs([0, 'POLYLINE'], [8, layer], [62, color], [66, 1], [10, 0], [20, 0], [30, 0], [70, sp.closed ? 1 : 0]);
        for (let k = 0; k < p.length; k += 2) {
          w.pairs([0, 'VERTEX'], [8, layer], [10, X(p[k]!)], [20, Y(p[k + 1]!)], [30, 0]);
        }
        w.pairs([0, 'SEQEND'], [8, layer]);
      }
      await w.flush();
    }
    for (const line of page.lines) {
      if (line.invisible) continue;
      const text = dxfString(line.runs.map((r) => r.text).join(''));
      if (!text.trim()) continue;
      w.pairs([0, 'TEXT'], [8, layer], [62, aciColor(line.runs[0]!.color)]);
      w.pairs([10, X(line.x)], [20, Y(line.y)], [30, 0], [40, num(line.size * CAP_HEIGHT * MM_PER_POINT)], [1, text]);
      // The page turns clockwise with y down; DXF counts counter-clockwise with y up.
      if (line.angle) w.pair(50, num(-line.angle));
    }
  }
  endSection();
  w.pair(0, 'EOF');
  await w.flush(true);
  stream.end();
  await done;
}
