// The viewer's zoom and page jump, apart from the page so they can be tested alone.

/** Zoom levels the buttons step through, as a share of a page's natural size (72 dpi = 1). */
export const ZOOM_STEPS = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4] as const;
export const MIN_ZOOM = ZOOM_STEPS[0];
export const MAX_ZOOM = ZOOM_STEPS[ZOOM_STEPS.length - 1]!;

/** The automatic zoom never enlarges past this: a wide window would otherwise show a page's text huge. */
export const AUTO_MAX_SCALE = 1.25;

/**
 * A fixed scale, "as wide as the view", or automatic (fit width, at most 125%); the last two follow
 * the window's width.
 */
export type Zoom = { mode: 'auto' } | { mode: 'fitWidth' } | { mode: 'scale'; scale: number };

export const clampScale = (scale: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, scale));

/** The next step above `scale`; from a scale between steps (fit width), the first step above it. */
export function zoomIn(scale: number): number {
  return ZOOM_STEPS.find((step) => step > scale + 1e-6) ?? MAX_ZOOM;
}

/** The next step below `scale`. */
export function zoomOut(scale: number): number {
  return [...ZOOM_STEPS].reverse().find((step) => step < scale - 1e-6) ?? MIN_ZOOM;
}

/** The scale at which a page `pageWidth` points wide fills `viewWidth` CSS pixels less `margin` on each side. */
export function fitWidthScale(pageWidth: number, viewWidth: number, margin = 16): number {
  if (pageWidth <= 0 || viewWidth <= 0) return 1;
  return clampScale((viewWidth - 2 * margin) / pageWidth);
}

/** The scale a zoom comes to for the widest page and the view's width. */
export function scaleOf(zoom: Zoom, pageWidth: number, viewWidth: number): number {
  if (zoom.mode === 'scale') return zoom.scale;
  const fit = fitWidthScale(pageWidth, viewWidth);
  return zoom.mode === 'auto' ? Math.min(fit, AUTO_MAX_SCALE) : fit;
}

/** "125%" for 1.25. */
export const percentOf = (scale: number) => `${Math.round(scale * 100)}%`;

/** A typed percentage ("150", "150%", " 80 % "), as a scale within the limits; null if it is not one. */
export function parsePercent(text: string): number | null {
  const m = /^\s*(\d{1,4}(?:[.,]\d+)?)\s*%?\s*$/.exec(text);
  if (!m) return null;
  const percent = Number(m[1]!.replace(',', '.'));
  return percent > 0 ? clampScale(percent / 100) : null;
}

/** A typed page number within 1…pageCount, or null: the field then shows the current page again. */
export function parsePageJump(text: string, pageCount: number): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const page = Number(text);
  return page >= 1 && page <= pageCount ? page : null;
}

/** The page after a key press, or null for a key that does not move pages. */
export function pageAfterKey(key: string, page: number, pageCount: number): number | null {
  const moves: Record<string, number> = { ArrowDown: 1, ArrowRight: 1, PageDown: 1, ArrowUp: -1, ArrowLeft: -1, PageUp: -1 };
  if (key === 'Home') return 1;
  if (key === 'End') return pageCount;
  const move = moves[key];
  if (move === undefined) return null;
  return Math.min(pageCount, Math.max(1, page + move));
}
