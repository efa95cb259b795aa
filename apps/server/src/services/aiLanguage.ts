// The AI layer's language tools. The classic provider answers with no model: translation
// (Apertium, through a pivot language where no pair is direct), proofreading (Hunspell for
// spelling, GNU diction for doubled words and wordy phrases, style for passive voice), explanations
// (WordNet) and rule-based rewriting; each call charges the words it reads as tokens (11003 when
// the account has too few left) and gives them back if the engine fails. Where the operator points
// a tool at a model (local or openai), the model writes the explanation, the rewrite, the
// translation or the corrected text, charged as the engine counted it; a PDF's paragraphs are
// translated by the model in the task (tools/translatePdf.ts). Given a TextStream, a tool sends
// that text as it is written (a model's) or once known (the classic provider's).
import path from 'node:path';
import fs from 'node:fs/promises';
import {
  AI_LANGUAGE_LIMITS,
  ErrorCode,
  MB,
  QuireError,
  type ExplainAnswer,
  type ProofreadAnswer,
  type ProofreadIssue,
  type RewriteAnswer,
  type TranslateTextAnswer,
  type TranslationLanguages,
  type AiTool,
} from '@quire/contracts';
import { textChanges } from '../classic/diff.js';
import type { AppContext } from '../context.js';
import { tooManyPagesError } from '../texts/refusals.js';
import { installedDirections, routeOf, translateAlong } from '../engines/language/apertium.js';
import { checkModelPair, MODEL_LANGUAGES, translationSystem } from '../engines/ai/translation.js';
import { type DictionFinding, dictionFindings, dictionLanguages, passiveSentences, type Span } from '../engines/language/diction.js';
import { installedDictionaries, misspellings } from '../engines/language/hunspell.js';
import { type WordnetPos, wordSenses } from '../engines/language/wordnet.js';
import { pageLayout } from '../engines/poppler.js';
import { editableInput } from '../engines/qpdf.js';
import { newId } from '../ids.js';
import type { Identity } from './accounts.js';
import { modelAnswer } from './aiAnswers.js';
import { aiAccountOf, chargeTokens, checkTokens, refundTokens } from './aiQuota.js';
import { documentText } from './documentText.js';
import { unlockedFile } from './files.js';
import { tooLargeError } from './limits.js';

/** Han, kana and Hangul syllables count one token each (no spaces between their words); other scripts by words. */
const WORDS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

/** The classic provider's tokens: the words of a text. */
export const wordCount = (text: string) => text.match(WORDS)?.length ?? 0;

/** Charges `tokens` to the caller's account (3001 for a visitor, 11003 without enough), runs `work`, gives them back if it fails. */
async function charged<T>(ctx: AppContext, identity: Identity, tokens: number, work: () => Promise<T>): Promise<T & { tokens: number }> {
  const account = aiAccountOf(ctx, identity);
  await checkTokens(ctx, account);
  const charge = await chargeTokens(ctx, account, tokens);
  try {
    return { ...(await work()), tokens };
  } catch (e) {
    await refundTokens(ctx, account, charge, tokens);
    throw e;
  }
}

/** Where a streamed call sends a tool's text as it is written, and what stops it (the account's cancel, or the client gone). */
export interface TextStream {
  onText(text: string): void;
  signal: AbortSignal;
}

/**
 * A model's answer where the operator set one for `tool` (charged as the engine counted it; 11003
 * without tokens left), sent to `stream` as it is written; or null for the classic provider.
 */
async function modelAnswerFor(ctx: AppContext, identity: Identity, tool: AiTool, system: string, prompt: string, stream?: TextStream) {
  const model = ctx.modelFor(tool);
  if (!model) return null;
  const account = aiAccountOf(ctx, identity);
  await checkTokens(ctx, account);
  const answer = await modelAnswer(ctx, account, model, system, prompt, []);
  const { text, tokens } = await answer.speak(stream?.onText ?? (() => {}), stream?.signal ?? new AbortController().signal, false);
  return { text: text.trim(), tokens };
}

const via = (route: readonly { from: string }[]) => route.slice(1).map((d) => d.from);

/** Every direction the installed pairs serve, directly or through one language between; a model's, every pair of its languages. */
export async function translationLanguages(ctx: AppContext): Promise<TranslationLanguages> {
  if (ctx.modelFor('translate'))
    return {
      languages: MODEL_LANGUAGES,
      pairs: MODEL_LANGUAGES.flatMap((from) => MODEL_LANGUAGES.filter((to) => to !== from).map((to) => ({ from, to, via: [] }))),
    };
  const directions = await installedDirections();
  const languages = [...new Set(directions.flatMap((d) => [d.from, d.to]))].sort();
  const pairs = languages.flatMap((from) =>
    languages.flatMap((to) => {
      const route = routeOf(directions, from, to, AI_LANGUAGE_LIMITS.maxHops);
      return route ? [{ from, to, via: via(route) }] : [];
    }),
  );
  return { languages, pairs };
}

/** The dictionaries installed, in the codes proofread takes ("en_US" is "en-US"). */
export async function proofreadLanguages(): Promise<{ languages: string[] }> {
  return { languages: (await installedDictionaries()).map((name) => name.replace('_', '-')) };
}

/** The route from → to, or 11021 where the machine has none. */
async function translationRoute(from: string, to: string) {
  const route = routeOf(await installedDirections(), from, to, AI_LANGUAGE_LIMITS.maxHops);
  if (!route) throw new QuireError(ErrorCode.LanguageUnavailable);
  return route;
}

export async function translateText(
  ctx: AppContext,
  identity: Identity,
  body: { text: string; from: string; to: string },
  stream?: TextStream,
): Promise<TranslateTextAnswer> {
  if (ctx.modelFor('translate')) {
    checkModelPair(body.from, body.to);
    const answer = (await modelAnswerFor(ctx, identity, 'translate', translationSystem(body.from, body.to), body.text, stream))!;
    return { ...answer, via: [] };
  }
  const route = await translationRoute(body.from, body.to);
  await fs.mkdir(ctx.scratchDir, { recursive: true });
  const answer = await charged(ctx, identity, wordCount(body.text), async () => ({
    text: await translateAlong(route, body.text, ctx.scratchDir, ctx.inspectLimits),
    via: via(route),
  }));
  stream?.onText(answer.text);
  return answer;
}

/**
 * Queues a PDF's translation (`queue` makes the task) after checking the file is the caller's
 * (2405), the provider translates the pair (11021: a model's languages, or Apertium's installed
 * pairs) and the file is within the plan's AI file size and pages (4012, 4013). Apertium's
 * translation charges the document's words here; a model's is charged as the engine counts each
 * answer while the task runs (ADR 0510), so here an account is only refused with no token left (11003).
 */
export async function translateFile<T extends object>(
  ctx: AppContext,
  identity: Identity,
  ownerId: string,
  body: { file_id: string; passwd?: string; from: string; to: string },
  queue: () => Promise<T>,
): Promise<T & { tokens: number }> {
  // The id first: another owner's file is 2405 whatever else the call asks.
  const row = await ownedPdf(ctx, ownerId, body.file_id, body.passwd);
  const byModel = !!ctx.modelFor('translate');
  if (byModel) checkModelPair(body.from, body.to);
  else await translationRoute(body.from, body.to);
  const account = aiAccountOf(ctx, identity);
  const maxBytes = account.limits.maxFileMb * MB;
  if (row.size > maxBytes) throw tooLargeError(account.role, maxBytes);
  if (row.total_page > account.limits.pagesPerAnalysis) throw tooManyPagesError(account.limits.pagesPerAnalysis);
  if (byModel) {
    await checkTokens(ctx, account);
    return { ...(await queue()), tokens: 0 };
  }
  const text = await pdfText(ctx, identity, ownerId, body.file_id, body.passwd);
  return charged(ctx, identity, wordCount(text), queue);
}

/** Regions of the dictionaries a bare language code means ("en" is en_US, "pt" Brazil's, as the product's locales). */
const DEFAULT_REGION: Record<string, string> = { en: 'US', pt: 'BR' };

/** The installed dictionary for a code like "en-GB", "de" or "pt_BR", or null. */
function dictionaryFor(lang: string, installed: readonly string[]): string | null {
  const [language = '', region] = lang.split(/[-_]/);
  const ll = language.toLowerCase();
  const candidates = [
    region && `${ll}_${region.toUpperCase()}`,
    DEFAULT_REGION[ll] && `${ll}_${DEFAULT_REGION[ll]}`,
    ll,
    `${ll}_${ll.toUpperCase()}`,
  ].filter((c): c is string => !!c);
  return candidates.find((c) => installed.includes(c)) ?? installed.find((d) => d.startsWith(`${ll}_`)) ?? null;
}

/** An uploaded PDF of the owner's (2405 for another's), unlocked with its password; 3100 for another kind of file. */
async function ownedPdf(ctx: AppContext, ownerId: string, fileId: string, password?: string) {
  const row = await unlockedFile(ctx, ownerId, fileId, password);
  if (!row.name.toLowerCase().endsWith('.pdf')) throw new QuireError(ErrorCode.InvalidParams, 'The AI tools read the text of PDF files.');
  return row;
}

/** Text read from an uploaded PDF, as far as the plan's pages of an AI analysis go. */
async function pdfText(ctx: AppContext, identity: Identity, ownerId: string, fileId: string, password?: string): Promise<string> {
  const row = await ownedPdf(ctx, ownerId, fileId, password);
  const pages = Math.min(row.total_page, aiAccountOf(ctx, identity).limits.pagesPerAnalysis);
  const local = await ctx.storage.localPath(row.storage_key);
  await fs.mkdir(ctx.scratchDir, { recursive: true });
  const copy = path.join(ctx.scratchDir, `${newId()}.pdf`);
  try {
    const readable = await editableInput({ file: local, password }, row.total_page, copy, ctx.inspectLimits);
    const layout = await pageLayout(readable, pages, path.join(ctx.scratchDir, `${newId()}.layout.html`), ctx.inspectLimits);
    return layout.pages.join('\n\n').trim();
  } finally {
    await fs.rm(copy, { force: true });
  }
}

/** "Use" for "utilize" keeps the capital of "Utilize" at a sentence's start. */
const sameCase = (replacement: string, original: string) =>
  /^\p{Lu}/u.test(original) && !/^\p{Lu}{2}/u.test(original) ? replacement.charAt(0).toUpperCase() + replacement.slice(1) : replacement;

/** A doubled word's issue covers the repeat and the space before it: deleting it leaves one. */
function doubledIssue(text: string, f: DictionFinding): ProofreadIssue {
  const start = text.slice(0, f.start).search(/\s+$/);
  return {
    start: start === -1 ? f.start : start,
    end: f.end,
    kind: 'grammar',
    message: `"${f.phrase}" is written twice.`,
    suggestions: [''],
  };
}

const dictionIssue = (text: string, f: DictionFinding): ProofreadIssue =>
  f.doubled
    ? doubledIssue(text, f)
    : {
        start: f.start,
        end: f.end,
        kind: 'style',
        message: f.replacement ? `"${f.phrase}" is wordy: "${sameCase(f.replacement, f.phrase)}" says the same.` : f.advice,
        suggestions: f.replacement ? [sameCase(f.replacement, f.phrase)] : [],
      };

/** Each change applied from the end, skipping any that overlaps one already applied. */
function applyChanges<C extends { start: number; end: number; to: string | null }>(
  text: string,
  changes: readonly C[],
): { text: string; applied: C[] } {
  let out = text;
  let limit = Number.POSITIVE_INFINITY;
  const applied: C[] = [];
  for (const c of [...changes].sort((a, b) => b.start - a.start)) {
    if (c.to === null || c.end > limit) continue;
    out = out.slice(0, c.start) + c.to + out.slice(c.end);
    limit = c.start;
    applied.unshift(c);
  }
  return { text: out, applied };
}

/** diction's table for a dictionary's language ("en_GB" has one of its own), or null. */
function dictionTable(dictionary: string, tables: readonly string[]): string | null {
  return tables.includes(dictionary) ? dictionary : (tables.find((t) => t === dictionary.split('_')[0]) ?? null);
}

/**
 * An uploaded PDF's, Word document's or text file's text, as far as the plan's pages of an AI
 * analysis, to proofread; 2405 for another owner's file, 11005 for a document without text.
 */
export async function proofreadFileText(
  ctx: AppContext,
  identity: Identity,
  ownerId: string,
  body: { file_id: string; passwd?: string },
): Promise<string> {
  const row = await unlockedFile(ctx, ownerId, body.file_id, body.passwd);
  const { pages } = await documentText(ctx, row, {
    maxPages: aiAccountOf(ctx, identity).limits.pagesPerAnalysis,
    // A text file is cut at the characters one check takes; far more bytes than that are refused unread.
    maxTextBytes: AI_LANGUAGE_LIMITS.maxTextChars * 4 * 10,
    tooLong: () => new QuireError(ErrorCode.TooLarge),
    password: body.passwd,
  });
  const text = pages.join('\n\n').trim();
  if (!text) throw new QuireError(ErrorCode.TextTooShort, 'The document has no text to check.');
  return text;
}

const PROOFREAD_SYSTEM =
  'Correct the spelling, grammar and punctuation of the text below, changing as little as you can and keeping its language. ' +
  'Answer with the corrected text only.';

export async function proofread(
  ctx: AppContext,
  identity: Identity,
  body: { text: string; lang: string },
  stream?: TextStream,
): Promise<ProofreadAnswer> {
  const text = body.text.slice(0, AI_LANGUAGE_LIMITS.maxTextChars);
  const truncated = body.text.length > text.length;
  // A model's corrected text, read back word by word as issues (their first suggestions give it back exactly).
  const byModel = await modelAnswerFor(ctx, identity, 'proofread', PROOFREAD_SYSTEM, text, stream);
  if (byModel) {
    const issues = textChanges(text, byModel.text).map(
      (c): ProofreadIssue => ({ ...c, kind: 'grammar', message: 'The language model suggests a change here.', suggestions: [c.to] }),
    );
    return { text, truncated, dictionary: body.lang, issues, corrected: byModel.text, tokens: byModel.tokens };
  }
  const dictionary = dictionaryFor(body.lang, await installedDictionaries());
  if (!dictionary) throw new QuireError(ErrorCode.LanguageUnavailable);
  const table = dictionTable(dictionary, await dictionLanguages());
  const answer = await charged(ctx, identity, wordCount(text), async () => {
    const [spelling, findings, passive] = await Promise.all([
      misspellings(dictionary, text, ctx.inspectLimits),
      table ? dictionFindings(table, text, ctx.inspectLimits) : [],
      dictionary.startsWith('en') ? passiveSentences(text, ctx.inspectLimits) : [],
    ]);
    const issues: ProofreadIssue[] = [
      ...spelling.map(
        (m): ProofreadIssue => ({
          start: m.start,
          end: m.end,
          kind: 'spelling',
          message: m.suggestions.length ? `"${m.word}" may be misspelt.` : `"${m.word}" is not in the dictionary.`,
          suggestions: m.suggestions,
        }),
      ),
      ...findings.map((f) => dictionIssue(text, f)),
      ...passive.map(
        (s): ProofreadIssue => ({ ...s, kind: 'style', message: 'Passive voice: say who does what, where you can.', suggestions: [] }),
      ),
    ].sort((a, b) => a.start - b.start || a.end - b.end);
    const corrected = applyChanges(
      text,
      issues.map((i) => ({ start: i.start, end: i.end, to: i.suggestions[0] ?? null })),
    ).text;
    return { text, truncated, dictionary, issues, corrected };
  });
  stream?.onText(answer.corrected);
  return answer;
}

/** The sentence of `context` that holds `text` (the first, ignoring case), or null. */
function sentenceOf(context: string, text: string): string | null {
  const sentences = context.match(/[^.!?\n]+(?:[.!?]+|$)/g) ?? [];
  const needle = text.toLowerCase();
  return sentences.find((s) => s.toLowerCase().includes(needle))?.trim() ?? null;
}

const DETERMINERS = new Set([
  'a',
  'an',
  'the',
  'this',
  'that',
  'these',
  'those',
  'my',
  'your',
  'his',
  'her',
  'its',
  'our',
  'their',
  'some',
  'any',
  'each',
  'every',
  'no',
  'of',
]);
const SUBJECTS_AND_MODALS = new Set([
  'i',
  'you',
  'we',
  'they',
  'he',
  'she',
  'it',
  'to',
  'will',
  'would',
  'can',
  'could',
  'shall',
  'should',
  'may',
  'might',
  'must',
  'do',
  'does',
  'did',
  "don't",
  "didn't",
]);
const BE = new Set([
  'is',
  'are',
  'was',
  'were',
  'be',
  'been',
  'being',
  'am',
  'seems',
  'looks',
  'very',
  'too',
  'so',
  'quite',
  'rather',
  'more',
  'most',
]);

/**
 * The part of speech the word before suggests ("the bank" a noun, "to bank" a verb, "is quick"
 * an adjective), among those WordNet has for the word; else its most used one.
 */
function partOfSpeech(sentence: string | null, text: string, senses: readonly { pos: WordnetPos; tagCount: number }[]): WordnetPos | null {
  const has = new Set(senses.map((s) => s.pos));
  if (!has.size) return null;
  const before = sentence
    ? sentence
        .toLowerCase()
        .split(text.toLowerCase())[0]!
        .match(/[\p{L}']+/gu)
        ?.at(-1)
    : undefined;
  const wanted: WordnetPos[] = !before
    ? []
    : DETERMINERS.has(before)
      ? ['noun', 'adj']
      : SUBJECTS_AND_MODALS.has(before)
        ? ['verb']
        : BE.has(before)
          ? ['adj', 'verb']
          : [];
  const hinted = wanted.find((p) => has.has(p));
  if (hinted) return hinted;
  const use = (pos: WordnetPos) => senses.filter((s) => s.pos === pos).reduce((n, s) => n + s.tagCount + 1, 0);
  return [...has].sort((a, b) => use(b) - use(a))[0]!;
}

/** Senses one explanation lists at most. */
const MAX_SENSES = 12;

/** WordNet's senses of the text, those of the part of speech its sentence suggests first. */
async function dictionaryEntry(ctx: AppContext, body: { text: string; context?: string }) {
  const senses = await wordSenses(body.text, ctx.inspectLimits);
  const sentence = body.context ? sentenceOf(body.context, body.text) : null;
  const pos = partOfSpeech(sentence, body.text, senses);
  const ordered = [...senses.filter((s) => s.pos === pos), ...senses.filter((s) => s.pos !== pos)].slice(0, MAX_SENSES);
  return {
    text: body.text,
    sentence,
    pos,
    senses: ordered.map(({ pos: p, lemma, synonyms, definition, examples }) => ({ pos: p, lemma, synonyms, definition, examples })),
  };
}

const EXPLAIN_SYSTEM = 'Explain in two or three plain sentences what the quoted words mean in the passage they come from.';

/** WordNet's senses; with a model, its explanation in context too (charged as the model counted, the dictionary free). */
export async function explain(
  ctx: AppContext,
  identity: Identity,
  body: { text: string; context?: string },
  stream?: TextStream,
): Promise<ExplainAnswer> {
  const prompt = `Words: "${body.text}"\n\nPassage: ${body.context ?? body.text}`;
  const byModel = await modelAnswerFor(ctx, identity, 'explain', EXPLAIN_SYSTEM, prompt, stream);
  if (byModel) return { ...(await dictionaryEntry(ctx, body)), explanation: byModel.text, tokens: byModel.tokens };
  return charged(ctx, identity, wordCount(body.text) + wordCount(body.context ?? ''), async () => ({
    ...(await dictionaryEntry(ctx, body)),
    explanation: null,
  }));
}

type RewriteChange = RewriteAnswer['changes'][number];

/** Where a long sentence may be split: a semicolon, or a comma before and/but/so/yet, with the next word's first letter. */
const SPLIT_POINT = /;\s+(\p{L})|,\s+(?:(and|but|so|yet)\s+)(\p{L})/giu;

/** Sentences of more than longSentenceWords words split once, at the split point nearest their middle. */
function sentenceSplits(text: string): RewriteChange[] {
  const changes: RewriteChange[] = [];
  for (const s of text.matchAll(/[^.!?]+[.!?]*/g)) {
    const sentence = s[0];
    if (wordCount(sentence) <= AI_LANGUAGE_LIMITS.longSentenceWords) continue;
    const middle = sentence.length / 2;
    const best = [...sentence.matchAll(SPLIT_POINT)].sort((a, b) => Math.abs(a.index - middle) - Math.abs(b.index - middle))[0];
    if (!best) continue;
    const conjunction = best[2]?.toLowerCase();
    const letter = (best[1] ?? best[3])!;
    // "and" joins what two sentences say anyway; "but", "so" and "yet" carry meaning and stay.
    const to =
      conjunction && conjunction !== 'and'
        ? `. ${conjunction[0]!.toUpperCase()}${conjunction.slice(1)} ${letter}`
        : `. ${letter.toUpperCase()}`;
    const start = s.index + best.index;
    changes.push({ start, end: start + best[0].length, kind: 'split', from: best[0], to });
  }
  return changes;
}

const REWRITE_SYSTEM = {
  simplify: 'Rewrite the text below in plain words and short sentences, keeping its meaning. Answer with the rewritten text only.',
  shorten: 'Shorten the text below, keeping its meaning. Answer with the shortened text only.',
  paraphrase: 'Paraphrase the text below in other words, keeping its meaning. Answer with the paraphrase only.',
} as const;
const MODEL_REWRITE_NOTE = 'Rewritten by the language model the operator configured: read it against the original before you use it.';

const REWRITE_NOTE =
  'Rewritten by rules, without a language model: plainer words and shorter phrases from GNU diction’s tables, long ' +
  'sentences split at semicolons and conjunctions, passive voice flagged (English). A language model rewrites for ' +
  'meaning and tone; the operator can configure one (a local GGUF model or an OpenAI-compatible endpoint).';

export async function rewrite(
  ctx: AppContext,
  identity: Identity,
  body: { text: string; mode: 'simplify' | 'shorten' | 'paraphrase' },
  stream?: TextStream,
): Promise<RewriteAnswer> {
  const byModel = await modelAnswerFor(ctx, identity, 'rewrite', REWRITE_SYSTEM[body.mode], body.text, stream);
  if (byModel) return { text: byModel.text, changes: [], note: MODEL_REWRITE_NOTE, tokens: byModel.tokens };
  const answer = await charged(ctx, identity, wordCount(body.text), async () => {
    const [findings, passive] = await Promise.all([
      dictionFindings('en', body.text, ctx.inspectLimits),
      passiveSentences(body.text, ctx.inspectLimits),
    ]);
    const phrases = findings
      .filter((f) => f.replacement)
      .map((f): RewriteChange => {
        const wordy = /\s/.test(f.phrase);
        return { start: f.start, end: f.end, kind: wordy ? 'wordy' : 'plain-word', from: f.phrase, to: sameCase(f.replacement!, f.phrase) };
      });
    const flags = passive.map((s: Span): RewriteChange => ({ ...s, kind: 'passive', from: body.text.slice(s.start, s.end), to: null }));
    const made =
      body.mode === 'simplify'
        ? [...phrases, ...sentenceSplits(body.text)]
        : body.mode === 'shorten'
          ? phrases.filter((c) => c.kind === 'wordy')
          : [];
    // A change overlapping one further on (a split inside a wordy phrase) is not made, nor listed.
    const { text, applied } = applyChanges(body.text, made);
    const changes = [...applied, ...flags].sort((a, b) => a.start - b.start);
    return { text, changes, note: REWRITE_NOTE };
  });
  stream?.onText(answer.text);
  return answer;
}
