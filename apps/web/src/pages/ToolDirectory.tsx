// Every tool by category, with live search: the home page's list and the all-tools page.
import { useState, type ReactNode } from 'react';
import { useT } from '../i18n/I18nProvider';
import { toolCategories } from '../layout/navigation';
import { SearchBox, useToolMatches } from '../search/ToolSearch';
import { PageCard, ToolCard } from '../ui/ToolCard';

/** `heading`: the list's own heading (the home page's), with the id it is labelled by; without one, `label` names it. */
export function ToolDirectory({ heading, label }: { heading?: ReactNode; label: string }) {
  const t = useT();
  const [query, setQuery] = useState('');
  const matches = useToolMatches(query);
  const searching = query.trim() !== '';

  const groups = toolCategories
    .map((group) => ({
      group,
      tools: group.children.flatMap((c) => (c.kind === 'tool' && matches.includes(c.tool) ? [c.tool] : [])),
      // Pages outside the tool registry are not searched: they show in the full list.
      pages: searching ? [] : group.children.flatMap((c) => (c.kind === 'page' ? [c.page] : [])),
    }))
    .filter((g) => g.tools.length > 0 || !searching);

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
        groups.map(({ group, tools, pages }) => (
          <section key={group.id} className="tool-category" data-testid="tool-category">
            <h3>{t(group.labelKey)}</h3>
            {tools.length + pages.length > 0 && (
              <div className="tool-grid">
                {tools.map((tool) => (
                  <ToolCard key={tool.slug} tool={tool} />
                ))}
                {pages.map((page) => (
                  <PageCard key={page.slug} page={page} />
                ))}
              </div>
            )}
          </section>
        ))}
    </section>
  );
}
