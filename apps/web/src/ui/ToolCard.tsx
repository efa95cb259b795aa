import type { ToolDefinition } from '@quire/contracts';
import { useT } from '../i18n/I18nProvider';
import { toolPageOf } from '../tool/toolPages';
import { LocaleLink } from './LocaleLink';
import { ToolIcon } from './ToolIcon';

export function ToolCard({ tool }: { tool: ToolDefinition }) {
  const t = useT();
  const { texts } = toolPageOf(tool);
  return (
    <LocaleLink to={`/app/${tool.slug}`} className="tool-card" data-testid="tool-card">
      <ToolIcon tool={tool} />
      <h3>{t(texts.title)}</h3>
      <p>{t(texts.description)}</p>
    </LocaleLink>
  );
}
