import { htmlLang, type Locale } from '../i18n/locales';

/** Size units as each language writes them: French counts octets (Ko, Mo, Go). */
const unitsOf = (locale: Locale) => (locale === 'fr-fr' ? ['o', 'Ko', 'Mo', 'Go'] : ['B', 'KB', 'MB', 'GB']);

/**
 * 1536 -> "1.5 KB" ("1,5 Ko" in French): the largest unit below 1024 (as limits count MB), in the
 * locale's numbers. Rounded up, never down: a file over a limit of 20 MB reads "20.1 MB", not "20 MB".
 */
export function formatBytes(bytes: number, locale: Locale = 'en-us'): string {
  const units = unitsOf(locale);
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  // Tenths below 100 unless the value is whole (20 MB exactly reads "20 MB"; under 10, "5.0 MB" as before).
  const digits = unit === 0 || value >= 100 || (value >= 10 && Number.isInteger(value)) ? 0 : 1;
  const scale = 10 ** digits;
  // toFixed first: 20.4 MB in bytes over 1024² is 20.400000000000002, which must not round up to 20.5.
  const number = new Intl.NumberFormat(htmlLang[locale], {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    useGrouping: false,
  }).format(Math.ceil(Number((value * scale).toFixed(6))) / scale);
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
