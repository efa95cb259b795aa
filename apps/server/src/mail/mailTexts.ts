// The words of the mails Quire sends, in each site language: the language of the page the request
// came from (its prefix), English without one. Numbers of hours and dates are worded by the
// locale's own rules (Intl), so no text carries a plural.
import fs from 'node:fs';
import { siteLanguages } from '@quire/contracts';
import english from './texts/en-us.json' with { type: 'json' };

export type MailKey = keyof typeof english;
type Catalogue = Record<MailKey, string>;

const catalogues = new Map<string, { locale: string; texts: Catalogue }>(
  siteLanguages.map((language) => [
    language.prefix,
    {
      locale: language.locale,
      texts: JSON.parse(fs.readFileSync(new URL(`./texts/${language.locale}.json`, import.meta.url), 'utf8')) as Catalogue,
    },
  ]),
);

export interface MailWords {
  /** The text of `key` with its {placeholders} filled. */
  t(key: MailKey, params?: Record<string, string>): string;
  /** "48 hours", "48 Stunden", "48 часов". */
  hours(count: number): string;
  /** A moment as a date and time in UTC. */
  dateTime(ms: number): string;
}

/** The words for the site language of `prefix` ('jp'); English for none or one not known. */
export function mailWords(prefix: string | undefined): MailWords {
  const { locale, texts } = catalogues.get(prefix ?? '') ?? catalogues.get('')!;
  return {
    t: (key, params = {}) => texts[key].replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole),
    hours: (count) => new Intl.NumberFormat(locale, { style: 'unit', unit: 'hour', unitDisplay: 'long' }).format(count),
    dateTime: (ms) => new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(ms),
  };
}
