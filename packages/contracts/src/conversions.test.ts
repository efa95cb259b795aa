import { describe, expect, it } from 'vitest';
import { isImageFileName, mmToPoints, placeImage } from './conversions.js';

describe('placing an image on its page', () => {
  it('centres a large image inside the margins of an A4 page turned to match it', () => {
    const { page, box } = placeImage(2000, 1000, { page_size: 'a4', orientation: 'auto', margin: 'large' });
    expect(page).toEqual([841.89, 595.28]);
    const m = mmToPoints(15);
    expect(box.width).toBeCloseTo(841.89 - 2 * m, 6);
    expect(box.height).toBeCloseTo(box.width / 2, 6);
    expect(box.x).toBeCloseTo(m, 6);
    expect(box.y + box.height / 2).toBeCloseTo(595.28 / 2, 6);
  });

  it('never enlarges a small image, and keeps the orientation asked for', () => {
    const { page, box } = placeImage(100, 50, { page_size: 'letter', orientation: 'portrait', margin: 'none' });
    expect(page).toEqual([612, 792]);
    expect(box).toEqual({ x: 256, y: 371, width: 100, height: 50 });
  });

  it('makes a fitted page the image plus its margins', () => {
    const m = mmToPoints(7);
    expect(placeImage(300, 200, { page_size: 'fit', orientation: 'landscape', margin: 'small' })).toEqual({
      page: [300 + 2 * m, 200 + 2 * m],
      box: { x: m, y: m, width: 300, height: 200 },
    });
  });

  it('knows image files by extension, case-insensitively (WebP for the image tools)', () => {
    expect(['a.JPG', 'b.jpeg', 'c.png', 'd.bmp', 'e.gif', 'f.TIF', 'g.tiff', 'h.WebP'].every(isImageFileName)).toBe(true);
    expect(['a.pdf', 'b.heic', 'jpg', 'c.docx'].some(isImageFileName)).toBe(false);
  });
});
