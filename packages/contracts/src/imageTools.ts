// The image tools (images_process): compress, crop, convert, resize and rotate one image. The
// bounds and the sizes an action gives are shared by the server's checks and the web app's panels.
import type { ToolParams } from './toolParams.js';

/** An images_process call's action and its options, without the file fields. */
export type ImageAction =
  ToolParams<'images_process'> extends infer P ? (P extends unknown ? Omit<P, 'file_id' | 'multi_id'> : never) : never;

/** Formats an image can be converted to: png unless chosen. */
export const imageOutputFormats = ['jpg', 'png', 'bmp', 'gif', 'tiff', 'webp', 'ico'] as const;
export type ImageOutputFormat = (typeof imageOutputFormats)[number];
export const defaultImageOutputFormat: ImageOutputFormat = 'png';

/** Square icon sizes an ICO may have: 16x16 unless chosen. */
export const icoSizes = [16, 32, 48, 64, 128, 256] as const;
export type IcoSize = (typeof icoSizes)[number];
export const defaultIcoSize: IcoSize = 16;

/** Resize: one percentage for width and height. */
export const IMAGE_RESIZE_PERCENT = { min: 1, max: 500, default: 50 } as const;

/** Crop margins in pixels per side, as the image is seen (turned upright by its EXIF orientation). */
export interface ImageMargins {
  top: number;
  right: number;
  bottom: number;
  left: number;
}
export const IMAGE_MARGIN_MAX = 100_000;

/** An image (every frame of it) with more pixels than a decoder can hold. */
export const tooManyPixelsMessage = 'The image has too many pixels to be processed.';

/** Width and height after a resize by `percent`: rounded, at least one pixel each. */
export function resizedSize(width: number, height: number, percent: number): [number, number] {
  return [Math.max(1, Math.round((width * percent) / 100)), Math.max(1, Math.round((height * percent) / 100))];
}

/** Width and height left inside the margins, or null when they leave nothing. */
export function croppedSize(width: number, height: number, m: ImageMargins): [number, number] | null {
  const [w, h] = [width - m.left - m.right, height - m.top - m.bottom];
  return w > 0 && h > 0 ? [w, h] : null;
}
