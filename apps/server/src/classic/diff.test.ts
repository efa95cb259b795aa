import { describe, expect, it } from 'vitest';
import { type TextChange, textChanges } from './diff.js';

const apply = (text: string, changes: TextChange[]) =>
  changes.reduceRight((out, c) => out.slice(0, c.start) + c.to + out.slice(c.end), text);

describe('textChanges', () => {
  it('finds the words that changed, each as one change', () => {
    const from = 'This is is a sentense about the wether.';
    const to = 'This is a sentence about the weather.';
    const changes = textChanges(from, to);
    expect(changes.map((c) => [from.slice(c.start, c.end), c.to])).toEqual([
      ['is ', ''],
      ['sentense', 'sentence'],
      ['wether', 'weather'],
    ]);
    expect(apply(from, changes)).toBe(to);
  });

  it('gives back the other text exactly, whatever the two are', () => {
    const pairs = [
      ['', 'New text.'],
      ['Old text.', ''],
      ['same', 'same'],
      ['Commas , spaced  oddly .', 'Commas, spaced oddly.'],
      ['Un café, s’il vous plaît.', 'Un thé, s’il te plaît !'],
      ['one two three four five', 'five four three two one'],
    ];
    for (const [from, to] of pairs) expect(apply(from!, textChanges(from!, to!))).toBe(to);
    expect(textChanges('same', 'same')).toEqual([]);
  });

  it('makes the differing middle of long texts one change rather than a large table', () => {
    const from = `Start. ${'alpha '.repeat(3000)}End.`;
    const to = `Start. ${'beta '.repeat(3000)}End.`;
    const changes = textChanges(from, to);
    expect(changes).toHaveLength(1);
    expect(apply(from, changes)).toBe(to);
  });
});
