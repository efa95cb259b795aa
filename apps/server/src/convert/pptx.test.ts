import { describe, expect, it } from 'vitest';
import type { TextLine } from './geometryTypes.js';
import { slideSize, textBoxXml, xmlText } from './pptx.js';

const line = (over: Partial<TextLine>): TextLine => ({
  x: 100,
  y: 200,
  angle: 0,
  width: 50,
  size: 10,
  invisible: false,
  runs: [{ text: 'Hi', font: 'Arial', size: 10, bold: false, italic: false, color: [255, 0, 0] }],
  ...over,
});

/** The box of a text box's XML in EMU, and its rotation in degrees. */
function box(xml: string) {
  const [, x, y] = /<a:off x="(-?\d+)" y="(-?\d+)"\/>/.exec(xml)!;
  const [, cx, cy] = /<a:ext cx="(\d+)" cy="(\d+)"\/>/.exec(xml)!;
  const rot = Number(/rot="(\d+)"/.exec(xml)?.[1] ?? 0) / 60000;
  return { x: Number(x), y: Number(y), cx: Number(cx), cy: Number(cy), rot };
}

/** Where the box's first baseline starts once the box is turned about its centre, in points. */
function baselineStart(xml: string, ascentEm: number, size: number) {
  const b = box(xml);
  const t = (b.rot * Math.PI) / 180;
  const [mx, my] = [b.x + b.cx / 2, b.y + b.cy / 2];
  const [ox, oy] = [-b.cx / 2, ascentEm * size * 12700 - b.cy / 2];
  return [(mx + ox * Math.cos(t) - oy * Math.sin(t)) / 12700, (my + ox * Math.sin(t) + oy * Math.cos(t)) / 12700];
}

describe('PPTX writer', () => {
  it('escapes text and drops what XML cannot hold', () => {
    expect(xmlText('a<b & "c"\u0001\uFFFE d')).toBe('a&lt;b &amp; &quot;c&quot; d');
  });

  it('places a line so that its baseline starts at the line origin, turned or not', () => {
    const at = { scale: 1, dx: 0, dy: 0 };
    const flat = textBoxXml(line({}), 3, at);
    expect(box(flat)).toMatchObject({ x: 100 * 12700, rot: 0 });
    expect(baselineStart(flat, 0.98, 10).map((v) => Math.round(v * 100) / 100)).toEqual([100, 200]);
    const turned = textBoxXml(line({ angle: -90 }), 3, at);
    expect(box(turned).rot).toBe(270);
    expect(baselineStart(turned, 0.98, 10).map((v) => Math.round(v * 100) / 100)).toEqual([100, 200]);
  });

  it('writes runs with size, weight and colour; invisible text without a fill', () => {
    const xml = textBoxXml(
      line({ runs: [{ text: 'Bold', font: 'Times New Roman', size: 11.5, bold: true, italic: true, color: [0, 128, 255] }] }),
      7,
      { scale: 2, dx: 0, dy: 0 },
    );
    expect(xml).toContain('<p:cNvPr id="7" name="Text 7"/>');
    expect(xml).toContain(
      'sz="2300" b="1" i="1" dirty="0"><a:solidFill><a:srgbClr val="0080FF"/></a:solidFill><a:latin typeface="Times New Roman"/>',
    );
    expect(textBoxXml(line({ invisible: true }), 3, { scale: 1, dx: 0, dy: 0 })).toContain('<a:noFill/><a:latin');
  });

  it('sizes the slide as the page, scaled into the sizes PowerPoint takes', () => {
    expect(slideSize({ width: 612, height: 792 })).toEqual({ cx: 7772400, cy: 10058400, scale: 1 });
    // 200 x 50 pt is under an inch high: scaled up to an inch.
    expect(slideSize({ width: 200, height: 50 })).toEqual({ cx: 3657600, cy: 914400, scale: 1.44 });
    // 100 inches wide: scaled down to 56.
    expect(slideSize({ width: 7200, height: 720 }).cx).toBe(51206400);
  });
});
