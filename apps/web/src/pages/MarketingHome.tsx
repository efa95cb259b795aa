import { useT } from '../i18n/I18nProvider';
import { BookmarkHint } from '../ui/BookmarkHint';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import { ToolDirectory } from './ToolDirectory';

/** The product home: a hero and "All tools" by category, with live search. */
export function MarketingHome() {
  const t = useT();
  useDocumentTitle(t('landing.home.metaTitle'));
  return (
    <>
      <section className="hero">
        <h1>{t('home.title')}</h1>
        <p>{t('home.subtitle')}</p>
      </section>
      <ToolDirectory label={t('nav.allTools')} heading={<h2>{t('nav.allTools')}</h2>} />
      <BookmarkHint />
    </>
  );
}
