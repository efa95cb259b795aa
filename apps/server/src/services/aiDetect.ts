// The AI detector's requests: text pasted, or the text of an uploaded PDF, Word or text file,
// checked by the language model the operator set for the detector (modelDetection.ts), else by
// the classic provider's statistical detector, and charged in characters to the account's
// detector quota (aiQuota.ts) whichever checks it.
import { AI_CONSTANTS, ErrorCode, QuireError, type DetectResult } from '@quire/contracts';
import type { AppContext } from '../context.js';
import type { FileTable } from '../db/schema.js';
import { detect } from '../classic/detector/detector.js';
import { accountOwner } from './accounts.js';
import { chargeDetectorChars, detectorCharCheck, refundDetectorChars, type AiAccount } from './aiQuota.js';
import { documentText } from './documentText.js';
import { discardFile, ownedFile } from './files.js';
import { tooLargeError } from './limits.js';
import { modelDetection } from './modelDetection.js';

const MB = 1024 * 1024;
/** Bytes of UTF-8 a character takes at most: a text file larger than this many per character allowed holds too many. */
const MAX_UTF8_BYTES_PER_CHAR = 4;

/** Characters as a reader counts them (code points), leading and trailing white space left out. */
const charCount = (text: string) => Array.from(text.trim()).length;

/** The scores and how they were had: the detector's model where the operator set one that can score text, else statistics. */
type Scored = Omit<DetectResult, 'total' | 'remain' | 'per_chars'>;

async function scoresOf(ctx: AppContext, text: string, signal: AbortSignal): Promise<Scored> {
  const model = ctx.modelFor('detect');
  if (!model) return { ...detect(text), method: 'statistical' };
  const read = await model.score(text, signal);
  if (read.scored) return { ...modelDetection(text, read.tokens), method: 'model' };
  console.warn(`AI detector: the ${model.name} model cannot score text, the statistical detector answers: ${read.why}`);
  return { ...detect(text), method: 'statistical', fallback: 'model-cannot-score' };
}

/**
 * Checks `text` (11005 under 250 characters, 11010 over the plan's single-request limit), charges
 * its characters (11009 when more than are left) and scores it; the characters come back when the
 * model fails (11020) or the client goes (`signal`). The statistical detector's time and memory
 * grow with the text, which the single-request limit bounds (50,000 characters: 0.12 to 0.24 s); a
 * model's take the engine's time limit.
 */
export async function detectText(ctx: AppContext, account: AiAccount, text: string, signal: AbortSignal): Promise<DetectResult> {
  const count = charCount(text);
  if (count < AI_CONSTANTS.minTextChars) throw new QuireError(ErrorCode.TextTooShort);
  if (count > account.limits.detectorMaxRequestChars)
    throw new QuireError(ErrorCode.DetectorRequestLimit, undefined, {
      upgrade: 'detectorLimit',
      limit: account.limits.detectorMaxRequestChars,
    });
  await chargeDetectorChars(ctx, account, count);
  let scored: Scored;
  try {
    scored = await scoresOf(ctx, text, signal);
  } catch (e) {
    await refundDetectorChars(ctx, account, count);
    throw e;
  }
  const { total, used } = await detectorCharCheck(ctx, account);
  return { total, remain: total - used, per_chars: count, ...scored };
}

/** The text of an uploaded file, page by page as far as the plan's detector pages (more: 11011). */
async function textOf(ctx: AppContext, account: AiAccount, file: FileTable): Promise<string> {
  if (file.size > account.limits.detectorMaxFileMb * MB) throw tooLargeError(account.role, account.limits.detectorMaxFileMb * MB);
  const most = account.limits.detectorMaxPages;
  const { pages, more } = await documentText(ctx, file, {
    maxPages: most,
    // More bytes than the longest text allowed could take cannot be within the limit.
    maxTextBytes: account.limits.detectorMaxRequestChars * MAX_UTF8_BYTES_PER_CHAR,
    tooLong: () => new QuireError(ErrorCode.DetectorRequestLimit),
  });
  if (more) throw new QuireError(ErrorCode.DetectorFileLimit, undefined, { upgrade: 'detectorLimit', limit: most });
  return pages.join('\n\n');
}

/** Scores the text of an uploaded file (2405 if it is not the account's) as detectText does. */
export async function detectFile(ctx: AppContext, account: AiAccount, fileId: string, signal: AbortSignal): Promise<DetectResult> {
  const file = await ownedFile(ctx, accountOwner(account.id), fileId);
  // The file served only this check: it is deleted once read, scored or refused (the page's result
  // view keeps the scores; the product deletes the detected file when the user leaves it).
  try {
    return await detectText(ctx, account, await textOf(ctx, account, file), signal);
  } finally {
    await discardFile(ctx, file);
  }
}
