// Crop: a new CropBox (and TrimBox) inside each page's visible box.
import type * as mupdf from 'mupdf';
import { ErrorCode } from '@quire/contracts/errors';
import { cropBox, normalizeBox, normalizeRotation, pointsToMm, visibleBox } from '../pageBoxes.js';
import type { CropJob, JobResults } from './jobs.js';
import { JobFailure } from '../jobFailure.js';
import { openPdf, progress, save } from './program.js';

const numbers = (obj: mupdf.PDFObject): number[] | null => {
  if (!obj.isArray()) return null;
  const out: number[] = [];
  for (let i = 0; i < obj.length; i++) out.push(obj.get(i).asNumber());
  return out;
};

export function crop(job: CropJob): JobResults['crop'] {
  const doc = openPdf(job.input);
  const count = doc.countPages();
  const pages = job.pages === 'all' ? Array.from({ length: count }, (_, i) => i + 1) : job.pages;
  for (const [done, n] of pages.entries()) {
    const page = doc.findPage(n - 1);
    // A page without a usable MediaBox is shown as US Letter, as MuPDF and pdf.js do.
    const media = normalizeBox(numbers(page.getInheritable('MediaBox'))) ?? [0, 0, 612, 792];
    const box = visibleBox(media, normalizeBox(numbers(page.getInheritable('CropBox'))));
    const rotation = normalizeRotation(page.getInheritable('Rotate').asNumber() || 0);
    // Margins are physical lengths: a page with a /UserUnit larger than one point needs fewer units.
    const unit = page.get('UserUnit').asNumber() || 1;
    const m = job.margins;
    const next = cropBox(box, rotation, { top: m.top / unit, right: m.right / unit, bottom: m.bottom / unit, left: m.left / unit });
    if (!next) {
      const [w, h] = [box[2] - box[0], box[3] - box[1]].map((v) => pointsToMm(v * unit).toFixed(1));
      const [shownW, shownH] = rotation % 180 ? [h, w] : [w, h];
      throw new JobFailure(ErrorCode.InvalidParams, {
        key: 'error.crop.nothingLeft',
        params: { page: n, width: shownW!, height: shownH! },
      });
    }
    page.put('CropBox', next);
    page.put('TrimBox', next);
    progress(done + 1, pages.length);
  }
  save(doc, job.output);
  return { pages: pages.length };
}
