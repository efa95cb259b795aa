import fs from 'node:fs';
import { siteLanguages } from '@quire/contracts';
import { describe, expect, it } from 'vitest';
import { mailWords } from './mailTexts.js';

const dir = new URL('./texts/', import.meta.url);
const read = (file: string): Record<string, string> => JSON.parse(fs.readFileSync(new URL(file, dir), 'utf8'));
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the mail texts', () => {
  const english = read('en-us.json');

  it('has a file for each site language and no other', () => {
    expect(fs.readdirSync(dir).sort()).toEqual(siteLanguages.map((l) => `${l.locale}.json`).sort());
  });

  it.each(siteLanguages.map((l) => l.locale))('%s has English’s keys and placeholders, translated', (locale) => {
    const texts = read(`${locale}.json`);
    expect(Object.keys(texts)).toEqual(Object.keys(english));
    for (const [key, text] of Object.entries(english)) {
      expect(texts[key]!.trim(), key).not.toBe('');
      expect(placeholders(texts[key]!), key).toEqual(placeholders(text));
      if (locale !== 'en-us') expect(texts[key], key).not.toBe(text);
    }
  });

  it('words hours and dates by the locale, and falls back to English', () => {
    expect(mailWords('de').hours(48)).toBe('48 Stunden');
    expect(mailWords('ru').hours(48)).toBe('48 часов');
    expect(mailWords(undefined).hours(1)).toBe('1 hour');
    expect(mailWords('xx').t('reset.subject')).toBe(english['reset.subject']);
    expect(mailWords('jp').dateTime(Date.UTC(2026, 11, 2, 7, 30))).toBe('2026年12月2日 7:30');
    expect(mailWords('').t('share.wrote', { sender: 'ann@example.org' })).toBe('ann@example.org wrote:');
  });
});
