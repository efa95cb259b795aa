import { useT } from '../i18n/I18nProvider';
import { useToolTitle } from '../search/ToolSearch';
import { LocaleLink } from '../ui/LocaleLink';
import { ToolIcon } from '../ui/ToolIcon';
import { toolCategories } from './navigation';

/** Every category with its tools: built ones as links, the rest marked "coming soon". */
export function CategoryMenu({ onNavigate }: { onNavigate?: () => void }) {
  const t = useT();
  const titleOf = useToolTitle();
  return (
    <div className="category-menu">
      {toolCategories.map((group) => (
        <section key={group.id} className="category">
          <h3>{t(group.labelKey)}</h3>
          <ul>
            {group.children.map((child) =>
              child.kind === 'tool' ? (
                <li key={child.tool.slug}>
                  <LocaleLink to={`/app/${child.tool.slug}`} className="category-tool" onClick={onNavigate}>
                    <ToolIcon tool={child.tool} size={26} />
                    {titleOf(child.tool)}
                  </LocaleLink>
                </li>
              ) : (
                <li key={child.labelKey} className="category-soon" aria-disabled="true">
                  <span className="soon-dot" />
                  {t(child.labelKey)}
                  <span className="soon-tag">{t('nav.soon')}</span>
                </li>
              ),
            )}
          </ul>
        </section>
      ))}
    </div>
  );
}
