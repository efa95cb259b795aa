// The thumbnails beside the pages: go to a page, turn it, delete it, add a blank page after it, or
// move it (by dragging, or by its buttons and Alt+arrows, announced, for the keyboard).
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useRef, useState } from 'react';
import { useT } from '../i18n/I18nProvider';
import { PageThumb } from '../pdf/PageThumb';
import { Icon } from '../ui/Icon';
import type { LaidOutPage } from './editOps';
import type { PageFrame } from './pageCoordinates';
import { ToolButton } from './tools';

interface PageStripProps {
  doc: PDFDocumentProxy;
  pages: readonly LaidOutPage[];
  onShow(source: number): void;
  onRotate(source: number, degrees: 90 | -90): void;
  onDelete(source: number): void;
  /** Moves page `source` before page `before` (0: to the end). */
  onMove(source: number, before: number): void;
  /** Adds a blank page after page `after`. */
  onAddBlank(after: number): void;
  /** Each page's frame: a blank page's thumbnail is drawn at its size. */
  frames: ReadonlyMap<number, PageFrame>;
}

const THUMB_SIZE = 104;

/** A blank page's thumbnail: a white page of its proportions as shown. */
function BlankThumb({ frame, rotation }: { frame: PageFrame | undefined; rotation: number }) {
  const [w, h] = frame ? (rotation % 180 ? [frame.height, frame.width] : [frame.width, frame.height]) : [1, 1];
  const scale = THUMB_SIZE / Math.max(w, h);
  return (
    <span className="page-thumb" style={{ width: THUMB_SIZE, height: THUMB_SIZE }}>
      <span className="page-strip-blank" style={{ width: w * scale, height: h * scale }} />
    </span>
  );
}

export function PageStrip({ doc, pages, onShow, onRotate, onDelete, onMove, onAddBlank, frames }: PageStripProps) {
  const t = useT();
  const [dragged, setDragged] = useState<number | null>(null);
  // Read by the drag events: a quick drag's first dragover can come before React renders the state.
  const draggedNow = useRef<number | null>(null);
  const drag = (source: number | null) => {
    draggedNow.current = source;
    setDragged(source);
  };
  const [over, setOver] = useState<number | null>(null);
  const [announced, setAnnounced] = useState('');
  /** Moves the page at `i` one place up (-1) or down (1), and says where it went. */
  const step = (i: number, by: -1 | 1) => {
    const page = pages[i];
    const to = i + by;
    if (!page || to < 0 || to >= pages.length) return;
    onMove(page.source, by < 0 ? pages[to]!.source : (pages[to + 1]?.source ?? 0));
    setAnnounced(t('editor.pageMoved', { from: i + 1, to: to + 1 }));
  };
  return (
    <>
      <p className="visually-hidden" aria-live="polite" data-testid="page-strip-status">
        {announced}
      </p>
      <ol className="page-strip" data-testid="page-strip" aria-label={t('editor.pages')}>
        {pages.map((page, i) => (
          <li
            key={page.source}
            className={`page-strip-item ${over === page.source ? 'drop-before' : ''} ${dragged === page.source ? 'dragging' : ''}`}
            draggable
            data-testid="page-strip-item"
            data-source={page.source}
            data-blank={page.blank}
            onKeyDown={(e) => {
              if (!e.altKey || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
              e.preventDefault();
              e.stopPropagation();
              step(i, e.key === 'ArrowUp' ? -1 : 1);
            }}
            onDragStart={(e) => {
              drag(page.source);
              e.dataTransfer.effectAllowed = 'move';
              e.dataTransfer.setData('text/plain', String(page.source));
            }}
            onDragOver={(e) => {
              if (draggedNow.current === null) return;
              e.preventDefault();
              setOver(page.source);
            }}
            onDragLeave={() => setOver(null)}
            onDrop={(e) => {
              e.preventDefault();
              const from = draggedNow.current;
              if (from !== null && from !== page.source) onMove(from, page.source);
              drag(null);
              setOver(null);
            }}
            onDragEnd={() => {
              drag(null);
              setOver(null);
            }}
          >
            <button
              type="button"
              className="page-strip-thumb"
              onClick={() => onShow(page.source)}
              aria-label={t('editor.goToPage', { n: i + 1 })}
            >
              {page.blank ? (
                <BlankThumb frame={frames.get(page.source)} rotation={page.rotation} />
              ) : (
                <PageThumb doc={doc} pageNumber={page.source} size={THUMB_SIZE} rotation={page.rotation} />
              )}
            </button>
            <div className="page-strip-actions">
              <span className="page-strip-number">{i + 1}</span>
              <ToolButton icon="rotateLeft" label={t('editor.rotateLeft')} onClick={() => onRotate(page.source, -90)} />
              <ToolButton icon="rotateRight" label={t('editor.rotateRight')} onClick={() => onRotate(page.source, 90)} />
              <ToolButton
                icon="trash"
                label={t('editor.deletePage')}
                testId="delete-page"
                disabled={pages.length < 2}
                onClick={() => onDelete(page.source)}
              />
              <ToolButton
                icon="chevronUp"
                label={t('editor.moveUp')}
                testId="move-page-up"
                disabled={i === 0}
                onClick={() => step(i, -1)}
              />
              <ToolButton
                icon="chevronDown"
                label={t('editor.moveDown')}
                testId="move-page-down"
                disabled={i === pages.length - 1}
                onClick={() => step(i, 1)}
              />
              <ToolButton icon="plus" label={t('editor.addBlankPage')} testId="add-blank-page" onClick={() => onAddBlank(page.source)} />
            </div>
          </li>
        ))}
        {dragged !== null && (
          <li
            className={`page-strip-end ${over === 0 ? 'drop-before' : ''}`}
            onDragOver={(e) => {
              e.preventDefault();
              setOver(0);
            }}
            onDrop={(e) => {
              e.preventDefault();
              onMove(dragged, 0);
              drag(null);
              setOver(null);
            }}
          />
        )}
      </ol>
      <button
        type="button"
        className="button button-outline button-small page-strip-add"
        data-testid="add-blank-page-end"
        onClick={() => onAddBlank(pages.at(-1)?.source ?? 0)}
      >
        <Icon name="plus" size={16} /> {t('editor.addBlankPage')}
      </button>
    </>
  );
}
