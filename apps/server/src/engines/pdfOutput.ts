// What an engine made must be a PDF that qpdf reads, with pages; anything else is removed.
import fs from 'node:fs/promises';
import { ErrorCode, QuireError } from '@quire/contracts';
import { inspectPdf, type EngineLimits } from './qpdf.js';

/** Throws 3105 (and removes `file`) unless it is a readable PDF with at least one page. */
export async function requirePdfOutput(file: string, limits: EngineLimits): Promise<void> {
  try {
    await inspectPdf(file, undefined, limits);
  } catch {
    await fs.rm(file, { force: true });
    throw new QuireError(ErrorCode.Unreadable);
  }
}
