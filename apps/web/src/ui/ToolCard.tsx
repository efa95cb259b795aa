import { toolKey, type ToolDefinition } from '@quire/contracts';
import { useT } from '../i18n/I18nProvider';
import { LocaleLink } from './LocaleLink';
import { ToolIcon } from './ToolIcon';

export function ToolCard({ tool }: { tool: ToolDefinition }) {
  const t = useT();
  return (
    <LocaleLink to={`/app/${tool.slug}`} className="tool-card" data-testid="tool-card">
      <ToolIcon tool={tool} />
      <h3>{t(`tools.${toolKey(tool)}.title`)}</h3>
      <p>{t(`tools.${toolKey(tool)}.description`)}</p>
    </LocaleLink>
  );
}
