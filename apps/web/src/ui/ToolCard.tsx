import type { ToolDefinition } from '@quire/contracts';
import { useT } from '../i18n/I18nProvider';
import { linkedPage, pagePath, type AppPage } from '../layout/navigation';
import { LocaleLink } from './LocaleLink';
import { IconTile } from './ToolIcon';

export function ToolCard({ tool }: { tool: ToolDefinition }) {
  return <PageCard page={linkedPage({ kind: 'tool', tool })} />;
}

/** A card linking to a page under /app: its icon, title and description. */
export function PageCard({ page }: { page: AppPage }) {
  const t = useT();
  return (
    <LocaleLink to={pagePath(page)} className="tool-card" data-testid="tool-card">
      <IconTile {...page.look} />
      <h3>{t(page.title)}</h3>
      <p>{t(page.description)}</p>
    </LocaleLink>
  );
}
