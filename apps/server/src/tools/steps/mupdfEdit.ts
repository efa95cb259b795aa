// The common run of the tools that edit a PDF with MuPDF (crop, redaction, replace text).
import path from 'node:path';
import { ErrorCode } from '@quire/contracts';
import { runMupdf } from '../../engines/mupdf.js';
import { appendableInput } from '../../engines/qpdf.js';
import type { JobResults, MupdfJob } from '../../engines/mupdf/jobs.js';
import { readableInput, type ToolContext } from '../tool.js';
import { refusal } from '../../texts/words.js';

/** A job without its files: the tool says what to do, this module says on which files. */
type JobSpec<J = MupdfJob> = J extends MupdfJob ? Omit<J, 'input' | 'output'> : never;

/**
 * Runs a MuPDF job on the tool's one input; returns the output's path and the job's result.
 * MuPDF reads an unencrypted file whose pages qpdf has counted (a copy where needed), so it sees
 * the same pages every other tool does and never needs the password. A job that `appends` an
 * incremental update (signing) reads a sound encrypted input as it is, with its password, so
 * that its output keeps the encryption.
 */
export async function editWithMupdf<S extends JobSpec>(
  ctx: ToolContext,
  spec: S,
  { appends = false } = {},
): Promise<{ output: string; result: JobResults[S['op']] }> {
  const input = ctx.inputs[0]!;
  const output = path.join(ctx.workDir, 'output.pdf');
  const source = { file: input.path, password: input.password };
  const readable = appends
    ? await appendableInput(source, input.pages, path.join(ctx.workDir, 'input.pdf'), ctx.limits)
    : { file: await readableInput(ctx, input), encrypted: false, password: undefined };
  ctx.progress(10);
  const job = { ...spec, input: readable.file, ...(readable.encrypted && { password: readable.password ?? '' }), output } as MupdfJob;
  const result = await runMupdf(job, input.pages, ctx.workDir, ctx.limits, (p) => ctx.progress(10 + p * 0.9));
  return { output, result: result as JobResults[S['op']] };
}

/** Refuses (3100) marks of a page past the document's last: "A marked area is on page 5, but the document has 3 pages." */
export function refusePagesPast(
  marks: readonly { page: number }[],
  pages: number,
  what: 'error.page.markPast' | 'error.page.signaturePast',
) {
  const off = marks.find((m) => m.page > pages);
  if (off) throw refusal(ErrorCode.InvalidParams, what, { page: off.page, count: pages });
}
