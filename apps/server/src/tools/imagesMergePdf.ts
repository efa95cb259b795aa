// Images to PDF: several images, one PDF, in the order of file_ids, laid out on the chosen pages.
import path from 'node:path';
import { imagesToPdf } from '../engines/images.js';
import { imageTypes } from '../engines/fileTypes.js';
import { defineTool } from './tool.js';

export const imagesMergePdf = defineTool({
  id: 'images_merge_pdf',
  accepts: imageTypes,
  inputsOf: (p) => p.file_ids.map((fileId) => ({ fileId })),
  async run(ctx, p) {
    const out = path.join(ctx.workDir, 'images.pdf');
    await imagesToPdf(
      ctx.inputs.map((i) => i.path),
      p,
      out,
      ctx.workDir,
      ctx.limits,
      ctx.progress,
    );
    const first = ctx.inputs[0]!.name;
    return [{ path: out, name: `${path.basename(first, path.extname(first)) || 'images'}.pdf` }];
  },
});
