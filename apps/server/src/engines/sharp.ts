// The image tools' engine (sharp-worker.ts) started through runEngine: a time limit, and a memory
// bound on the data segment (MuPDF's WebAssembly, which decodes BMP there, reserves gigabytes of
// address space up front; libvips' allocations count against the data segment all the same).
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, IMAGE_MAX_PIXELS, MAX_SIGNATURE_SIDE_PX, QuireError, signMessages } from '@quire/contracts';
import { outOfMemoryMessage, type ImageAnswer, type ImageCheckJob, type ImageJob, type SignatureImageJob } from './imageJobs.js';
import type { EngineLimits } from './qpdf.js';
import { boundFor, EngineTimeout, runEngine, tookTooLong } from './run.js';
import { bundledWorker } from './workerBundle.js';
import { answeredError } from '../texts/words.js';

const workerFile = bundledWorker(path.join(import.meta.dirname, 'sharp-worker.ts'), ['sharp', 'mupdf']);

/** Runs `job` (its JSON in a file of `workDir`): the output is written, or the catalogue error thrown. */
export async function runImageJob(job: ImageJob | ImageCheckJob | SignatureImageJob, workDir: string, limits: EngineLimits): Promise<void> {
  const output = 'output' in job ? job.output : undefined;
  const jobFile = path.join(workDir, `image-job-${crypto.randomUUID()}.json`);
  await fs.writeFile(jobFile, JSON.stringify(job));
  let answer: ImageAnswer | null = null;
  let stderr = '';
  try {
    const res = await runEngine(process.execPath, [await workerFile(), jobFile], { ...boundFor('image', limits), memoryBound: 'data' });
    stderr = res.stderr;
    const last = res.stdout.trimEnd().split('\n').at(-1) ?? '';
    if (last.startsWith('{')) answer = JSON.parse(last) as ImageAnswer;
  } catch (e) {
    if (output) await fs.rm(output, { force: true });
    if (e instanceof EngineTimeout) throw tookTooLong();
    throw e;
  } finally {
    await fs.rm(jobFile, { force: true });
  }
  if (answer?.ok) return;
  if (output) await fs.rm(output, { force: true });
  if (answer) throw answeredError(answer);
  // No answer at all: the worker was ended, most likely by its memory bound.
  console.warn(`image job ended without an answer:\n${stderr.slice(-2000)}`);
  throw new QuireError(ErrorCode.TaskFailed, outOfMemoryMessage);
}

/** Proves an image decodes (a small thumbnail, nothing kept): 3105 when it does not. */
export function checkImageDecodes(input: string, inputFormat: ImageJob['inputFormat'], workDir: string, limits: EngineLimits) {
  return runImageJob({ input, inputFormat, maxPixels: IMAGE_MAX_PIXELS, check: true }, workDir, limits);
}

/** A signature image (PNG or SVG bytes in `input`) as a PNG in `output`; 4212 for anything else or past the size bound. */
export function signaturePng(input: string, output: string, workDir: string, limits: EngineLimits) {
  return runImageJob(
    {
      signature: true,
      input,
      output,
      maxSide: MAX_SIGNATURE_SIDE_PX,
      tooLargeMessage: signMessages.imageTooLarge,
      notAnImageMessage: signMessages.notAnImage,
    },
    workDir,
    limits,
  );
}
