// The page's meta description as the page moves: a marketing page's own (the one the server wrote
// into its HTML), the site's for any other page, in the page's language.
import { marketingPages } from '@quire/contracts';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import type { MessageKey } from './translate';
import { splitLocalePrefix } from './locales';
import { useI18n } from './I18nProvider';

export function MetaDescription() {
  const { t } = useI18n();
  const { rest } = splitLocalePrefix(useLocation().pathname);
  const key = (marketingPages.find((page) => page.path === rest)?.description ?? 'landing.home.metaDescription') as MessageKey;
  const description = t(key);
  useEffect(() => {
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.append(meta);
    }
    meta.content = description;
  }, [description]);
  return null;
}
