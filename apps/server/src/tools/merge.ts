// Merge: qpdf joins the pages (form fields, annotations and encrypted inputs as qpdf carries them),
// then what the inputs share is written once (ADR 0141): qpdf keeps a copy of each input's fonts
// and images, so fifty files with one font and one logo carried fifty of each.
import path from 'node:path';
import { writePages } from '../engines/qpdf.js';
import { tooManyPagesError } from '../texts/refusals.js';
import { writeSharedOnce } from '../engines/sharedObjects.js';
import { defineTool, outputName } from './tool.js';

export const merge = defineTool({
  id: 'merge',
  inputsOf: (p) => p.file_ids.map((fileId, i) => ({ fileId, password: p.passwds?.[i] || undefined })),
  // The merged document is held to the page limit its inputs were.
  check(_, pageCounts, maxPages) {
    if (pageCounts.reduce((sum, n) => sum + n, 0) > maxPages) throw tooManyPagesError(maxPages);
  },
  async run(ctx) {
    const joined = path.join(ctx.workDir, 'joined.pdf');
    const merged = path.join(ctx.workDir, 'merged.pdf');
    const sources = ctx.inputs.map((input) => ({ file: input.path, password: input.password, range: '1-z' }));
    const pages = ctx.inputs.reduce((sum, input) => sum + input.pages, 0);
    await writePages(sources, joined, ctx.limits, { pages, onProgress: ctx.progress });
    const copies = await writeSharedOnce(joined, merged);
    return [{ path: copies ? merged : joined, name: outputName(ctx.inputs[0]!.name, 'merged') }];
  },
});
