// What the image worker (sharp-worker.ts) is asked and answers: one job per run, as JSON.
import type { ImageAction, ImageOutputFormat } from '@quire/contracts';
import type { ImageFormat } from './imageHeader.js';

export interface ImageJob {
  input: string;
  /** The input's format by its magic bytes: libvips reads no BMP, so MuPDF decodes those. */
  inputFormat: Exclude<ImageFormat, 'heif'>;
  output: string;
  format: ImageOutputFormat;
  params: ImageAction;
  /** Most pixels an input (all its frames) or an output may hold. */
  maxPixels: number;
}

/** The job needed more memory than its bound allows (3125). */
export const outOfMemoryMessage = 'Processing stopped before it finished: the image may need more memory than allowed.';

export type ImageAnswer = { ok: true } | { ok: false; code: number; message: string };
