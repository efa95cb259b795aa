// The classic provider's summary of a document, made without a model: its most central sentences
// (TextRank), its keywords (TextRank over co-occurring words), an outline from its bookmarks or
// else from the lines set larger than its body text, and questions suggested by that structure.
import { countWords, sentencesOf, stem, termsOf, wordsOf, isStopWord } from './text.js';

export interface OutlineEntry {
  title: string;
  /** 1-based. */
  page: number;
  /** 1 for the top level. */
  level: number;
}

/** A line of a page as laid out: its text and its height in points (the font size, near enough). */
export interface TextLine {
  page: number;
  text: string;
  height: number;
}

export interface ClassicSummary {
  summary: string;
  keywords: string[];
  outline: OutlineEntry[];
  questions: string[];
}

/** Outline entries kept at most: a long table of contents says nothing more in a summary. */
const MAX_OUTLINE = 40;
/** Sentences ranked at most (TextRank compares every pair): the first ones of a long document. */
const MAX_SENTENCES = 400;
const MAX_KEYWORDS = 8;
/** A heading is set at least this much larger than the body text. */
const HEADING_SCALE = 1.15;

/** The height most of the text is set in (weighted by characters): the body's. */
function bodyHeight(lines: readonly TextLine[]): number {
  const byHeight = new Map<number, number>();
  for (const l of lines) {
    const h = Math.round(l.height * 2) / 2;
    byHeight.set(h, (byHeight.get(h) ?? 0) + l.text.length);
  }
  return [...byHeight].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
}

const NUMBERED_HEADING = /^(\d+(\.\d+)*\.?)\s+\p{Lu}/u;

/**
 * Headings found by their look: short lines without a closing full stop, set larger than the body
 * (levels by size, largest first), or numbered like "2.1 Methods" at the body's size or larger.
 */
export function headingsOf(lines: readonly TextLine[]): OutlineEntry[] {
  const body = bodyHeight(lines);
  if (!body) return [];
  const looksLikeTitle = (l: TextLine) => {
    const words = wordsOf(l.text).length;
    const text = l.text.trim();
    return words >= 1 && words <= 12 && /^[\p{Lu}\p{N}]/u.test(text) && /\p{L}{2}/u.test(text) && !/[.,;:-]$/.test(text);
  };
  const candidates = lines.filter(
    (l) => looksLikeTitle(l) && (l.height >= body * HEADING_SCALE || (NUMBERED_HEADING.test(l.text) && l.height >= body * 0.95)),
  );
  const sizes = [...new Set(candidates.map((l) => Math.round(l.height)))].sort((a, b) => b - a);
  const entries: OutlineEntry[] = [];
  let previous: TextLine | undefined;
  for (const l of lines) {
    const isHeading = candidates.includes(l);
    const numbered = isHeading ? l.text.match(NUMBERED_HEADING)?.[1] : undefined;
    const title = l.text.trim().replace(/\s+/g, ' ');
    const last = entries.at(-1);
    // A heading broken over two lines (the one before a heading too, the same size, not numbered) reads as one.
    if (
      isHeading &&
      !numbered &&
      last &&
      previous &&
      candidates.includes(previous) &&
      previous.page === l.page &&
      Math.round(previous.height) === Math.round(l.height)
    )
      last.title = `${last.title} ${title}`;
    else if (isHeading) {
      const level = numbered ? numbered.replace(/\.$/, '').split('.').length : Math.min(3, sizes.indexOf(Math.round(l.height)) + 1);
      entries.push({ title, page: l.page, level });
    }
    previous = l;
  }
  return entries.slice(0, MAX_OUTLINE);
}

/** PageRank over a weighted, undirected graph given as a matrix; returns each node's score. */
function pageRank(weights: number[][], iterations = 30, damping = 0.85): number[] {
  const n = weights.length;
  const outSum = weights.map((row) => row.reduce((a, b) => a + b, 0));
  let scores = new Array<number>(n).fill(1 / n);
  for (let it = 0; it < iterations; it++) {
    scores = scores.map((_, i) => {
      let sum = 0;
      for (let j = 0; j < n; j++) if (weights[j]![i]! > 0 && outSum[j]! > 0) sum += (weights[j]![i]! / outSum[j]!) * scores[j]!;
      return (1 - damping) / n + damping * sum;
    });
  }
  return scores;
}

/** The most central sentences (TextRank: shared terms over the log of the lengths), in the document's order. */
export function centralSentences(text: string, count: number): string[] {
  const sentences = sentencesOf(text)
    .filter((s) => {
      const words = countWords(s);
      const letters = (s.match(/\p{L}/gu) ?? []).length;
      // Prose, not a table of contents' dot leaders or a formula.
      return words >= 6 && words <= 60 && letters >= 0.7 * s.replace(/\s/g, '').length;
    })
    .slice(0, MAX_SENTENCES);
  const terms = sentences.map((s) => new Set(termsOf(s)));
  const weights = terms.map((a, i) =>
    terms.map((b, j) => {
      if (i === j || a.size < 2 || b.size < 2) return 0;
      let common = 0;
      for (const t of a) if (b.has(t)) common++;
      return common / (Math.log(a.size) + Math.log(b.size));
    }),
  );
  const scores = pageRank(weights);
  return scores
    .map((score, i) => ({ score, i }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, count)
    .sort((a, b) => a.i - b.i)
    .map(({ i }) => sentences[i]!);
}

/** Keywords by TextRank over words that stand within three of each other, shown as the form written most. */
export function keywordsOf(text: string, count = MAX_KEYWORDS): string[] {
  const words = wordsOf(text).map((w) => w.toLowerCase());
  const content = words.filter((w) => !isStopWord(w) && w.length > 2 && !/^\d+$/.test(w));
  const stems = content.map(stem);
  const index = new Map<string, number>();
  for (const s of stems) if (!index.has(s)) index.set(s, index.size);
  const n = index.size;
  if (n === 0) return [];
  const weights = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < stems.length; i++)
    for (let j = i + 1; j < Math.min(stems.length, i + 3); j++) {
      const a = index.get(stems[i]!)!;
      const b = index.get(stems[j]!)!;
      if (a === b) continue;
      weights[a]![b]! += 1;
      weights[b]![a]! += 1;
    }
  const scores = pageRank(weights);
  const forms = new Map<string, Map<string, number>>();
  content.forEach((w, i) => {
    const f = forms.get(stems[i]!) ?? new Map<string, number>();
    f.set(w, (f.get(w) ?? 0) + 1);
    forms.set(stems[i]!, f);
  });
  return [...index]
    .sort((a, b) => scores[b[1]]! - scores[a[1]]!)
    .slice(0, count)
    .map(([s]) => [...forms.get(s)!].sort((a, b) => b[1] - a[1])[0]![0]);
}

/** Headings that say nothing of the content, never turned into questions. */
const GENERIC_HEADINGS =
  /^(abstract|contents|table of contents|introduction|references|bibliography|acknowledg(e)?ments?|appendix|index|summary)$/i;

/** 3 to 5 questions from the document's structure: its sections first, then its keywords. */
export function suggestedQuestions(outline: readonly OutlineEntry[], keywords: readonly string[]): string[] {
  const questions: string[] = [];
  const topics = outline
    .map((e) => e.title.replace(NUMBERED_HEADING, (m) => m.slice(m.search(/\p{Lu}/u))).replace(/^\d+(\.\d+)*\.?\s+/, ''))
    .filter((t) => t.length > 2 && !GENERIC_HEADINGS.test(t));
  for (const topic of [...new Set(topics)].slice(0, 3)) questions.push(`What does the document say about ${topic}?`);
  for (const keyword of keywords) {
    if (questions.length >= 5) break;
    if (!questions.some((q) => q.toLowerCase().includes(keyword))) questions.push(`What is said about ${keyword}?`);
  }
  return questions.slice(0, 5);
}

/** The summary of a document's analysed text, with its bookmarks when it has them (else headings from `lines`). */
export function summarise(pages: readonly string[], lines: readonly TextLine[], bookmarks: readonly OutlineEntry[]): ClassicSummary {
  const text = pages.join('\n\n');
  const sentenceCount = sentencesOf(text).length;
  const summary = centralSentences(text, Math.max(3, Math.min(6, Math.round(sentenceCount / 10)))).join(' ');
  const keywords = keywordsOf(text);
  const outline = bookmarks.length ? bookmarks.slice(0, MAX_OUTLINE) : headingsOf(lines);
  return { summary, keywords, outline, questions: suggestedQuestions(outline, keywords) };
}
