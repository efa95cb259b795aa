import { toolDefinitions } from '@quire/contracts';
import { useT } from '../i18n/I18nProvider';
import { BookmarkHint } from '../ui/BookmarkHint';
import { ToolCard } from '../ui/ToolCard';
import { useDocumentTitle } from '../ui/useDocumentTitle';

/** The workspace home: every built tool. */
export function AppHome() {
  const t = useT();
  useDocumentTitle(t('appHome.title'));
  return (
    <div className="page">
      <header className="page-header">
        <h1>{t('appHome.title')}</h1>
        <p>{t('appHome.subtitle')}</p>
      </header>
      <div className="tool-grid">
        {toolDefinitions
          .filter((tool) => tool.listed !== false)
          .map((tool) => (
            <ToolCard key={tool.slug} tool={tool} />
          ))}
      </div>
      <BookmarkHint />
    </div>
  );
}
