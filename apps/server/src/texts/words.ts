// The words the server says itself, in each site language: its mails, the messages of the
// refusals and task failures that name a number, a file or a page, and the error catalogue's plain
// messages (kept with the contracts, which the page words from too). The language is the page's:
// its prefix for a mail, the Accept-Language the page sends with each call for a message. Hours
// and dates are worded by the locale's own rules (Intl), so no text carries a plural.
import fs from 'node:fs';
import { type CatalogueTexts, type ErrorCode, errorMessages, type LimitRefusal, QuireError, siteLanguages } from '@quire/contracts';
import { catalogueTexts } from '@quire/contracts/catalogueFiles';
import { locales as schemaLocales, type core } from 'zod';
import english from './locales/en-us.json' with { type: 'json' };

export type TextKey = keyof typeof english;
/**
 * A placeholder's value: a name or number as it is, words of their own ("a lower resolution"), or
 * a list of words ("3 images downsampled…, 2 fonts subset") joined as the locale lists things.
 */
export type TextParams = { [name: string]: string | number | Said | Said[] };
type Catalogue = Record<TextKey, string>;

/** Words to be said later, in the language of whoever reads them: a refusal's, a task's failure. */
export interface Said {
  key: TextKey;
  params?: TextParams;
}

interface Language {
  locale: string;
  texts: Catalogue;
  codes: CatalogueTexts;
}

const languages = new Map<string, Language>(
  siteLanguages.map((language) => [
    language.prefix,
    {
      locale: language.locale,
      texts: JSON.parse(fs.readFileSync(new URL(`./locales/${language.locale}.json`, import.meta.url), 'utf8')) as Catalogue,
      codes: catalogueTexts(language.locale),
    },
  ]),
);

export interface Words {
  /** The text of `key` with its {placeholders} filled. */
  t(key: TextKey, params?: TextParams): string;
  /** "48 hours", "48 Stunden", "48 часов". */
  hours(count: number): string;
  /** A moment as a date and time in UTC. */
  dateTime(ms: number): string;
  /** The error catalogue's message for `code`. */
  code(code: ErrorCode): string;
  /**
   * What a failure says (saidOf), in these words; a plain code's catalogue message; its own message
   * when neither catalogue holds it.
   */
  message(e: { code?: number; message: string; said?: Said }): string;
  /** zod's own messages for a request that fails its schema (a schema's custom ones come first). */
  schemaErrors: core.$ZodErrorMap;
}

/** zod's locale for a site locale: its regional one ("ptBR", "zhTW") where zod has it, else the language's. */
function schemaLocale(locale: string): core.$ZodErrorMap {
  const [language = 'en', region = ''] = locale.split('-');
  const all = schemaLocales as unknown as Record<string, () => { localeError: core.$ZodErrorMap }>;
  return (all[`${language}${region.toUpperCase()}`] ?? all[language] ?? all.en!)().localeError;
}

/** The words for the site language of `prefix` ('jp'); English for none or one not known. */
export function wordsFor(prefix: string | undefined): Words {
  return wordsByPrefix.get(prefix ?? '') ?? wordsByPrefix.get('')!;
}

/** An ICU plural: "{count, plural, one {# image} other {# images}}", each branch plain text, # and {name}s. */
const PLURAL = /\{(\w+), plural,((?:\s*(?:zero|one|two|few|many|other)\s*\{(?:[^{}]|\{\w+\})*\})+)\s*\}/g;
const BRANCH = /(zero|one|two|few|many|other)\s*\{((?:[^{}]|\{\w+\})*)\}/g;

function makeWords({ locale, texts, codes }: Language): Words {
  // Numbers grouped as the locale groups them: "1,999" and "10.000", but Spanish "1999".
  const number = new Intl.NumberFormat(locale);
  const plural = new Intl.PluralRules(locale);
  // "a, b, c" in English, "a, b und c" in German: as the locale lists units, unless those lists have
  // no separator ("a b c" in Russian, "abc" in Chinese), then as it lists with "and" ("a, b и c").
  const units = new Intl.ListFormat(locale, { type: 'unit', style: 'short' });
  const list = /[,、،]/.test(units.format(['a', 'b', 'c'])) ? units : new Intl.ListFormat(locale, { type: 'conjunction' });
  const words: Words = {
    t: function t(key: TextKey, params: TextParams = {}): string {
      const said = (value: TextParams[string]): string => {
        if (Array.isArray(value)) return list.format(value.map((v) => t(v.key, v.params)));
        if (typeof value === 'object') return t(value.key, value.params);
        return typeof value === 'number' ? number.format(value) : value;
      };
      return texts[key]
        .replace(PLURAL, (whole, name: string, branches: string) => {
          const count = Number(params[name]);
          const chosen = new Map([...branches.matchAll(BRANCH)].map((b) => [b[1], b[2]!]));
          const text = chosen.get(plural.select(count)) ?? chosen.get('other');
          return text === undefined || Number.isNaN(count) ? whole : text.replaceAll('#', number.format(count));
        })
        .replace(/\{(\w+)\}/g, (whole, name: string, at: number) => {
          const value = params[name];
          if (value === undefined) return whole;
          // A list that opens its sentence starts with a capital: "Blank padding taken out…, …".
          const text = said(value);
          return at === 0 && Array.isArray(value) ? text.charAt(0).toLocaleUpperCase(locale) + text.slice(1) : text;
        });
    },
    hours: (count) => new Intl.NumberFormat(locale, { style: 'unit', unit: 'hour', unitDisplay: 'long' }).format(count),
    dateTime: (ms) => new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(ms),
    code: (code) => codes[code] ?? errorMessages[code],
    message: (e) => {
      const said = saidOf(e);
      if (said) return words.t(said.key, said.params);
      const plain = e.code !== undefined && errorMessages[e.code as ErrorCode] === e.message;
      return plain ? words.code(e.code as ErrorCode) : e.message;
    },
    schemaErrors: schemaLocale(locale),
  };
  return words;
}

const wordsByPrefix = new Map([...languages].map(([prefix, language]) => [prefix, makeWords(language)]));
const englishWords = wordsFor('');

/** What `said` says in English: the message a log, a test or a caller without a language reads. */
export const inEnglish = (said: Said): string => englishWords.t(said.key, said.params);

/** The keys of the catalogue's texts without placeholders, by their English: what a message constant says. */
const keyOfEnglish = new Map(
  Object.entries(english)
    .filter(([key, text]) => !key.startsWith('mail.') && !text.includes('{'))
    .map(([key, text]) => [text, key as TextKey]),
);

/**
 * What a failure says, to be worded in any language: its own words, or the catalogue's text whose
 * English is its message (a constant of the contracts, a schema's message); null for a message
 * the catalogue does not hold, which stays as it is.
 */
export function saidOf(e: { message: string; said?: Said }): Said | null {
  if (e.said) return e.said;
  const key = keyOfEnglish.get(e.message);
  return key ? { key } : null;
}

/**
 * The site language (its prefix) an Accept-Language header asks for first: "de-DE,de;q=0.9" is
 * German, "pt" Brazilian Portuguese, "zh-TW" traditional Chinese; English when none is a site language.
 */
export function languageOf(acceptLanguage: string | undefined): string {
  const asked = (acceptLanguage ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...rest] = part.trim().split(';');
      const q = rest.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.toLowerCase(), q: q ? Number(q.slice(2)) : 1 };
    })
    .filter((a) => a.tag && a.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of asked) {
    const exact = siteLanguages.find((l) => l.locale === tag || l.htmlLang.toLowerCase() === tag);
    if (exact) return exact.prefix;
    const primary = tag.split('-')[0];
    const same = siteLanguages.find((l) => l.locale.split('-')[0] === primary);
    if (same) return same.prefix;
  }
  return '';
}

/** A refusal whose message the server words in the caller's language; `message` stays English. */
export class WordedError extends QuireError {
  constructor(
    code: ErrorCode,
    readonly said: Said,
    data?: LimitRefusal,
  ) {
    super(code, inEnglish(said), data);
  }
}

/** The failure a worker program answered with (engines/jobFailure.ts), as the server raises it. */
export const answeredError = (answer: { code: number; msg: string; said?: Said }): QuireError =>
  answer.said ? new WordedError(answer.code as ErrorCode, answer.said) : new QuireError(answer.code as ErrorCode, answer.msg);

/** The refusal `code` saying `key` with `params`; `data` as QuireError's. */
export const refusal = (code: ErrorCode, key: TextKey, params?: TextParams, data?: LimitRefusal) =>
  new WordedError(code, { key, ...(params && { params }) }, data);
