import { describe, expect, it } from 'vitest';
import type { DocModel, DocPage } from './model.js';
import { keepPopplerText, readsAsText, textFlowBlocks } from './popplerCheck.js';

const PROSE = 'The committee met on a cold Tuesday morning to review the proposal for the new library wing. ';
const page = (text: string): DocPage => ({
  width: 612,
  height: 792,
  blocks: [
    { kind: 'paragraph', runs: [{ text, size: 10 }] },
    { kind: 'image', file: 'p1-1.png', mime: 'image/png', width: 200, height: 100, pixels: [400, 200] },
    { kind: 'image', file: 'p1-2.jpg', mime: 'image/jpeg', width: 612, height: 792, pixels: [1700, 2200] },
  ],
  lines: [[{ x: 72, text }]],
});
const model = (...pages: DocPage[]): DocModel => ({ pages, bodySize: 10, bodySerif: true, imagesDir: '/tmp' });

describe('keepPopplerText', () => {
  it("writes a page that lost most of poppler's letters as poppler's paragraphs, keeping its pictures but the page-sized one", () => {
    const poppler = `${PROSE.repeat(2)}\nit goes on over a hyphen-\nated line.\n\nA second block.`;
    const whole = page(PROSE.repeat(2));
    const { model: checked, textFlowPages } = keepPopplerText(model(page('T'), whole), [poppler, PROSE.repeat(2)]);
    expect(textFlowPages).toEqual([1]);
    expect(checked.pages[0]!.blocks.map((b) => (b.kind === 'image' ? b.file : b.kind === 'paragraph' ? b.runs[0]!.text : ''))).toEqual([
      `${PROSE.repeat(2).trim()} it goes on over a hyphenated line.`,
      'A second block.',
      'p1-1.png',
    ]);
    expect(checked.pages[0]!.blocks[0]).toMatchObject({ runs: [{ size: 10, serif: true }] });
    expect(checked.pages[1]).toBe(whole);
  });

  it('leaves a page that reads differently, not less: pieces of the same letters, a double-byte text read byte by byte', () => {
    const pieces = PROSE.repeat(2).replace(/(\w\w)/g, '$1 ');
    expect(keepPopplerText(model(page(PROSE.repeat(2))), [pieces]).textFlowPages).toEqual([]);
    // Latin-1 for GB2312: two letters for each character the model holds.
    const han = '关于红军作战的原则对国防问题的意见同各方接洽要有谦逊态度'.repeat(3);
    const bytes = 'ÄÚÈÝ¹ØÓÚºì¾ü×÷Õ½µÄÔ­Ôò¶Ô¹ú·ÀÎÊÌâµÄÒâ¼ûÍ¬¸÷·½½Ó´¢ÒªÓÐÇ«Ñ·Ì¬¶È'.repeat(4);
    expect(keepPopplerText(model(page(han)), [bytes]).textFlowPages).toEqual([]);
    expect(keepPopplerText(model(page('x')), ['too short to judge']).textFlowPages).toEqual([]);
  });

  it('leaves a page whose poppler text is glyph numbers read as characters of many scripts', () => {
    const glyphs = '̽ଋҨǥƹ̽ୡȥဎഁୡࣧҨဌʾဎಱ̽ೌ¢‫܆‬ȥ¢৞¢ਮΝ੧੅ͱʸ¢͢ฏʤҨ Ϧ̽ଋ¤о м Ϝǥмƹ̽Ϝ ϟୡйȥϜဎഁнୡА ϡࣧ¤оဌѬʾϜဎюಱ̽'.repeat(3);
    expect(readsAsText(glyphs)).toBe(false);
    expect(keepPopplerText(model(page('')), [glyphs]).textFlowPages).toEqual([]);
    expect(readsAsText(PROSE)).toBe(true);
    expect(readsAsText('東京は日本の首都です。ひらがなとカタカナ')).toBe(true);
  });
});

describe('textFlowBlocks', () => {
  it('makes a paragraph of each block of lines', () => {
    expect(textFlowBlocks('one\ntwo\n \nthree', 11, false)).toEqual([
      { kind: 'paragraph', runs: [{ text: 'one two', size: 11 }] },
      { kind: 'paragraph', runs: [{ text: 'three', size: 11 }] },
    ]);
  });
});
