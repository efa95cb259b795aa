// Between the page as drawn on screen (CSS pixels from its top left, zoomed and turned by /Rotate)
// and the page's own user space (points from the bottom left of the unrotated page), where the
// server writes every edit. pdf.js's viewport does the same for drawing; this is its inverse too.

/** A page's unrotated size in points and its /Rotate, clockwise. */
export interface PageFrame {
  width: number;
  height: number;
  rotation: 0 | 90 | 180 | 270;
}

export interface Point {
  x: number;
  y: number;
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** /Rotate as one of the four turns (PDF allows any multiple of 90, negative too). */
export function normalRotation(degrees: number): PageFrame['rotation'] {
  return ((((Math.round(degrees / 90) * 90) % 360) + 360) % 360) as PageFrame['rotation'];
}

/** The page's size on screen at `zoom` (CSS pixels per point). */
export function shownSize(page: PageFrame, zoom: number): { width: number; height: number } {
  const turned = page.rotation === 90 || page.rotation === 270;
  return { width: (turned ? page.height : page.width) * zoom, height: (turned ? page.width : page.height) * zoom };
}

/** A user-space point to screen pixels from the drawn page's top left. */
export function toScreen(p: Point, page: PageFrame, zoom: number): Point {
  const { width: w, height: h } = page;
  const [sx, sy] =
    page.rotation === 0 ? [p.x, h - p.y] : page.rotation === 90 ? [p.y, p.x] : page.rotation === 180 ? [w - p.x, p.y] : [h - p.y, w - p.x];
  return { x: sx * zoom, y: sy * zoom };
}

/** Screen pixels from the drawn page's top left to a user-space point. */
export function toPage(s: Point, page: PageFrame, zoom: number): Point {
  const { width: w, height: h } = page;
  const [sx, sy] = [s.x / zoom, s.y / zoom];
  const [x, y] =
    page.rotation === 0 ? [sx, h - sy] : page.rotation === 90 ? [sy, sx] : page.rotation === 180 ? [w - sx, sy] : [w - sy, h - sx];
  return { x, y };
}

/** The box spanned by two points, with positive width and height. */
export function spanned(a: Point, b: Point): Rect {
  return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(a.x - b.x), height: Math.abs(a.y - b.y) };
}

/** A user-space rectangle as a screen box (top left, size). */
export function rectToScreen(r: Rect, page: PageFrame, zoom: number): Rect {
  return spanned(toScreen(r, page, zoom), toScreen({ x: r.x + r.width, y: r.y + r.height }, page, zoom));
}

/** A screen box as a user-space rectangle (bottom left, size). */
export function rectToPage(r: Rect, page: PageFrame, zoom: number): Rect {
  return spanned(toPage(r, page, zoom), toPage({ x: r.x + r.width, y: r.y + r.height }, page, zoom));
}

/** What pageFrame needs of an open document (pdf.js's PDFDocumentProxy). */
interface PagesSource {
  getPage(n: number): Promise<{ view: number[]; rotate: number }>;
}

/** Page `n` as uploaded: its CropBox size and own /Rotate. */
export async function pageFrame(doc: PagesSource, n: number): Promise<PageFrame> {
  const page = await doc.getPage(n);
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = page.view;
  return { width: x1 - x0, height: y1 - y0, rotation: normalRotation(page.rotate) };
}

/** Every page of the document as uploaded, by number. */
export async function pageFrames(doc: PagesSource & { numPages: number }): Promise<Map<number, PageFrame>> {
  const numbers = Array.from({ length: doc.numPages }, (_, i) => i + 1);
  return new Map(await Promise.all(numbers.map(async (n) => [n, await pageFrame(doc, n)] as const)));
}
