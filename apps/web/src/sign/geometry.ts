// Where a mark sits: on the page as shown (points from the top left, after the page's /Rotate, as
// pdf.js draws it and as the sign call takes it) and on the screen (CSS pixels over the drawn page
// at the view's zoom). The page's rotation is pdf.js's and the server's business: a mark never
// needs the unrotated page's coordinates here.

/** A rectangle: x and y its top-left corner, y growing downwards. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Shown points → CSS pixels at `zoom` (pixels per point). */
export function toScreen(r: Rect, zoom: number): Rect {
  return { x: r.x * zoom, y: r.y * zoom, width: r.width * zoom, height: r.height * zoom };
}

/**
 * `r` kept on a page of `bounds`' size: shrunk (keeping its aspect) when larger than the page,
 * then moved inside it.
 */
export function clampToPage(r: Rect, bounds: { width: number; height: number }): Rect {
  const shrink = Math.min(1, bounds.width / r.width, bounds.height / r.height);
  const width = r.width * shrink;
  const height = r.height * shrink;
  return {
    x: Math.min(Math.max(0, r.x), bounds.width - width),
    y: Math.min(Math.max(0, r.y), bounds.height - height),
    width,
    height,
  };
}

/** A corner handle of a selected mark. */
export type Corner = 'nw' | 'ne' | 'sw' | 'se';

/** No mark gets smaller than this on its longer side (points): it could no longer be grabbed. */
const MIN_MARK_POINTS = 12;

/**
 * `r` resized by dragging `corner` by (dx, dy) points, the opposite corner staying put and the
 * aspect kept; never past the page, never under the minimum.
 */
export function resizeKeepingAspect(r: Rect, corner: Corner, dx: number, dy: number, bounds: { width: number; height: number }): Rect {
  const aspect = r.width / r.height;
  const growX = corner === 'ne' || corner === 'se' ? dx : -dx;
  const growY = corner === 'sw' || corner === 'se' ? dy : -dy;
  // The movement that changes the size more, relative to it, decides the new size.
  const [byX, byY] = [(r.width + growX) / r.width, (r.height + growY) / r.height];
  let width = r.width * (Math.abs(byX - 1) >= Math.abs(byY - 1) ? byX : byY);
  // The fixed corner and the page's edges in the direction of the drag bound the size.
  const anchorX = corner === 'ne' || corner === 'se' ? r.x : r.x + r.width;
  const anchorY = corner === 'sw' || corner === 'se' ? r.y : r.y + r.height;
  const roomX = corner === 'ne' || corner === 'se' ? bounds.width - anchorX : anchorX;
  const roomY = corner === 'sw' || corner === 'se' ? bounds.height - anchorY : anchorY;
  const minWidth = aspect >= 1 ? MIN_MARK_POINTS : MIN_MARK_POINTS * aspect;
  width = Math.max(minWidth, Math.min(width, roomX, roomY * aspect));
  const height = width / aspect;
  return {
    x: corner === 'ne' || corner === 'se' ? anchorX : anchorX - width,
    y: corner === 'sw' || corner === 'se' ? anchorY : anchorY - height,
    width,
    height,
  };
}

/** `r` moved by (dx, dy) points and kept on the page. */
export function moveWithin(r: Rect, dx: number, dy: number, bounds: { width: number; height: number }): Rect {
  return clampToPage({ ...r, x: r.x + dx, y: r.y + dy }, bounds);
}
