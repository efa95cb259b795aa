import { describe, expect, it } from 'vitest';
import { MAX_HITS_PER_PAGE, findHits, patternError, searchPattern } from './textSearch.js';

const hits = (text: string, spec: Parameters<typeof searchPattern>[0]) =>
  findHits(text, searchPattern(spec)).map((h) => text.slice(h.index, h.index + h.length));

describe('text search', () => {
  it('finds a literal phrase across any whitespace, and regex characters in it literally', () => {
    expect(hits('Call John\nSmith or john  smith.', { text: 'John Smith', ignoreCase: true })).toEqual(['John\nSmith', 'john  smith']);
    expect(hits('a+b and aab', { text: 'a+b', ignoreCase: false })).toEqual(['a+b']);
  });

  it('matches case only when asked to', () => {
    expect(hits('The theme, THE end', { text: 'the', ignoreCase: true })).toEqual(['The', 'the', 'THE']);
    expect(hits('The theme, THE end', { text: 'the', ignoreCase: false })).toEqual(['the']);
  });

  it('uses a regular expression as written and skips empty matches', () => {
    expect(hits('IBAN DE44 5001, DE12 3456', { text: 'DE\\d{2} \\d{4}', regex: true, ignoreCase: false })).toEqual([
      'DE44 5001',
      'DE12 3456',
    ]);
    expect(hits('xaax', { text: 'a*', regex: true, ignoreCase: false })).toEqual(['aa']);
  });

  it('caps the hits of one page', () => {
    expect(findHits('a'.repeat(MAX_HITS_PER_PAGE + 10), searchPattern({ text: 'a', ignoreCase: false }))).toHaveLength(MAX_HITS_PER_PAGE);
  });

  it('explains a regular expression that does not compile', () => {
    expect(patternError('(unclosed')).toMatch(/^Invalid regular expression: /);
    expect(patternError('\\d+')).toBeNull();
  });
});
