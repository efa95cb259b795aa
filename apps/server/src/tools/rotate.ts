import path from 'node:path';
import { declaredPageCount, rotatePages, writePages } from '../engines/qpdf.js';
import { defineTool, outputName, qpdfRange, rangesOrThrow, singleInput } from './tool.js';

const targetPages = (pages: string, pageCount: number) => (pages === 'all' ? '1-z' : qpdfRange(rangesOrThrow(pages, pageCount)));

export const rotate = defineTool({
  id: 'rotate',
  inputsOf: singleInput,
  check: (p, [pages]) => void targetPages(p.pages, pages!),
  async run(ctx, p) {
    const input = ctx.inputs[0]!;
    const out = path.join(ctx.workDir, 'rotated.pdf');
    const rotation = `+${p.angle}:${targetPages(p.pages, input.pages)}`;
    // An in-place rewrite keeps a damaged page tree as it is, so a file whose /Count disagrees with
    // its pages would come out still wrong (unreadable to poppler): its pages go into a new document.
    if ((await declaredPageCount(input.path, input.password, ctx.limits)) === input.pages) {
      await rotatePages({ file: input.path, password: input.password }, input.pages, rotation, out, ctx.limits, ctx.progress);
    } else {
      await writePages([{ file: input.path, password: input.password, range: '1-z' }], out, ctx.limits, {
        rotate: rotation,
        pages: input.pages,
        onProgress: ctx.progress,
      });
    }
    return [{ path: out, name: outputName(input.name, 'rotated') }];
  },
});
