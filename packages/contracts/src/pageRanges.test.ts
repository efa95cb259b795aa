import { describe, expect, it } from 'vitest';
import { formatPageRanges, pageRangeMessages, pagesOf, parseCropRanges, parsePageRanges } from './pageRanges.js';

describe('parsePageRanges', () => {
  it('reads the spec example, keeping the order given', () => {
    expect(parsePageRanges('1, 6-159, 59-100', 200)).toEqual({
      ok: true,
      ranges: [
        { from: 1, to: 1 },
        { from: 6, to: 159 },
        { from: 59, to: 100 },
      ],
    });
  });

  it('accepts loose spacing and a trailing comma', () => {
    expect(parsePageRanges(' 2 - 3 ,4,', 5).ok).toBe(true);
  });

  it.each(['', 'abc', '1-', '-3', '1--3', '1,,2', '1.5', '1 2'])('gives the format message for %j', (input) => {
    expect(parsePageRanges(input, 10)).toEqual({ ok: false, message: pageRangeMessages.format });
  });

  it.each(['0', '3-2', '11', '5-11'])('gives the invalid-range message for %j in 10 pages', (input) => {
    expect(parsePageRanges(input, 10)).toEqual({ ok: false, message: pageRangeMessages.invalid });
  });

  it('keeps the spec wording', () => {
    expect(pageRangeMessages).toEqual({
      format: 'Please input something like: 1, 6-159, or 59-100',
      invalid: 'Please enter a valid page range.',
      tooMany: 'Maximum number of pages exceeded',
    });
  });
});

describe('pagesOf and formatPageRanges', () => {
  it('round-trip a set of pages', () => {
    const ranges = parsePageRanges('7, 1-3, 2', 10);
    if (!ranges.ok) throw new Error('parse failed');
    expect(pagesOf(ranges.ranges)).toEqual([1, 2, 3, 7]);
    expect(formatPageRanges([7, 3, 1, 2])).toBe('1-3, 7');
    expect(formatPageRanges([])).toBe('');
  });
});

describe('parseCropRanges', () => {
  it('says a range past the last page exceeds the maximum number of pages', () => {
    expect(parseCropRanges('1, 9-12', 10)).toEqual({ ok: false, message: pageRangeMessages.tooMany });
    expect(parseCropRanges('11', 10)).toEqual({ ok: false, message: pageRangeMessages.tooMany });
  });

  it('keeps the other two messages and accepts ranges inside the document', () => {
    expect(parseCropRanges('1-', 10)).toEqual({ ok: false, message: pageRangeMessages.format });
    expect(parseCropRanges('3-2', 10)).toEqual({ ok: false, message: pageRangeMessages.invalid });
    expect(parseCropRanges('0', 10)).toEqual({ ok: false, message: pageRangeMessages.invalid });
    expect(parseCropRanges('2, 4-10', 10)).toEqual({
      ok: true,
      ranges: [
        { from: 2, to: 2 },
        { from: 4, to: 10 },
      ],
    });
  });
});
