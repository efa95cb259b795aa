// Every tool by category, with live search: the home page's list and the all-tools page.
import { useState, type ReactNode } from 'react';
import { useT } from '../i18n/I18nProvider';
import { linkedPage, pagePath, toolCategories } from '../layout/navigation';
import { SearchBox, useToolMatches } from '../search/ToolSearch';
import { PageCard } from '../ui/ToolCard';

/** `heading`: the list's own heading (the home page's), with the id it is labelled by; without one, `label` names it. */
export function ToolDirectory({ heading, label }: { heading?: ReactNode; label: string }) {
  const t = useT();
  const [query, setQuery] = useState('');
  const matches = useToolMatches(query);
  const searching = query.trim() !== '';

  const groups = toolCategories
    .map((group) => ({
      group,
      // The tools and the pages of their own (the AI tools, the editor) alike.
      pages: group.children.map(linkedPage).filter((page) => !searching || matches.some((m) => pagePath(m) === pagePath(page))),
    }))
    .filter((g) => g.pages.length > 0 || !searching);

  return (
    <section className="all-tools" aria-label={label}>
      <div className={`all-tools-head ${heading ? '' : 'search-only'}`}>
        {heading}
        <SearchBox value={query} onChange={setQuery} testId="tool-search" className="all-tools-search" />
      </div>
      {matches.length === 0 && (
        <p className="search-empty" data-testid="no-results">
          {t('search.noResults', { query: query.trim() })}
        </p>
      )}
      {matches.length > 0 &&
        groups.map(({ group, pages }) => (
          <section key={group.id} className="tool-category" data-testid="tool-category">
            <h3>{t(group.labelKey)}</h3>
            {pages.length > 0 && (
              <div className="tool-grid">
                {pages.map((page) => (
                  <PageCard key={pagePath(page)} page={page} />
                ))}
              </div>
            )}
          </section>
        ))}
    </section>
  );
}
