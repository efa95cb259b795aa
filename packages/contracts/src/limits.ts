// The limits of each kind of user, in one table the server enforces and the web app checks
// against before uploading. An operator overrides any value in a JSON file (QUIRE_LIMITS_FILE);
// the server's QUIRE_MAX_FILE_MB and QUIRE_MAX_PAGES stay the ceiling of every plan.
import { z } from 'zod';
import { aiPlanLimits } from './ai.js';
import { type LimitsTable, limitRoles, upgradeDialogs } from './limitRules.js';

export const limitRole = z.enum(limitRoles);

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
