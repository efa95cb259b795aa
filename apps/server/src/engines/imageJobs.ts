// What the image worker (sharp-worker.ts) is asked and answers: one job per run, as JSON.
import type { ImageAction, ImageOutputFormat } from '@quire/contracts';
import type { ImageFormat } from './imageHeader.js';
import type { FailureAnswer } from './jobFailure.js';

interface ImageInput {
  input: string;
  /** The input's format by its magic bytes: libvips reads no BMP, so MuPDF decodes those. */
  inputFormat: Exclude<ImageFormat, 'heif'>;
  /** Most pixels an input (all its frames) or an output may hold. */
  maxPixels: number;
}

export interface ImageJob extends ImageInput {
  output: string;
  format: ImageOutputFormat;
  params: ImageAction;
}

/** Decodes the input, small, only to prove that it decodes: nothing is written. */
export interface ImageCheckJob extends ImageInput {
  check: true;
}

/**
 * A signature image (a PNG, or an SVG drawn at its own size) written as a PNG: refused with 4212
 * when it is neither, or wider or taller than maxSide pixels.
 */
export interface SignatureImageJob {
  signature: true;
  input: string;
  output: string;
  maxSide: number;
  /** 4212's message for an image past maxSide. */
  tooLargeMessage: string;
  notAnImageMessage: string;
}

/** The job needed more memory than its bound allows (3125). */
export const outOfMemoryMessage = 'Processing stopped before it finished: the image may need more memory than allowed.';

export type ImageAnswer = { ok: true } | FailureAnswer;
