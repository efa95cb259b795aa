import { describe, expect, it } from 'vitest';
import { cropBox, mmToPoints, normalizeBox, normalizeRotation, pointsToMm, visibleBox } from './pageBoxes.js';

describe('page boxes', () => {
  it('converts millimetres at 72 points per inch and 25.4 mm per inch', () => {
    expect(mmToPoints(25.4)).toBe(72);
    expect(mmToPoints(10)).toBeCloseTo(28.3465, 4);
    expect(pointsToMm(595)).toBeCloseTo(209.9, 1);
  });

  it('orders corners and rejects what is not a box', () => {
    expect(normalizeBox([100, 200, 0, 0])).toEqual([0, 0, 100, 200]);
    expect(normalizeBox([0, 0, 1])).toBeNull();
    expect(normalizeBox([0, 0, NaN, 1])).toBeNull();
  });

  it('clips the CropBox to the MediaBox, falling back to the MediaBox', () => {
    expect(visibleBox([0, 0, 600, 800], [-50, 100, 500, 900])).toEqual([0, 100, 500, 800]);
    expect(visibleBox([0, 0, 600, 800], [700, 900, 800, 1000])).toEqual([0, 0, 600, 800]);
    expect(visibleBox([0, 0, 600, 800], null)).toEqual([0, 0, 600, 800]);
  });

  it('normalizes any multiple of 90 degrees', () => {
    expect([0, 90, -90, 450, 540, -180].map(normalizeRotation)).toEqual([0, 90, 270, 90, 180, 180]);
  });

  it('takes the margins off the edges as the page is shown', () => {
    const m = { top: 1, right: 2, bottom: 3, left: 4 };
    const box = [0, 0, 100, 200] as [number, number, number, number];
    expect(cropBox(box, 0, m)).toEqual([4, 3, 98, 199]);
    // Turned clockwise: the unrotated left edge is on top, the top edge on the right.
    expect(cropBox(box, 90, m)).toEqual([1, 4, 97, 198]);
    expect(cropBox(box, 180, m)).toEqual([2, 1, 96, 197]);
    expect(cropBox(box, 270, m)).toEqual([3, 2, 99, 196]);
  });

  it('refuses margins that leave no page area', () => {
    expect(cropBox([0, 0, 100, 200], 0, { top: 0, right: 50, bottom: 0, left: 50 })).toBeNull();
    expect(cropBox([0, 0, 100, 200], 90, { top: 0, right: 100, bottom: 0, left: 100 })).toBeNull();
    expect(cropBox([0, 0, 100, 200], 0, { top: 0, right: 49, bottom: 0, left: 50 })).toEqual([50, 0, 51, 200]);
  });
});
