import { type InputHTMLAttributes, type KeyboardEvent, useEffect, useId, useState } from 'react';
import type { ToolDefinition } from '@quire/contracts';
import { useNavigate } from 'react-router';
import { useI18n, useT } from '../i18n/I18nProvider';
import { type AppPage, pagePath, searchablePages } from '../layout/navigation';
import { toolPageOf } from '../tool/toolPages';
import { Icon } from '../ui/Icon';
import { IconTile } from '../ui/ToolIcon';
import { filterByName } from './toolSearch';

export function useToolTitle(): (tool: ToolDefinition) => string {
  const t = useT();
  return (tool) => t(toolPageOf(tool).texts.title);
}

/** The pages (tools, AI tools, the editor) whose translated name contains `query`. */
export function useToolMatches(query: string): AppPage[] {
  const t = useT();
  return filterByName(searchablePages, query, (page) => t(page.title));
}

interface SearchBoxProps {
  value: string;
  onChange(value: string): void;
  testId: string;
  className?: string;
  /** What the field searches, when it is not the tools. */
  placeholder?: string;
  /** More of the field's attributes: the header's combobox roles and keys. */
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
}

export function SearchBox({ value, onChange, testId, className = '', placeholder, inputProps }: SearchBoxProps) {
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
        {...inputProps}
      />
    </label>
  );
}

/**
 * The header's search, a combobox: results drop down under the field while it has a query; the
 * arrow keys move through them with focus kept in the field (aria-activedescendant), Enter opens
 * the one marked (the first if none is), Escape clears.
 */
export function HeaderSearch() {
  const { t, localePath } = useI18n();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(-1);
  const matches = useToolMatches(query);
  const listId = useId();
  const optionId = (index: number) => `${listId}-${index}`;
  const open = query.trim() !== '';
  // The marked result scrolls into the list's view as the arrows move past its edge.
  // biome-ignore lint/correctness/useExhaustiveDependencies: optionId is derived from listId
  useEffect(() => {
    if (active >= 0) document.getElementById(optionId(active))?.scrollIntoView({ block: 'nearest' });
  }, [active, listId]);

  const search = (value: string) => {
    setQuery(value);
    setActive(-1);
  };
  const go = (page: AppPage) => {
    search('');
    void navigate(localePath(pagePath(page)));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const last = matches.length - 1;
    if (e.key === 'Escape') search('');
    else if (e.key === 'ArrowDown' && open && last >= 0) setActive(active >= last ? 0 : active + 1);
    else if (e.key === 'ArrowUp' && open && last >= 0) setActive(active <= 0 ? last : active - 1);
    else if (e.key === 'Enter' && open && last >= 0) go(matches[Math.max(active, 0)]!);
    else return;
    e.preventDefault();
  };

  return (
    <div className="header-search">
      <SearchBox
        value={query}
        onChange={search}
        testId="header-search"
        inputProps={{
          role: 'combobox',
          'aria-expanded': open,
          'aria-controls': open && matches.length > 0 ? listId : undefined,
          'aria-autocomplete': 'list',
          'aria-activedescendant': open && active >= 0 ? optionId(active) : undefined,
          onKeyDown,
        }}
      />
      {open && (
        <div className="search-results" data-testid="search-results">
          {matches.length === 0 ? (
            <p className="search-empty" role="status">
              {t('search.noResults', { query: query.trim() })}
            </p>
          ) : (
            <div role="listbox" id={listId} aria-label={t('search.placeholder')}>
              {matches.map((page, index) => (
                // biome-ignore lint/a11y/useKeyWithClickEvents: the keys are the field's (the combobox keeps focus); a click is the mouse's way
                <div
                  key={pagePath(page)}
                  id={optionId(index)}
                  role="option"
                  aria-selected={index === active}
                  // Focus stays in the field: the option is marked, never focused, so not in the Tab order.
                  tabIndex={-1}
                  className={`search-result ${index === active ? 'active' : ''}`}
                  data-testid="search-result"
                  // The field keeps focus while the mouse picks.
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => go(page)}
                >
                  <IconTile {...page.look} size={28} />
                  {t(page.title)}
                </div>
              ))}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
