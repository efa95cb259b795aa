import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FEATURE_NAMES, featuresOf, HumanTextModel, sentenceStats, splitSentences } from './features.js';
import { detect, type DetectorWeights, WEIGHTS_FILE } from './detector.js';

const model = new HumanTextModel(fs.readFileSync(path.join(import.meta.dirname, 'human.txt'), 'utf8'));
const feature = (text: string, name: string) =>
  featuresOf(splitSentences(text).map((s) => sentenceStats(model, s.text)))[FEATURE_NAMES.indexOf(name)]!;

describe('splitSentences', () => {
  it('splits at sentence ends and blank lines, with offsets into the text', () => {
    const text = '  First one ends here. "Second" asks? Third, e.g. this, goes on.\n\nA heading\nJ. Smith wrote 3.5 pages. 4 more.';
    const sentences = splitSentences(text);
    expect(sentences.map((s) => s.text)).toEqual([
      'First one ends here.',
      '"Second" asks?',
      'Third, e.g. this, goes on.',
      'A heading\nJ. Smith wrote 3.5 pages.',
      '4 more.',
    ]);
    for (const s of sentences) expect(text.slice(s.start, s.end)).toBe(s.text);
  });

  it('splits after CJK full stops', () => {
    expect(splitSentences('今日は晴れ。明日は雨！').map((s) => s.text)).toEqual(['今日は晴れ。', '明日は雨！']);
  });
});

describe('features', () => {
  it('finds English prose less surprising than letters at random', () => {
    const english = 'The manual page describes the options of the command and the files it reads.';
    const random = 'Qzx vkjw pfq zzyx wqkj vbnm qwpx jjkq zxcv bnmq wert yuio pasd fghj klzx cvbn mqwe.';
    expect(feature(english, 'charBitsPerChar')).toBeLessThan(feature(random, 'charBitsPerChar') - 1);
    expect(feature(english, 'wordBitsPerWord')).toBeLessThan(feature(random, 'wordBitsPerWord'));
  });

  it('measures no burstiness in identical sentences and some in varied ones', () => {
    const same = 'The cat sat on the mat. '.repeat(6);
    const varied =
      'Stop. The long grey river wound slowly past the mills, the chapels and the empty quays of the old town. Why? Nobody knew.';
    expect(feature(same, 'charBitsSpread')).toBeCloseTo(0, 6);
    expect(feature(same, 'sentenceWordsVariation')).toBeCloseTo(0, 6);
    expect(feature(varied, 'charBitsSpread')).toBeGreaterThan(0.3);
    expect(feature(varied, 'sentenceWordsVariation')).toBeGreaterThan(0.5);
  });

  it('measures vocabulary richness over a moving window, and punctuation per 100 characters', () => {
    expect(feature('word '.repeat(200), 'typeTokenRatio')).toBeCloseTo(1 / 50, 6);
    const distinct = Array.from(
      { length: 120 },
      (_, i) => `w${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`,
    );
    expect(feature(distinct.join(' '), 'typeTokenRatio')).toBe(1);
    expect(feature('a; b; c; d.', 'mark:semicolon')).toBeCloseTo((100 * 3) / 11, 6);
  });
});

describe('detector', () => {
  it('has weights trained on the features it measures', () => {
    const weights = JSON.parse(fs.readFileSync(WEIGHTS_FILE, 'utf8')) as DetectorWeights;
    expect(weights.features).toEqual(FEATURE_NAMES);
    expect(weights.weights).toHaveLength(FEATURE_NAMES.length);
  });

  it('scores every sentence with its neighbours, within 0 and 1', () => {
    const text = fs.readFileSync('/usr/share/common-licenses/Apache-2.0', 'utf8').slice(0, 3000);
    const { score, sentences } = detect(text);
    expect(score).toBeGreaterThanOrEqual(0);
    expect(score).toBeLessThanOrEqual(1);
    expect(sentences.length).toBeGreaterThan(5);
    for (const s of sentences) {
      expect(text.slice(s.start, s.end)).toBe(s.sentence);
      expect(s.score).toBeGreaterThanOrEqual(0);
      expect(s.score).toBeLessThanOrEqual(1);
    }
  });
});
