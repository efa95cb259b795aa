// Extract images: every image the pages draw, at its own resolution and in the format it is stored
// in (engines/poppler.ts). A PDF with no images fails with 3100 "No images found in this PDF."
// rather than succeeding with nothing to download.
import path from 'node:path';
import fs from 'node:fs/promises';
import { ErrorCode, QuireError } from '@quire/contracts';
import { extractImages as pdfImages } from '../engines/poppler.js';
import { defineTool, outputName, readableInput, singleInput } from './tool.js';

export const noImagesMessage = 'No images found in this PDF.';

export const extractImages = defineTool({
  id: 'extract_images',
  inputsOf: singleInput,
  async run(ctx) {
    const input = ctx.inputs[0]!;
    const source = await readableInput(ctx, input);
    ctx.progress(10);
    const outDir = path.join(ctx.workDir, 'images');
    await fs.mkdir(outDir);
    const files = await pdfImages(source, input.pages, outDir, ctx.limits);
    if (files.length === 0) throw new QuireError(ErrorCode.InvalidParams, noImagesMessage);
    ctx.progress(100);
    return files.map((file, i) => ({ path: file, name: outputName(input.name, String(i + 1), path.extname(file)) }));
  },
});
