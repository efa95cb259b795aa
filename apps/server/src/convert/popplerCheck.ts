// The document model checked against poppler's reading of the same pages (pdftotext): a page
// whose model lost most of the text poppler reads (a font MuPDF cannot map to characters, a page
// it cannot read) is written as poppler's text instead, one paragraph per block, so that a
// conversion never hands back an empty document for a PDF whose text can be read. Pure functions.
import { type Block, type DocModel, type DocPage, runsText } from './model.js';

/**
 * A page whose model holds less than this share of the letters poppler reads on it lost them: it
 * is written from poppler's text. A reading that differs rather than loses stays: a double-byte
 * text that one reader takes byte by byte holds about half as many letters, and words set along a
 * curve come out whole from one reader and in pieces from the other, with the same letters.
 */
const HELD_SHARE = 1 / 3;
/** Pages where poppler reads fewer letters than this are left as they are: too little to compare. */
const MIN_LETTERS = 100;
/** Poppler's text is taken only where most of its letters are of one script: glyph numbers read as characters are not text. */
const ONE_SCRIPT_SHARE = 0.8;
/** An image over this share of the page is its background (a scan under its text). */
const BACKGROUND_SHARE = 0.8;

/** How many letters and digits a text has. */
const letterCount = (text: string) => text.replace(/[^\p{L}\p{N}]/gu, '').length;

/** Scripts a text is written in; Chinese and Japanese characters count as one. */
const SCRIPTS = [
  ...['Latin', 'Greek', 'Cyrillic', 'Armenian', 'Georgian', 'Hebrew', 'Arabic', 'Devanagari', 'Bengali', 'Tamil', 'Thai', 'Hangul'].map(
    (script) => new RegExp(`\\p{Script=${script}}`, 'u'),
  ),
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u,
];

/** Whether most of the text's letters are of one script, as in any written text. */
export function readsAsText(text: string): boolean {
  const letters = [...text.replace(/\P{L}/gu, '')];
  const counts = SCRIPTS.map((script) => letters.filter((c) => script.test(c)).length);
  return Math.max(...counts) >= ONE_SCRIPT_SHARE * letters.length;
}

function blockText(block: Block): string {
  if (block.kind === 'heading' || block.kind === 'paragraph') return runsText(block.runs);
  if (block.kind === 'list') return block.items.map((i) => runsText(i.runs)).join('\n');
  if (block.kind === 'table') return block.rows.flatMap((row) => row.flatMap((cell) => cell.map(runsText))).join('\n');
  return '';
}

/** Poppler's text of a page (blocks apart by a blank line) as paragraphs: a block's lines joined, words hyphenated across lines made whole. */
export function textFlowBlocks(text: string, size: number, serif: boolean): Block[] {
  return text
    .split(/\n[ \t]*\n/)
    .map((block) =>
      block
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
        .reduce((joined, line) => {
          if (!joined) return line;
          return /\p{L}-$/u.test(joined) && /^\p{Ll}/u.test(line) ? joined.slice(0, -1) + line : `${joined} ${line}`;
        }, ''),
    )
    .filter(Boolean)
    .map((paragraph) => ({ kind: 'paragraph', runs: [{ text: paragraph, size, ...(serif && { serif: true }) }] }));
}

function textFlowPage(page: DocPage, text: string, model: DocModel): DocPage {
  const area = page.width * page.height;
  // The page's pictures stay, after its text, but not one under the whole page: the scan the text was read from.
  const images = page.blocks.filter((b) => b.kind === 'image' && b.width * b.height <= BACKGROUND_SHARE * area);
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => [{ x: 0, text: l }]);
  return { ...page, blocks: [...textFlowBlocks(text, model.bodySize, model.bodySerif), ...images], lines };
}

/**
 * The model with each page that lost most of poppler's text (`popplerPages`, one text per page)
 * written as poppler's text instead, and the (1-based) numbers of those pages.
 */
export function keepPopplerText(model: DocModel, popplerPages: string[]): { model: DocModel; textFlowPages: number[] } {
  const textFlowPages: number[] = [];
  const pages = model.pages.map((page, i) => {
    const text = popplerPages[i] ?? '';
    const expected = letterCount(text);
    if (expected < MIN_LETTERS || letterCount(page.blocks.map(blockText).join('\n')) >= HELD_SHARE * expected) return page;
    if (!readsAsText(text)) return page;
    textFlowPages.push(i + 1);
    return textFlowPage(page, text, model);
  });
  return { model: { ...model, pages }, textFlowPages };
}
