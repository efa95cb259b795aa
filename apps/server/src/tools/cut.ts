// Crop: margins in millimetres off each side as the page is shown, on all pages or a range.
import { ErrorCode, QuireError, pagesOf, parseCropRanges } from '@quire/contracts';
import { mmToPoints } from '../engines/pageBoxes.js';
import { editWithMupdf } from './steps/mupdfEdit.js';
import { defineTool, outputName, singleInput } from './tool.js';

function targetPages(pages: string, pageCount: number): number[] | 'all' {
  if (pages === 'all') return 'all';
  const parsed = parseCropRanges(pages, pageCount);
  if (!parsed.ok) throw new QuireError(ErrorCode.InvalidParams, parsed.message);
  return pagesOf(parsed.ranges);
}

export const cut = defineTool({
  id: 'cut',
  inputsOf: singleInput,
  check: (p, [pages]) => void targetPages(p.pages, pages!),
  async run(ctx, p) {
    const input = ctx.inputs[0]!;
    const m = p.margins;
    const { output } = await editWithMupdf(ctx, {
      op: 'crop',
      pages: targetPages(p.pages, input.pages),
      margins: { top: mmToPoints(m.top), right: mmToPoints(m.right), bottom: mmToPoints(m.bottom), left: mmToPoints(m.left) },
    });
    return [{ path: output, name: outputName(input.name, 'cropped') }];
  },
});
