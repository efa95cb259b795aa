// The PDF editor's save (document/content): the editor's operations written into the file by
// MuPDF (engines/mupdf/edit.ts): text into the content stream, annotations as PDF annotations,
// form values into the fields. Checked against the document's pages before the task is queued.
import { EDIT_LIMITS, ErrorCode, QuireError } from '@quire/contracts';
import { editFontFiles } from '../engines/fontFiles.js';
import { editWithMupdf } from './steps/mupdfEdit.js';
import { refusal } from '../texts/words.js';
import { defineTool, outputName, singleInput } from './tool.js';
import type { Said } from '../texts/words.js';

const decodedBytes = (base64: string) => Math.floor((base64.length * 3) / 4) - (base64.match(/=+$/)?.[0].length ?? 0);

export const edit = defineTool({
  id: 'edit',
  inputsOf: singleInput,
  // Each Save and Export of the editor is a task on the file the previous save made.
  sessions: true,
  check(p, [pages]) {
    const order = p.operations.find((o) => o.op === 'pages');
    const missing = (page: number, count: number) => refusal(ErrorCode.EditPageMissing, 'error.page.missingOf', { page, count });
    if (order?.op === 'pages') {
      const off = order.order.find((o) => o.from !== 'blank' && o.from > pages!);
      if (off) throw missing(off.from as number, pages!);
    }
    const after = order?.op === 'pages' ? order.order.length : pages!;
    for (const o of p.operations) if ('page' in o && o.page > after) throw missing(o.page, after);
    const imageBytes = p.operations.reduce(
      (sum, o) => sum + ('image' in o && o.image && o.op !== 'moveImage' && o.op !== 'deleteImage' ? decodedBytes(o.image) : 0),
      0,
    );
    if (imageBytes > EDIT_LIMITS.imagesTotalBytes)
      throw new QuireError(ErrorCode.EditTooMuch, 'The images added in one save may have 10 MB in all. Please save part of them first.');
    const points = p.operations.reduce(
      (sum, o) => sum + (o.op === 'annotate' ? (o.ink ?? []).reduce((n, stroke) => n + stroke.length, 0) + (o.quads?.length ?? 0) : 0),
      0,
    );
    if (points > EDIT_LIMITS.inkPoints)
      throw new QuireError(
        ErrorCode.EditTooMuch,
        `Drawings may have ${EDIT_LIMITS.inkPoints} points in one save. Please save part of them first.`,
      );
    const fields = p.operations.reduce((sum, o) => sum + (o.op === 'fillForm' ? Object.keys(o.fields).length : 0), 0);
    if (fields > EDIT_LIMITS.formFields)
      throw new QuireError(ErrorCode.EditTooMuch, `At most ${EDIT_LIMITS.formFields} form fields can be filled in one save.`);
  },
  async run(ctx, p) {
    const input = ctx.inputs[0]!;
    const { output, result } = await editWithMupdf(ctx, { op: 'edit', operations: p.operations, fonts: await editFontFiles() });
    const font: Said | '' = result.fallbackFonts.length
      ? { key: 'note.edit.fonts', params: { fonts: result.fallbackFonts.join(', ') } }
      : '';
    return [
      {
        path: output,
        name: outputName(input.name, 'edited'),
        note: { key: 'note.edit.saved', params: { count: p.operations.length, font } },
      },
    ];
  },
});
