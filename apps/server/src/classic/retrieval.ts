// Retrieval over a document's passages: pages cut into chunks of a few sentences (never across a
// page, so each has one page to cite) and ranked for a question with Okapi BM25.
import { sentencesOf, termsOf } from './text.js';

/** A passage of one page with its term counts. */
export interface Chunk {
  page: number;
  text: string;
  terms: Record<string, number>;
  /** Terms counted with repeats. */
  length: number;
}

/** Words a chunk holds at most before the next begins; a sentence longer than this is a chunk of its own. */
const CHUNK_WORDS = 80;

function counted(text: string): Pick<Chunk, 'terms' | 'length'> {
  const terms: Record<string, number> = {};
  const list = termsOf(text);
  for (const t of list) terms[t] = (terms[t] ?? 0) + 1;
  return { terms, length: list.length };
}

/** The chunks of each page's text (`pages[0]` is page 1), in reading order. */
export function chunkPages(pages: readonly string[]): Chunk[] {
  const chunks: Chunk[] = [];
  pages.forEach((text, i) => {
    let current: string[] = [];
    let words = 0;
    const flush = () => {
      const joined = current.join(' ').trim();
      if (joined) chunks.push({ page: i + 1, text: joined, ...counted(joined) });
      current = [];
      words = 0;
    };
    for (const sentence of sentencesOf(text)) {
      const n = sentence.split(/\s+/).length;
      if (words > 0 && words + n > CHUNK_WORDS) flush();
      current.push(sentence);
      words += n;
    }
    flush();
  });
  return chunks;
}

/** BM25's usual constants: term frequency saturation and length normalisation. */
const K1 = 1.2;
const B = 0.75;

/** The chunks that answer `question` best, best first, at most `limit`; those sharing no term with it are left out. */
export function rankChunks<C extends Pick<Chunk, 'terms' | 'length'>>(chunks: readonly C[], question: string, limit: number): C[] {
  const query = [...new Set(termsOf(question))];
  if (query.length === 0 || chunks.length === 0) return [];
  const avgLength = chunks.reduce((sum, c) => sum + c.length, 0) / chunks.length || 1;
  const idf = new Map(
    query.map((t) => {
      const df = chunks.filter((c) => c.terms[t]).length;
      return [t, Math.log(1 + (chunks.length - df + 0.5) / (df + 0.5))];
    }),
  );
  return chunks
    .map((chunk) => {
      let score = 0;
      for (const t of query) {
        const tf = chunk.terms[t] ?? 0;
        if (tf) score += (idf.get(t)! * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * chunk.length) / avgLength));
      }
      return { chunk, score };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((s) => s.chunk);
}
