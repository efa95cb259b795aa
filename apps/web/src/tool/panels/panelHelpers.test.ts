import { describe, expect, it } from 'vitest';
import { parseCropRanges } from '@quire/contracts';
import type { ReadyFile } from '../../files/fileList';
import de from '../../i18n/locales/de-de.json';
import ja from '../../i18n/locales/ja-jp.json';
import { translate } from '../../i18n/translate';
import { fileFields, rangeErrorText, readRanges, togglePage } from './common';
import { defaultSplitRanges, withNextRange } from './splitRanges';

describe('readRanges', () => {
  it('is empty, not an error, while blank', () => {
    expect(readRanges('  ', 10)).toEqual({ ranges: [], pages: [] });
  });

  it('gives the pages of a valid list and the message for what is wrong otherwise', () => {
    expect(readRanges('3-4, 1', 10).pages).toEqual([1, 3, 4]);
    expect(readRanges('1-', 10).error).toBe('Please input something like: 1, 6-159, or 59-100');
    expect(readRanges('1-11', 10).error).toBe('Please enter a valid page range.');
  });
});

describe("a range list's mistake", () => {
  it("is said in the page's language, not in English", () => {
    const crop = parseCropRanges('1-12', 10);
    const mistakes = [readRanges('1-', 10).error!, readRanges('1-11', 10).error!, crop.ok ? '' : crop.message];
    const german = (key: Parameters<typeof translate>[2]) => translate('de-de', de, key);
    expect(mistakes.map((m) => rangeErrorText(german, m))).toEqual([
      'Bitte geben Sie einen Bereich wie 1, 6-159 oder 59-100 ein',
      'Bitte geben Sie einen gültigen Seitenbereich ein.',
      'Maximale Seitenzahl überschritten',
    ]);
    expect(rangeErrorText((key) => translate('ja-jp', ja, key), mistakes[1]!)).toBe('有効なページ範囲を入力してください。');
    expect(rangeErrorText(german, 'Select at least one page.')).toBe('Select at least one page.');
  });
});

describe('page picking', () => {
  it('toggles a page in and out', () => {
    expect(togglePage([1, 3], 2)).toEqual([1, 3, 2]);
    expect(togglePage([1, 3], 3)).toEqual([1]);
  });

  it('sends the password only for an unlocked file', () => {
    const file = { info: { file_id: 'f1' } } as ReadyFile;
    expect(fileFields(file)).toEqual({ file_id: 'f1' });
    expect(fileFields({ ...file, password: 'pw' })).toEqual({ file_id: 'f1', passwd: 'pw' });
  });
});

describe('split range suggestions', () => {
  it('starts with two halves', () => {
    expect(defaultSplitRanges(0)).toBe('');
    expect(defaultSplitRanges(1)).toBe('1');
    expect(defaultSplitRanges(2)).toBe('1, 2');
    expect(defaultSplitRanges(3)).toBe('1-2, 3');
    expect(defaultSplitRanges(17)).toBe('1-9, 10-17');
  });

  it('adds the range after the last one', () => {
    expect(withNextRange('1-3', 3, 17)).toBe('1-3, 4-17');
    expect(withNextRange('1-3, ', 3, 17)).toBe('1-3, 4-17');
    expect(withNextRange('1-16', 16, 17)).toBe('1-16, 17');
    expect(withNextRange('', 0, 17)).toBe('1-17');
  });
});
