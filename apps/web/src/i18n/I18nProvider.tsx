// Translations: English is the fallback, its shell's texts bundled (english.ts); other locales are
// fetched when first used.
import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import type { CatalogueTexts, ErrorCode } from '@quire/contracts';
import { NETWORK_ERROR, setPageLanguage } from '../api/client';
import { english, loadEnglishRest } from './english';
import { translate, type MessageKey, type Messages } from './translate';
import { htmlDir, htmlLang, localeByPrefix, splitLocalePrefix, withLocalePrefix, type LangPrefix, type Locale } from './locales';

export type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

const loaders = import.meta.glob<Messages>(['./locales/*.json', '!./locales/en-us.json'], { import: 'default' });
/** The error catalogue's messages by code, kept with the contracts (the server words them too); English is errorMessages. */
const catalogueLoaders = import.meta.glob<CatalogueTexts>('../../../../packages/contracts/src/catalogue/*.json', { import: 'default' });

interface Texts {
  messages: Messages;
  catalogue: CatalogueTexts;
}
const englishTexts: Texts = { messages: english, catalogue: {} };
const loaded = new Map<Locale, Texts>([['en-us', englishTexts]]);

/**
 * Loads the texts of the address's language: the app renders once they are in, so that a page the
 * server sent in German (lang, title, content) does not turn English before it turns German.
 */
export function preloadMessages(pathname: string): Promise<unknown> {
  return loadTexts(localeByPrefix[splitLocalePrefix(pathname).prefix]);
}

function loadTexts(locale: Locale): Promise<Texts> {
  const ready = loaded.get(locale);
  if (ready) return Promise.resolve(ready);
  const load = loaders[`./locales/${locale}.json`];
  if (!load) return Promise.resolve(englishTexts);
  const loadCatalogue = catalogueLoaders[`../../../../packages/contracts/src/catalogue/${locale}.json`];
  // English fills in what the language leaves untranslated: all of it, not only the shell's.
  return Promise.all([load(), loadCatalogue?.() ?? {}, loadEnglishRest()]).then(([messages, catalogue]) => {
    const texts = { messages, catalogue };
    loaded.set(locale, texts);
    return texts;
  });
}

interface I18n {
  locale: Locale;
  prefix: LangPrefix;
  t: Translate;
  /** An app path ("/app/home") in the current language. */
  localePath(path: string): string;
}

const I18nContext = createContext<I18n | null>(null);

export function I18nProvider({ children }: { children: ReactNode }) {
  const { prefix } = splitLocalePrefix(useLocation().pathname);
  const locale = localeByPrefix[prefix];
  // Keep showing the previous language until the next one has loaded, instead of a blank page.
  // The page's language is the texts' shown, not the address's, until those have loaded.
  const [shown, setShown] = useState<{ locale: Locale } & Texts>(() => {
    const texts = loaded.get(locale);
    return texts ? { locale, ...texts } : { locale: 'en-us', ...englishTexts };
  });

  useEffect(() => {
    let current = true;
    void loadTexts(locale).then((texts) => {
      if (current) setShown({ locale, ...texts });
    });
    return () => {
      current = false;
    };
  }, [locale]);

  useEffect(() => {
    document.documentElement.lang = htmlLang[shown.locale];
    document.documentElement.dir = htmlDir[shown.locale];
  }, [shown.locale]);

  // Errors are worded where they are caught, outside React: the catalogue follows the texts shown,
  // and the server is told their language for the messages it words itself.
  useEffect(() => {
    setPageLanguage(htmlLang[shown.locale], (code) =>
      code === NETWORK_ERROR ? shown.messages['error.network'] : shown.catalogue[code as ErrorCode],
    );
  }, [shown]);

  // A text of the English the shell does not carry, asked before a page loaded it: the rest is
  // fetched, and the texts shown again once it is in.
  const [englishComplete, setEnglishComplete] = useState(false);
  const value = useMemo<I18n>(
    () => ({
      locale: shown.locale,
      prefix,
      t: (key, vars) => {
        if (!englishComplete && shown.messages[key] === undefined && english[key] === undefined)
          void loadEnglishRest().then(
            () => setEnglishComplete(true),
            () => undefined,
          );
        return translate(shown.locale, shown.messages, key, vars);
      },
      localePath: (path) => withLocalePrefix(prefix, path),
    }),
    [shown, prefix, englishComplete],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const value = useContext(I18nContext);
  if (!value) throw new Error('useI18n outside I18nProvider');
  return value;
}

export function useT(): Translate {
  return useI18n().t;
}
