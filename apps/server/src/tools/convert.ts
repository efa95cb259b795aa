// Files to PDF (the converter call): office documents through the LibreOffice listeners, EPUB
// through MuPDF, an image as images to PDF lays it out. Text and HTML get their encoding settled first.
// The same call with an image output_format renders each page of a PDF (engines/poppler.ts).
import fs from 'node:fs/promises';
import { createReadStream, createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import os from 'node:os';
import path from 'node:path';
import {
  DEFAULT_OCR_LANGUAGE,
  defaultImageLayout,
  ErrorCode,
  isPdfDocumentFormat,
  isPdfImageFormat,
  PDF_IMAGE_DPI,
  QuireError,
  type PdfImageFormat,
  type ToolParams,
} from '@quire/contracts';
import { pdfToDocument } from './steps/pdfToDocument.js';
import { pdfToDxf, pdfToPptx } from './steps/readGeometry.js';
import { imagesToPdf } from '../engines/images.js';
import { epubToPdf } from '../engines/mutool.js';
import { checkRenderSize, pageSizes, renderEachPage } from '../engines/poppler.js';
import type { OfficeJob } from '../engines/office.js';
import { detectEncoding, transcodeToUtf8 } from '../engines/textEncoding.js';
import { isRtf, withSoundNesting } from '../engines/rtfNesting.js';
import { detectFileType, extensionOf, imageTypes } from '../engines/fileTypes.js';
import { isOcrResult, ocrOutput, ocrStep } from './steps/ocr.js';
import { checkOcrBudget, checkRenderBudget, simpleWork } from './budget.js';
import { defineTool, outputName, singleInput, type ToolContext, type ToolInput, type ToolOutput, readableInput, zipName } from './tool.js';

/** The document as LibreOffice is to read it: a copy in the job's folder under its own extension. */
async function officeJob(ctx: ToolContext, input: ToolInput, type: 'office' | 'text' | 'html', out: string): Promise<OfficeJob> {
  const copy = path.join(ctx.workDir, `input.${extensionOf(input.name) || 'bin'}`);
  const job = { input: copy, output: out, ...(input.password && { password: input.password }) };
  if (type === 'office') {
    if (await isRtf(input.path)) await withSoundNesting(input.path, copy);
    else await fs.copyFile(input.path, copy);
    return job;
  }
  const encoding = await detectEncoding(input.path);
  if (type === 'text') {
    if (encoding.name === 'UTF-8') await fs.copyFile(input.path, copy);
    else await transcodeToUtf8(input.path, encoding, copy, ctx.limits);
    return { ...job, importFilter: 'Text (encoded)', filterOptions: 'UTF8' };
  }
  // HTML names its encoding in a meta tag LibreOffice reads, but that cannot be read from UTF-16
  // without a byte-order mark: such a file gets its mark.
  const bom = encoding.bom ? null : { 'UTF-16LE': [0xff, 0xfe], 'UTF-16BE': [0xfe, 0xff] }[encoding.name];
  // Copied, never read whole: the server's memory stays flat whatever the file's size.
  await fs.writeFile(copy, Buffer.from(bom ?? []));
  await pipeline(createReadStream(input.path), createWriteStream(copy, { flags: 'a' }));
  return { ...job, importFilter: 'HTML (StarWriter)' };
}

const baseName = (name: string) => path.basename(name, path.extname(name)) || 'document';

/**
 * One image per page of a PDF (its crop box) at `dpi`, as many pages rendering at once as the
 * machine has cores (ADR 0121); a page too large to render at it fails the task with 3100.
 */
async function pdfToImages(ctx: ToolContext, input: ToolInput, format: PdfImageFormat, dpi: number): Promise<ToolOutput[]> {
  const sizes = await pageSizes(input.path, input.pages, ctx.limits).catch(() => []);
  for (let page = 1; page <= input.pages; page++) checkRenderSize(page, sizes[page - 1], dpi);
  if (ctx.budget) checkRenderBudget(sizes.filter(Boolean), dpi, ctx.budget);
  const source = await readableInput(ctx, input);
  ctx.progress(5);
  const render = { format, dpi, lanes: os.availableParallelism() };
  const onProgress = (fraction: number) => ctx.progress(5 + Math.round(fraction * 95));
  const images = await renderEachPage(source, sizes, input.pages, render, ctx.workDir, ctx.limits, onProgress);
  return images.map((file, i) => ({
    path: file,
    name: input.pages === 1 ? `${baseName(input.name)}.${format}` : outputName(input.name, String(i + 1), `.${format}`),
  }));
}

/** The download's name, as run() names its outputs: several (a page image each) are offered as a zip. */
function convertedName(p: ToolParams<'convert'>, input: { name: string; pages: number }): string {
  const base = baseName(input.name);
  if (p.using_ocr && p.output_format === 'pdf') return `${base}-ocr.pdf`;
  if (isPdfImageFormat(p.output_format) && input.pages > 1) return zipName(input.name);
  return `${base}.${p.output_format}`;
}

export const convert = defineTool({
  id: 'convert',
  // Documents and images become PDFs; a PDF becomes images (jpg, png, bmp, tiff, gif).
  // With using_ocr, a scanned PDF or an image is recognised first, whatever the output.
  accepts: (p) =>
    p.using_ocr ? ['pdf', ...imageTypes] : p.output_format === 'pdf' ? ['office', 'text', 'html', 'epub', ...imageTypes] : ['pdf'],
  inputsOf: singleInput,
  usesOcr: (p) => p.using_ocr === true,
  downloadName: (p, [input]) => convertedName(p, input!),
  work(p, [input], budget) {
    const recognising = p.using_ocr ? checkOcrBudget(input!.pages, budget) : 0;
    if (!isPdfImageFormat(p.output_format)) return recognising + simpleWork([input!]);
    const dpi = p.dpi ?? PDF_IMAGE_DPI.default;
    // Only the first page's size is known before the task runs: it stands for all of them.
    const firstPage = { w: input!.pageWidth, h: input!.pageHeight };
    checkRenderSize(1, firstPage, dpi);
    return (
      recognising +
      checkRenderBudget(
        Array.from({ length: input!.pages }, () => firstPage),
        dpi,
        budget,
      )
    );
  },
  // OCR first makes the searchable PDF the rest converts, in 70% of the progress; with a PDF or
  // text output, it is the whole task.
  steps: (p) =>
    p.using_ocr
      ? [ocrStep(isOcrResult(p.output_format) ? 100 : 70, { languages: p.languages ?? DEFAULT_OCR_LANGUAGE, force: !!p.force_ocr })]
      : [],
  async run(ctx, p) {
    const input = ctx.inputs[0]!;
    if (p.using_ocr && isOcrResult(p.output_format)) return ocrOutput(ctx, input, p.output_format);
    if (p.output_format === 'pptx') return pdfToPptx(ctx, input, `${baseName(input.name)}.pptx`);
    if (p.output_format === 'dxf') return pdfToDxf(ctx, input, `${baseName(input.name)}.dxf`);
    if (isPdfDocumentFormat(p.output_format)) return pdfToDocument(ctx, input, p.output_format, baseName(input.name));
    if (p.output_format !== 'pdf') return pdfToImages(ctx, input, p.output_format, p.dpi ?? PDF_IMAGE_DPI.default);
    const type = await detectFileType(input.path, input.name);
    const out = path.join(ctx.workDir, 'converted.pdf');
    ctx.progress(5);
    if (type === 'office' || type === 'text' || type === 'html') {
      if (!ctx.office) throw new Error('convert needs the LibreOffice listeners in its context');
      await ctx.office.convert(await officeJob(ctx, input, type, out), ctx.limits);
    } else if (type === 'epub') {
      await epubToPdf(input.path, out, ctx.limits);
    } else if (type && imageTypes.includes(type)) {
      await imagesToPdf([input.path], defaultImageLayout, out, ctx.workDir, ctx.limits, ctx.progress);
    } else {
      throw new QuireError(ErrorCode.UnsupportedType);
    }
    return [{ path: out, name: `${baseName(input.name)}.pdf` }];
  },
});
