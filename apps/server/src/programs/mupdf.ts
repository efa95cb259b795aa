// The MuPDF child program's entry, the file engines/mupdf.ts bundles: the page edits of
// engines/mupdf/ together with the conversions' page readers and writers (convert/), which run in
// the same child under its limits. It stands above both, so the engine never imports convert/.
import fs from 'node:fs';
import { extractModel } from '../convert/extract.js';
import { pageGeometry } from '../convert/pageGeometry.js';
import { keepPopplerText } from '../convert/popplerCheck.js';
import { writeDocument } from '../convert/writeDocument.js';
import { crop } from '../engines/mupdf/crop.js';
import { edit } from '../engines/mupdf/edit.js';
import { inspect } from '../engines/mupdf/inspect.js';
import { optimize } from '../engines/mupdf/optimize.js';
import { parsePageLayout } from '../engines/popplerLayout.js';
import { JobFailure } from '../engines/jobFailure.js';
import { openPdf, progress, serveMupdfJob } from '../engines/mupdf/program.js';
import { redact } from '../engines/mupdf/redact.js';
import { replace } from '../engines/mupdf/replace.js';
import { sign } from '../engines/mupdf/sign.js';
import { replaceLines, textLines } from '../engines/mupdf/translate.js';

void serveMupdfJob({
  crop,
  redact,
  replace,
  textLines,
  replaceLines,
  optimize,
  edit,
  inspect,
  sign,
  geometry: (job) => pageGeometry(job, openPdf(job.input), progress, (code, msg) => new JobFailure(code, msg)),
  async extract(job) {
    const doc = openPdf(job.input);
    const popplerPages = job.popplerLayout ? parsePageLayout(fs.readFileSync(job.popplerLayout, 'utf8')).pages : [];
    const { model, textFlowPages } = keepPopplerText(extractModel(doc, job.imagesDir, progress), popplerPages);
    await writeDocument(model, job.format, job.title, job.output);
    return { pages: doc.countPages(), textFlowPages };
  },
});
