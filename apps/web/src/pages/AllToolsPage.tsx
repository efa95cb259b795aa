import { useT } from '../i18n/I18nProvider';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import { ToolDirectory } from './ToolDirectory';

/** /all-tools: every tool by category, the home page's list under a heading of its own. */
export function AllToolsPage() {
  const t = useT();
  const title = t('landing.allTools.title');
  useDocumentTitle(title);
  return (
    <>
      <section className="hero">
        <h1>{title}</h1>
        <p>{t('landing.allTools.lead')}</p>
      </section>
      <ToolDirectory label={title} />
    </>
  );
}
