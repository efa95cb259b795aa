// The thumbnails beside the pages: go to a page, turn it, delete it, or drag it elsewhere.
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useState } from 'react';
import { useT } from '../i18n/I18nProvider';
import { PageThumb } from '../pdf/PageThumb';
import type { LaidOutPage } from './editOps';
import { ToolButton } from './tools';

interface PageStripProps {
  doc: PDFDocumentProxy;
  pages: readonly LaidOutPage[];
  onShow(source: number): void;
  onRotate(source: number, degrees: 90 | -90): void;
  onDelete(source: number): void;
  /** Moves page `source` before page `before` (0: to the end). */
  onMove(source: number, before: number): void;
}

export function PageStrip({ doc, pages, onShow, onRotate, onDelete, onMove }: PageStripProps) {
  const t = useT();
  const [dragged, setDragged] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
  return (
    <ol className="page-strip" data-testid="page-strip" aria-label={t('editor.pages')}>
      {pages.map((page, i) => (
        <li
          key={page.source}
          className={`page-strip-item ${over === page.source ? 'drop-before' : ''} ${dragged === page.source ? 'dragging' : ''}`}
          draggable
          data-testid="page-strip-item"
          data-source={page.source}
          onDragStart={(e) => {
            setDragged(page.source);
            e.dataTransfer.effectAllowed = 'move';
            e.dataTransfer.setData('text/plain', String(page.source));
          }}
          onDragOver={(e) => {
            if (dragged === null) return;
            e.preventDefault();
            setOver(page.source);
          }}
          onDragLeave={() => setOver(null)}
          onDrop={(e) => {
            e.preventDefault();
            if (dragged !== null && dragged !== page.source) onMove(dragged, page.source);
            setDragged(null);
            setOver(null);
          }}
          onDragEnd={() => {
            setDragged(null);
            setOver(null);
          }}
        >
          <button
            type="button"
            className="page-strip-thumb"
            onClick={() => onShow(page.source)}
            aria-label={t('editor.goToPage', { n: i + 1 })}
          >
            <PageThumb doc={doc} pageNumber={page.source} size={104} rotation={page.rotation} />
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
            setDragged(null);
            setOver(null);
          }}
        />
      )}
    </ol>
  );
}
