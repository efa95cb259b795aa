// The MuPDF child program (MuPDF.js, WebAssembly): engines/mupdf.ts bundles it and starts it
// through runEngine, so it runs under a time limit and a memory bound, and a crash cannot take the
// server down. It reads its job from the JSON file named on its command line, writes "progress N"
// lines as it goes, and ends with one JSON line: the answer (jobs.ts). Each operation is a module
// of its own; the bundle's entry (programs/mupdf.ts) hands them all to serveMupdfJob.
import fs from 'node:fs';
import * as mupdf from 'mupdf';
// Just this module: the package's index would bring its zod schemas into the worker's bundle.
import { ErrorCode, errorMessages } from '@quire/contracts/errors';
import { PROGRESS_PREFIX, type JobResults, type MupdfAnswer, type MupdfJob } from './jobs.js';
import { SearchTooSlow } from './searchBudget.js';
import { failureAnswer, JobFailure } from '../jobFailure.js';

const answer = (a: MupdfAnswer) => process.stdout.write(`${JSON.stringify(a)}\n`);

export function progress(done: number, total: number) {
  process.stdout.write(`${PROGRESS_PREFIX}${Math.round((done / Math.max(1, total)) * 100)}\n`);
}

/** The PDF at `file`, opened with `password` where it needs one. */
export function openPdf(file: string, password?: string): mupdf.PDFDocument {
  try {
    const doc = mupdf.Document.openDocument(fs.readFileSync(file), 'application/pdf').asPDF();
    if (!doc) throw new Error('not a PDF');
    if (doc.needsPassword() && !doc.authenticatePassword(password ?? '')) throw new Error('the password does not open it');
    return doc;
  } catch (e) {
    process.stderr.write(`open failed: ${(e as Error).message}\n`);
    throw new JobFailure(ErrorCode.Damaged, errorMessages[ErrorCode.Damaged]);
  }
}

/**
 * Garbage collection drops the objects an edit left unreferenced: removed text must not survive
 * as an orphan. Never encrypted: an /Encrypt that MuPDF finds in a damaged file must not return.
 */
export function save(doc: mupdf.PDFDocument, file: string) {
  fs.writeFileSync(file, doc.saveToBuffer('garbage,compress,encrypt=none').asUint8Array());
}

/** The function carrying out each operation. */
export type MupdfOps = {
  [Op in MupdfJob['op']]: (job: Extract<MupdfJob, { op: Op }>) => JobResults[Op] | Promise<JobResults[Op]>;
};

/** Runs the job named on the command line with its operation of `ops`, and writes the answer. */
export async function serveMupdfJob(ops: MupdfOps) {
  const job = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as MupdfJob;
  // MuPDF reports what it repairs on stderr; the server captures it for failures only.
  mupdf.setLog({ warning: (m) => process.stderr.write(`warning: ${m}\n`), error: (m) => process.stderr.write(`error: ${m}\n`) });
  try {
    const run = ops[job.op] as (job: MupdfJob) => JobResults[MupdfJob['op']] | Promise<JobResults[MupdfJob['op']]>;
    answer({ ok: true, result: await run(job) });
  } catch (e) {
    if (e instanceof JobFailure || e instanceof SearchTooSlow) answer(failureAnswer(e));
    else {
      process.stderr.write(`${(e as Error).stack ?? e}\n`);
      answer({ ok: false, code: ErrorCode.TaskFailed, msg: 'This PDF could not be processed.' });
    }
  }
}
