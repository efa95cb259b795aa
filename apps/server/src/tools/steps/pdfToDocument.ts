// PDF to documents (the converter with output_format docx, xlsx, html, rtf, txt, epub or pages):
// one MuPDF extraction into the document model (extract.ts, analyze.ts), then the format's writer,
// both in the MuPDF worker, under its time limit and memory bound.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { PdfDocumentFormat } from '@quire/contracts';
import { runMupdf } from '../../engines/mupdf.js';
import { readableInput, type ToolContext, type ToolInput, type ToolOutput } from '../tool.js';
import type { Said } from '../../texts/words.js';

/** What a Pages document keeps of the PDF, and what it does not (convert/pages.ts). */
const pagesNote: Said = { key: 'note.pages.keeps' };

export async function pdfToDocument(
  ctx: ToolContext,
  input: ToolInput,
  format: PdfDocumentFormat,
  baseName: string,
): Promise<ToolOutput[]> {
  const source = await readableInput(ctx, input);
  ctx.progress(5);
  const imagesDir = path.join(ctx.workDir, 'images');
  await fs.mkdir(imagesDir, { recursive: true });
  const out = path.join(ctx.workDir, `converted.${format}`);
  await runMupdf(
    { op: 'extract', input: source, output: out, imagesDir, format, title: baseName },
    input.pages,
    ctx.workDir,
    ctx.limits,
    (p) => ctx.progress(5 + Math.round(p * 0.9)),
  );
  ctx.progress(100);
  return [{ path: out, name: `${baseName}.${format}`, ...(format === 'pages' && { note: pagesNote }) }];
}
