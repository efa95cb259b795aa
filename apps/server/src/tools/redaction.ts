// Redact: marked areas and every hit of the searched texts are removed from the file (see
// engines/mupdf/redact.ts for what else goes with them), and black boxes show where.
import { ErrorCode, QuireError, patternError } from '@quire/contracts';
import { editWithMupdf, refusePagesPast } from './steps/mupdfEdit.js';
import { defineTool, outputName, singleInput } from './tool.js';
import type { Said } from '../texts/words.js';

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
    const removed: Said[] = [];
    if (p.areas.length) removed.push({ key: 'note.redact.areas', params: { count: result.areas } });
    if (p.texts.length) removed.push({ key: 'note.redact.textHits', params: { count: result.textHits } });
    if (result.annotations) removed.push({ key: 'note.redact.annotations', params: { count: result.annotations } });
    if (result.outlineTitles) removed.push({ key: 'note.redact.outlineTitles', params: { count: result.outlineTitles } });
    const note: Said = { key: 'note.redact.removed', params: { list: removed } };
    return [{ path: output, name: outputName(input.name, 'redacted'), note }];
  },
});
