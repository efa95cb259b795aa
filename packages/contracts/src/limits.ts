// The limits of each kind of user, in one table the server enforces and the web app checks
// against before uploading. An operator overrides any value in a JSON file (QUIRE_LIMITS_FILE);
// the server's QUIRE_MAX_FILE_MB and QUIRE_MAX_PAGES stay the ceiling of every plan.
import { z } from 'zod';
import { plans } from './account.js';
import { aiPlanAiLimits, aiPlanLimits, freeAiLimits, premiumAiLimits } from './ai.js';

/** Who a request is for: an anonymous visitor, or an account on its plan. */
export const limitRoles = ['anonymous', ...plans] as const;
export type LimitRole = (typeof limitRoles)[number];
export const limitRole = z.enum(limitRoles);

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

/**
 * What a limit refusal carries: the dialog to open and the limit passed (MB for sizes, else a
 * count). `taskLimit` is an anonymous visitor's tasks of the day (4016): the page asks for a sign-in.
 */
export const limitRefusal = z.object({ upgrade: z.enum([...upgradeDialogs, 'taskLimit']), limit: z.number() });
export type LimitRefusal = z.infer<typeof limitRefusal>;

const positive = z.number().int().positive();

export const planLimits = z
  .object({
    maxFileMb: positive.describe('Largest file, in MB'),
    maxPages: positive.describe('Most pages of one PDF'),
    maxFilesPerTask: positive.nullable().describe('Most files one task takes (merge, images to PDF, OCR of images); null: no limit'),
    ocr: z
      .object({ allowed: z.boolean(), maxFileMb: positive, maxPages: positive })
      .strict()
      .describe('OCR (its tool, and conversions that recognise text first): whether the plan has it, and its own limits'),
    cloudGb: z
      .number()
      .positive()
      .describe('Document cloud capacity, in GB (a fraction allowed; visitors have no cloud, their value is unused)'),
    sharesPerDay: z
      .number()
      .int()
      .min(0)
      .describe('Shares (link, QR code or email) the user may make in 24 hours; 0: sharing is not in the plan'),
    permanentShare: z.boolean().describe('Whether a share may be permanent (3650 days)'),
    ai: aiPlanLimits.describe('The AI tools’ quotas (ai.ts)'),
  })
  .strict();
export type PlanLimits = z.infer<typeof planLimits>;
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

const planOverride = planLimits.extend({ ocr: planLimits.shape.ocr.partial(), ai: aiPlanLimits.partial() }).partial().optional();
/** An operator's limits file: any role, any value; what it leaves out keeps its default. */
export const limitsOverride = z
  .object({ anonymous: planOverride, free: planOverride, premium: planOverride, ai: planOverride, premium_ai: planOverride })
  .strict();
export type LimitsOverride = z.infer<typeof limitsOverride>;

/** The defaults with an operator's values laid over them. */
export function withOverride(base: LimitsTable, override: LimitsOverride): LimitsTable {
  return Object.fromEntries(
    limitRoles.map((role) => {
      const own = override[role] ?? {};
      return [role, { ...base[role], ...own, ocr: { ...base[role].ocr, ...own.ocr }, ai: { ...base[role].ai, ...own.ai } }];
    }),
  ) as LimitsTable;
}

/** Bytes in a MB, as limits are stated. */
export const MB = 1024 * 1024;
