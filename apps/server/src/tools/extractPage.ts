import path from 'node:path';
import { writePages } from '../engines/qpdf.js';
import { defineTool, outputName, qpdfRange, rangesOrThrow, singleInput } from './tool.js';

export const extractPage = defineTool({
  id: 'extract_page',
  inputsOf: singleInput,
  check: (p, [pages]) => void rangesOrThrow(p.pages, pages!),
  async run(ctx, p) {
    const input = ctx.inputs[0]!;
    const out = path.join(ctx.workDir, 'extracted.pdf');
    const range = qpdfRange(rangesOrThrow(p.pages, input.pages));
    await writePages([{ file: input.path, password: input.password, range }], out, ctx.limits, {
      pages: input.pages,
      onProgress: ctx.progress,
    });
    return [{ path: out, name: outputName(input.name, 'extracted') }];
  },
});
