// Turning what the user made (strokes, a typed name, an uploaded picture) into the PNG that is
// placed on the pages and sent to the server.
import '@fontsource/caveat/400.css';
import '@fontsource/dancing-script/400.css';
import '@fontsource/great-vibes/400.css';
import '@fontsource/sacramento/400.css';
import { MAX_SIGNATURE_SIDE_PX, type SignatureKind } from '@quire/contracts';
import { drawStrokes, strokesBounds, whiteToTransparent, type Stroke } from './strokes';

/** A signature ready to place: a PNG with a transparent background, and its size in pixels. */
export interface SignatureImage {
  kind: SignatureKind;
  /** `data:image/png;base64,…` */
  png: string;
  width: number;
  height: number;
}

/** The handwriting fonts offered for a typed signature, bundled with the app (OFL-1.1). */
export const HANDWRITING_FONTS = ['Dancing Script', 'Great Vibes', 'Caveat', 'Sacramento'] as const;
export type HandwritingFont = (typeof HANDWRITING_FONTS)[number];

/** Ink colours offered for drawing and typing. */
export const INK_COLOURS = ['#1b1f2a', '#1a3ea8', '#c0262d'] as const;

/** Pixels per CSS pixel of the exported image: sharp when printed at the usual signature sizes. */
const EXPORT_SCALE = 3;
/** An uploaded picture is scaled down to this longer side: more adds bytes, not sharpness. */
const MAX_UPLOAD_SIDE = 800;

/** The canvas as a PNG, scaled down to the server's largest side if it is larger. */
function toImage(drawn: HTMLCanvasElement, kind: SignatureKind): SignatureImage {
  let canvas = drawn;
  const shrink = MAX_SIGNATURE_SIDE_PX / Math.max(drawn.width, drawn.height);
  if (shrink < 1) {
    const [smaller, ctx] = canvasOf(drawn.width * shrink, drawn.height * shrink);
    ctx.drawImage(drawn, 0, 0, smaller.width, smaller.height);
    canvas = smaller;
  }
  return { kind, png: canvas.toDataURL('image/png'), width: canvas.width, height: canvas.height };
}

function canvasOf(width: number, height: number): [HTMLCanvasElement, CanvasRenderingContext2D] {
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.ceil(width));
  canvas.height = Math.max(1, Math.ceil(height));
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('No 2D canvas');
  return [canvas, ctx];
}

/** The drawn strokes cropped to what they cover; null when nothing is drawn. */
export function strokesImage(strokes: readonly Stroke[]): SignatureImage | null {
  const box = strokesBounds(strokes);
  if (!box) return null;
  const [canvas, ctx] = canvasOf(box.width * EXPORT_SCALE, box.height * EXPORT_SCALE);
  ctx.scale(EXPORT_SCALE, EXPORT_SCALE);
  ctx.translate(-box.x, -box.y);
  drawStrokes(ctx, strokes);
  return toImage(canvas, 'drawn');
}

/** The CSS font of a typed signature at `sizePx`. */
export const typedFont = (font: HandwritingFont, sizePx: number) => `${sizePx}px "${font}"`;

/** A name written in a handwriting font, once the font is loaded. */
export async function typedImage(name: string, font: HandwritingFont, colour: string): Promise<SignatureImage> {
  const size = 40 * EXPORT_SCALE;
  await document.fonts.load(typedFont(font, size), name);
  const [, measure] = canvasOf(1, 1);
  measure.font = typedFont(font, size);
  const metrics = measure.measureText(name);
  // Script fonts swash past their advance width and their nominal ascent: measure the ink itself.
  const left = metrics.actualBoundingBoxLeft;
  const ascent = Math.max(metrics.actualBoundingBoxAscent, size * 0.8);
  const descent = Math.max(metrics.actualBoundingBoxDescent, size * 0.25);
  const pad = size * 0.1;
  const [canvas, ctx] = canvasOf(left + metrics.actualBoundingBoxRight + 2 * pad, ascent + descent + 2 * pad);
  ctx.font = typedFont(font, size);
  ctx.fillStyle = colour;
  ctx.fillText(name, pad + left, pad + ascent);
  return toImage(canvas, 'typed');
}

/** Reads an image file into an element. */
export function loadImage(file: Blob): Promise<HTMLImageElement> {
  const url = URL.createObjectURL(file);
  return new Promise<HTMLImageElement>((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('unreadable image'));
    image.src = url;
  }).finally(() => URL.revokeObjectURL(url));
}

/** An uploaded picture as a PNG (transparency kept), its white made transparent if asked. */
export function uploadedImage(image: HTMLImageElement, clearWhite: boolean): SignatureImage {
  const shrink = Math.min(1, MAX_UPLOAD_SIDE / Math.max(image.naturalWidth, image.naturalHeight));
  const [canvas, ctx] = canvasOf(image.naturalWidth * shrink, image.naturalHeight * shrink);
  ctx.drawImage(image, 0, 0, canvas.width, canvas.height);
  if (clearWhite) {
    const pixels = ctx.getImageData(0, 0, canvas.width, canvas.height);
    whiteToTransparent(pixels.data);
    ctx.putImageData(pixels, 0, 0);
  }
  return toImage(canvas, 'uploaded');
}
