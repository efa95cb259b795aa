// Languages and their URL prefixes (the list is the contracts' siteLanguages): English has no prefix.

import { localizedPath, siteLanguages, type SitePrefix, type SiteLocale } from '@quire/contracts';

export type LangPrefix = SitePrefix;
export type Locale = SiteLocale;

export const localeByPrefix = Object.fromEntries(siteLanguages.map((l) => [l.prefix, l.locale])) as Record<LangPrefix, Locale>;

export const langPrefixes: LangPrefix[] = siteLanguages.map((l) => l.prefix);

/** The name of each language in that language, for the switcher. */
export const localeNames = Object.fromEntries(siteLanguages.map((l) => [l.locale, l.name])) as Record<Locale, string>;

/** The `lang` attribute of the page for each locale. */
export const htmlLang = Object.fromEntries(siteLanguages.map((l) => [l.locale, l.htmlLang])) as Record<Locale, string>;

/** The page's writing direction for each locale. */
export const htmlDir = Object.fromEntries(siteLanguages.map((l) => [l.locale, l.dir])) as Record<Locale, 'ltr' | 'rtl'>;

function isLangPrefix(segment: string): segment is Exclude<LangPrefix, ''> {
  return segment !== '' && Object.hasOwn(localeByPrefix, segment);
}

/** Splits "/de/app/merge-pdf" into prefix "de" and rest "/app/merge-pdf". */
export function splitLocalePrefix(pathname: string): { prefix: LangPrefix; rest: string } {
  const match = /^\/([^/]+)(\/.*)?$/.exec(pathname);
  if (match && isLangPrefix(match[1]!)) return { prefix: match[1]!, rest: match[2] ?? '/' };
  return { prefix: '', rest: pathname || '/' };
}

/** An absolute app path ("/app/home") under a language prefix ("/de/app/home"). */
export function withLocalePrefix(prefix: LangPrefix, path: string): string {
  return localizedPath(prefix, path);
}

/** The same page in another language. */
export function switchLocalePath(pathname: string, prefix: LangPrefix): string {
  return withLocalePrefix(prefix, splitLocalePrefix(pathname).rest);
}
