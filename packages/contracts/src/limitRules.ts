// Who a request is for, the upgrade dialogs and the plans' default limits, without zod: the page's
// shell imports them (ADR 0542).
import { plans } from './accountRules.js';
import { aiPlanAiLimits, freeAiLimits, premiumAiLimits } from './aiQuotas.js';
import type { PlanLimits } from './limits.js';

/** Who a request is for: an anonymous visitor, or an account on its plan. */
export const limitRoles = ['anonymous', ...plans] as const;
export type LimitRole = (typeof limitRoles)[number];
/** The dialogs that sell the AI plan; the others sell Premium. */
const aiDialogs = [
  'detectorLimit',
  'chatLimit',
  'chatLimitPage',
  'AiUpgrade',
  'AiUpgradeForVip',
  'AiUpgradeAgain',
  'AiPage',
  'AiSize',
] as const;
/** The upgrade dialogs the product opens; which one a refusal opens travels in its `data.upgrade`. */
export const upgradeDialogs = [
  'sizeUpgrade',
  'sizeVip',
  'normalPageLimit',
  'notBatchFuncFilesLimit',
  'OCRLimit',
  // Quire's: sharing, or a permanent share, asked on a plan without it (the product names an upgrade prompt, not its type).
  'shareUpgrade',
  ...aiDialogs,
] as const;
export type UpgradeDialog = (typeof upgradeDialogs)[number];
export const aiUpgradeDialogs: readonly string[] = aiDialogs;

/** The size dialog for a role: a visitor or free user is offered Premium, a paid user is told the upgraded limit is passed. */
export const sizeUpgradeDialog = (role: LimitRole): UpgradeDialog => (role === 'anonymous' || role === 'free' ? 'sizeUpgrade' : 'sizeVip');

export type LimitsTable = Record<LimitRole, PlanLimits>;

/**
 * The plans as the product sells them. A visitor never gets more than a free account: the same
 * files, pages, files per task and no OCR, with one task a day on top (QUIRE_ANON_TASKS_PER_DAY).
 * OCR for paid plans is 50 MB and 2,000 pages (one reading of the product's limits; the other,
 * Premium only at 100 MB, is looser on size, so the stricter is kept). The engine's own OCR
 * ceiling is 100 MB (OCR_LIMIT_MB).
 */
const paid: PlanLimits = {
  maxFileMb: 100,
  maxPages: 2000,
  maxFilesPerTask: null,
  ocr: { allowed: true, maxFileMb: 50, maxPages: 2000 },
  cloudGb: 10,
  sharesPerDay: 100,
  permanentShare: true,
  ai: premiumAiLimits,
};
// The product: free accounts cannot share documents nor choose a permanent share (upgrade prompt).
const free: PlanLimits = {
  maxFileMb: 20,
  maxPages: 100,
  maxFilesPerTask: 5,
  ocr: { allowed: false, maxFileMb: 20, maxPages: 100 },
  cloudGb: 10,
  sharesPerDay: 0,
  permanentShare: false,
  ai: freeAiLimits,
};
export const defaultLimits: LimitsTable = {
  // Visitors sign in before any AI tool and have no cloud: those values are unused.
  anonymous: free,
  free,
  premium: paid,
  ai: { ...paid, ai: aiPlanAiLimits },
  // Both plans: the product's limits of Premium and of AI are the same for files and pages.
  premium_ai: { ...paid, ai: aiPlanAiLimits },
};

/** Bytes in a MB, as limits are stated. */
export const MB = 1024 * 1024;
