import { useT } from '../i18n/I18nProvider';
import { LocaleLink } from '../ui/LocaleLink';
import { IconTile } from '../ui/ToolIcon';
import { linkedPage, pagePath, toolCategories } from './navigation';

/** Every category with its tools, each a link. */
export function CategoryMenu({ onNavigate }: { onNavigate?: () => void }) {
  const t = useT();
  return (
    <div className="category-menu">
      {toolCategories.map((group) => (
        <section key={group.id} className="category">
          <h3>{t(group.labelKey)}</h3>
          <ul>
            {group.children.map((child) => {
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
