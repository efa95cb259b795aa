// The site's 22 languages, the one list the web app (prefixes, picker, page language and
// direction), the server (links in mail, dates in signatures) and the tests read.

export interface SiteLanguage {
  /** The URL prefix ("/de/app/merge-pdf"); English has none. */
  prefix: string;
  /** The locale: the name of its texts' file and what Intl formats numbers and dates with. */
  locale: string;
  /** The language's name in that language, for the picker. */
  name: string;
  /** The page's `lang` attribute and hreflang. */
  htmlLang: string;
  /** Arabic is written right to left. */
  dir: 'ltr' | 'rtl';
  /** The date a signature's date field shows: tokens yyyy, MM (2 digits), M, dd (2 digits), d. */
  dateFormat: string;
}

/** In the picker's order: the spec's seven first, then the rest by reach. */
export const siteLanguages = [
  { prefix: '', locale: 'en-us', name: 'English', htmlLang: 'en', dir: 'ltr', dateFormat: 'MM/dd/yyyy' },
  { prefix: 'de', locale: 'de-de', name: 'Deutsch', htmlLang: 'de', dir: 'ltr', dateFormat: 'dd.MM.yyyy' },
  { prefix: 'es', locale: 'es-es', name: 'Español', htmlLang: 'es', dir: 'ltr', dateFormat: 'd/M/yyyy' },
  { prefix: 'fr', locale: 'fr-fr', name: 'Français', htmlLang: 'fr', dir: 'ltr', dateFormat: 'dd/MM/yyyy' },
  { prefix: 'jp', locale: 'ja-jp', name: '日本語', htmlLang: 'ja', dir: 'ltr', dateFormat: 'yyyy/MM/dd' },
  { prefix: 'pt', locale: 'pt-br', name: 'Português', htmlLang: 'pt-BR', dir: 'ltr', dateFormat: 'dd/MM/yyyy' },
  { prefix: 'zh', locale: 'zh-cn', name: '简体中文', htmlLang: 'zh-CN', dir: 'ltr', dateFormat: 'yyyy/MM/dd' },
  { prefix: 'tw', locale: 'zh-tw', name: '繁體中文', htmlLang: 'zh-TW', dir: 'ltr', dateFormat: 'yyyy/MM/dd' },
  { prefix: 'it', locale: 'it-it', name: 'Italiano', htmlLang: 'it', dir: 'ltr', dateFormat: 'dd/MM/yyyy' },
  { prefix: 'nl', locale: 'nl-nl', name: 'Nederlands', htmlLang: 'nl', dir: 'ltr', dateFormat: 'dd-MM-yyyy' },
  { prefix: 'pl', locale: 'pl-pl', name: 'Polski', htmlLang: 'pl', dir: 'ltr', dateFormat: 'dd.MM.yyyy' },
  { prefix: 'ru', locale: 'ru-ru', name: 'Русский', htmlLang: 'ru', dir: 'ltr', dateFormat: 'dd.MM.yyyy' },
  { prefix: 'tr', locale: 'tr-tr', name: 'Türkçe', htmlLang: 'tr', dir: 'ltr', dateFormat: 'dd.MM.yyyy' },
  { prefix: 'ko', locale: 'ko-kr', name: '한국어', htmlLang: 'ko', dir: 'ltr', dateFormat: 'yyyy. MM. dd.' },
  { prefix: 'ar', locale: 'ar-sa', name: 'العربية', htmlLang: 'ar', dir: 'rtl', dateFormat: 'dd/MM/yyyy' },
  { prefix: 'id', locale: 'id-id', name: 'Bahasa Indonesia', htmlLang: 'id', dir: 'ltr', dateFormat: 'dd/MM/yyyy' },
  { prefix: 'vi', locale: 'vi-vn', name: 'Tiếng Việt', htmlLang: 'vi', dir: 'ltr', dateFormat: 'dd/MM/yyyy' },
  { prefix: 'th', locale: 'th-th', name: 'ไทย', htmlLang: 'th', dir: 'ltr', dateFormat: 'dd/MM/yyyy' },
  { prefix: 'sv', locale: 'sv-se', name: 'Svenska', htmlLang: 'sv', dir: 'ltr', dateFormat: 'yyyy-MM-dd' },
  { prefix: 'cs', locale: 'cs-cz', name: 'Čeština', htmlLang: 'cs', dir: 'ltr', dateFormat: 'd. M. yyyy' },
  { prefix: 'uk', locale: 'uk-ua', name: 'Українська', htmlLang: 'uk', dir: 'ltr', dateFormat: 'dd.MM.yyyy' },
  { prefix: 'hi', locale: 'hi-in', name: 'हिन्दी', htmlLang: 'hi', dir: 'ltr', dateFormat: 'dd/MM/yyyy' },
] as const satisfies readonly SiteLanguage[];

export type SiteLocale = (typeof siteLanguages)[number]['locale'];
export type SitePrefix = (typeof siteLanguages)[number]['prefix'];

/** The prefixes of the languages other than English: a mailed link opens the page in the caller's language. */
export const linkLanguages = siteLanguages.flatMap((l) => (l.prefix ? [l.prefix] : [])) as [LinkLanguage, ...LinkLanguage[]];
export type LinkLanguage = Exclude<SitePrefix, ''>;
