// A MuPDF pixmap's samples as libvips (sharp) takes raw pixels: rows without padding.
import type { Pixmap } from 'mupdf';

/** The pixmap's samples, row after row with no gap between them. */
export function packedPixels(pixmap: Pixmap): Buffer {
  const [width, height, channels, stride] = [pixmap.getWidth(), pixmap.getHeight(), pixmap.getNumberOfComponents(), pixmap.getStride()];
  const pixels = Buffer.from(pixmap.getPixels());
  if (stride === width * channels) return pixels;
  return Buffer.concat(Array.from({ length: height }, (_, y) => pixels.subarray(y * stride, y * stride + width * channels)));
}
