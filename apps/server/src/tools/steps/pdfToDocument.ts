// PDF to documents (the converter with output_format docx, xlsx, html, rtf, txt, epub or pages):
// one MuPDF extraction into the document model (extract.ts, analyze.ts), then the format's writer,
// both in the MuPDF worker, under its time limit and memory bound.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { PdfDocumentFormat } from '@quire/contracts';
import { runMupdf } from '../../engines/mupdf.js';
import { readableInput, type ToolContext, type ToolInput, type ToolOutput } from '../tool.js';

/** Apple's format is undocumented and no installed engine writes it; Pages opens Word documents. */
export const pagesNote = 'Apple Pages cannot be written directly: this is a Word document, which Pages opens (File > Open).';

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
  const ext = format === 'pages' ? 'docx' : format;
  const out = path.join(ctx.workDir, `converted.${ext}`);
  await runMupdf(
    { op: 'extract', input: source, output: out, imagesDir, format: ext, title: baseName },
    input.pages,
    ctx.workDir,
    ctx.limits,
    (p) => ctx.progress(5 + Math.round(p * 0.9)),
  );
  ctx.progress(100);
  return [{ path: out, name: `${baseName}.${ext}`, ...(format === 'pages' && { note: pagesNote }) }];
}
