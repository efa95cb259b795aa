import path from 'node:path';
import { ErrorCode, QuireError, tooManyPagesMessage } from '@quire/contracts';
import { writePages } from '../engines/qpdf.js';
import { defineTool, outputName } from './tool.js';

export const merge = defineTool({
  id: 'merge',
  inputsOf: (p) => p.file_ids.map((fileId, i) => ({ fileId, password: p.passwds?.[i] || undefined })),
  // The merged document is held to the page limit its inputs were.
  check(_, pageCounts, maxPages) {
    if (pageCounts.reduce((sum, n) => sum + n, 0) > maxPages) throw new QuireError(ErrorCode.TooManyPages, tooManyPagesMessage(maxPages));
  },
  async run(ctx) {
    const out = path.join(ctx.workDir, 'merged.pdf');
    const sources = ctx.inputs.map((input) => ({ file: input.path, password: input.password, range: '1-z' }));
    const pages = ctx.inputs.reduce((sum, input) => sum + input.pages, 0);
    await writePages(sources, out, ctx.limits, { pages, onProgress: ctx.progress });
    return [{ path: out, name: outputName(ctx.inputs[0]!.name, 'merged') }];
  },
});
