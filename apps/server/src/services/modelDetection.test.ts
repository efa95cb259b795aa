import { describe, expect, it } from 'vitest';
import type { ScoredToken } from '../engines/ai/model.js';
import { machineLikelihood, modelDetection, perplexityRatio, RATIO_MIDPOINT } from './modelDetection.js';

/** Tokens of `chars` characters each from `start`, every one read with this surprise (−ln p) and entropy. */
const tokens = (start: number, count: number, surprise: number, entropy: number, chars = 1): ScoredToken[] =>
  Array.from({ length: count }, (_, i) => ({ start: start + i * chars, logprob: -surprise, entropy }));

describe('perplexityRatio', () => {
  it('is the mean surprise over the mean entropy', () => {
    expect(perplexityRatio([...tokens(0, 3, 2, 4), ...tokens(3, 1, 6, 4)])).toBeCloseTo((2 * 3 + 6) / (4 * 4));
  });

  it('has none for no tokens, and reads a certain model that the text surprised as a person', () => {
    expect(perplexityRatio([])).toBeUndefined();
    expect(perplexityRatio(tokens(0, 2, 1, 0))).toBe(Number.POSITIVE_INFINITY);
    expect(perplexityRatio(tokens(0, 2, 0, 0))).toBe(1);
  });
});

describe('machineLikelihood', () => {
  it('is one half at the midpoint, and falls as the text surprises the model more than it expected', () => {
    expect(machineLikelihood(RATIO_MIDPOINT)).toBeCloseTo(0.5);
    expect(machineLikelihood(0.8)).toBeCloseTo(0.82, 2);
    expect(machineLikelihood(1.0)).toBeCloseTo(0.18, 2);
    expect(machineLikelihood(0.5)).toBeGreaterThan(0.99);
    expect(machineLikelihood(2)).toBeLessThan(0.01);
    expect(machineLikelihood(Number.POSITIVE_INFINITY)).toBe(0);
    expect(machineLikelihood(undefined)).toBe(0.5);
  });
});

describe('modelDetection', () => {
  // Five sentences of 20 characters and a space: the third a machine's (less surprising than the model expected).
  const sentence = (word: string) => `${word} ${'x'.repeat(16 - word.length)}ab.`;
  const words = ['One', 'Two', 'Three', 'Four', 'Five'];
  const text = words.map(sentence).join(' ');
  const at = (i: number) => i * 21;
  const read = words.flatMap((_, i) => (i === 2 ? tokens(at(i), 21, 1, 2) : tokens(at(i), 21, 6, 2)));

  it('scores each sentence with its neighbours, at its offsets in the text', () => {
    const detection = modelDetection(text, read);
    expect(detection.sentences.map((s) => text.slice(s.start, s.end))).toEqual(words.map(sentence));
    expect(detection.sentences.map((s) => s.sentence)).toEqual(words.map(sentence));
    const scores = detection.sentences.map((s) => s.score);
    // Sentences 1 and 5 read no machine tokens; 2 to 4 each read the third's with two human sentences'.
    expect(scores[0]).toBeCloseTo(machineLikelihood(3));
    expect(scores[4]).toBeCloseTo(machineLikelihood(3));
    expect(scores[1]).toBeCloseTo(machineLikelihood((6 * 21 * 2 + 21) / (2 * 21 * 3)));
    expect(scores[2]).toBeCloseTo(scores[1]!);
    expect(detection.score).toBeCloseTo(machineLikelihood((6 * 21 * 4 + 21) / (2 * 21 * 5)));
  });

  it('gives the white space after a sentence to that sentence', () => {
    // One token per sentence, on the space before the next one.
    const straddling = words.map((_, i) => ({ start: at(i) + 20, logprob: i === 0 ? -1 : -6, entropy: 2 }));
    const scores = modelDetection(text, straddling).sentences.map((s) => s.score);
    expect(scores[0]).toBeCloseTo(machineLikelihood(7 / 4));
    expect(scores[1]).toBeCloseTo(machineLikelihood(13 / 6));
    expect(scores[3]).toBeCloseTo(machineLikelihood(3));
  });

  it('is undecided where the model read no token', () => {
    expect(modelDetection(text, []).score).toBe(0.5);
    expect(modelDetection(text, []).sentences.every((s) => s.score === 0.5)).toBe(true);
  });
});
