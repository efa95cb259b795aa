// The AI tools' default quotas of each plan, without zod: the default limits the page checks
// against hold them (ADR 0542).
import type { AiPlanLimits } from './ai.js';

/**
 * The product's figures. Free: 5,000 tokens, 50 questions, 20 pages analysed, detector 10k
 * characters and 10 pages. Premium (the vip-flag variant): 50,000 tokens, 100 pages analysed,
 * detector 100k a month. AI plan: 2,000,000 tokens and 500 questions a month, 150 pages.
 */
export const freeAiLimits: AiPlanLimits = {
  tokens: 5000,
  tokensPeriod: 'total',
  questions: 50,
  questionsPeriod: 'total',
  pagesPerAnalysis: 20,
  maxFileMb: 20,
  detectorChars: 10_000,
  detectorPeriod: 'total',
  detectorMaxRequestChars: 5000,
  detectorMaxFileMb: 10,
  detectorMaxPages: 10,
};
export const premiumAiLimits: AiPlanLimits = {
  tokens: 50_000,
  tokensPeriod: 'total',
  questions: 50,
  questionsPeriod: 'total',
  pagesPerAnalysis: 100,
  maxFileMb: 100,
  detectorChars: 100_000,
  detectorPeriod: 'month',
  detectorMaxRequestChars: 50_000,
  detectorMaxFileMb: 100,
  detectorMaxPages: 2000,
};
/** The AI plan: Premium's files and detector, with its own tokens, questions and pages, renewed monthly. */
export const aiPlanAiLimits: AiPlanLimits = {
  ...premiumAiLimits,
  tokens: 2_000_000,
  tokensPeriod: 'month',
  questions: 500,
  questionsPeriod: 'month',
  pagesPerAnalysis: 150,
};
