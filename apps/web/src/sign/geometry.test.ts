import { describe, expect, it } from 'vitest';
import { clampToPage, moveWithin, resizeKeepingAspect, toScreen } from './geometry';

const mark = { x: 10, y: 20, width: 100, height: 50 };

describe('page and screen coordinates', () => {
  it('scales to the screen by the zoom', () => {
    expect(toScreen(mark, 1.5)).toEqual({ x: 15, y: 30, width: 150, height: 75 });
  });
});

describe('placing marks', () => {
  const page = { width: 595, height: 842 };

  it('moves a mark dropped over an edge back onto the page', () => {
    expect(clampToPage({ x: -30, y: 820, width: 100, height: 50 }, page)).toEqual({ x: 0, y: 792, width: 100, height: 50 });
  });

  it('shrinks a mark wider than the page, keeping its aspect', () => {
    const r = clampToPage({ x: 0, y: 0, width: 1190, height: 100 }, page);
    expect(r.width).toBeCloseTo(595);
    expect(r.height).toBeCloseTo(50);
  });

  it('moves by the arrow keys but not off the page', () => {
    expect(moveWithin(mark, -50, 5, page)).toEqual({ ...mark, x: 0, y: 25 });
  });

  it('resizes from a corner keeping the aspect and the opposite corner', () => {
    const bigger = resizeKeepingAspect(mark, 'se', 100, 0, page);
    expect(bigger).toEqual({ x: 10, y: 20, width: 200, height: 100 });
    const fromTopLeft = resizeKeepingAspect(mark, 'nw', 0, 25, page);
    // Dragged down by 25: the height shrinks to 25, the width follows to 50; bottom right stays.
    expect(fromTopLeft).toEqual({ x: 60, y: 45, width: 50, height: 25 });
  });

  it('stops a resize at the page edge and at the smallest size', () => {
    const wide = resizeKeepingAspect(mark, 'se', 5000, 0, page);
    expect(wide.x + wide.width).toBeCloseTo(595);
    expect(wide.width / wide.height).toBeCloseTo(2);
    const tiny = resizeKeepingAspect(mark, 'se', -1000, -1000, page);
    expect(tiny.width).toBe(12);
    expect(tiny.height).toBe(6);
  });
});
