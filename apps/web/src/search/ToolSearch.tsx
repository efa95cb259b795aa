import { toolDefinitions, type ToolDefinition } from '@quire/contracts';
import { useState } from 'react';
import { useT } from '../i18n/I18nProvider';
import { toolPageOf } from '../tool/toolPages';
import { Icon } from '../ui/Icon';
import { LocaleLink } from '../ui/LocaleLink';
import { ToolIcon } from '../ui/ToolIcon';
import { filterByName } from './toolSearch';

export function useToolTitle(): (tool: ToolDefinition) => string {
  const t = useT();
  return (tool) => t(toolPageOf(tool).texts.title);
}

/** The tools whose translated name contains `query`. */
export function useToolMatches(query: string): ToolDefinition[] {
  return filterByName(toolDefinitions, query, useToolTitle());
}

interface SearchBoxProps {
  value: string;
  onChange(value: string): void;
  testId: string;
  className?: string;
  /** What the field searches, when it is not the tools. */
  placeholder?: string;
}

export function SearchBox({ value, onChange, testId, className = '', placeholder }: SearchBoxProps) {
  const t = useT();
  const hint = placeholder ?? t('search.placeholder');
  return (
    <label className={`search-box ${className}`}>
      <Icon name="search" size={18} />
      <input
        type="search"
        value={value}
        placeholder={hint}
        aria-label={hint}
        data-testid={testId}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}

/** The header's search: results drop down under the field while it has a query. */
export function HeaderSearch() {
  const t = useT();
  const [query, setQuery] = useState('');
  const matches = useToolMatches(query);
  const titleOf = useToolTitle();
  const open = query.trim() !== '';
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape in the field or on a result (focusable children) clears the query
    <div className="header-search" onKeyDown={(e) => e.key === 'Escape' && setQuery('')}>
      <SearchBox value={query} onChange={setQuery} testId="header-search" />
      {open && (
        <div className="search-results" data-testid="search-results">
          {matches.length === 0 ? (
            <p className="search-empty">{t('search.noResults', { query: query.trim() })}</p>
          ) : (
            matches.map((tool) => (
              <LocaleLink key={tool.slug} to={`/app/${tool.slug}`} className="search-result" onClick={() => setQuery('')}>
                <ToolIcon tool={tool} size={28} />
                {titleOf(tool)}
              </LocaleLink>
            ))
          )}
        </div>
      )}
    </div>
  );
}
