// OCR (the /app/OCR page and the spec's image OCR calls): a scanned PDF, or images merged into one
// PDF first, becomes a searchable PDF that looks as it did, or its text. The converter's using_ocr
// runs the same steps before converting (tools/convert.ts).
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  DEFAULT_OCR_LANGUAGE,
  defaultImageLayout,
  ErrorCode,
  OCR_LIMIT_MB,
  ocrTooLargeMessage,
  parseOcrLanguages,
  QuireError,
  type ToolParams,
} from '@quire/contracts';
import { imagesToPdf } from '../engines/images.js';
import { checkLanguages, ocrPdf, ocrText } from '../engines/ocr.js';
import { editableInput } from '../engines/qpdf.js';
import { detectFileType, imageTypes } from '../engines/fileTypes.js';
import { pdfToDocument } from './steps/pdfToDocument.js';
import { defineTool, type ToolContext, type ToolInput, type ToolOutput } from './tool.js';

interface OcrRequest {
  /** As the API has them: "eng,deu" or "langen". */
  languages: string;
  force: boolean;
  deskew?: boolean;
}

/**
 * The searchable PDF of the inputs (one PDF, or images in page order) in the job's folder, named
 * after the first input. Images
 * are merged first, in the first half of the progress; OCR is the second half (product.md §4).
 */
async function searchablePdf(ctx: ToolContext, inputs: ToolInput[], req: OcrRequest): Promise<ToolInput> {
  const languages = parseOcrLanguages(req.languages);
  await checkLanguages(languages);
  for (const input of inputs) {
    if ((await fs.stat(input.path)).size > OCR_LIMIT_MB * 1024 * 1024)
      throw new QuireError(ErrorCode.TooLarge, ocrTooLargeMessage(OCR_LIMIT_MB));
  }
  const isPdf = (await detectFileType(inputs[0]!.path, inputs[0]!.name)) === 'pdf';
  if (isPdf && inputs.length > 1) throw new QuireError(ErrorCode.InvalidParams, 'OCR takes one PDF, or images only.');
  let source = path.join(ctx.workDir, 'ocr-input.pdf');
  let pages = inputs[0]!.pages;
  let start = 5;
  if (isPdf) {
    // OCRmyPDF opens no encrypted files: qpdf decrypts (and repairs) it first.
    source = await editableInput({ file: inputs[0]!.path, password: inputs[0]!.password }, pages, source, ctx.limits);
  } else {
    await imagesToPdf(
      inputs.map((i) => i.path),
      defaultImageLayout,
      source,
      ctx.workDir,
      ctx.limits,
      (percent) => ctx.progress(Math.round(percent / 2)),
    );
    pages = inputs.length;
    start = 50;
  }
  ctx.progress(start);
  const out = path.join(ctx.workDir, 'searchable.pdf');
  await ocrPdf(
    source,
    out,
    pages,
    { languages, force: req.force, deskew: req.deskew, onProgress: (f) => ctx.progress(start + Math.round(f * (95 - start))) },
    ctx.limits,
  );
  return { path: out, name: inputs[0]!.name, pages };
}

const baseName = (name: string) => path.basename(name, path.extname(name)) || 'document';

/** The result as asked: the searchable PDF itself, or its text in reading order. */
async function ocrOutput(ctx: ToolContext, searchable: ToolInput, format: 'pdf' | 'txt'): Promise<ToolOutput[]> {
  if (format === 'pdf') return [{ path: searchable.path, name: `${baseName(searchable.name)}-ocr.pdf` }];
  const txt = path.join(ctx.workDir, 'text.txt');
  await fs.writeFile(txt, await ocrText(searchable.path, ctx.limits));
  return [{ path: txt, name: `${baseName(searchable.name)}.txt` }];
}

/** The context of a step that moves the task's progress from `from` to `to`. */
const stepOf = (ctx: ToolContext, from: number, to: number): ToolContext => ({
  ...ctx,
  progress: (n) => ctx.progress(from + Math.round((n * (to - from)) / 100)),
});

/**
 * OCR as the first step of a conversion to a document: the searchable PDF is made in the first
 * 70% of the progress; the context returned has it as its input and the rest of the progress.
 */
async function ocrStep(ctx: ToolContext, inputs: ToolInput[], req: OcrRequest): Promise<ToolContext> {
  return { ...stepOf(ctx, 70, 100), inputs: [await searchablePdf(stepOf(ctx, 0, 70), inputs, req)] };
}

/**
 * The converter's using_ocr: the outputs when the searchable PDF (or its text) is the answer;
 * otherwise the context the conversion continues in (ocrStep).
 */
export async function ocrBeforeConverting(ctx: ToolContext, p: ToolParams<'convert'>): Promise<ToolOutput[] | ToolContext> {
  const req = { languages: p.languages ?? DEFAULT_OCR_LANGUAGE, force: !!p.force_ocr };
  const input = ctx.inputs[0]!;
  if (p.output_format === 'pdf' || p.output_format === 'txt')
    return ocrOutput(ctx, await searchablePdf(ctx, [input], req), p.output_format);
  return ocrStep(ctx, [input], req);
}

export const ocr = defineTool({
  id: 'ocr',
  accepts: ['pdf', ...imageTypes],
  // The password, if any, is the PDF's (images have none).
  inputsOf: (p) => p.file_ids.map((fileId, i) => ({ fileId, password: i === 0 ? p.passwd : undefined })),
  async run(ctx, p) {
    const req = { languages: p.languages, force: p.force_ocr, deskew: p.deskew };
    if (p.output_format === 'pdf' || p.output_format === 'txt')
      return ocrOutput(ctx, await searchablePdf(ctx, ctx.inputs, req), p.output_format);
    // Word or Excel: the searchable PDF converted as the converter converts any PDF.
    const step = await ocrStep(ctx, ctx.inputs, req);
    return pdfToDocument(step, step.inputs[0]!, p.output_format, baseName(ctx.inputs[0]!.name));
  },
});
