// Budgets on the work one task may ask for, checked when the task is made (and, where only the
// engine knows the inputs exactly, when it runs): a call that would hold a worker for many minutes
// is refused (3100) with what to change to get under them.
import { ErrorCode, PDF_IMAGE_DPI, QuireError } from '@quire/contracts';
import type { Config } from '../config.js';

/** What a task is made from, as the upload recorded it (page size: the first page's, in points). */
export interface InputFacts {
  pages: number;
  pageWidth: number;
  pageHeight: number;
}

export interface WorkBudget {
  /** Pixels one conversion of PDF pages to images may render in all. */
  maxRenderPixels: number;
  maxOcrPages: number;
}

export const workBudgetOf = (config: Pick<Config, 'maxRenderMegapixels' | 'maxOcrPages'>): WorkBudget => ({
  maxRenderPixels: config.maxRenderMegapixels * 1e6,
  maxOcrPages: config.maxOcrPages,
});

const millions = (n: number) => Math.ceil(n / 1e6).toLocaleString('en-US');

/** Refuses rendering pages of these sizes (points) at `dpi` when their pixels together exceed the budget. */
export function checkRenderBudget(pageSizes: { w: number; h: number }[], dpi: number, budget: WorkBudget): void {
  const pages = pageSizes.length;
  const total = pageSizes.reduce((sum, size) => sum + size.w * size.h, 0) * (dpi / 72) ** 2;
  if (total <= budget.maxRenderPixels) return;
  // Pixels grow with the square of the resolution.
  const fittingDpi = Math.floor(dpi * Math.sqrt(budget.maxRenderPixels / total));
  const fittingPages = Math.floor(budget.maxRenderPixels / (total / pages));
  const ways = [
    fittingDpi >= PDF_IMAGE_DPI.min ? `a lower resolution (${fittingDpi} dpi or less for all ${pages} pages)` : '',
    fittingPages >= 1 ? `fewer pages at a time (${fittingPages} or fewer at ${dpi} dpi)` : '',
  ].filter(Boolean);
  throw new QuireError(
    ErrorCode.InvalidParams,
    `${pages} pages at ${dpi} dpi would be about ${millions(total)} million pixels, more than the ${millions(budget.maxRenderPixels)} million one conversion may make.` +
      (ways.length ? ` Please choose ${ways.join(' or ')}.` : ''),
  );
}

/** Refuses recognising more pages than the budget allows in one task. */
export function checkOcrBudget(pages: number, budget: WorkBudget): void {
  if (pages <= budget.maxOcrPages) return;
  throw new QuireError(
    ErrorCode.InvalidParams,
    `OCR takes at most ${budget.maxOcrPages} pages at a time; this has ${pages}. Please split the document and recognise it in parts.`,
  );
}
