import { useI18n } from '../i18n/I18nProvider';
import { formatBytes, formatGb } from './format';

/** Sizes in the page's language: its units (French Ko, Mo, Go) and its numbers. */
export function useSizes() {
  const { locale } = useI18n();
  return { bytes: (n: number) => formatBytes(n, locale), gb: (n: number) => formatGb(n, locale) };
}
