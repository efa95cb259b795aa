// The document as AI read shows it: each page drawn with its text laid over it, so the words can be
// selected, drawn only as it comes near the view. A page the AI cites is scrolled to and framed.
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useRef, useState } from 'react';
import { useI18n } from '../../i18n/I18nProvider';
import { renderPage, renderTextLayer } from '../../pdf/pdfDocument';
import { useColumnWidth } from '../../ui/useColumnWidth';
import { useNearView } from '../../ui/useNearView';

/** The widest a page is drawn (CSS pixels); a narrower column, its width. */
const PAGE_WIDTH = 720;
/** The column's padding on both sides. */
const COLUMN_PADDING = 32;
/** A page not yet measured holds an A4 page's height. */
const A4_RATIO = 842 / 595;

interface ReaderPagesProps {
  doc: PDFDocumentProxy;
  cited?: { page: number; at: number } | undefined;
}

export function ReaderPages({ doc, cited }: ReaderPagesProps) {
  const { t } = useI18n();
  const own = useRef<HTMLElement | null>(null);
  const width = useColumnWidth(own, PAGE_WIDTH, COLUMN_PADDING);

  // `at` changes with each jump, so citing the same page twice scrolls there again.
  useEffect(() => {
    if (cited) own.current?.querySelector(`[data-page="${cited.page}"]`)?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  }, [cited]);

  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls takes the focus, so keys scroll it
    <section className="read-pages" ref={own} aria-label={t('aiRead.document')} tabIndex={0} data-testid="read-pages">
      {width !== undefined &&
        Array.from({ length: doc.numPages }, (_, i) => i + 1).map((n) => (
          <ReaderPage key={n} doc={doc} pageNumber={n} width={width} cited={cited?.page === n} />
        ))}
    </section>
  );
}

function ReaderPage({ doc, pageNumber, width, cited }: { doc: PDFDocumentProxy; pageNumber: number; width: number; cited: boolean }) {
  const { t } = useI18n();
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const textRef = useRef<HTMLDivElement>(null);
  const visible = useNearView(boxRef);
  const [height, setHeight] = useState(Math.round(width * A4_RATIO));
  const [drawn, setDrawn] = useState(false);

  useEffect(() => {
    const canvas = canvasRef.current;
    const text = textRef.current;
    if (!visible || !canvas || !text) return;
    let current = true;
    let scale = 1;
    let cancelText: (() => void) | undefined;
    const render = renderPage(doc, pageNumber, canvas, (natural) => {
      scale = width / natural.width;
      return scale;
    });
    render.done
      .then(async () => {
        if (!current) return;
        setHeight(Number.parseFloat(canvas.style.height));
        setDrawn(true);
        cancelText = await renderTextLayer(doc, pageNumber, text, scale);
      })
      .catch(() => undefined);
    return () => {
      current = false;
      render.cancel();
      cancelText?.();
    };
  }, [doc, pageNumber, width, visible]);

  return (
    <div className={`read-page ${cited ? 'cited' : ''}`} data-page={pageNumber} data-testid="read-page" data-drawn={drawn}>
      <div className="read-page-sheet" ref={boxRef} style={{ width, height }}>
        <canvas ref={canvasRef} />
        <div className="textLayer" ref={textRef} />
        {!drawn && <span className="spinner" aria-hidden="true" />}
      </div>
      <span className="read-page-number">{t('aiRead.pageN', { page: pageNumber })}</span>
    </div>
  );
}
