import path from 'node:path';
import { ErrorCode, QuireError, pageRangeMessages } from '@quire/contracts';
import { writePages } from '../engines/qpdf.js';
import { defineTool, outputName, singleInput } from './tool.js';

function checkOrder(order: number[], pageCount: number) {
  if (order.some((n) => n > pageCount)) throw new QuireError(ErrorCode.InvalidParams, pageRangeMessages.invalid);
}

export const rearrange = defineTool({
  id: 'rearrange',
  inputsOf: singleInput,
  check: (p, [pages]) => checkOrder(p.order, pages!),
  async run(ctx, p) {
    const input = ctx.inputs[0]!;
    checkOrder(p.order, input.pages);
    const out = path.join(ctx.workDir, 'rearranged.pdf');
    await writePages([{ file: input.path, password: input.password, range: p.order.join(',') }], out, ctx.limits, {
      pages: p.order.length,
      onProgress: ctx.progress,
    });
    return [{ path: out, name: outputName(input.name, 'rearranged') }];
  },
});
