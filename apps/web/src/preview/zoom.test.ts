import { describe, expect, it } from 'vitest';
import { fitWidthScale, MAX_ZOOM, MIN_ZOOM, pageAfterKey, parsePageJump, parsePercent, percentOf, scaleOf, zoomIn, zoomOut } from './zoom';

describe('zoom steps', () => {
  it('steps up and down through the fixed levels, stopping at the ends', () => {
    expect(zoomIn(1)).toBe(1.25);
    expect(zoomOut(1)).toBe(0.75);
    expect(zoomIn(MAX_ZOOM)).toBe(MAX_ZOOM);
    expect(zoomOut(MIN_ZOOM)).toBe(MIN_ZOOM);
  });

  it('from a scale between steps (fit width) goes to the nearest step in that direction', () => {
    expect(zoomIn(1.1)).toBe(1.25);
    expect(zoomOut(1.1)).toBe(1);
    expect(zoomIn(0.999_9999)).toBe(1.25);
  });

  it('fits a page to the view less its margins, within the limits', () => {
    expect(fitWidthScale(612, 644)).toBeCloseTo(1);
    expect(fitWidthScale(612, 10_000)).toBe(MAX_ZOOM);
    expect(fitWidthScale(612, 100)).toBe(MIN_ZOOM);
    expect(fitWidthScale(0, 800)).toBe(1);
  });

  it('automatic zoom is fit width, but never past 125%', () => {
    expect(scaleOf({ mode: 'auto' }, 612, 2000)).toBe(1.25);
    expect(scaleOf({ mode: 'auto' }, 612, 390)).toBeCloseTo(358 / 612);
    expect(scaleOf({ mode: 'fitWidth' }, 612, 2000)).toBeCloseTo(1968 / 612);
    expect(scaleOf({ mode: 'scale', scale: 2 }, 612, 390)).toBe(2);
  });

  it('reads a typed percentage and shows one', () => {
    expect(parsePercent('150')).toBe(1.5);
    expect(parsePercent(' 80 % ')).toBe(0.8);
    expect(parsePercent('12,5%')).toBe(MIN_ZOOM);
    expect(parsePercent('9000')).toBe(MAX_ZOOM);
    expect(parsePercent('0')).toBeNull();
    expect(parsePercent('abc')).toBeNull();
    expect(percentOf(1.254)).toBe('125%');
  });
});

describe('page jump', () => {
  it('takes a whole page number within the document', () => {
    expect(parsePageJump('3', 10)).toBe(3);
    expect(parsePageJump(' 10 ', 10)).toBe(10);
    expect(parsePageJump('11', 10)).toBeNull();
    expect(parsePageJump('0', 10)).toBeNull();
    expect(parsePageJump('2.5', 10)).toBeNull();
    expect(parsePageJump('-1', 10)).toBeNull();
    expect(parsePageJump('', 10)).toBeNull();
  });

  it('moves a page with arrows and Page Up/Down, to the ends with Home/End, never past them', () => {
    expect(pageAfterKey('ArrowDown', 1, 5)).toBe(2);
    expect(pageAfterKey('PageDown', 5, 5)).toBe(5);
    expect(pageAfterKey('ArrowLeft', 3, 5)).toBe(2);
    expect(pageAfterKey('PageUp', 1, 5)).toBe(1);
    expect(pageAfterKey('End', 2, 5)).toBe(5);
    expect(pageAfterKey('Home', 4, 5)).toBe(1);
    expect(pageAfterKey('a', 2, 5)).toBeNull();
  });
});
