// OCR (the /app/OCR page and the image OCR calls): a scanned PDF, or images merged into one
// PDF first, becomes a searchable PDF that looks as it did (tools/steps/ocr.ts), or its text, or a
// Word or Excel document converted from it.
import path from 'node:path';
import { imageTypes } from '../engines/fileTypes.js';
import { checkOcrBudget } from './budget.js';
import { isOcrResult, ocrOutput, ocrStep } from './steps/ocr.js';
import { pdfToDocument } from './steps/pdfToDocument.js';
import { defineTool } from './tool.js';

const baseName = (name: string) => path.basename(name, path.extname(name)) || 'document';

export const ocr = defineTool({
  id: 'ocr',
  accepts: ['pdf', ...imageTypes],
  // The password, if any, is the PDF's (images have none).
  inputsOf: (p) => p.file_ids.map((fileId, i) => ({ fileId, password: i === 0 ? p.passwd : undefined })),
  usesOcr: () => true,
  // Images become one page each; a single input may be a PDF of many.
  work: (_p, inputs, budget) => checkOcrBudget(inputs.length > 1 ? inputs.length : inputs[0]!.pages, budget),
  // A conversion to Word or Excel has the last 30% of the progress.
  steps: (p) => [ocrStep(isOcrResult(p.output_format) ? 100 : 70, { languages: p.languages, force: p.force_ocr, deskew: p.deskew })],
  async run(ctx, p) {
    const searchable = ctx.inputs[0]!;
    if (isOcrResult(p.output_format)) return ocrOutput(ctx, searchable, p.output_format);
    return pdfToDocument(ctx, searchable, p.output_format, baseName(searchable.name));
  },
});
