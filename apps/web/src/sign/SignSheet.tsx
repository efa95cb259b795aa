// One page at the chosen zoom with the marks over it: moved by dragging or the arrow keys, resized
// from a corner keeping their aspect, removed with Delete; signatures dragged from the panel land
// where they are dropped.
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useRef, useState, type DragEvent, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';
import { useT } from '../i18n/I18nProvider';
import { useShownSize } from '../pdf/pageGeometry';
import { renderPageThumbnail } from '../pdf/pdfDocument';
import { PagePager, useWidth } from '../tool/panels/PageView';
import { moveWithin, resizeKeepingAspect, toScreen, type Corner, type Rect } from './geometry';
import { markLabel, type Mark } from './marks';

/** The drag data type of a signature dragged from the panel onto a page. */
export const SIGNATURE_DRAG_TYPE = 'application/x-quire-signature';

/** Zoom steps, as parts of the width that fits the frame. */
const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];
const FRAME_PADDING_PX = 4;
const corners: Corner[] = ['nw', 'ne', 'sw', 'se'];

type Drag = { id: string; corner?: Corner; x0: number; y0: number; start: Rect };

/** Set by the sheet: the part of the page in view (points of the page as shown), null when none is. */
export type VisibleArea = RefObject<(() => Rect | null) | null>;

interface SignSheetProps {
  doc: PDFDocumentProxy | null;
  pageCount: number;
  page: number;
  onPage(page: number): void;
  marks: Mark[];
  selectedId: string | undefined;
  onSelect(id: string | undefined): void;
  onMove(id: string, rect: Rect): void;
  onRemove(id: string): void;
  /** A signature of the panel dropped at (x, y) points of the page as shown. */
  onDropSignature(key: string, x: number, y: number): void;
  visibleArea: VisibleArea;
}

export function SignSheet(props: SignSheetProps) {
  const { doc, pageCount, page, onPage, marks, selectedId, onSelect, onMove, onRemove, onDropSignature, visibleArea } = props;
  const t = useT();
  const frame = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const frameWidth = useWidth(frame);
  const shown = useShownSize(doc, page);
  const [step, setStep] = useState(ZOOM_STEPS.indexOf(1));
  const [drawn, setDrawn] = useState(false);
  const drag = useRef<Drag | null>(null);
  // The frame's padding on both sides (sign.css) is not room for the page.
  const zoom = shown && frameWidth ? ((frameWidth - 2 * FRAME_PADDING_PX) / shown.width) * ZOOM_STEPS[step]! : 0;

  useEffect(() => {
    if (!doc || !shown || !zoom || !canvas.current) return;
    setDrawn(false);
    const render = renderPageThumbnail(doc, page, canvas.current, Math.max(shown.width, shown.height) * zoom);
    render.done.then(
      () => setDrawn(true),
      () => {},
    );
    return () => render.cancel();
  }, [doc, page, shown, zoom]);

  const startDrag = (e: PointerEvent<HTMLElement>, mark: Mark) => {
    if (e.button !== 0) return;
    onSelect(mark.id);
    e.currentTarget.setPointerCapture(e.pointerId);
    const corner = (e.target as HTMLElement).dataset.corner as Corner | undefined;
    drag.current = { id: mark.id, x0: e.clientX, y0: e.clientY, start: mark.rect, ...(corner && { corner }) };
  };
  const moveDrag = (e: PointerEvent<HTMLElement>) => {
    const d = drag.current;
    if (!d || !shown) return;
    const [dx, dy] = [(e.clientX - d.x0) / zoom, (e.clientY - d.y0) / zoom];
    onMove(d.id, d.corner ? resizeKeepingAspect(d.start, d.corner, dx, dy, shown) : moveWithin(d.start, dx, dy, shown));
  };
  const keys = (e: KeyboardEvent<HTMLElement>, mark: Mark) => {
    if (!shown) return;
    const by = e.shiftKey ? 10 : 1;
    const moves: Record<string, [number, number]> = { ArrowLeft: [-by, 0], ArrowRight: [by, 0], ArrowUp: [0, -by], ArrowDown: [0, by] };
    const move = moves[e.key];
    if (move) onMove(mark.id, moveWithin(mark.rect, move[0], move[1], shown));
    else if (e.key === 'Delete' || e.key === 'Backspace') onRemove(mark.id);
    else if (e.key === 'Escape') onSelect(undefined);
    else return;
    e.preventDefault();
  };
  const drop = (e: DragEvent<HTMLDivElement>) => {
    const key = e.dataTransfer.getData(SIGNATURE_DRAG_TYPE);
    if (!key || !zoom) return;
    e.preventDefault();
    const box = e.currentTarget.getBoundingClientRect();
    onDropSignature(key, (e.clientX - box.left) / zoom, (e.clientY - box.top) / zoom);
  };

  // The page as drawn, clipped by the frame and the window: where a new mark is seen.
  useEffect(() => {
    visibleArea.current = () => {
      const sheet = frame.current?.querySelector('.page-view-sheet')?.getBoundingClientRect();
      const clip = frame.current?.getBoundingClientRect();
      if (!sheet || !clip || !zoom) return null;
      const [left, top] = [Math.max(sheet.left, clip.left, 0), Math.max(sheet.top, clip.top, 0)];
      const [right, bottom] = [
        Math.min(sheet.right, clip.right, window.innerWidth),
        Math.min(sheet.bottom, clip.bottom, window.innerHeight),
      ];
      if (right <= left || bottom <= top) return null;
      return { x: (left - sheet.left) / zoom, y: (top - sheet.top) / zoom, width: (right - left) / zoom, height: (bottom - top) / zoom };
    };
  }, [visibleArea, zoom]);

  const [cssW, cssH] = shown ? [Math.round(shown.width * zoom), Math.round(shown.height * zoom)] : [0, 0];
  return (
    <div className="sign-view">
      <div className="sign-viewbar">
        <PagePager page={page} pageCount={pageCount} onPage={onPage} />
        <span className="sign-zoom">
          <button
            type="button"
            className="button button-ghost"
            disabled={step === 0}
            aria-label={t('sign.zoomOut')}
            data-testid="zoom-out"
            onClick={() => setStep(step - 1)}
          >
            −
          </button>
          <button
            type="button"
            className="link-button"
            data-testid="zoom-fit"
            title={t('sign.fitWidth')}
            onClick={() => setStep(ZOOM_STEPS.indexOf(1))}
          >
            {Math.round(ZOOM_STEPS[step]! * 100)}%
          </button>
          <button
            type="button"
            className="button button-ghost"
            disabled={step === ZOOM_STEPS.length - 1}
            aria-label={t('sign.zoomIn')}
            data-testid="zoom-in"
            onClick={() => setStep(step + 1)}
          >
            +
          </button>
        </span>
      </div>
      <div ref={frame} className="sign-frame">
        <div className={`page-view-sheet ${drawn ? 'drawn' : ''}`} style={{ width: cssW, height: cssH }}>
          <canvas ref={canvas} />
          {shown && (
            // biome-ignore lint/a11y/noStaticElementInteractions: a click on the page itself only clears the selection; each mark is a button of its own
            <div
              className="sign-overlay"
              data-testid="sign-page"
              data-page={page}
              onDragOver={(e) => e.dataTransfer.types.includes(SIGNATURE_DRAG_TYPE) && e.preventDefault()}
              onDrop={drop}
              onPointerDown={(e) => e.target === e.currentTarget && onSelect(undefined)}
            >
              {marks.map((mark) => {
                const r = toScreen(mark.rect, zoom);
                const selected = mark.id === selectedId;
                return (
                  <button
                    key={mark.id}
                    type="button"
                    className={`sign-mark sign-mark-${mark.kind} ${selected ? 'selected' : ''}`}
                    style={{ left: r.x, top: r.y, width: r.width, height: r.height }}
                    aria-label={markLabel(t, mark.kind)}
                    aria-pressed={selected}
                    data-testid="sign-mark"
                    data-kind={mark.kind}
                    onFocus={() => onSelect(mark.id)}
                    onKeyDown={(e) => keys(e, mark)}
                    onPointerDown={(e) => startDrag(e, mark)}
                    onPointerMove={moveDrag}
                    onPointerUp={() => {
                      drag.current = null;
                    }}
                    onPointerCancel={() => {
                      drag.current = null;
                    }}
                  >
                    {mark.kind === 'image' ? (
                      <img src={mark.signature.image.png} alt="" draggable={false} />
                    ) : (
                      <span style={{ fontSize: r.height * 0.8 }}>{mark.text}</span>
                    )}
                    {selected &&
                      corners.map((c) => (
                        <span key={c} className={`sign-handle sign-handle-${c}`} data-corner={c} data-testid={`handle-${c}`} />
                      ))}
                  </button>
                );
              })}
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
