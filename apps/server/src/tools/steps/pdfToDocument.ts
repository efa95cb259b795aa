// PDF to documents (the converter with output_format docx, xlsx, html, rtf, txt, epub or pages):
// one MuPDF extraction into the document model (extract.ts, analyze.ts), checked against poppler's
// reading of the same pages (convert/popplerCheck.ts), then the format's writer, all in the MuPDF
// worker, under its time limit and memory bound.
import fs from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, type PdfDocumentFormat, QuireError } from '@quire/contracts';
import { runMupdf } from '../../engines/mupdf.js';
import { writePageLayout } from '../../engines/poppler.js';
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
  // Poppler's reading of the pages, which the model must keep (read in the worker). A file poppler
  // cannot read (3124) is not checked: MuPDF, which repairs more, may still read it.
  const layout = path.join(ctx.workDir, 'layout.html');
  const popplerLayout = await writePageLayout(source, input.pages, layout, ctx.limits).then(
    () => layout,
    (e: unknown) => {
      if (e instanceof QuireError && e.code === ErrorCode.Damaged) return null;
      throw e;
    },
  );
  ctx.progress(10);
  const out = path.join(ctx.workDir, `converted.${format}`);
  await runMupdf(
    { op: 'extract', input: source, output: out, imagesDir, format, title: baseName, popplerLayout },
    input.pages,
    ctx.workDir,
    ctx.limits,
    (p) => ctx.progress(10 + Math.round(p * 0.85)),
  );
  ctx.progress(100);
  return [{ path: out, name: `${baseName}.${format}`, ...(format === 'pages' && { note: pagesNote }) }];
}
