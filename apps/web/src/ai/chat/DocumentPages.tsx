// The document beside the chat: its pages one under another, each drawn as it comes near the view;
// a page the chat cites is scrolled to and marked.
import { useEffect, useRef } from 'react';
import { useI18n } from '../../i18n/I18nProvider';
import { PageThumb } from '../../pdf/PageThumb';
import { usePdfDocument } from '../../pdf/pdfDocument';
import { useColumnWidth } from '../../ui/useColumnWidth';

/** Pages are drawn this large at most (CSS pixels); a narrower column, its width. */
const PAGE_SIZE = 560;
/** The column's padding on both sides. */
const COLUMN_PADDING = 32;

export function DocumentPages({ source, page }: { source: Blob | string; page?: { number: number; at: number } | undefined }) {
  const { t } = useI18n();
  const pdf = usePdfDocument(source);
  const pagesRef = useRef<HTMLElement>(null);
  const count = pdf.doc?.numPages ?? 0;
  const size = useColumnWidth(pagesRef, PAGE_SIZE, COLUMN_PADDING);

  // `at` changes with each jump, so citing the same page twice scrolls there again.
  useEffect(() => {
    if (!page || !count) return;
    pagesRef.current?.querySelector(`[data-page="${page.number}"]`)?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, [page, count]);

  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls takes the focus, so keys scroll it
    <section className="chat-document" ref={pagesRef} data-testid="chat-document" aria-label={t('chatPdf.document')} tabIndex={0}>
      {pdf.failed && <p className="ai-error">{t('chatPdf.documentGone')}</p>}
      {!pdf.doc && !pdf.failed && <span className="spinner" aria-hidden="true" />}
      {Array.from({ length: size ? count : 0 }, (_, i) => i + 1).map((n) => (
        <div key={n} className={`chat-page ${page?.number === n ? 'cited' : ''}`} data-page={n} data-testid="chat-page">
          <PageThumb doc={pdf.doc} pageNumber={n} size={size} />
          <span className="chat-page-number">{t('chatPdf.pageN', { page: n })}</span>
        </div>
      ))}
    </section>
  );
}
