// How the PDF translator cuts pages into paragraphs and deals a paragraph's translation back over its lines.
import { describe, expect, it } from 'vitest';
import { blocksOf, dealOver, paragraphText } from '../src/tools/translatePdf.js';

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
});
