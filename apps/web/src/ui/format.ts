import { htmlLang, type Locale } from '../i18n/locales';

/** Size units as each language writes them: French counts octets (Ko, Mo, Go). */
const unitsOf = (locale: Locale) => (locale === 'fr-fr' ? ['o', 'Ko', 'Mo', 'Go'] : ['B', 'KB', 'MB', 'GB']);

/** 1536 -> "1.5 KB" ("1,5 Ko" in French): the largest unit below 1024, in the locale's numbers. */
export function formatBytes(bytes: number, locale: Locale = 'en-us'): string {
  const units = unitsOf(locale);
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  const number = new Intl.NumberFormat(htmlLang[locale], {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    useGrouping: false,
  }).format(value);
  return `${number} ${units[unit]}`;
}

/** A capacity in GB as the product writes it: "10 GB", "0.5 GB", "2.35 GB" ("2,35 Go"); a tiny one in smaller units. */
export function formatGb(bytes: number, locale: Locale = 'en-us'): string {
  const GB = 1024 ** 3;
  if (bytes < 0.01 * GB) return formatBytes(bytes, locale);
  const gb = bytes / GB;
  const number = new Intl.NumberFormat(htmlLang[locale], { maximumFractionDigits: gb >= 10 ? 1 : 2 }).format(gb);
  return `${number} ${unitsOf(locale)[3]}`;
}
