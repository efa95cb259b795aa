// Budgets on the work one task may ask for, checked when the task is made (and, where only the
// engine knows the inputs exactly, when it runs): a call that would hold a worker for many minutes
// is refused (3100) with what to change to get under them.
import { ErrorCode, PDF_IMAGE_DPI } from '@quire/contracts';
import type { Config } from '../config.js';
import { refusal, type Said } from '../texts/words.js';

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

const millions = (n: number) => Math.ceil(n / 1e6);

/**
 * Work is counted in megapixels rendered (pdftoppm writes about 29 a CPU second); a page of any
 * other tool counts as one, at least one a file (a document's pages are unknown before it runs).
 */
export const simpleWork = (inputs: readonly InputFacts[]): number => inputs.reduce((sum, input) => sum + Math.max(1, input.pages), 0);

/** Tesseract takes about two CPU seconds a page: sixty megapixels' worth. */
const OCR_PAGE_WORK = 60;

/** The work of recognising `pages` pages. */
const ocrWork = (pages: number): number => pages * OCR_PAGE_WORK;

/**
 * Refuses rendering pages of these sizes (points) at `dpi` when their pixels together exceed the
 * budget; else the work it is (megapixels).
 */
export function checkRenderBudget(pageSizes: { w: number; h: number }[], dpi: number, budget: WorkBudget): number {
  const pages = pageSizes.length;
  const total = pageSizes.reduce((sum, size) => sum + size.w * size.h, 0) * (dpi / 72) ** 2;
  if (total <= budget.maxRenderPixels) return millions(total);
  // Pixels grow with the square of the resolution.
  const fittingDpi = Math.floor(dpi * Math.sqrt(budget.maxRenderPixels / total));
  const fittingPages = Math.floor(budget.maxRenderPixels / (total / pages));
  const ways: Said[] = [];
  if (fittingDpi >= PDF_IMAGE_DPI.min) ways.push({ key: 'error.limit.lowerDpi', params: { dpi: fittingDpi, pages } });
  if (fittingPages >= 1) ways.push({ key: 'error.limit.fewerPages', params: { pages: fittingPages, dpi } });
  const limit: Said = {
    key: 'error.limit.renderPixels',
    params: { pages, dpi, total: millions(total), max: millions(budget.maxRenderPixels) },
  };
  const [first, second] = ways;
  if (!first) throw refusal(ErrorCode.InvalidParams, limit.key, limit.params);
  if (!second) throw refusal(ErrorCode.InvalidParams, 'error.limit.renderTry', { limit, way: first });
  throw refusal(ErrorCode.InvalidParams, 'error.limit.renderTryEither', { limit, first, second });
}

/** Refuses recognising more pages than the budget allows in one task; else the work it is. */
export function checkOcrBudget(pages: number, budget: WorkBudget): number {
  if (pages <= budget.maxOcrPages) return ocrWork(pages);
  throw refusal(ErrorCode.InvalidParams, 'error.limit.ocrPages', { max: budget.maxOcrPages, pages });
}
