import { useState } from 'react';
import { useT } from '../i18n/I18nProvider';
import { toolCategories } from '../layout/navigation';
import { SearchBox, useToolMatches } from '../search/ToolSearch';
import { PageCard, ToolCard } from '../ui/ToolCard';
import { useDocumentTitle } from '../ui/useDocumentTitle';

/** The product home: a hero and "All tools" by category, with live search. */
export function MarketingHome() {
  const t = useT();
  const [query, setQuery] = useState('');
  const matches = useToolMatches(query);
  const searching = query.trim() !== '';
  useDocumentTitle(t('home.title'));

  const groups = toolCategories
    .map((group) => ({
      group,
      tools: group.children.flatMap((c) => (c.kind === 'tool' && matches.includes(c.tool) ? [c.tool] : [])),
      // Pages outside the tool registry are not searched: they show in the full list.
      pages: searching ? [] : group.children.flatMap((c) => (c.kind === 'page' ? [c.page] : [])),
      soon: group.children.flatMap((c) => (c.kind === 'soon' ? [c.labelKey] : [])),
    }))
    .filter((g) => g.tools.length > 0 || !searching);

  return (
    <>
      <section className="hero">
        <h1>{t('home.title')}</h1>
        <p>{t('home.subtitle')}</p>
      </section>
      <section className="all-tools" aria-labelledby="all-tools">
        <div className="all-tools-head">
          <h2 id="all-tools">{t('nav.allTools')}</h2>
          <SearchBox value={query} onChange={setQuery} testId="tool-search" className="all-tools-search" />
        </div>
        {matches.length === 0 && (
          <p className="search-empty" data-testid="no-results">
            {t('search.noResults', { query: query.trim() })}
          </p>
        )}
        {matches.length > 0 &&
          groups.map(({ group, tools, pages, soon }) => (
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
              {!searching && soon.length > 0 && (
                <ul className="soon-list" aria-label={t('nav.soon')}>
                  {soon.map((key) => (
                    <li key={key} className="soon-chip">
                      {t(key)}
                      <span className="soon-tag">{t('nav.soon')}</span>
                    </li>
                  ))}
                </ul>
              )}
            </section>
          ))}
      </section>
    </>
  );
}
