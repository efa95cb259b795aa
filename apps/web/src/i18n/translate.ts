import { english } from './english';
import type { Locale } from './locales';
import type enUs from './locales/en-us.json';

export type MessageKey = keyof typeof enUs;
export type Messages = Partial<Record<MessageKey, string>>;

/**
 * Looks a key up in `messages`, falling back to English, and fills in {placeholders}.
 * A message "{count} page | {count} pages" picks its form by the plural rules of `locale`.
 */
export function translate(locale: Locale, messages: Messages, key: MessageKey, vars?: Record<string, string | number>): string {
  // An English text not in yet is blank until it is (I18nProvider loads it and shows it then).
  let text = messages[key] ?? english[key] ?? '';
  if (!vars) return text;
  const forms = text.split(' | ');
  if (forms.length === 2 && typeof vars.count === 'number') {
    text = new Intl.PluralRules(locale).select(vars.count) === 'one' ? forms[0]! : forms[1]!;
  }
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m));
}
