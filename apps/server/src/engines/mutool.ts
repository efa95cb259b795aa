// MuPDF's command-line tool (Debian's mupdf-tools): it decodes the image formats and lays out
// EPUB. Every call is bounded by runEngine; a file it cannot read is 3105, never a partial output.
import fs from 'node:fs/promises';
import { ErrorCode, QuireError } from '@quire/contracts';
import type { EngineLimits } from './qpdf.js';
import { requirePdfOutput } from './pdfOutput.js';
import { boundFor, EngineTimeout, type JobKind, type RunResult, runEngine, tookTooLong } from './run.js';

async function mutool(job: JobKind, args: string[], limits: EngineLimits, output?: string): Promise<void> {
  let result: RunResult;
  try {
    result = await runEngine('mutool', args, boundFor(job, limits));
  } catch (e) {
    if (output) await fs.rm(output, { force: true });
    if (e instanceof EngineTimeout) throw tookTooLong();
    throw e;
  }
  if (result.exitCode !== 0) {
    if (output) await fs.rm(output, { force: true });
    throw new QuireError(ErrorCode.Unreadable);
  }
}

/** A PDF with one page per image (per frame of a TIFF), each the image's size at its own resolution. */
export function imageToPdf(input: string, output: string, limits: EngineLimits): Promise<void> {
  return mutool('image', ['convert', '-O', 'compress', '-o', output, input], limits, output);
}

/** Decodes an image (at a small scale) only to prove it can be decoded. */
export function checkDecodes(input: string, limits: EngineLimits): Promise<void> {
  return mutool('image', ['draw', '-q', '-r', '9', '-F', 'pgm', '-o', '/dev/null', input], limits);
}

/** An EPUB laid out on A4 pages, its text kept as text. MuPDF reads only what is inside the book. */
export async function epubToPdf(input: string, output: string, limits: EngineLimits): Promise<void> {
  await mutool('document', ['convert', '-W', '595', '-H', '842', '-S', '11', '-O', 'compress', '-o', output, input], limits, output);
  await requirePdfOutput(output, limits);
}
