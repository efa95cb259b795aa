// The limits of the kind of user a request is for (config.limits, within the server's ceiling),
// and the refusals that name them with the upgrade dialog the page opens.
import {
  ErrorCode,
  MB,
  QuireError,
  errorMessages,
  plan,
  sizeUpgradeDialog,
  ocrTooLargeMessage,
  type LimitRole,
  type ServerConfig,
} from '@quire/contracts';
import type { AppContext } from '../context.js';
import { tooManyPagesError } from '../texts/refusals.js';
import { refusal } from '../texts/words.js';
import type { Identity } from './accounts.js';

/** What one file may be. */
export interface FileLimits {
  role: LimitRole;
  maxFileBytes: number;
  maxPages: number;
}

/** Everything a request of one kind of user may ask, in bytes and counts. */
export interface Limits extends FileLimits {
  /** null: no limit. */
  maxFilesPerTask: number | null;
  ocr: { allowed: boolean; maxFileBytes: number; maxPages: number };
  /** The document cloud's capacity (an account's; visitors have no cloud). */
  cloudBytes: number;
}

/**
 * Anonymous without an account (a session's or an API key's); else the account's plan (a value no
 * plan has, written by hand in the database, counts as free).
 */
export function roleOf(identity: Identity): LimitRole {
  if (!identity.account) return 'anonymous';
  const parsed = plan.safeParse(identity.account.plan);
  return parsed.success ? parsed.data : 'free';
}

export function limitsOf(ctx: AppContext, identity: Identity): Limits {
  return limitsOfRole(ctx, roleOf(identity));
}

export function limitsOfRole(ctx: AppContext, role: LimitRole): Limits {
  const plan = ctx.config.limits[role];
  // QUIRE_MAX_FILE_MB and QUIRE_MAX_PAGES bound every plan: the engines' bounds were chosen for them.
  const bytes = (mb: number) => Math.min(mb * MB, ctx.config.maxFileBytes);
  const pages = (count: number) => Math.min(count, ctx.config.maxPages);
  return {
    role,
    maxFileBytes: bytes(plan.maxFileMb),
    maxPages: pages(plan.maxPages),
    maxFilesPerTask: plan.maxFilesPerTask,
    ocr: { allowed: plan.ocr.allowed, maxFileBytes: bytes(plan.ocr.maxFileMb), maxPages: pages(plan.ocr.maxPages) },
    cloudBytes: Math.floor(plan.cloudGb * 1024 * MB),
  };
}

/** The limits as the `config` call answers them, for the page to check files before uploading. */
export function limitsAnswer(limits: Limits): Pick<ServerConfig, 'plan' | 'max_file_size' | 'max_pages' | 'max_files_per_task' | 'ocr'> {
  return {
    plan: limits.role,
    max_file_size: limits.maxFileBytes,
    max_pages: limits.maxPages,
    max_files_per_task: limits.maxFilesPerTask,
    ocr: { allowed: limits.ocr.allowed, max_file_size: limits.ocr.maxFileBytes, max_pages: limits.ocr.maxPages },
  };
}

/** 4012 for a file over `maxBytes`, with the size dialog of the role. */
export function tooLargeError(role: LimitRole, maxBytes: number, message: string = errorMessages[ErrorCode.TooLarge]): QuireError {
  return new QuireError(ErrorCode.TooLarge, message, { upgrade: sizeUpgradeDialog(role), limit: maxBytes / MB });
}

/** Refuses a file over the size or page count of `limits` (pages unknown yet: 0). */
export function checkFile(limits: FileLimits, size: number, pages: number): void {
  if (size > limits.maxFileBytes) throw tooLargeError(limits.role, limits.maxFileBytes);
  if (pages > limits.maxPages) throw tooManyPagesError(limits.maxPages);
}

/**
 * Before a task is queued: its inputs within the plan (an upload made under a looser tool's
 * limits, or before the plan changed, is held to them again), at most the plan's files in one
 * task, and OCR only on a plan that has it, within OCR's own limits.
 */
export function checkTaskLimits(limits: Limits, inputs: readonly { size: number; pages: number }[], usesOcr: boolean): void {
  if (limits.maxFilesPerTask !== null && inputs.length > limits.maxFilesPerTask)
    throw refusal(
      ErrorCode.TooManyFiles,
      'error.limit.files',
      { max: limits.maxFilesPerTask },
      { upgrade: 'notBatchFuncFilesLimit', limit: limits.maxFilesPerTask },
    );
  if (usesOcr && !limits.ocr.allowed) throw new QuireError(ErrorCode.OcrNotInPlan, undefined, { upgrade: 'OCRLimit', limit: 0 });
  for (const input of inputs) {
    checkFile(limits, input.size, input.pages);
    if (!usesOcr) continue;
    if (input.size > limits.ocr.maxFileBytes)
      throw tooLargeError(limits.role, limits.ocr.maxFileBytes, ocrTooLargeMessage(limits.ocr.maxFileBytes / MB));
    if (input.pages > limits.ocr.maxPages) throw tooManyPagesError(limits.ocr.maxPages);
  }
}
