// The editor's reads (document/runs, document/objects, document/form-fields): answered as JSON, no file written.
import { ErrorCode } from '@quire/contracts/errors';
import type { InspectJob, JobResults } from './jobs.js';
import { fieldsAnswer, objectsAnswer, runsAnswer } from './pageObjects.js';
import { JobFailure } from '../jobFailure.js';
import { openPdf } from './program.js';

export function inspect(job: InspectJob): JobResults['inspect'] {
  const doc = openPdf(job.input);
  if (job.what === 'fields') return fieldsAnswer(doc);
  if (job.page > doc.countPages())
    throw new JobFailure(ErrorCode.EditPageMissing, { key: 'error.page.missing', params: { page: job.page } });
  const page = doc.loadPage(job.page - 1);
  return job.what === 'runs' ? runsAnswer(page, job.page) : objectsAnswer(page, job.page);
}
