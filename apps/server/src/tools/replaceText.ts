// Replace text: every occurrence of the search text (case and all) becomes the replacement, in
// place. No match is not an error: the task succeeds, and its note says "0 replacements".
import { ErrorCode, QuireError } from '@quire/contracts';
import { editWithMupdf } from './steps/mupdfEdit.js';
import { defineTool, outputName, singleInput } from './tool.js';
import type { Said } from '../texts/words.js';

export const replaceText = defineTool({
  id: 'replacetext',
  inputsOf: singleInput,
  check(p) {
    if (!p.search.trim()) throw new QuireError(ErrorCode.InvalidParams, 'The text to find cannot be blank.');
  },
  async run(ctx, p) {
    const input = ctx.inputs[0]!;
    const { output, result } = await editWithMupdf(ctx, { op: 'replace', search: p.search, replace: p.replace });
    const font: Said | '' = result.fallbackFont ? { key: 'note.replace.font', params: { font: result.fallbackFont } } : '';
    const note: Said = { key: 'note.replace.count', params: { count: result.count, font } };
    return [{ path: output, name: outputName(input.name, 'replaced'), note }];
  },
});
