// Merge: qpdf joins the pages (form fields, annotations and encrypted inputs as qpdf carries them),
// then the MuPDF program writes once what the inputs share (ADR 0140): qpdf keeps a copy of each
// input's fonts and images, so fifty files with one font and one logo carried fifty of each.
import path from 'node:path';
import { QuireError, tooManyPagesError } from '@quire/contracts';
import { runMupdf } from '../engines/mupdf.js';
import { readsClean, writePages } from '../engines/qpdf.js';
import { defineTool, outputName, type ToolContext } from './tool.js';

/** The share of the progress qpdf's join reports in; merging the copies takes the rest. */
const JOIN_SHARE = 40;

/**
 * `joined` with its identical objects written once, or `joined` itself when it has none, when the
 * MuPDF program could not read it within its bounds, or when qpdf does not read MuPDF's file as
 * cleanly as its own: the merge is whole either way.
 */
async function withCopiesMerged(ctx: ToolContext, joined: string, pages: number): Promise<string> {
  const output = path.join(ctx.workDir, 'merged.pdf');
  const onProgress = (p: number) => ctx.progress(JOIN_SHARE + Math.round((p * (100 - JOIN_SHARE)) / 100));
  try {
    const found = await runMupdf({ op: 'deduplicate', input: joined, output }, pages, ctx.workDir, ctx.limits, onProgress);
    return found.copies && (await readsClean(output, pages, ctx.limits)) ? output : joined;
  } catch (e) {
    if (ctx.limits.signal?.aborted || !(e instanceof QuireError)) throw e;
    return joined;
  }
}

export const merge = defineTool({
  id: 'merge',
  inputsOf: (p) => p.file_ids.map((fileId, i) => ({ fileId, password: p.passwds?.[i] || undefined })),
  // The merged document is held to the page limit its inputs were.
  check(_, pageCounts, maxPages) {
    if (pageCounts.reduce((sum, n) => sum + n, 0) > maxPages) throw tooManyPagesError(maxPages);
  },
  async run(ctx) {
    const joined = path.join(ctx.workDir, 'joined.pdf');
    const sources = ctx.inputs.map((input) => ({ file: input.path, password: input.password, range: '1-z' }));
    const pages = ctx.inputs.reduce((sum, input) => sum + input.pages, 0);
    await writePages(sources, joined, ctx.limits, { pages, onProgress: (p) => ctx.progress(Math.round((p * JOIN_SHARE) / 100)) });
    return [{ path: await withCopiesMerged(ctx, joined, pages), name: outputName(ctx.inputs[0]!.name, 'merged') }];
  },
});
