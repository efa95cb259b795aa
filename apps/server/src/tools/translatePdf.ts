// Translate a PDF into a new PDF that keeps its layout: each paragraph (MuPDF's text block) is
// translated whole, by the model the operator configured for translation (a few paragraphs a
// request) or else by Apertium (through a pivot language where no direct pair is installed), then
// dealt back over the paragraph's own lines in proportion to their lengths; each line's new text
// takes the old one's place, shrunk to its width (as replace text writes, engines/mupdf/replace.ts).
import fs from 'node:fs/promises';
import path from 'node:path';
import { AI_LANGUAGE_LIMITS, ErrorCode, QuireError } from '@quire/contracts';
import type { ModelProvider } from '../engines/ai/model.js';
import { checkModelPair, englishName, translationSystem } from '../engines/ai/translation.js';
import { type ApertiumDirection, installedDirections, routeOf, translateAlong } from '../engines/language/apertium.js';
import { runMupdf } from '../engines/mupdf.js';
import type { PageLines, ReplaceLinesJob } from '../engines/mupdf/jobs.js';
import { tookTooLong } from '../engines/run.js';
import { defineTool, outputName, readableInput, singleInput, type ToolContext } from './tool.js';
import type { Said } from '../texts/words.js';

interface Block {
  page: number;
  block: number;
  lines: { line: number; text: string }[];
}

/** Paragraphs worth translating: those with a letter (page numbers and rules of dashes stay). */
export function blocksOf(pages: readonly PageLines[]): Block[] {
  const blocks: Block[] = [];
  for (const { page, lines } of pages) {
    let current: Block | null = null;
    let currentId = -1;
    for (const { line, block, text } of lines) {
      if (!current || block !== currentId) {
        current = { page, block, lines: [] };
        currentId = block;
        blocks.push(current);
      }
      current.lines.push({ line, text });
    }
  }
  return blocks.filter((b) => b.lines.some((l) => /\p{L}/u.test(l.text)));
}

/** A paragraph's lines as one text: a word hyphenated at a line's end is joined again. */
export function paragraphText(lines: readonly { text: string }[]): string {
  return lines
    .map((l) => l.text.trim())
    .reduce((joined, next) => {
      if (!joined) return next;
      return /\p{Ll}-$/u.test(joined) && /^\p{Ll}/u.test(next) ? joined.slice(0, -1) + next : `${joined} ${next}`;
    }, '');
}

/**
 * The translation dealt over the paragraph's lines: each line gets the words that start within its
 * share of the text, its share being its length's share of the original; a line may come out empty.
 */
export function dealOver(lines: readonly { text: string }[], translation: string): string[] {
  const lengths = lines.map((l) => l.text.trim().length);
  const total = lengths.reduce((a, b) => a + b, 0) || 1;
  const ends: number[] = [];
  lengths.reduce((sum, n) => {
    ends.push((sum + n) / total);
    return sum + n;
  }, 0);
  const out = lines.map(() => [] as string[]);
  const words = [...translation.trim().matchAll(/\S+/g)];
  const length = translation.trim().length || 1;
  for (const word of words) {
    const at = word.index / length;
    const i = ends.findIndex((end) => at < end);
    out[i === -1 ? lines.length - 1 : i]!.push(word[0]);
  }
  return out.map((w) => w.join(' '));
}

/** The groups of consecutive `texts` each about `most` in `size` at most (one larger goes alone), in order. */
function inBatches(texts: readonly string[], most: number, size: (text: string) => number): string[][] {
  const batches: string[][] = [];
  let filled = Number.POSITIVE_INFINITY;
  for (const text of texts) {
    if (filled + size(text) > most) {
      batches.push([]);
      filled = 0;
    }
    batches.at(-1)!.push(text);
    filled += size(text);
  }
  return batches;
}

/** Paragraphs go to Apertium together, a blank line between each (kept as it is, as a paragraph break). */
const PARAGRAPH_BREAK = '\n\n';
/** Characters of paragraphs per Apertium run: its answer stays well inside what runEngine captures. */
const BATCH_CHARS = 100_000;

/** The paragraphs translated by Apertium along `route`, in batches of about BATCH_CHARS, in order. */
async function apertiumParagraphs(ctx: ToolContext, route: ApertiumDirection[], texts: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const batch of inBatches(texts, BATCH_CHARS, (text) => text.length + PARAGRAPH_BREAK.length)) {
    const joined = batch.join(PARAGRAPH_BREAK) + PARAGRAPH_BREAK;
    const translated = (await translateAlong(route, joined, ctx.workDir, ctx.limits)).split(PARAGRAPH_BREAK).slice(0, -1);
    if (translated.length !== batch.length) throw new QuireError(ErrorCode.TaskFailed, 'The translation lost the paragraphs apart.');
    out.push(...translated);
  }
  return out;
}

/**
 * UTF-8 bytes of paragraphs per model request: a few paragraphs, which with their answer
 * (answerTokens) stay inside a context of 4096 tokens, llama.cpp's usual and the local default.
 */
const MODEL_BATCH_BYTES = 1200;
/** Most tokens an answer may have: twice its text's bytes (a translation's tokens seldom reach its source's bytes), and room for the numbers. */
const answerTokens = (text: string) => 2 * Buffer.byteLength(text) + 64;

/** Paragraphs as one request gives them: each after its number in brackets, a blank line between. */
export const numbered = (texts: readonly string[]) => texts.map((text, i) => `[${i + 1}] ${text}`).join('\n\n');

/** The answer to numbered paragraphs read back: each number's text, or null unless it has 1 to `count` in order, each with text. */
export function readNumbered(answer: string, count: number): string[] | null {
  // What comes before [1] ("Here is the translation:") is no paragraph's.
  const parts = answer.split(/^[ \t]*\[(\d+)\][ \t]*/m).slice(1);
  if (parts.length !== 2 * count) return null;
  const texts = Array.from({ length: count }, (_, i) => (Number(parts[2 * i]) === i + 1 ? parts[2 * i + 1]!.trim() : ''));
  return texts.every(Boolean) ? texts : null;
}

const numberedSystem = (from: string, to: string) =>
  `Translate each numbered paragraph below from ${englishName(from)} into ${englishName(to)}. Answer with each ` +
  "paragraph's translation after its number in square brackets, [1], [2] and so on, one translation per number, and nothing else.";

/**
 * The paragraphs translated by `model`: numbered, a batch of MODEL_BATCH_BYTES a request, each
 * asked for alone (as pasted text is) where an answer does not read back; the tokens the engine
 * counted. Stops at the task's end (cancelled or out of time: ctx.limits.signal), a model's answer
 * cut short there being of no use.
 */
async function modelParagraphs(
  ctx: ToolContext,
  model: ModelProvider,
  p: { from: string; to: string },
  texts: readonly string[],
  progress: (done: number) => void,
): Promise<{ texts: string[]; tokens: number }> {
  const signal = ctx.limits.signal;
  let tokens = 0;
  const ask = async (system: string, text: string) => {
    if (signal?.aborted) throw tookTooLong();
    let answer = '';
    const request = {
      messages: [
        { role: 'system' as const, content: system },
        { role: 'user' as const, content: text },
      ],
      maxTokens: answerTokens(text),
      temperature: 0,
      signal,
    };
    const usage = await model.generate(request, (piece) => {
      answer += piece;
    });
    tokens += usage.promptTokens + usage.completionTokens;
    if (signal?.aborted) throw tookTooLong();
    return answer.trim();
  };
  // An empty answer leaves the paragraph as it was.
  const alone = async (text: string) => (await ask(translationSystem(p.from, p.to), text)) || text;
  const out: string[] = [];
  for (const batch of inBatches(texts, MODEL_BATCH_BYTES, (text) => Buffer.byteLength(text))) {
    const read = batch.length > 1 ? readNumbered(await ask(numberedSystem(p.from, p.to), numbered(batch)), batch.length) : null;
    if (read) out.push(...read);
    else for (const text of batch) out.push(await alone(text));
    progress(out.length);
  }
  return { texts: out, tokens };
}

export const translatePdf = defineTool({
  id: 'translate_pdf',
  inputsOf: singleInput,
  async run(ctx, p) {
    const input = ctx.inputs[0]!;
    const model = ctx.modelFor?.('translate') ?? null;
    // The pair is checked again as the provider now configured sees it.
    if (model) checkModelPair(p.from, p.to);
    const route = model ? [] : routeOf(await installedDirections(), p.from, p.to, AI_LANGUAGE_LIMITS.maxHops);
    if (!route) throw new QuireError(ErrorCode.LanguageUnavailable);
    const readable = await readableInput(ctx, input);
    ctx.progress(5);
    const linesFile = path.join(ctx.workDir, 'lines.json');
    await runMupdf({ op: 'textLines', input: readable, output: linesFile }, input.pages, ctx.workDir, ctx.limits, (n) =>
      ctx.progress(5 + n * 0.15),
    );
    const blocks = blocksOf(JSON.parse(await fs.readFile(linesFile, 'utf8')) as PageLines[]);
    const texts = blocks.map((b) => paragraphText(b.lines));
    const byModel = model && (await modelParagraphs(ctx, model, p, texts, (done) => ctx.progress(20 + (40 * done) / texts.length)));
    const translated = byModel ? byModel.texts : await apertiumParagraphs(ctx, route, texts);
    ctx.progress(60);
    const pages = new Map<number, ReplaceLinesJob['pages'][number]>();
    blocks.forEach((block, i) => {
      if (translated[i]!.trim() === texts[i]) return;
      const page = pages.get(block.page) ?? { page: block.page, lines: [] };
      pages.set(block.page, page);
      // A line that comes out as it was ("1." before a heading) is left alone, in its own font.
      const dealt = dealOver(block.lines, translated[i]!);
      page.lines.push(
        ...block.lines
          .map((l, n) => ({ line: l.line, block: block.block, text: dealt[n]! }))
          .filter((l, n) => l.text !== block.lines[n]!.text.trim()),
      );
    });
    const output = path.join(ctx.workDir, 'output.pdf');
    const result = await runMupdf(
      { op: 'replaceLines', input: readable, output, pages: [...pages.values()] },
      input.pages,
      ctx.workDir,
      ctx.limits,
      (n) => ctx.progress(60 + n * 0.4),
    );
    const font: Said | '' = result.fallbackFont ? { key: 'note.translate.font', params: { font: result.fallbackFont } } : '';
    const languages = route
      .slice(1)
      .map((d) => d.from)
      .join(', ');
    const via: Said | '' = languages ? { key: 'note.translate.via', params: { languages } } : '';
    const note: Said = byModel
      ? { key: 'note.translate.model', params: { count: result.lines, from: p.from, to: p.to, tokens: byModel.tokens, font } }
      : { key: 'note.translate.lines', params: { count: result.lines, from: p.from, to: p.to, via, font } };
    return [{ path: output, name: outputName(input.name, p.to), note }];
  },
});
