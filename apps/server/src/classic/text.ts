// Words and sentences of a document's text, for retrieval and extractive summaries: terms are
// lower-cased letter-or-digit runs with their common English suffixes stripped, stop words left out.

const STOP_WORDS = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below between both but by can ' +
    'could did do does doing down during each few for from further had has have having he her here hers herself him himself his how ' +
    'i if in into is it its itself just may me might more most must my myself no nor not now of off on once only or other our ours ' +
    'ourselves out over own same shall she should so some such than that the their theirs them themselves then there these they this ' +
    'those through to too under until up upon us very was we were what when where which while who whom why will with would you your ' +
    'yours yourself yourselves does say says said tell page document pdf'
  ).split(' '),
);

/** Suffixes stripped from a word, longest first: enough to meet "transactions" with "transaction" and "hashing" with "hash". */
const SUFFIXES = [
  'ational',
  'ization',
  'fulness',
  'iveness',
  'ations',
  'ation',
  'ments',
  'ment',
  'ness',
  'ings',
  'ing',
  'ies',
  'ied',
  'ers',
  'er',
  'ed',
  'es',
  's',
];

/** A word reduced to its stem (a light suffix stripping in the spirit of Porter's first steps). */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  for (const suffix of SUFFIXES) {
    if (!word.endsWith(suffix) || word.length - suffix.length < 3) continue;
    if (suffix === 's' && (word.endsWith('ss') || word.endsWith('us') || word.endsWith('is'))) return word;
    const base = word.slice(0, -suffix.length);
    if (suffix === 'ies' || suffix === 'ied') return `${base}y`;
    return base;
  }
  return word;
}

/** The words of a text as written, letters and digits of any script. */
export function wordsOf(text: string): string[] {
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
}

export const isStopWord = (word: string) => STOP_WORDS.has(word.toLowerCase());

/** A word, and the parts of a word written in camel case (an API's createLinearGradient: create, Linear, Gradient). */
const withCamelParts = (word: string) => {
  const parts = word.split(/(?<=\p{Ll})(?=\p{Lu})/u);
  return parts.length > 1 ? [word, ...parts] : [word];
};

/** The terms of a text: its content words, lower case and stemmed. */
export function termsOf(text: string): string[] {
  return wordsOf(text)
    .flatMap(withCamelParts)
    .map((w) => w.toLowerCase().replace(/['’]s$/, ''))
    .filter((w) => !STOP_WORDS.has(w) && (w.length > 1 || /\d/.test(w)))
    .map(stem);
}

/** Words as the classic provider counts tokens: every word, stop words too. */
export const countWords = (text: string) => wordsOf(text).length;

/**
 * The sentences of a text: split after . ! ? (and their CJK forms) followed by a space or the end,
 * and at blank lines; a line break inside a paragraph is a space (PDF text breaks every line).
 */
export function sentencesOf(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .flatMap((paragraph) =>
      paragraph
        .replace(/-\n(?=\p{Ll})/gu, '')
        .replace(/\s*\n\s*/g, ' ')
        .split(/(?<=[.!?。！？])\s+(?=[\p{Lu}\p{N}"“([])/u),
    )
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
