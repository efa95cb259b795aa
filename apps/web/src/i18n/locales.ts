// Languages and their URL prefixes: English has no prefix.

export const localeByPrefix = {
  '': 'en-us',
  de: 'de-de',
  es: 'es-es',
  fr: 'fr-fr',
  jp: 'ja-jp',
  pt: 'pt-br',
} as const;

export type LangPrefix = keyof typeof localeByPrefix;
export type Locale = (typeof localeByPrefix)[LangPrefix];

export const langPrefixes = Object.keys(localeByPrefix) as LangPrefix[];

/** The name of each language in that language, for the switcher. */
export const localeNames: Record<Locale, string> = {
  'en-us': 'English',
  'de-de': 'Deutsch',
  'es-es': 'Español',
  'fr-fr': 'Français',
  'ja-jp': '日本語',
  'pt-br': 'Português',
};

/** The `lang` attribute of the page for each locale. */
export const htmlLang: Record<Locale, string> = {
  'en-us': 'en',
  'de-de': 'de',
  'es-es': 'es',
  'fr-fr': 'fr',
  'ja-jp': 'ja',
  'pt-br': 'pt-BR',
};

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
  if (!prefix) return path;
  return path === '/' ? `/${prefix}` : `/${prefix}${path}`;
}

/** The same page in another language. */
export function switchLocalePath(pathname: string, prefix: LangPrefix): string {
  return withLocalePrefix(prefix, splitLocalePrefix(pathname).rest);
}
