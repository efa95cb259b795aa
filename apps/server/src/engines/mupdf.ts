// MuPDF (crop boxes, redaction, text replacement, compress's in-place rewrite) runs in a child
// process of its own through runEngine: a time limit, and a memory bound on its data segment, since
// WebAssembly reserves gigabytes of address space up front and an address-space bound would stop it
// from starting. The in-place rewrite re-encodes images with sharp in the same child.
import fs from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, QuireError } from '@quire/contracts';
import { boundFor, EngineTimeout, runEngine } from './run.js';
import type { EngineLimits } from './qpdf.js';
import { PROGRESS_PREFIX, type JobResults, type MupdfAnswer, type MupdfJob } from './mupdf/jobs.js';
import { bundledWorker } from './workerBundle.js';
import { answeredError } from '../texts/words.js';

// The program's entry sits above engines/: it also packs the conversions' readers and writers (convert/).
const workerFile = bundledWorker(path.join(import.meta.dirname, '../programs/mupdf.ts'), ['mupdf', 'sharp']);

/** Runs `job` on a document of `pages` pages, its JSON in a file of `workDir`; leaves no output behind when it fails. */
export async function runMupdf<J extends MupdfJob>(
  job: J,
  pages: number,
  workDir: string,
  limits: EngineLimits,
  onProgress?: (percent: number) => void,
): Promise<JobResults[J['op']]> {
  const jobFile = path.join(workDir, `mupdf-${job.op}.json`);
  // A job may carry the input's password: the file is this process's alone.
  await fs.writeFile(jobFile, JSON.stringify(job), { mode: 0o600 });
  const onLine = (line: string) => {
    if (line.startsWith(PROGRESS_PREFIX)) onProgress?.(Number(line.slice(PROGRESS_PREFIX.length)));
  };
  let answer: MupdfAnswer<J['op']> | null = null;
  let stderr = '';
  try {
    const res = await runEngine(process.execPath, [await workerFile(), jobFile], {
      ...boundFor('document', limits, pages),
      memoryBound: 'data',
      onLine,
    });
    stderr = res.stderr;
    const last = res.stdout.trimEnd().split('\n').at(-1) ?? '';
    if (last.startsWith('{')) answer = JSON.parse(last) as MupdfAnswer<J['op']>;
  } catch (e) {
    await fs.rm(job.output, { force: true });
    if (e instanceof EngineTimeout) throw new QuireError(ErrorCode.TaskFailed, 'Processing took too long and was stopped.');
    throw e;
  } finally {
    await fs.rm(jobFile, { force: true });
  }
  if (answer?.ok) return answer.result;
  await fs.rm(job.output, { force: true });
  if (answer) {
    if (answer.code === ErrorCode.TaskFailed) console.warn(`mupdf ${job.op} failed: ${answer.msg}\n${stderr.slice(-2000)}`);
    throw answeredError(answer);
  }
  // No answer at all: the worker was ended, most likely by its memory bound.
  console.warn(`mupdf ${job.op} ended without an answer:\n${stderr.slice(-2000)}`);
  throw new QuireError(ErrorCode.TaskFailed, 'Processing stopped before it finished: the file may need more memory than allowed.');
}
