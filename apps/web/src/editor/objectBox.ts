// Moving and resizing a box on screen (CSS pixels, y down) by a drag or a key: the one geometry
// behind images already in the file, whatever the page's rotation (the box is turned back into
// the page's user space afterwards).
import type { Rect } from './pageCoordinates';

/** A corner of a box as shown: north-west, north-east, south-west, south-east. */
export type Corner = 'nw' | 'ne' | 'sw' | 'se';
export const CORNERS: readonly Corner[] = ['nw', 'ne', 'sw', 'se'];

/** An arrow key moves the selection this many points; with Shift, ten times as far. */
export const NUDGE_PT = 1;

/** A box is never dragged smaller than this many pixels either way. */
const MIN_SIDE_PX = 8;

/** The box moved by (dx, dy). */
export const movedBox = (box: Rect, dx: number, dy: number): Rect => ({ ...box, x: box.x + dx, y: box.y + dy });

/**
 * The box with `corner` dragged by (dx, dy) and the opposite corner staying. `keepAspect` keeps
 * its proportions (the larger of the two changes wins), as image editors do for pictures.
 */
export function resizedBox(box: Rect, corner: Corner, dx: number, dy: number, keepAspect: boolean): Rect {
  const west = corner === 'nw' || corner === 'sw';
  const north = corner === 'nw' || corner === 'ne';
  let width = Math.max(MIN_SIDE_PX, box.width + (west ? -dx : dx));
  let height = Math.max(MIN_SIDE_PX, box.height + (north ? -dy : dy));
  if (keepAspect) {
    const scale = Math.max(width / box.width, height / box.height);
    width = Math.max(MIN_SIDE_PX, box.width * scale);
    height = Math.max(MIN_SIDE_PX, box.height * scale);
  }
  return {
    x: west ? box.x + box.width - width : box.x,
    y: north ? box.y + box.height - height : box.y,
    width,
    height,
  };
}
