// The translator's two MuPDF operations on a PDF: reading each page's lines of text with the
// block (paragraph) each is in, and writing new text over given lines, each in its line's place
// and shrunk to its width (replace.ts's in-place writing). The lines are numbered as pageText
// numbers them, which is the same in both runs on the same file.
import fs from 'node:fs';
import type { JobResults, PageLines, ReplaceLinesJob, TextLinesJob } from './jobs.js';
import { type Char, pageText } from './pageText.js';
import { openPdf, progress, save } from './program.js';
import { FontPicker, type InPlaceEdit, writeInPlace } from './replace.js';

/** The characters of each line of a page, by line number. */
function charsByLine(at: (Char | undefined)[]): Map<number, Char[]> {
  const lines = new Map<number, Char[]>();
  for (const c of at) {
    if (!c) continue;
    const chars = lines.get(c.line) ?? [];
    if (chars.at(-1) !== c) chars.push(c);
    lines.set(c.line, chars);
  }
  return lines;
}

export function textLines(job: TextLinesJob): JobResults['textLines'] {
  const doc = openPdf(job.input);
  const count = doc.countPages();
  const pages: PageLines[] = [];
  for (let i = 0; i < count; i++) {
    const page = doc.loadPage(i);
    const text = pageText(page);
    const byLine = charsByLine(text.at);
    // pageText ends every line with "\n", so the nth piece is line n + 1.
    const lines = text.text
      .split('\n')
      .slice(0, -1)
      .map((t, n) => ({ line: n + 1, block: byLine.get(n + 1)?.[0]?.block ?? 0, text: t }));
    pages.push({ page: i + 1, lines });
    page.destroy();
    progress(i + 1, count);
  }
  fs.writeFileSync(job.output, JSON.stringify(pages));
  return { pages: count };
}

export function replaceLines(job: ReplaceLinesJob): JobResults['replaceLines'] {
  const doc = openPdf(job.input);
  const fonts = new FontPicker(doc);
  let replaced = 0;
  let fallbackFont: string | null = null;
  job.pages.forEach(({ page: pageNumber, lines }, i) => {
    const page = doc.loadPage(pageNumber - 1);
    const byLine = charsByLine(pageText(page).at);
    const edits = lines
      .map(({ line, block, text }): InPlaceEdit => ({ chars: byLine.get(line) ?? [], text, fit: 'shrink', group: block }))
      .filter((e) => e.chars.length > 0);
    replaced += edits.length;
    // Written on every page: `??=` would skip the call once a fallback is known.
    const fallback = writeInPlace(doc, page, fonts, edits);
    fallbackFont ??= fallback;
    page.destroy();
    progress(i + 1, job.pages.length);
  });
  save(doc, job.output);
  return { lines: replaced, fallbackFont };
}
