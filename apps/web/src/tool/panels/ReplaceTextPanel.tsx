import type { SearchSpec } from '@quire/contracts';
import { useEffect, useMemo, useState } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { useTextHits } from '../../pdf/pageGeometry';
import { fileFields, useFilePdf } from './common';
import { PageView } from './PageView';
import type { OptionPanelProps, ToolRequest } from './types';
import '../editTools.css';

/** Wait this long after the last keystroke before searching the document for the preview. */
const SEARCH_DELAY_MS = 300;

/** Find and replace across the document, its matches previewed on the pages. */
export function ReplaceTextPanel({ files, layout }: OptionPanelProps) {
  const t = useT();
  const file = files[0];
  const pageCount = file?.pageCount ?? 0;
  const pdf = useFilePdf(file);
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [replace, setReplace] = useState('');
  const [settled, setSettled] = useState('');

  useEffect(() => {
    const timer = setTimeout(() => setSettled(search.trim() ? search : ''), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]);
  // Replace text matches case, as the server does.
  const searches = useMemo<SearchSpec[]>(() => (settled ? [{ text: settled, ignoreCase: false }] : []), [settled]);
  const hits = useTextHits(pdf.doc, pageCount, searches);
  const pagesWithHits = [...hits.byPage.keys()].sort((a, b) => a - b);

  let request: ToolRequest = { ok: false };
  if (file && search.trim()) request = { ok: true, body: { ...fileFields(file), search, replace } };

  const options = (
    <>
      <label className="field">
        <span className="field-label">{t('replace.find')}</span>
        <input type="text" value={search} data-testid="replace-find" onChange={(e) => setSearch(e.target.value)} />
      </label>
      <label className="field">
        <span className="field-label">{t('replace.with')}</span>
        <input type="text" value={replace} data-testid="replace-with" onChange={(e) => setReplace(e.target.value)} />
      </label>
      {settled && (
        <div className="area-row" data-testid="replace-hits">
          <span>{hits.done ? t('replace.hits', { count: hits.total }) : t('redact.searching')}</span>
          {hits.done && pagesWithHits.length > 0 && (
            <button type="button" className="link-button" onClick={() => setPage(pagesWithHits.find((p) => p > page) ?? pagesWithHits[0]!)}>
              {t('replace.nextHit')}
            </button>
          )}
        </div>
      )}
      <p className="panel-note">{t('replace.caseNote')}</p>
      <p className="panel-note">{t('replace.fontNote')}</p>
    </>
  );

  const view = file && (
    <PageView
      doc={pdf.doc}
      pageCount={pageCount}
      page={page}
      onPage={setPage}
      hits={(hits.byPage.get(page) ?? []).flatMap((hit) => hit.rects)}
    />
  );

  return layout({ pages: view, options, request });
}
