import { patternError, type SearchSpec } from '@quire/contracts';
import { useMemo, useState } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { useTextHits } from '../../pdf/pageGeometry';
import type { ShownRect, TextHit } from '../../pdf/textHits';
import { Icon } from '../../ui/Icon';
import { fileFields, useFilePdf } from './common';
import { PageView } from './PageView';
import type { OptionPanelProps, ToolRequest } from './types';
import '../editTools.css';

type Area = ShownRect & { page: number };
type Term = { text: string; regex: boolean };

/** Areas drawn on the pages and searched texts, previewed as marks and hits before anything is removed. */
export function RedactPanel({ files, layout }: OptionPanelProps) {
  const t = useT();
  const file = files[0];
  const pageCount = file?.pageCount ?? 0;
  const pdf = useFilePdf(file);
  const [page, setPage] = useState(1);
  const [areas, setAreas] = useState<Area[]>([]);
  const [terms, setTerms] = useState<Term[]>([]);
  const [draft, setDraft] = useState('');
  const [regex, setRegex] = useState(false);
  const [draftError, setDraftError] = useState<string>();

  // Redaction ignores case, as the server does.
  const searches = useMemo<SearchSpec[]>(() => terms.map((term) => ({ ...term, ignoreCase: true })), [terms]);
  const hits = useTextHits(pdf.doc, pageCount, searches);
  const termHits = useTextHitsPerTerm(hits.byPage, terms.length);

  const addTerm = () => {
    const text = draft.trim();
    if (!text) return;
    const error = regex ? patternError(text) : null;
    setDraftError(error ?? undefined);
    if (error || terms.some((term) => term.text === text && term.regex === regex)) return;
    setTerms([...terms, { text, regex }]);
    setDraft('');
  };

  let request: ToolRequest = { ok: false };
  if (file && areas.length + terms.length > 0) request = { ok: true, body: { ...fileFields(file), areas, texts: terms } };

  const options = (
    <>
      <span className="field-label">{t('redact.areas')}</span>
      <p className="panel-note">{t('redact.areasHint')}</p>
      {areas.length > 0 && (
        <div className="area-row">
          <span data-testid="area-count">{t('redact.areaCount', { count: areas.length })}</span>
          <button type="button" className="link-button" data-testid="clear-areas" onClick={() => setAreas([])}>
            {t('redact.clearAreas')}
          </button>
        </div>
      )}
      <label className="field">
        <span className="field-label">{t('redact.search')}</span>
        <span className="search-row">
          <input
            type="text"
            value={draft}
            placeholder={t('redact.searchPlaceholder')}
            aria-invalid={draftError ? true : undefined}
            data-testid="redact-search-input"
            onChange={(e) => {
              setDraft(e.target.value);
              setDraftError(undefined);
            }}
            onKeyDown={(e) => {
              if (e.key !== 'Enter') return;
              e.preventDefault();
              addTerm();
            }}
          />
          <button
            type="button"
            className="button button-ghost button-small"
            data-testid="redact-search-add"
            disabled={!draft.trim()}
            onClick={addTerm}
          >
            {t('redact.add')}
          </button>
        </span>
        {draftError && (
          <span className="field-error" role="alert" data-testid="redact-search-error">
            {draftError}
          </span>
        )}
      </label>
      <label className="check-row">
        <input type="checkbox" checked={regex} data-testid="redact-regex" onChange={(e) => setRegex(e.target.checked)} />
        {t('redact.regex')}
      </label>
      {terms.length > 0 && (
        <ul className="term-list">
          {terms.map((term, i) => (
            <li key={`${term.regex}:${term.text}`} data-testid="redact-term">
              <span className="term-text" title={term.text}>
                {term.regex ? `/${term.text}/` : term.text}
              </span>
              <span className="term-hits" data-testid="term-hits">
                {hits.done ? t('redact.hits', { count: termHits[i] ?? 0 }) : t('redact.searching')}
              </span>
              <button
                type="button"
                className="icon-button"
                aria-label={t('redact.remove')}
                onClick={() => setTerms(terms.filter((_, j) => j !== i))}
              >
                <Icon name="close" size={14} />
              </button>
            </li>
          ))}
        </ul>
      )}
      <p className="panel-note">{t('redact.caseNote')}</p>
      <p className="panel-notice">{t('redact.notice')}</p>
    </>
  );

  const view = file && (
    <PageView
      doc={pdf.doc}
      pageCount={pageCount}
      page={page}
      onPage={setPage}
      hits={(hits.byPage.get(page) ?? []).flatMap((hit) => hit.rects)}
      marks={areas.flatMap((area, i) =>
        area.page === page ? [{ rect: area, onRemove: () => setAreas(areas.filter((_, j) => j !== i)) }] : [],
      )}
      onDraw={(rect) => setAreas([...areas, { page, ...rect }])}
    />
  );

  return layout({ pages: view, options, request });
}

/** How many hits each search term has over the pages searched. */
function useTextHitsPerTerm(byPage: Map<number, TextHit[]>, termCount: number): number[] {
  return useMemo(() => {
    const counts = Array.from({ length: termCount }, () => 0);
    for (const hits of byPage.values()) for (const hit of hits) counts[hit.term] = (counts[hit.term] ?? 0) + 1;
    return counts;
  }, [byPage, termCount]);
}
