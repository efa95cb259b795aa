// OCR as a step (the OCR tool, and the converter's using_ocr, start with it): a scanned PDF, or
// images merged into one PDF first, becomes a searchable PDF that looks as it did.
import fs from 'node:fs/promises';
import path from 'node:path';
import { defaultImageLayout, ErrorCode, OCR_LIMIT_MB, ocrTooLargeMessage, parseOcrLanguages, QuireError } from '@quire/contracts';
import { imagesToPdf } from '../../engines/images.js';
import { checkLanguages, ocrPdf, ocrText } from '../../engines/ocr.js';
import { detectFileType } from '../../engines/fileTypes.js';
import { readableInput, type Step, type ToolContext, type ToolInput, type ToolOutput } from '../tool.js';

export interface OcrRequest {
  /** As the API has them: "eng,deu" or "langen". */
  languages: string;
  force: boolean;
  deskew?: boolean;
}

/**
 * The searchable PDF of the inputs (one PDF, or images in page order) in the job's folder, named
 * after the first input. Images are merged first, in the first half of the progress; OCR is the
 * second half.
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
    // OCRmyPDF opens no encrypted files.
    source = await readableInput(ctx, inputs[0]!, 'ocr-input.pdf');
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

/** The step making the searchable PDF, in `share` percent of the task's progress. */
export function ocrStep(share: number, request: OcrRequest): Step {
  return { share, run: async (ctx) => [await searchablePdf(ctx, ctx.inputs, request)] };
}

/** Whether OCR's own result is the answer asked for, rather than the input of a conversion. */
export const isOcrResult = (format: string): format is 'pdf' | 'txt' => format === 'pdf' || format === 'txt';

/** The result as asked: the searchable PDF itself, or its text in reading order. */
export async function ocrOutput(ctx: ToolContext, searchable: ToolInput, format: 'pdf' | 'txt'): Promise<ToolOutput[]> {
  if (format === 'pdf') return [{ path: searchable.path, name: `${baseName(searchable.name)}-ocr.pdf` }];
  const txt = path.join(ctx.workDir, 'text.txt');
  await fs.writeFile(txt, await ocrText(searchable.path, ctx.limits));
  return [{ path: txt, name: `${baseName(searchable.name)}.txt` }];
}
