// The statistical AI-text detector's measurements of a text: how surprising its characters and
// words are to n-gram models of human text, how much that surprise and the sentence length vary
// from sentence to sentence (human writing is burstier), how rich its vocabulary is, and how it
// uses function words and punctuation. Pure computation over the text; no model file is run.

/** A sentence of the text; start and end are offsets into it (UTF-16 code units, as JavaScript indexes strings). */
export interface Sentence {
  text: string;
  start: number;
  end: number;
}

/** Abbreviations after which a full stop does not end the sentence. */
const ABBREVIATIONS = new Set([
  'e.g',
  'i.e',
  'etc',
  'vs',
  'cf',
  'dr',
  'mr',
  'mrs',
  'ms',
  'prof',
  'no',
  'fig',
  'st',
  'jr',
  'sr',
  'al',
  'approx',
  'p',
  'pp',
]);

/** Splits a text into sentences: at . ! ? followed by a space and a capital, digit or quote, at blank lines, and after CJK full stops. */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  const boundary = /([.!?…]+["'”’)\]]*)(\s+)(?=["'“‘([]?[\p{Lu}\p{N}])|[。！？]|\n\s*\n/gu;
  let start = 0;
  const push = (end: number) => {
    const raw = text.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const body = raw.trim();
    if (/[\p{L}\p{N}]/u.test(body)) out.push({ text: body, start: start + lead, end: start + lead + body.length });
  };
  for (const m of text.matchAll(boundary)) {
    const end = m.index + (m[1] ? m[1].length : m[0].length);
    if (m[1]?.startsWith('.') && m[1].length === 1) {
      const word = /([\p{L}.]+)$/u.exec(text.slice(Math.max(start, m.index - 12), m.index))?.[1]?.toLowerCase();
      // "e.g. The", "Dr. Smith", a single initial "J. Smith": the stop belongs to the word.
      if (word && (ABBREVIATIONS.has(word) || /^\p{L}$/u.test(word))) continue;
    }
    push(end);
    start = end;
  }
  push(text.length);
  return out;
}

/** Words as the models count them: letters (with inner apostrophes), lower case. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/\p{L}+(?:['’]\p{L}+)*/gu) ?? [];
}

/** The characters the character model reads: lower case, digits as 0, runs of space as one. */
export function charStream(text: string): string {
  return text.toLowerCase().replace(/\p{N}/gu, '0').replace(/\s+/g, ' ');
}

/** Order of the character model: a character given the three before it. */
const CHAR_ORDER = 4;

/**
 * A character n-gram model with Witten-Bell interpolation, and a word unigram model with add-one
 * smoothing, both counted from human text.
 */
export class HumanTextModel {
  private readonly counts = new Map<string, number>();
  /** Per context: how often it was followed by anything, and by how many distinct characters. */
  private readonly contexts = new Map<string, { total: number; types: number }>();
  private readonly chars = new Set<string>();
  private charTotal = 0;
  private readonly words = new Map<string, number>();
  private wordTotal = 0;

  constructor(text: string) {
    const s = charStream(text);
    for (let i = 0; i < s.length; i++) {
      this.chars.add(s[i]!);
      this.charTotal++;
      for (let n = 1; n <= CHAR_ORDER && n <= i + 1; n++) {
        const gram = s.slice(i - n + 1, i + 1);
        const seen = this.counts.get(gram) ?? 0;
        this.counts.set(gram, seen + 1);
        const ctx = gram.slice(0, -1);
        const c = this.contexts.get(ctx) ?? { total: 0, types: 0 };
        c.total++;
        if (seen === 0) c.types++;
        this.contexts.set(ctx, c);
      }
    }
    for (const w of wordsOf(text)) {
      this.words.set(w, (this.words.get(w) ?? 0) + 1);
      this.wordTotal++;
    }
  }

  /** -log2 P(ch | the characters before it), interpolated down to the unigram (which knows an unseen character). */
  private charBits(history: string, ch: string): number {
    let p = ((this.counts.get(ch) ?? 0) + 1) / (this.charTotal + this.chars.size + 1);
    for (let n = 1; n < CHAR_ORDER && n <= history.length; n++) {
      const ctx = history.slice(history.length - n);
      const c = this.contexts.get(ctx);
      if (!c) break;
      p = ((this.counts.get(ctx + ch) ?? 0) + c.types * p) / (c.total + c.types);
    }
    return -Math.log2(p);
  }

  /** Total surprise in bits of a text's characters, and how many there were. */
  charSurprise(text: string): { bits: number; chars: number } {
    const s = charStream(text);
    let bits = 0;
    for (let i = 0; i < s.length; i++) bits += this.charBits(s.slice(Math.max(0, i - CHAR_ORDER + 1), i), s[i]!);
    return { bits, chars: s.length };
  }

  /** -log2 P(word) under the unigram model. */
  wordBits(word: string): number {
    return -Math.log2(((this.words.get(word) ?? 0) + 1) / (this.wordTotal + this.words.size + 1));
  }
}

/** English function words: their share of the words is a style marker that topic changes little. */
const FUNCTION_WORDS = new Set(
  (
    'a about above after again against all also an and any are as at be because been before being below between both but by can could did do does ' +
    'doing down during each few for from further had has have having he her here hers him his how i if in into is it its itself just me more most ' +
    'my no nor not now of off on once only or other our out over own same she should so some such than that the their them then there these they ' +
    'this those through to too under until up very was we were what when where which while who whom why will with would you your'
  ).split(' '),
);
/** Function words measured one by one: those whose rates differ most between writers. */
const MARKER_WORDS = ['the', 'of', 'and', 'a', 'to', 'is', 'it', 'that', 'this', 'you', 'i', 'we', 'not', 'which'] as const;
/** Punctuation measured per character. */
const MARKS: Record<string, RegExp> = {
  comma: /,/g,
  semicolon: /;/g,
  colon: /:/g,
  dash: /[—–]|\s-\s/g,
  paren: /\(/g,
  quote: /["“”]/g,
  apostrophe: /['’]/g,
  exclaim: /!/g,
  question: /\?/g,
  digit: /\p{N}/gu,
  upper: /\p{Lu}/gu,
};

/** What one sentence contributes: sums, so that any run of sentences is measured by adding them. */
export interface SentenceStats {
  charBits: number;
  chars: number;
  wordBits: number;
  words: string[];
  marks: Record<string, number>;
  letters: number;
}

export function sentenceStats(model: HumanTextModel, text: string): SentenceStats {
  const { bits, chars } = model.charSurprise(text);
  const words = wordsOf(text);
  let wordBits = 0;
  for (const w of words) wordBits += model.wordBits(w);
  const marks: Record<string, number> = {};
  for (const [name, re] of Object.entries(MARKS)) marks[name] = text.match(re)?.length ?? 0;
  return { charBits: bits, chars, wordBits, words, marks, letters: words.reduce((n, w) => n + w.length, 0) };
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const std = (xs: readonly number[]) => {
  const m = mean(xs);
  return Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
};

/** Words in the moving window of the type-token ratio: fixed, so that it does not fall with the text's length. */
const TTR_WINDOW = 50;

/** Moving-average type-token ratio: the share of distinct words in each window of TTR_WINDOW words, averaged. */
function movingTypeTokenRatio(words: readonly string[]): number {
  if (words.length === 0) return 0;
  if (words.length <= TTR_WINDOW) return new Set(words).size / words.length;
  const seen = new Map<string, number>();
  for (const w of words.slice(0, TTR_WINDOW)) seen.set(w, (seen.get(w) ?? 0) + 1);
  let sum = seen.size;
  for (let i = TTR_WINDOW; i < words.length; i++) {
    const gone = words[i - TTR_WINDOW]!;
    const left = seen.get(gone)! - 1;
    if (left === 0) seen.delete(gone);
    else seen.set(gone, left);
    seen.set(words[i]!, (seen.get(words[i]!) ?? 0) + 1);
    sum += seen.size;
  }
  return sum / TTR_WINDOW / (words.length - TTR_WINDOW + 1);
}

/** The names of the features, in the order of the vector `featuresOf` returns (and of the model's weights). */
export const FEATURE_NAMES = [
  'charBitsPerChar',
  'charBitsSpread',
  'wordBitsPerWord',
  'wordBitsSpread',
  'sentenceWords',
  'sentenceWordsVariation',
  'wordLength',
  'typeTokenRatio',
  'functionWords',
  ...MARKER_WORDS.map((w) => `word:${w}`),
  ...Object.keys(MARKS).map((m) => `mark:${m}`),
];

/** The feature vector of a run of sentences (their stats), in FEATURE_NAMES order. */
export function featuresOf(stats: readonly SentenceStats[]): number[] {
  const words = stats.flatMap((s) => s.words);
  const chars = Math.max(
    1,
    stats.reduce((n, s) => n + s.chars, 0),
  );
  const wordCount = Math.max(1, words.length);
  const perSentenceChar = stats.filter((s) => s.chars > 0).map((s) => s.charBits / s.chars);
  const perSentenceWord = stats.filter((s) => s.words.length > 0).map((s) => s.wordBits / s.words.length);
  const lengths = stats.map((s) => s.words.length);
  const rate = (w: string) => words.filter((x) => x === w).length / wordCount;
  return [
    stats.reduce((n, s) => n + s.charBits, 0) / chars,
    std(perSentenceChar),
    stats.reduce((n, s) => n + s.wordBits, 0) / wordCount,
    std(perSentenceWord),
    mean(lengths),
    std(lengths) / Math.max(1, mean(lengths)),
    stats.reduce((n, s) => n + s.letters, 0) / wordCount,
    movingTypeTokenRatio(words),
    words.filter((w) => FUNCTION_WORDS.has(w)).length / wordCount,
    ...MARKER_WORDS.map(rate),
    ...Object.keys(MARKS).map((m) => (100 * stats.reduce((n, s) => n + s.marks[m]!, 0)) / chars),
  ];
}
