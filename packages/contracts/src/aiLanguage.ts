// The AI layer's language calls under /api/ai/v2/ answered by the classic provider (no model):
// translation (Apertium), proofreading (Hunspell, diction, style), explanations (WordNet) and
// rule-based rewriting. Each charges the words it reads as tokens to the account.
import { z } from 'zod';

export const AI_LANGUAGE_LIMITS = {
  /** Characters of text one call takes (a document's text is cut here, and said so). */
  maxTextChars: 20_000,
  /** Characters of the word or phrase to explain. */
  maxExplainChars: 100,
  /** Characters of the passage an explanation may be given, to choose the sense from. */
  maxContextChars: 2_000,
  /** Languages one translation may pass through: the pair's own two and at most one between. */
  maxHops: 2,
  /** A sentence of more words than this is split by the rewrite where it can be. */
  longSentenceWords: 25,
} as const;

const language = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z]{2,3}$/, { message: 'A language is a two-letter code like en, es or fr.' })
  .meta({ examples: ['en'] });
/** What a text past maxTextChars is told, instead of the schema library's own words. */
export const aiTextTooLongMessage = 'The text is too long: at most 20,000 characters at a time. Please shorten it.';
const text = z.string().max(AI_LANGUAGE_LIMITS.maxTextChars, { message: aiTextTooLongMessage });

/** A translation direction the machine offers; `via` names the languages it passes through (pivots). */
export const translationPair = z.object({ from: z.string(), to: z.string(), via: z.array(z.string()) });
export type TranslationPair = z.infer<typeof translationPair>;
/** GET translate/languages: the pairs installed on the machine, direct or through a pivot. */
export const translationLanguages = z.object({ languages: z.array(z.string()), pairs: z.array(translationPair) });
export type TranslationLanguages = z.infer<typeof translationLanguages>;

export const translateTextRequest = z.object({ text: text.min(1), from: language, to: language });
export const translateTextAnswer = z.object({
  text: z.string(),
  via: z.array(z.string()).describe('The languages the text passed through between from and to'),
  tokens: z.number().int().min(0).describe('Tokens charged: the words of the text'),
});
export type TranslateTextAnswer = z.infer<typeof translateTextAnswer>;

/** POST translate/file: a PDF translated into a new PDF with its layout (a task, as the tools' calls make). */
export const translateFileRequest = z.object({
  file_id: z.string().min(1).max(64),
  passwd: z.string().max(128).optional(),
  from: language,
  to: language,
});

export const proofreadKinds = ['spelling', 'grammar', 'style'] as const;
export const proofreadIssue = z.object({
  start: z.number().int().min(0).describe('UTF-16 index of the issue in the text'),
  end: z.number().int().min(0),
  kind: z.enum(proofreadKinds),
  message: z.string(),
  suggestions: z.array(z.string()).describe('Best first; an empty string means "delete it"'),
});
export type ProofreadIssue = z.infer<typeof proofreadIssue>;
const proofreadLang = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2,3}([-_][A-Za-z]{2})?$/, { message: 'A language is a code like en-US, de or pt-BR.' })
  .default('en-US');
/** GET proofread/languages: the dictionaries installed, as the codes proofread takes ("en-US", "de-DE", "nl"). */
export const proofreadLanguages = z.object({ languages: z.array(z.string()) });
export type ProofreadLanguages = z.infer<typeof proofreadLanguages>;
/** POST proofread/text */
export const proofreadRequest = z.object({ text: text.min(1), lang: proofreadLang });
/** POST proofread/file: an uploaded PDF's text, as far as the plan's pages per analysis. */
export const proofreadFileRequest = z.object({
  file_id: z.string().min(1).max(64),
  passwd: z.string().max(128).optional(),
  lang: proofreadLang,
});
export const proofreadAnswer = z.object({
  text: z.string().describe('The text checked (a document’s, as read)'),
  truncated: z.boolean().describe('The document had more text than one check takes'),
  dictionary: z.string().describe('The Hunspell dictionary used; a model’s proofreading: the language asked for'),
  issues: z.array(proofreadIssue),
  corrected: z.string().describe('The text with each issue’s first suggestion applied'),
  tokens: z.number().int().min(0),
});
export type ProofreadAnswer = z.infer<typeof proofreadAnswer>;

export const explainRequest = z.object({
  text: z.string().trim().min(1).max(AI_LANGUAGE_LIMITS.maxExplainChars).describe('The selected word or phrase'),
  context: z.string().max(AI_LANGUAGE_LIMITS.maxContextChars).optional().describe('The passage it was selected in'),
});
export const wordSense = z.object({
  pos: z.enum(['noun', 'verb', 'adj', 'adv']),
  lemma: z.string(),
  synonyms: z.array(z.string()),
  definition: z.string(),
  examples: z.array(z.string()),
});
export const explainAnswer = z.object({
  text: z.string(),
  sentence: z.string().nullable().describe('The sentence of the context the text is in'),
  pos: z.enum(['noun', 'verb', 'adj', 'adv']).nullable().describe('The part of speech the context suggests'),
  senses: z.array(wordSense).describe('WordNet’s senses, those of the chosen part of speech first'),
  explanation: z.string().nullable().describe('A language model’s explanation in context, where the operator set one; null otherwise'),
  tokens: z.number().int().min(0),
});
export type ExplainAnswer = z.infer<typeof explainAnswer>;

/** simplify: plainer words and long sentences split; shorten: wordy phrases cut; paraphrase: a model's work (flags only). */
export const rewriteModes = ['simplify', 'shorten', 'paraphrase'] as const;
export const rewriteRequest = z.object({ text: text.min(1), mode: z.enum(rewriteModes).default('simplify') });
export const rewriteChange = z.object({
  start: z.number().int().min(0).describe('In the text given'),
  end: z.number().int().min(0),
  kind: z.enum(['plain-word', 'wordy', 'split', 'passive']),
  from: z.string(),
  to: z.string().nullable().describe('null: flagged, not changed'),
});
export const rewriteAnswer = z.object({
  text: z.string(),
  changes: z.array(rewriteChange),
  note: z.string().describe('What rules did, and that a model does more'),
  tokens: z.number().int().min(0),
});
export type RewriteAnswer = z.infer<typeof rewriteAnswer>;
