import { describe, expect, it } from 'vitest';
import { addSample, strokePath, strokesBounds, whiteToTransparent, type Point } from './strokes';

describe('stroke smoothing', () => {
  it('moves the pen part of the way towards each sample', () => {
    const points = addSample(addSample([], { x: 0, y: 0 }), { x: 10, y: 0 });
    expect(points).toEqual([
      { x: 0, y: 0 },
      { x: 5, y: 0 },
    ]);
  });

  it('flattens a zigzag of the hand into a gentler line', () => {
    let points: Point[] = [];
    for (let i = 0; i <= 20; i++) points = addSample(points, { x: i * 4, y: i % 2 ? 6 : -6 });
    const swing = (ps: Point[]) => Math.max(...ps.slice(5).map((p) => Math.abs(p.y)));
    expect(swing(points)).toBeLessThan(4);
  });

  it('drops samples that barely move', () => {
    expect(addSample([{ x: 0, y: 0 }], { x: 1, y: 1 })).toHaveLength(1);
  });

  it('curves through the midpoints, with the samples as control points', () => {
    const path = strokePath([
      { x: 0, y: 0 },
      { x: 10, y: 0 },
      { x: 10, y: 10 },
    ]);
    expect(path).toEqual([
      { kind: 'move', to: { x: 0, y: 0 } },
      { kind: 'curve', control: { x: 10, y: 0 }, to: { x: 10, y: 5 } },
      { kind: 'curve', control: { x: 10, y: 10 }, to: { x: 10, y: 10 } },
    ]);
  });

  it('draws a single tap as a dot and nothing as nothing', () => {
    expect(strokePath([{ x: 3, y: 4 }])).toHaveLength(2);
    expect(strokePath([])).toEqual([]);
  });

  it('bounds the strokes with half the line width around them', () => {
    const stroke = {
      color: '#000',
      width: 4,
      points: [
        { x: 10, y: 10 },
        { x: 30, y: 20 },
      ],
    };
    expect(strokesBounds([stroke])).toEqual({ x: 8, y: 8, width: 24, height: 14 });
    expect(strokesBounds([])).toBeNull();
  });
});

describe('white background made transparent', () => {
  it('clears white, keeps ink, fades the edge', () => {
    const rgba = new Uint8ClampedArray([255, 255, 255, 255, 20, 20, 80, 255, 225, 225, 225, 255]);
    whiteToTransparent(rgba);
    expect(rgba[3]).toBe(0);
    expect(rgba[7]).toBe(255);
    expect(rgba[11]).toBeGreaterThan(0);
    expect(rgba[11]).toBeLessThan(255);
  });
});
