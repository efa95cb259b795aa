// The AI quotas of an account's plan: tokens, chat questions and AI-detector characters, each
// counted for the life of the account or per calendar month (UTC, by the injectable clock). A
// charge is atomic: racing requests cannot together pass a limit. Visitors have no AI (3001).
import { ErrorCode, QuireError, type AiPlanLimits, type LimitRole, type TokenCheck, type DetectorCharCheck } from '@quire/contracts';
import type { AppContext } from '../context.js';
import { refusal } from '../texts/words.js';
import { chargeUsage, refundUsage, usageOf } from '../db/aiUsageRepo.js';
import type { Identity } from './accounts.js';
import { limitsOf } from './limits.js';

/** The signed-in account an AI call is for, with its plan's AI quotas. */
export interface AiAccount {
  id: string;
  role: LimitRole;
  limits: AiPlanLimits;
}

/** The account of a request; 3001 for a visitor (the AI tools need a sign-in). */
export function aiAccountOf(ctx: AppContext, identity: Identity): AiAccount {
  if (!identity.account) throw new QuireError(ErrorCode.NotLogin);
  const role = limitsOf(ctx, identity).role;
  const plan = ctx.config.limits[role].ai;
  // Tokens earned by invites (the referral programme) come on top of the plan's.
  return { id: identity.account.id, role, limits: { ...plan, tokens: plan.tokens + identity.account.bonus_tokens } };
}

type Period = AiPlanLimits['tokensPeriod'];
const periodKey = (ctx: AppContext, period: Period) => (period === 'total' ? 'total' : new Date(ctx.now()).toISOString().slice(0, 7));

const paysForAi = (role: LimitRole) => role === 'ai' || role === 'premium_ai';

/** 11003 with the dialog of the role: the AI plan's own, Premium's (vip) or the offer of the AI plan. */
function notEnoughTokens(account: AiAccount): QuireError {
  const upgrade = paysForAi(account.role) ? 'AiUpgradeAgain' : account.role === 'premium' ? 'AiUpgradeForVip' : 'AiUpgrade';
  return new QuireError(ErrorCode.NotEnoughTokens, undefined, { upgrade, limit: account.limits.tokens });
}

export async function tokenCheck(ctx: AppContext, account: AiAccount): Promise<TokenCheck> {
  const used = await usageOf(ctx.db, account.id, 'tokens', periodKey(ctx, account.limits.tokensPeriod));
  return { used_tokens: Math.min(used, account.limits.tokens), total_tokens: account.limits.tokens };
}

/** Refuses (11003) an account with no token left, before any work is done for it. */
export async function checkTokens(ctx: AppContext, account: AiAccount): Promise<void> {
  const { used_tokens, total_tokens } = await tokenCheck(ctx, account);
  if (used_tokens >= total_tokens) throw notEnoughTokens(account);
}

/** Charges `count` tokens, or refuses (11003, nothing charged) if the account has fewer left. */
export async function chargeTokens(ctx: AppContext, account: AiAccount, count: number): Promise<void> {
  const period = periodKey(ctx, account.limits.tokensPeriod);
  if (!(await chargeUsage(ctx.db, account.id, 'tokens', period, count, account.limits.tokens))) throw notEnoughTokens(account);
}

/**
 * Charges ahead as many tokens as are left up to `most` (a model's answer, whose cost is known
 * after), or refuses (11003) when fewer than `least` are left; returns the tokens charged.
 */
export async function reserveTokens(ctx: AppContext, account: AiAccount, most: number, least: number): Promise<number> {
  const period = periodKey(ctx, account.limits.tokensPeriod);
  for (;;) {
    const left = account.limits.tokens - (await usageOf(ctx.db, account.id, 'tokens', period));
    if (left < least) throw notEnoughTokens(account);
    const amount = Math.min(most, left);
    // Refused only when a racing charge took tokens in between: look again.
    if (await chargeUsage(ctx.db, account.id, 'tokens', period, amount, account.limits.tokens)) return amount;
  }
}

/** Gives back tokens charged ahead (a model's reservation) and not spent. */
export async function refundTokens(ctx: AppContext, account: AiAccount, count: number): Promise<void> {
  if (count > 0) await refundUsage(ctx.db, account.id, 'tokens', periodKey(ctx, account.limits.tokensPeriod), count);
}

/** Counts one chat question, or refuses (11007): Premium and the AI plan are told, a free account is offered the AI plan. */
export async function chargeQuestion(ctx: AppContext, account: AiAccount): Promise<void> {
  const period = periodKey(ctx, account.limits.questionsPeriod);
  if (await chargeUsage(ctx.db, account.id, 'questions', period, 1, account.limits.questions)) return;
  const offer = account.role === 'free' || account.role === 'anonymous';
  throw new QuireError(ErrorCode.QuestionLimit, undefined, offer ? { upgrade: 'AiUpgrade', limit: account.limits.questions } : undefined);
}

/** Gives back a question counted for an answer that was then refused (its tokens). */
export async function refundQuestion(ctx: AppContext, account: AiAccount): Promise<void> {
  await refundUsage(ctx.db, account.id, 'questions', periodKey(ctx, account.limits.questionsPeriod), 1);
}

export async function detectorCharCheck(ctx: AppContext, account: AiAccount): Promise<DetectorCharCheck> {
  const used = await usageOf(ctx.db, account.id, 'detector', periodKey(ctx, account.limits.detectorPeriod));
  return { total: account.limits.detectorChars, used: Math.min(used, account.limits.detectorChars) };
}

/**
 * Charges `count` characters of the AI detector, or refuses (11009) text longer than what is left:
 * a paid plan is told its limit, a free account is also offered the AI plan (detectorLimit).
 */
export async function chargeDetectorChars(ctx: AppContext, account: AiAccount, count: number): Promise<void> {
  const { detectorChars, detectorPeriod } = account.limits;
  if (await chargeUsage(ctx.db, account.id, 'detector', periodKey(ctx, detectorPeriod), count, detectorChars)) return;
  if (account.role === 'free' || account.role === 'anonymous')
    throw new QuireError(ErrorCode.DetectorCharsLimit, undefined, { upgrade: 'detectorLimit', limit: detectorChars });
  throw refusal(ErrorCode.DetectorCharsLimit, 'error.limit.detectorChars', { count: detectorChars });
}
