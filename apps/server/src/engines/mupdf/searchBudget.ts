// Text search inside the MuPDF worker under a time budget: a user's regular expression that
// backtracks catastrophically ("(a+)+$" on a long run of a's) would otherwise hold a core for
// minutes. Each worker process runs one job, so the budget is the job's.
import vm from 'node:vm';
import { ErrorCode } from '@quire/contracts/errors';
import { findHits as unboundedFindHits, type Hit } from '@quire/contracts/textSearch';

/** All the matching of one job together; real patterns need milliseconds. */
export const SEARCH_BUDGET_MS = 10_000;

export class SearchTooSlow extends Error {
  readonly code = ErrorCode.InvalidParams;
  constructor() {
    super('The search pattern takes too long to match. Please make it simpler.');
  }
}

let budgetLeftMs = SEARCH_BUDGET_MS;
// V8 stops a script at its vm timeout even inside a regular expression's backtracking.
const context = vm.createContext({ unboundedFindHits, text: '', pattern: /$/ });
const search = new vm.Script('unboundedFindHits(text, pattern)');

/** findHits (contracts' textSearch), throwing SearchTooSlow once the job's budget is spent. */
export function findHits(text: string, pattern: RegExp): Hit[] {
  Object.assign(context, { text, pattern });
  const started = performance.now();
  try {
    return search.runInContext(context, { timeout: Math.max(1, Math.ceil(budgetLeftMs)) }) as Hit[];
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new SearchTooSlow();
    throw e;
  } finally {
    budgetLeftMs -= performance.now() - started;
  }
}
