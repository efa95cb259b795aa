// Redact: marked areas and every hit of the searched texts are removed from the file (see
// engines/mupdf/redact.ts for what else goes with them), and black boxes show where.
import { ErrorCode, QuireError, patternError } from '@quire/contracts';
import { counted, editWithMupdf, refusePagesPast } from './steps/mupdfEdit.js';
import { defineTool, outputName, singleInput } from './tool.js';

export const redaction = defineTool({
  id: 'redaction',
  inputsOf: singleInput,
  check(p, [pages]) {
    refusePagesPast(p.areas, pages!, 'error.page.markPast');
    for (const t of p.texts) {
      const problem = t.regex ? patternError(t.text) : t.text.trim() ? null : 'The text to redact cannot be blank.';
      if (problem) throw new QuireError(ErrorCode.InvalidParams, problem);
    }
  },
  async run(ctx, p) {
    const input = ctx.inputs[0]!;
    const { output, result } = await editWithMupdf(ctx, { op: 'redact', areas: p.areas, texts: p.texts });
    const removed = [
      p.areas.length ? counted(result.areas, 'marked area', 'marked areas') : '',
      p.texts.length ? counted(result.textHits, 'text match', 'text matches') : '',
      result.annotations ? counted(result.annotations, 'annotation', 'annotations') : '',
      result.outlineTitles ? counted(result.outlineTitles, 'bookmark title', 'bookmark titles') : '',
    ].filter(Boolean);
    const note = `Removed ${removed.join(', ')} and the document's metadata.`;
    return [{ path: output, name: outputName(input.name, 'redacted'), note }];
  },
});
