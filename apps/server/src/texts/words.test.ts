import fs from 'node:fs';
import {
  errorMessages,
  ErrorCode,
  imageTooLargeMessage,
  ocrNoLanguageMessage,
  pageRangeMessages,
  protectPasswordMessage,
  shareEmailMessages,
  shareLimitMessages,
  signMessages,
  siteLanguages,
  tooManyPixelsMessage,
  ocrTooLargeMessage,
  OCR_LIMIT_MB,
  QuireError,
} from '@quire/contracts';
import { catalogueTexts } from '@quire/contracts/catalogueFiles';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inEnglish, languageOf, refusal, type Said, saidOf, wordsFor } from './words.js';

const dir = new URL('./locales/', import.meta.url);
const read = (file: string): Record<string, string> => JSON.parse(fs.readFileSync(new URL(file, dir), 'utf8'));
/** Its placeholders, the plural ones marked: "count (plural), dpi". */
const placeholders = (text: string) =>
  [...new Set([...text.matchAll(/\{(\w+)(\}|, plural,)/g)].map((m) => (m[2] === '}' ? m[1] : `${m[1]} (plural)`)))].sort();
/** The categories of each plural block. */
const pluralCategories = (text: string) =>
  [...text.matchAll(/\{\w+, plural,((?:\s*\w+\s*\{(?:[^{}]|\{\w+\})*\})+)\s*\}/g)].map((m) =>
    [...m[1]!.matchAll(/(zero|one|two|few|many|other)\s*\{(?:[^{}]|\{\w+\})*\}/g)].map((c) => c[1]).sort(),
  );

describe("the server's texts", () => {
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
      // Each plural block words every plural category of the language, and only those.
      const categories = new Intl.PluralRules(locale).resolvedOptions().pluralCategories.slice().sort();
      for (const block of pluralCategories(texts[key]!)) expect(block, key).toEqual(categories);
      // A text of nothing but placeholders ("{list}.") may read the same.
      if (locale !== 'en-us' && /[a-z]{3}/i.test(text.replace(/\{[^}]*\}/g, ''))) expect(texts[key], key).not.toBe(text);
    }
  });

  it('words hours and dates by the locale, and falls back to English', () => {
    expect(wordsFor('de').hours(48)).toBe('48 Stunden');
    expect(wordsFor('ru').hours(48)).toBe('48 часов');
    expect(wordsFor(undefined).hours(1)).toBe('1 hour');
    expect(wordsFor('xx').t('mail.reset.subject')).toBe(english['mail.reset.subject']);
    expect(wordsFor('jp').dateTime(Date.UTC(2026, 11, 2, 7, 30))).toBe('2026年12月2日 7:30');
    expect(wordsFor('').t('mail.share.wrote', { sender: 'ann@example.org' })).toBe('ann@example.org wrote:');
  });

  it('holds every message constant the server says, so each is said in the caller’s language', () => {
    const constants = [
      ...Object.values(pageRangeMessages),
      ...Object.values(signMessages),
      shareEmailMessages.tooMany,
      shareEmailMessages.duplicate,
      shareLimitMessages.notInPlan,
      shareLimitMessages.signedOut,
      imageTooLargeMessage,
      tooManyPixelsMessage,
      ocrNoLanguageMessage,
      ocrTooLargeMessage(OCR_LIMIT_MB),
      protectPasswordMessage,
    ];
    for (const message of constants) expect(saidOf({ message }), message).not.toBeNull();
    // The catalogue's own messages are worded by their code, and a message neither holds stays as it is.
    expect(saidOf({ message: errorMessages[ErrorCode.Damaged] })).toBeNull();
    expect(wordsFor('de').message({ message: 'Something else.' })).toBe('Something else.');
    expect(wordsFor('de').message({ code: ErrorCode.TaskFailed, message: 'Something else.' })).toBe('Something else.');
    expect(wordsFor('de').message({ message: pageRangeMessages.invalid })).toBe(read('de-de.json')['error.range.invalid']);
  });

  it('words the error catalogue’s plain codes in the caller’s language', () => {
    const plain = new QuireError(ErrorCode.NoData);
    const german = catalogueTexts('de-de')[ErrorCode.NoData]!;
    expect(german).not.toBe(errorMessages[ErrorCode.NoData]);
    expect(wordsFor('de').message(plain)).toBe(german);
    expect(wordsFor('jp').code(ErrorCode.NoData)).toBe(catalogueTexts('ja-jp')[ErrorCode.NoData]);
    expect(wordsFor('').message(plain)).toBe(errorMessages[ErrorCode.NoData]);
  });

  it('words a refusal with its numbers in the caller’s language, and keeps its English as the message', () => {
    const e = refusal(ErrorCode.TooManyPages, 'error.limit.pages', { max: 50 }, { upgrade: 'normalPageLimit', limit: 50 });
    expect(e.message).toBe('The number of pages exceeds the limit of 50 pages.');
    expect(e.data).toEqual({ upgrade: 'normalPageLimit', limit: 50 });
    const german = wordsFor('de').message(e);
    expect(german).toBe(read('de-de.json')['error.limit.pages']!.replace('{max}', '50'));
    expect(german).not.toBe(e.message);
    // Words within words, and numbers grouped the locale's way.
    const limit = { key: 'error.limit.renderPixels', params: { pages: 40, dpi: 600, total: 12000, max: 2000 } } as const;
    const way = { key: 'error.limit.fewerPages', params: { pages: 6, dpi: 600 } } as const;
    expect(inEnglish({ key: 'error.limit.renderTry', params: { limit, way } })).toBe(
      '40 pages at 600 dpi would be about 12,000 million pixels, more than the 2,000 million one conversion may make. ' +
        'Please choose fewer pages at a time (6 or fewer at 600 dpi).',
    );
    expect(wordsFor('de').t('error.limit.renderTry', { limit, way })).toContain('12.000');
  });

  it('words plurals by the language’s own rules and lists as the language lists things', () => {
    const images = (count: number): Said => ({ key: 'note.compress.fontsSubset', params: { count } });
    expect(inEnglish(images(1))).toBe('1 font subset');
    expect(inEnglish(images(3))).toBe('3 fonts subset');
    const russian = read('ru-ru.json')['note.compress.fontsSubset']!;
    const branch = (category: string) => new RegExp(`${category}\\s*\\{([^}]*)\\}`).exec(russian)![1]!;
    // 1, 2–4 and 5 fonts take three forms in Russian.
    const russianOf = (said: Said) => wordsFor('ru').t(said.key, said.params);
    expect(russianOf(images(1))).toContain(branch('one').replace('#', '1'));
    expect(russianOf(images(3))).toContain(branch('few').replace('#', '3'));
    expect(russianOf(images(5))).toContain(branch('many').replace('#', '5'));
    expect(new Set([branch('one'), branch('few'), branch('many')]).size).toBeGreaterThan(1);
    const did: Said = { key: 'note.compress.did', params: { list: [{ key: 'note.compress.metadataTrimmed' }, images(2)] } };
    expect(inEnglish(did)).toBe('Blank padding taken out of the metadata, 2 fonts subset.');
    // Russian lists units with spaces alone: its list says "и".
    expect(russianOf(did)).toContain(' и ');
  });

  it('finds the site language an Accept-Language header asks for', () => {
    expect(languageOf('de-DE,de;q=0.9,en;q=0.8')).toBe('de');
    expect(languageOf('en;q=0.5, ja;q=0.9')).toBe('jp');
    expect(languageOf('pt')).toBe('pt');
    expect(languageOf('zh-TW')).toBe('tw');
    expect(languageOf('zh')).toBe('zh');
    expect(languageOf('fr-CA')).toBe('fr');
    expect(languageOf('xx, *')).toBe('');
    expect(languageOf(undefined)).toBe('');
  });

  it("words zod's own messages in the caller's language, a schema's custom one first", () => {
    const schema = z.object({ name: z.string(), password: z.string().min(6, { message: protectPasswordMessage }) });
    const issue = (prefix: string, data: unknown) =>
      schema.safeParse(data, { error: wordsFor(prefix).schemaErrors }).error!.issues[0]!.message;
    expect(issue('de', { password: 'long enough' })).toMatch(/^Ungültige Eingabe/);
    expect(issue('', { password: 'long enough' })).toMatch(/^Invalid input/);
    expect(issue('de', { name: 'a', password: 'x' })).toBe(protectPasswordMessage);
  });
});
