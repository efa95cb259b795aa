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
  /** Tokens invites earned (the referral programme): spent after the plan's, once, never renewed. */
  bonusTokens: number;
}

/** The account of a request; 3001 for a visitor (the AI tools need a sign-in). */
export function aiAccountOf(ctx: AppContext, identity: Identity): AiAccount {
  if (!identity.account) throw new QuireError(ErrorCode.NotLogin);
  const role = limitsOf(ctx, identity).role;
  return { id: identity.account.id, role, limits: ctx.config.limits[role].ai, bonusTokens: identity.account.bonus_tokens };
}

type Period = AiPlanLimits['tokensPeriod'];
const periodKey = (ctx: AppContext, period: Period) => (period === 'total' ? 'total' : new Date(ctx.now()).toISOString().slice(0, 7));

const paysForAi = (role: LimitRole) => role === 'ai' || role === 'premium_ai';

/** 11003 with the dialog of the role: the AI plan's own, Premium's (vip) or the offer of the AI plan. */
function notEnoughTokens(account: AiAccount): QuireError {
  const upgrade = paysForAi(account.role) ? 'AiUpgradeAgain' : account.role === 'premium' ? 'AiUpgradeForVip' : 'AiUpgrade';
  return new QuireError(ErrorCode.NotEnoughTokens, undefined, { upgrade, limit: account.limits.tokens + account.bonusTokens });
}

/** What a charge took: from the plan's tokens of the period first, then from the bonus. */
export interface TokenCharge {
  plan: number;
  bonus: number;
}

/** The tokens left of the plan's period and of the bonus. */
async function tokensLeft(ctx: AppContext, account: AiAccount): Promise<TokenCharge> {
  const planUsed = await usageOf(ctx.db, account.id, 'tokens', periodKey(ctx, account.limits.tokensPeriod));
  const bonusUsed = account.bonusTokens > 0 ? await usageOf(ctx.db, account.id, 'bonus', 'total') : 0;
  return { plan: Math.max(0, account.limits.tokens - planUsed), bonus: Math.max(0, account.bonusTokens - bonusUsed) };
}

/** The plan's tokens of the period and the bonus together: used of the two, and their sum. */
export async function tokenCheck(ctx: AppContext, account: AiAccount): Promise<TokenCheck> {
  const left = await tokensLeft(ctx, account);
  const total = account.limits.tokens + account.bonusTokens;
  return { used_tokens: total - left.plan - left.bonus, total_tokens: total };
}

/** Refuses (11003) an account with no token left, before any work is done for it. */
export async function checkTokens(ctx: AppContext, account: AiAccount): Promise<void> {
  const left = await tokensLeft(ctx, account);
  if (left.plan + left.bonus <= 0) throw notEnoughTokens(account);
}

/**
 * Takes `amount` tokens, as many as `left` has of the plan's first; null (nothing taken) when a
 * racing charge took some in between. Each part is one conditional update (aiUsageRepo).
 */
async function take(ctx: AppContext, account: AiAccount, amount: number, left: TokenCharge): Promise<TokenCharge | null> {
  const period = periodKey(ctx, account.limits.tokensPeriod);
  const plan = Math.min(amount, left.plan);
  const bonus = amount - plan;
  if (plan > 0 && !(await chargeUsage(ctx.db, account.id, 'tokens', period, plan, account.limits.tokens))) return null;
  if (bonus > 0 && !(await chargeUsage(ctx.db, account.id, 'bonus', 'total', bonus, account.bonusTokens))) {
    if (plan > 0) await refundUsage(ctx.db, account.id, 'tokens', period, plan);
    return null;
  }
  return { plan, bonus };
}

/** Charges `count` tokens, or refuses (11003, nothing charged) if the account has fewer left. */
export async function chargeTokens(ctx: AppContext, account: AiAccount, count: number): Promise<TokenCharge> {
  return reserveTokens(ctx, account, count, count);
}

/**
 * Charges ahead as many tokens as are left up to `most` (a model's answer, whose cost is known
 * after), or refuses (11003) when fewer than `least` are left; returns what it charged.
 */
export async function reserveTokens(ctx: AppContext, account: AiAccount, most: number, least: number): Promise<TokenCharge> {
  for (;;) {
    const left = await tokensLeft(ctx, account);
    if (left.plan + left.bonus < least) throw notEnoughTokens(account);
    const charge = await take(ctx, account, Math.min(most, left.plan + left.bonus), left);
    if (charge) return charge;
  }
}

export const chargedTokens = (charge: TokenCharge) => charge.plan + charge.bonus;

/**
 * Gives back `count` of the tokens `charge` took and did not spend: the bonus's first, as it was
 * taken last. Answers what of the charge is kept.
 */
export async function refundTokens(ctx: AppContext, account: AiAccount, charge: TokenCharge, count: number): Promise<TokenCharge> {
  const bonus = Math.min(count, charge.bonus);
  const plan = Math.min(count - bonus, charge.plan);
  if (bonus > 0) await refundUsage(ctx.db, account.id, 'bonus', 'total', bonus);
  if (plan > 0) await refundUsage(ctx.db, account.id, 'tokens', periodKey(ctx, account.limits.tokensPeriod), plan);
  return { plan: charge.plan - plan, bonus: charge.bonus - bonus };
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

/** Gives back `count` detector characters charged for a check that gave no scores (the model failed, the client went). */
export async function refundDetectorChars(ctx: AppContext, account: AiAccount, count: number): Promise<void> {
  await refundUsage(ctx.db, account.id, 'detector', periodKey(ctx, account.limits.detectorPeriod), count);
}
