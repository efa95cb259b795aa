// The AI suite's shared words: which provider answers each AI tool, the per-plan quotas, the AI
// status of a file being analysed, and the shapes of the /v2 calls shared by server and page.
//
// One AI layer serves every AI tool. Each tool is answered by one of three providers, chosen by
// the operator per tool: `classic` (no model: retrieval, extractive summaries, Apertium, Hunspell,
// WordNet, statistics; the default, works offline), `local` (a GGUF model file run by llama.cpp)
// or `openai` (any OpenAI-compatible endpoint).
import { z } from 'zod';

export const aiProviders = ['classic', 'local', 'openai'] as const;
export type AiProvider = (typeof aiProviders)[number];

/** The AI tools; an operator picks the provider of each (QUIRE_AI_PROVIDER_<TOOL>, else QUIRE_AI_PROVIDER). */
export const aiTools = ['chat', 'summary', 'explain', 'rewrite', 'translate', 'proofread', 'detect'] as const;
export type AiTool = (typeof aiTools)[number];

/**
 * The environment an operator sets for the AI layer. Secrets come from a file (…_FILE) or the
 * environment, never a command line or a URL.
 */
export const AI_ENV = {
  provider: 'QUIRE_AI_PROVIDER',
  /** Followed by the tool in upper case: QUIRE_AI_PROVIDER_CHAT, …_TRANSLATE. */
  providerOfTool: 'QUIRE_AI_PROVIDER_',
  modelPath: 'QUIRE_AI_MODEL_PATH',
  /** Memory bound of the local model's worker, in MB. */
  modelMemoryMb: 'QUIRE_AI_MODEL_MEMORY_MB',
  /** Context length the local model is loaded with, in tokens. */
  modelContext: 'QUIRE_AI_MODEL_CONTEXT',
  /** CPU threads of one local answer; fewer than the cores where the machine does other work too. */
  modelThreads: 'QUIRE_AI_MODEL_THREADS',
  openaiBaseUrl: 'QUIRE_AI_OPENAI_BASE_URL',
  openaiModel: 'QUIRE_AI_OPENAI_MODEL',
  openaiKey: 'QUIRE_AI_OPENAI_KEY',
  openaiKeyFile: 'QUIRE_AI_OPENAI_KEY_FILE',
} as const;

/** A file's analysis for the AI tools: init → uploading → analyses → success, or failed. */
export const aiStatuses = ['init', 'uploading', 'analyses', 'success', 'failed'] as const;
export type AiStatus = (typeof aiStatuses)[number];

export const AI_CONSTANTS = {
  /** Text to summarise or detect: at least this many characters (11005; the detector's own minimum). */
  minTextChars: 250,
  /** A question in AI read: fewer characters than this. */
  maxQuestionChars: 2000,
  /** The summary waits this long for the analysis, polling every summaryPollMs, then fails with 90002. */
  summaryWaitMs: 60_000,
  summaryPollMs: 300,
} as const;

const count = z.number().int().min(0);
const period = z.enum(['total', 'month']).describe('total: for the life of the account; month: renewed each calendar month (UTC)');

/** A plan's AI quotas: part of each plan's limits (limits.ts). */
export const aiPlanLimits = z
  .object({
    tokens: count.describe('AI tokens the account may spend (words for the classic provider, the model’s own count otherwise)'),
    tokensPeriod: period,
    questions: count.describe('Chat questions'),
    questionsPeriod: period,
    pagesPerAnalysis: count.describe('Pages of a document the AI analyses (the first ones; the rest is not read)'),
    maxFileMb: z.number().int().positive().describe('Largest file for chat, AI read and the translator'),
    detectorChars: count.describe('Characters the AI detector may check'),
    detectorPeriod: period,
    detectorMaxRequestChars: z.number().int().positive().describe('Most characters one AI detector request may check (more: 11010)'),
    detectorMaxFileMb: z.number().int().positive().describe('Largest file for the AI detector'),
    detectorMaxPages: z.number().int().positive().describe('Most pages of a file for the AI detector (more: 11011, the file deleted)'),
  })
  .strict();
export type AiPlanLimits = z.infer<typeof aiPlanLimits>;

/** GET /v2/chat/gpt-token/check */
export const tokenCheck = z.object({ used_tokens: count, total_tokens: count });
export type TokenCheck = z.infer<typeof tokenCheck>;
/** GET /v2/ai-detect/char/check */
export const detectorCharCheck = z.object({ total: count, used: count });
export type DetectorCharCheck = z.infer<typeof detectorCharCheck>;

/** POST /v2/ai-detect/predict/text */
export const detectTextRequest = z.object({ text: z.string() });
/** POST /v2/ai-detect/predict/file: a PDF, Word or text file uploaded as for any tool. */
export const detectFileRequest = z.object({ file_id: z.string().min(1) });

const likelihood = z.number().min(0).max(1).describe('Likelihood, 0 to 1, that a machine wrote it');
/** The answer of both predict calls: the characters charged and left, and the scores. */
export const detectResult = z.object({
  total: count.describe('Characters the plan gives in its period'),
  remain: count.describe('Characters left after this request'),
  per_chars: count.describe('Characters this request was charged'),
  score: likelihood,
  method: z
    .enum(['statistical', 'model'])
    .describe(
      'statistical: the classic detector (n-gram surprise, burstiness, style); model: how predictable the text is to the ' +
        'language model the operator set for the detector (its log-perplexity against its own expected cross-entropy)',
    ),
  /** Present when the operator set a model for the detector that cannot score text: the statistical detector answered instead. */
  fallback: z
    .literal('model-cannot-score')
    .optional()
    .describe('The configured model cannot score text (its endpoint gives no log-probabilities of a prompt): method is statistical'),
  sentences: z.array(
    z.object({
      sentence: z.string(),
      start: count.describe('Offset of the sentence in the text checked (UTF-16 code units)'),
      end: count,
      score: likelihood,
    }),
  ),
});
export type DetectResult = z.infer<typeof detectResult>;

/** A passage an answer rests on: the page it is on (1-based) and its text. */
export const aiCitation = z.object({ page: z.number().int().min(1), text: z.string() });
export type AiCitation = z.infer<typeof aiCitation>;
