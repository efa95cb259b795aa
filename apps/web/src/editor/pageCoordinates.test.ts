import { describe, expect, it } from 'vitest';
import { normalRotation, rectToPage, rectToScreen, shownSize, toPage, toScreen, type PageFrame } from './pageCoordinates';

const a4 = (rotation: PageFrame['rotation']): PageFrame => ({ width: 595, height: 842, rotation });

describe('page coordinates', () => {
  it('flips y and scales by the zoom on an upright page', () => {
    expect(toScreen({ x: 100, y: 800 }, a4(0), 2)).toEqual({ x: 200, y: 84 });
    expect(toPage({ x: 200, y: 84 }, a4(0), 2)).toEqual({ x: 100, y: 800 });
  });

  it('follows each /Rotate as pdf.js draws it', () => {
    // The user-space origin (bottom left) is shown at the top left, top right, bottom right, bottom left.
    expect(toScreen({ x: 0, y: 0 }, a4(90), 1)).toEqual({ x: 0, y: 0 });
    expect(toScreen({ x: 0, y: 0 }, a4(180), 1)).toEqual({ x: 595, y: 0 });
    expect(toScreen({ x: 0, y: 0 }, a4(270), 1)).toEqual({ x: 842, y: 595 });
    // The top left corner of the unrotated page.
    expect(toScreen({ x: 0, y: 842 }, a4(90), 1)).toEqual({ x: 842, y: 0 });
    expect(shownSize(a4(90), 0.5)).toEqual({ width: 421, height: 297.5 });
  });

  it('returns to the same point from the screen at any zoom and rotation', () => {
    for (const rotation of [0, 90, 180, 270] as const)
      for (const zoom of [0.5, 1, 1.75]) {
        const p = { x: 123.5, y: 456.25 };
        const back = toPage(toScreen(p, a4(rotation), zoom), a4(rotation), zoom);
        expect(back.x).toBeCloseTo(p.x);
        expect(back.y).toBeCloseTo(p.y);
      }
  });

  it('turns a rectangle with the page: wide becomes tall', () => {
    const r = { x: 100, y: 700, width: 200, height: 20 };
    const shown = rectToScreen(r, a4(90), 1.5);
    expect(shown).toEqual({ x: 1050, y: 150, width: 30, height: 300 });
    expect(rectToPage(shown, a4(90), 1.5)).toEqual(r);
  });

  it('reads any multiple of 90 as one of the four turns', () => {
    expect(normalRotation(-90)).toBe(270);
    expect(normalRotation(450)).toBe(90);
    expect(normalRotation(0)).toBe(0);
  });
});
