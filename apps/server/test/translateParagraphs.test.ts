// How the PDF translator cuts pages into paragraphs, numbers them for a model and reads its answer
// back, and deals a paragraph's translation back over its lines.
import { describe, expect, it } from 'vitest';
import { blocksOf, dealOver, numbered, paragraphText, readNumbered } from '../src/tools/translatePdf.js';

describe('translatePdf', () => {
  it('groups lines by block, leaving out blocks without a letter', () => {
    const blocks = blocksOf([
      {
        page: 1,
        lines: [
          { line: 1, block: 1, text: 'Title' },
          { line: 2, block: 2, text: 'First line of a' },
          { line: 3, block: 2, text: 'paragraph.' },
          { line: 4, block: 3, text: '12' },
        ],
      },
    ]);
    expect(blocks).toEqual([
      { page: 1, block: 1, lines: [{ line: 1, text: 'Title' }] },
      {
        page: 1,
        block: 2,
        lines: [
          { line: 2, text: 'First line of a' },
          { line: 3, text: 'paragraph.' },
        ],
      },
    ]);
  });

  it('joins a paragraph’s lines, mending words hyphenated at a line’s end only', () => {
    expect(paragraphText([{ text: 'The docu-' }, { text: 'ment is long-' }, { text: 'Term. ' }])).toBe('The document is long- Term.');
  });

  it('deals the translation over the lines in proportion to their lengths', () => {
    const lines = [{ text: 'The house is big and' }, { text: 'the garden is green.' }];
    expect(dealOver(lines, 'La casa es grande y el jardín es verde.')).toEqual(['La casa es grande y', 'el jardín es verde.']);
    // A line may come out empty where the translation is much shorter.
    expect(dealOver([{ text: 'A long first line here' }, { text: 'x' }], 'Uno')).toEqual(['Uno', '']);
  });

  it('numbers paragraphs for a model and reads its answer back by the numbers, or not at all', () => {
    expect(numbered(['The house.', 'The garden.'])).toBe('[1] The house.\n\n[2] The garden.');
    // What comes before the first number is no paragraph's; a paragraph may run over lines.
    expect(readNumbered('Here it is:\n[1] Das Haus.\n  [2] Der Garten\nist grün.\n', 2)).toEqual(['Das Haus.', 'Der Garten\nist grün.']);
    // A number inside a line is the paragraph's own text.
    expect(readNumbered('[1] Siehe [2] unten.\n[2] Unten.', 2)).toEqual(['Siehe [2] unten.', 'Unten.']);
    for (const answer of [
      '[1] Das Haus.',
      '[2] Der Garten.\n[1] Das Haus.',
      '[1] Das Haus.\n[2]\n',
      '[1] Das Haus.\n[2] Der Garten.\n[3] Mehr.',
      'Das Haus. Der Garten.',
    ])
      expect(readNumbered(answer, 2), answer).toBeNull();
  });
});
