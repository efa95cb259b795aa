// Translate a PDF into a new PDF that keeps its layout: each paragraph (MuPDF's text block) is
// translated whole by Apertium, through a pivot language where no direct pair is installed, then
// dealt back over the paragraph's own lines in proportion to their lengths; each line's new text
// takes the old one's place, shrunk to its width (as replace text writes, engines/mupdf/replace.ts).
import fs from 'node:fs/promises';
import path from 'node:path';
import { AI_LANGUAGE_LIMITS, ErrorCode, QuireError } from '@quire/contracts';
import { installedDirections, routeOf, translateAlong } from '../engines/language/apertium.js';
import { runMupdf } from '../engines/mupdf.js';
import type { PageLines, ReplaceLinesJob } from '../engines/mupdf/jobs.js';
import { defineTool, outputName, readableInput, singleInput } from './tool.js';
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

/** Paragraphs go to Apertium together, a blank line between each (kept as it is, as a paragraph break). */
const PARAGRAPH_BREAK = '\n\n';
/** Characters of paragraphs per Apertium run: its answer stays well inside what runEngine captures. */
const BATCH_CHARS = 100_000;

/** The paragraphs translated, in batches of about BATCH_CHARS, in order. */
async function translateParagraphs(texts: string[], translate: (text: string) => Promise<string>): Promise<string[]> {
  const batches: string[][] = [];
  let size = Number.POSITIVE_INFINITY;
  for (const text of texts) {
    if (size + text.length > BATCH_CHARS) {
      batches.push([]);
      size = 0;
    }
    batches.at(-1)!.push(text);
    size += text.length + PARAGRAPH_BREAK.length;
  }
  const out: string[] = [];
  for (const batch of batches) {
    const translated = (await translate(batch.join(PARAGRAPH_BREAK) + PARAGRAPH_BREAK)).split(PARAGRAPH_BREAK).slice(0, -1);
    if (translated.length !== batch.length) throw new QuireError(ErrorCode.TaskFailed, 'The translation lost the paragraphs apart.');
    out.push(...translated);
  }
  return out;
}

export const translatePdf = defineTool({
  id: 'translate_pdf',
  inputsOf: singleInput,
  async run(ctx, p) {
    const input = ctx.inputs[0]!;
    const route = routeOf(await installedDirections(), p.from, p.to, AI_LANGUAGE_LIMITS.maxHops);
    if (!route) throw new QuireError(ErrorCode.LanguageUnavailable);
    const readable = await readableInput(ctx, input);
    ctx.progress(5);
    const linesFile = path.join(ctx.workDir, 'lines.json');
    await runMupdf({ op: 'textLines', input: readable, output: linesFile }, input.pages, ctx.workDir, ctx.limits, (n) =>
      ctx.progress(5 + n * 0.15),
    );
    const blocks = blocksOf(JSON.parse(await fs.readFile(linesFile, 'utf8')) as PageLines[]);
    const texts = blocks.map((b) => paragraphText(b.lines));
    const translated = await translateParagraphs(texts, (text) => translateAlong(route, text, ctx.workDir, ctx.limits));
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
    const languages = route
      .slice(1)
      .map((d) => d.from)
      .join(', ');
    const via: Said | '' = languages ? { key: 'note.translate.via', params: { languages } } : '';
    const font: Said | '' = result.fallbackFont ? { key: 'note.translate.font', params: { font: result.fallbackFont } } : '';
    const note: Said = { key: 'note.translate.lines', params: { count: result.lines, from: p.from, to: p.to, via, font } };
    return [{ path: output, name: outputName(input.name, p.to), note }];
  },
});
