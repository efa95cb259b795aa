import { useT } from '../i18n/I18nProvider';
import { LocaleLink } from '../ui/LocaleLink';
import { IconTile } from '../ui/ToolIcon';
import { linkedPage, pagePath, toolCategories } from './navigation';

/** Every category with its tools: built ones as links, the rest marked "coming soon". */
export function CategoryMenu({ onNavigate }: { onNavigate?: () => void }) {
  const t = useT();
  return (
    <div className="category-menu">
      {toolCategories.map((group) => (
        <section key={group.id} className="category">
          <h3>{t(group.labelKey)}</h3>
          <ul>
            {group.children.map((child) => {
              if (child.kind === 'soon') {
                return (
                  <li key={child.labelKey} className="category-soon" aria-disabled="true">
                    <span className="soon-dot" />
                    {t(child.labelKey)}
                    <span className="soon-tag">{t('nav.soon')}</span>
                  </li>
                );
              }
              const page = linkedPage(child);
              return (
                <li key={page.slug}>
                  <LocaleLink to={pagePath(page)} className="category-tool" onClick={onNavigate}>
                    <IconTile {...page.look} size={26} />
                    {t(page.title)}
                  </LocaleLink>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </div>
  );
}
