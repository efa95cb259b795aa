// The language calls: translation, proofreading, explanations and rewriting (classic: Apertium,
// Hunspell and style rules, WordNet; or a model). The pages stream them (useAiStream), so a model's
// text shows as it is written; their `result` is checked with the plain call's schema.
import type {
  proofreadLanguages as proofreadLanguagesAnswer,
  translationLanguages,
  ProofreadLanguages,
  TranslationLanguages,
} from '@quire/contracts';
import { aiGet, aiUrl } from './ai';
import type { Answer } from './client';

export const translationPairs = (): Promise<TranslationLanguages> => aiGet<Answer<typeof translationLanguages>>('translate/languages', {});

export const TRANSLATE_TEXT_STREAM = 'translate/text/stream';

/** The task call that translates a PDF into a new PDF (run and followed as the tools' tasks are). */
export const TRANSLATE_FILE_CALL = aiUrl('translate/file');

export const proofreadLanguages = (): Promise<ProofreadLanguages> =>
  aiGet<Answer<typeof proofreadLanguagesAnswer>>('proofread/languages', {});

export const PROOFREAD_TEXT_STREAM = 'proofread/text/stream';
export const PROOFREAD_FILE_STREAM = 'proofread/file/stream';

/** WordNet's senses of a selected word or phrase, its part of speech chosen from the passage it is in (and a model's explanation). */
export const EXPLAIN_STREAM = 'explain/stream';

export type RewriteMode = 'simplify' | 'shorten' | 'paraphrase';

export const REWRITE_STREAM = 'rewrite/stream';
