// Page-box arithmetic for Crop, kept apart from the engine so it can be tested on its own.
// Boxes are PDF rectangles [x0, y0, x1, y1] in the page's unrotated user space.

export type Box = [number, number, number, number];

export interface Margins {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export const MM_PER_INCH = 25.4;
export const POINTS_PER_INCH = 72;
export const mmToPoints = (mm: number) => (mm * POINTS_PER_INCH) / MM_PER_INCH;
export const pointsToMm = (pt: number) => (pt * MM_PER_INCH) / POINTS_PER_INCH;

/** Smallest width or height a crop may leave, in points: less is no page area to speak of. */
export const MIN_CROPPED_SIDE = 1;

/** A box with its corners in order, or null for anything that is not four finite numbers. */
export function normalizeBox(values: readonly number[] | null | undefined): Box | null {
  if (values?.length !== 4 || !values.every(Number.isFinite)) return null;
  const [a, b, c, d] = values as Box;
  return [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)];
}

/** What a viewer shows: the CropBox clipped to the MediaBox, or the MediaBox when that leaves nothing. */
export function visibleBox(media: Box, crop: Box | null): Box {
  if (!crop) return media;
  const box: Box = [Math.max(media[0], crop[0]), Math.max(media[1], crop[1]), Math.min(media[2], crop[2]), Math.min(media[3], crop[3])];
  return box[2] > box[0] && box[3] > box[1] ? box : media;
}

/** /Rotate as 0, 90, 180 or 270 (it may be any multiple of 90, negative too). */
export function normalizeRotation(rotate: number): 0 | 90 | 180 | 270 {
  const r = (((Math.round(rotate / 90) * 90) % 360) + 360) % 360;
  return r as 0 | 90 | 180 | 270;
}

/**
 * `box` less the margins, given as the page is shown (after /Rotate, clockwise), or null when
 * they would leave less than MIN_CROPPED_SIDE. Turning a page clockwise by 90° puts its left
 * edge on top, its top edge on the right, and so on.
 */
export function cropBox(box: Box, rotate: 0 | 90 | 180 | 270, shown: Margins): Box | null {
  const { top, right, bottom, left } = shown;
  // The margin taken off each unrotated edge: [left (x0), bottom (y0), right (x1), top (y1)].
  const cut = {
    0: [left, bottom, right, top],
    90: [top, left, bottom, right],
    180: [right, top, left, bottom],
    270: [bottom, right, top, left],
  }[rotate];
  const next: Box = [box[0] + cut[0]!, box[1] + cut[1]!, box[2] - cut[2]!, box[3] - cut[3]!];
  return next[2] - next[0] >= MIN_CROPPED_SIDE && next[3] - next[1] >= MIN_CROPPED_SIDE ? next : null;
}
