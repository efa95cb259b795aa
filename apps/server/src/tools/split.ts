import path from 'node:path';
import { writePages } from '../engines/qpdf.js';
import type { PageRange } from '@quire/contracts';
import { defineTool, outputName, qpdfRange, rangesOrThrow } from './tool.js';

/** Custom mode: one PDF per range given; fixed mode: one PDF per `every` pages. */
function plan(p: { mode: 'custom' | 'fixed'; ranges?: string; every?: number }, pages: number): PageRange[] {
  if (p.mode === 'custom') return rangesOrThrow(p.ranges!, pages);
  const chunks: PageRange[] = [];
  for (let from = 1; from <= pages; from += p.every!) chunks.push({ from, to: Math.min(pages, from + p.every! - 1) });
  return chunks;
}

export const split = defineTool({
  id: 'split',
  inputsOf: (p) => [{ fileId: p.file_id, password: p.passwd }],
  check: (p, [pages]) => void plan(p, pages!),
  async run(ctx, p) {
    const input = ctx.inputs[0]!;
    const parts = plan(p, input.pages);
    const outputs = [];
    for (const [i, part] of parts.entries()) {
      const label = part.from === part.to ? `${part.from}` : `${part.from}-${part.to}`;
      const out = path.join(ctx.workDir, `part-${i + 1}.pdf`);
      await writePages([{ file: input.path, password: input.password, range: qpdfRange([part]) }], out, ctx.limits, {
        pages: part.to - part.from + 1,
      });
      outputs.push({ path: out, name: outputName(input.name, label) });
      ctx.progress(Math.round(((i + 1) / parts.length) * 100));
    }
    return outputs;
  },
});
