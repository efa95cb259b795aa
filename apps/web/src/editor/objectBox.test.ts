import { describe, expect, it } from 'vitest';
import { movedBox, resizedBox } from './objectBox';

const box = { x: 100, y: 200, width: 80, height: 40 };

describe('moving and resizing a box', () => {
  it('moves it whole', () => {
    expect(movedBox(box, -10, 5)).toEqual({ x: 90, y: 205, width: 80, height: 40 });
  });

  it('keeps the opposite corner where it was, whichever corner is dragged', () => {
    expect(resizedBox(box, 'se', 20, 10, false)).toEqual({ x: 100, y: 200, width: 100, height: 50 });
    expect(resizedBox(box, 'nw', 20, 10, false)).toEqual({ x: 120, y: 210, width: 60, height: 30 });
    expect(resizedBox(box, 'ne', 20, -10, false)).toEqual({ x: 100, y: 190, width: 100, height: 50 });
    expect(resizedBox(box, 'sw', -20, 0, false)).toEqual({ x: 80, y: 200, width: 100, height: 40 });
  });

  it('keeps the proportions when asked, the larger change winning', () => {
    // Dragged 40 px right and 4 px down: half as wide again, so half as high again.
    expect(resizedBox(box, 'se', 40, 4, true)).toEqual({ x: 100, y: 200, width: 120, height: 60 });
    expect(resizedBox(box, 'nw', -40, 0, true)).toEqual({ x: 60, y: 180, width: 120, height: 60 });
  });

  it('never makes it smaller than a few pixels', () => {
    const tiny = resizedBox(box, 'se', -500, -500, false);
    expect(tiny.width).toBe(8);
    expect(tiny.height).toBe(8);
  });
});
