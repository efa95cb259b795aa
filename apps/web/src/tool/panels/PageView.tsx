// One page at a readable size, with marked areas and text hits over it, and (for Redact) a
// rectangle drawn by dragging on it. Coordinates outside are the API's: points from the bottom
// left of the page as shown.
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { useT } from '../../i18n/I18nProvider';
import { useShownSize } from '../../pdf/pageGeometry';
import { renderPageThumbnail } from '../../pdf/pdfDocument';
import type { ShownRect } from '../../pdf/textHits';
import { Icon } from '../../ui/Icon';
import '../editTools.css';

/** The page is drawn to the frame's width, but no taller than the window leaves room for (CSS pixels). */
const viewHeight = () => Math.max(480, window.innerHeight - 120);
/** A drag shorter than this either way is a click, not an area. */
const MIN_DRAG_PX = 4;

export interface PageViewMark {
  rect: ShownRect;
  onRemove?: () => void;
}

interface PageViewProps {
  doc: PDFDocumentProxy | null;
  pageCount: number;
  page: number;
  onPage(page: number): void;
  marks?: PageViewMark[];
  hits?: ShownRect[];
  /** When given, dragging on the page draws an area and hands it here. */
  onDraw?: (rect: ShownRect) => void;
}

/** The element's inner width in CSS pixels, followed as it changes. */
export function useWidth(ref: React.RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    setWidth(el.clientWidth);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** Previous and next page around "Page n of m". */
export function PagePager({ page, pageCount, onPage }: { page: number; pageCount: number; onPage(page: number): void }) {
  const t = useT();
  return (
    <div className="page-view-pager">
      <button
        type="button"
        className="button button-ghost"
        data-testid="page-prev"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
        aria-label={t('pageView.previous')}
      >
        <Icon name="arrowLeft" size={18} />
      </button>
      <span data-testid="page-of">{t('pageView.pageOf', { page, count: pageCount })}</span>
      <button
        type="button"
        className="button button-ghost"
        data-testid="page-next"
        disabled={page >= pageCount}
        onClick={() => onPage(page + 1)}
        aria-label={t('pageView.next')}
      >
        <Icon name="arrowRight" size={18} />
      </button>
    </div>
  );
}

type Drag = { x0: number; y0: number; x1: number; y1: number };

export function PageView({ doc, pageCount, page, onPage, marks = [], hits = [], onDraw }: PageViewProps) {
  const t = useT();
  const frame = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const width = useWidth(frame);
  const shown = useShownSize(doc, page);
  const [drawn, setDrawn] = useState(false);
  const [drag, setDrag] = useState<Drag | null>(null);
  const scale = shown && width ? Math.min(width / shown.width, viewHeight() / shown.height) : 0;
  const [cssW, cssH] = shown ? [Math.round(shown.width * scale), Math.round(shown.height * scale)] : [0, 0];

  useEffect(() => {
    if (!doc || !shown || !scale || !canvas.current) return;
    setDrawn(false);
    const render = renderPageThumbnail(doc, page, canvas.current, Math.max(shown.width, shown.height) * scale);
    render.done.then(
      () => setDrawn(true),
      () => {},
    );
    return () => render.cancel();
  }, [doc, page, shown, scale]);

  // From the API's points (bottom-left origin) to CSS pixels over the canvas, and back.
  const toCss = (r: ShownRect) => ({
    left: r.x * scale,
    top: (shown!.height - r.y - r.height) * scale,
    width: r.width * scale,
    height: r.height * scale,
  });
  const pointer = (e: PointerEvent<HTMLDivElement>): [number, number] => {
    const box = e.currentTarget.getBoundingClientRect();
    return [Math.min(cssW, Math.max(0, e.clientX - box.left)), Math.min(cssH, Math.max(0, e.clientY - box.top))];
  };
  const drawing = onDraw && {
    onPointerDown: (e: PointerEvent<HTMLDivElement>) => {
      if (e.button !== 0 || (e.target as HTMLElement).closest('button')) return;
      e.currentTarget.setPointerCapture(e.pointerId);
      const [x, y] = pointer(e);
      setDrag({ x0: x, y0: y, x1: x, y1: y });
    },
    onPointerMove: (e: PointerEvent<HTMLDivElement>) => {
      if (!drag) return;
      const [x, y] = pointer(e);
      setDrag({ ...drag, x1: x, y1: y });
    },
    onPointerUp: () => {
      if (!drag || !shown) return;
      setDrag(null);
      const [left, right, top, bottom] = [
        Math.min(drag.x0, drag.x1),
        Math.max(drag.x0, drag.x1),
        Math.min(drag.y0, drag.y1),
        Math.max(drag.y0, drag.y1),
      ];
      if (right - left < MIN_DRAG_PX || bottom - top < MIN_DRAG_PX) return;
      onDraw({ x: left / scale, y: shown.height - bottom / scale, width: (right - left) / scale, height: (bottom - top) / scale });
    },
    onPointerCancel: () => setDrag(null),
  };

  return (
    <div className="page-view">
      {pageCount > 1 && <PagePager page={page} pageCount={pageCount} onPage={onPage} />}
      <div ref={frame} className="page-view-frame">
        <div className={`page-view-sheet ${drawn ? 'drawn' : ''}`} style={{ width: cssW, height: cssH }}>
          <canvas ref={canvas} />
          {shown && (
            <div className={`page-view-overlay ${onDraw ? 'drawable' : ''}`} data-testid="page-view" data-page={page} {...drawing}>
              {hits.map((r, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: stateless boxes redrawn from the search; two terms can give the same box, so the place in the list is the only unique key
                <div key={`h${i}`} className="view-hit" data-testid="text-hit" style={toCss(r)} />
              ))}
              {marks.map((m, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the marks hold no state and the same area may be drawn twice, so the place in the list is the only unique key
                <div key={`m${i}`} className="view-mark" data-testid="redact-mark" style={toCss(m.rect)}>
                  {m.onRemove && (
                    <button
                      type="button"
                      className="view-mark-remove"
                      data-testid="remove-mark"
                      aria-label={t('redact.removeArea')}
                      onClick={m.onRemove}
                    >
                      <Icon name="close" size={14} />
                    </button>
                  )}
                </div>
              ))}
              {drag && (
                <div
                  className="view-mark draft"
                  style={{
                    left: Math.min(drag.x0, drag.x1),
                    top: Math.min(drag.y0, drag.y1),
                    width: Math.abs(drag.x1 - drag.x0),
                    height: Math.abs(drag.y1 - drag.y0),
                  }}
                />
              )}
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
