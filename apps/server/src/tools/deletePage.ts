import path from 'node:path';
import { ErrorCode, QuireError, pagesOf } from '@quire/contracts';
import { writePages } from '../engines/qpdf.js';
import { defineTool, outputName, rangesOrThrow, singleInput } from './tool.js';

/** The pages that remain; deleting every page is refused. */
function keptPages(pages: string, pageCount: number): number[] {
  const removed = new Set(pagesOf(rangesOrThrow(pages, pageCount)));
  const kept = [];
  for (let n = 1; n <= pageCount; n++) if (!removed.has(n)) kept.push(n);
  if (kept.length === 0) throw new QuireError(ErrorCode.InvalidParams, 'You cannot delete all pages of the document.');
  return kept;
}

export const deletePage = defineTool({
  id: 'delete_page',
  inputsOf: singleInput,
  check: (p, [pages]) => void keptPages(p.pages, pages!),
  async run(ctx, p) {
    const input = ctx.inputs[0]!;
    const out = path.join(ctx.workDir, 'deleted.pdf');
    const kept = keptPages(p.pages, input.pages);
    await writePages([{ file: input.path, password: input.password, range: kept.join(',') }], out, ctx.limits, {
      pages: kept.length,
      onProgress: ctx.progress,
    });
    return [{ path: out, name: outputName(input.name, 'pages-deleted') }];
  },
});
