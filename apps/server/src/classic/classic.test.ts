import { describe, expect, it } from 'vitest';
import { chunkPages, rankChunks } from './retrieval.js';
import { headingsOf, suggestedQuestions } from './summary.js';
import { countWords, sentencesOf, stem, termsOf } from './text.js';

describe('classic language technology', () => {
  it('meets a word with its inflections and leaves stop words out', () => {
    expect(stem('transactions')).toBe(stem('transaction'));
    expect(stem('hashing')).toBe(stem('hash'));
    expect(stem('policies')).toBe('policy');
    expect(stem('class')).toBe('class');
    expect(termsOf('What is the proof of the network?')).toEqual(['proof', 'network']);
    expect(countWords("It's proof-of-work, isn't it?")).toBe(4);
    expect(termsOf('createLinearGradient( x0 )')).toEqual(['createlineargradient', 'create', 'linear', 'gradient', 'x0']);
  });

  it("splits sentences at their ends and at blank lines, not at a paragraph's line breaks", () => {
    expect(sentencesOf('The chain grows.\nIt is long. Nodes vote!\n\nA new paragraph')).toEqual([
      'The chain grows.',
      'It is long.',
      'Nodes vote!',
      'A new paragraph',
    ]);
  });

  it('keeps chunks within a page and ranks the one that holds the question’s terms first', () => {
    const chunks = chunkPages(['Cats sleep a lot. Dogs bark.', 'The merkle tree hashes transactions. Blocks link.', '']);
    expect(chunks.map((c) => c.page)).toEqual([1, 2]);
    expect(rankChunks(chunks, 'How are transactions hashed?', 3).map((c) => c.page)).toEqual([2]);
    expect(rankChunks(chunks, 'the of and', 3)).toEqual([]);
  });

  it('finds headings by their size or numbering, and asks about them', () => {
    const body = (page: number, text: string) => ({ page, text, height: 10 });
    const lines = [
      { page: 1, text: 'A Study of Chains', height: 20 },
      body(1, 'Some long body text that goes on and on for the reader.'),
      body(1, 'More body text here, set in the same size as the rest.'),
      { page: 2, text: '2.1 Methods', height: 10 },
      body(2, 'The methods are described at length in this section.'),
      { page: 2, text: 'References', height: 14 },
    ];
    const outline = headingsOf(lines);
    expect(outline).toEqual([
      { title: 'A Study of Chains', page: 1, level: 1 },
      { title: '2.1 Methods', page: 2, level: 2 },
      { title: 'References', page: 2, level: 2 },
    ]);
    expect(suggestedQuestions(outline, ['chain', 'method', 'block'])).toEqual([
      'What does the document say about A Study of Chains?',
      'What does the document say about Methods?',
      // The keywords the sections name already are not asked again.
      'What is said about block?',
    ]);
  });
});
