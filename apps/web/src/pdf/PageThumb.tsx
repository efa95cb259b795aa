import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useRef, useState } from 'react';
import { useNearView } from '../ui/useNearView';
import { renderPageThumbnail } from './pdfDocument';

/** At most this many page previews per document, however long it is. */
export const MAX_THUMBNAILS = 200;

interface PageThumbProps {
  doc: PDFDocumentProxy | null;
  pageNumber: number;
  /** The longer side of the preview in CSS pixels. */
  size?: number;
  /** Extra rotation to preview, in degrees clockwise. */
  rotation?: number;
}

/** A page preview, drawn only once it comes near the viewport; a spinner holds its place until then. */
export function PageThumb({ doc, pageNumber, size = 140, rotation = 0 }: PageThumbProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const visible = useNearView(boxRef);
  const [drawn, setDrawn] = useState<'no' | 'yes' | 'failed'>('no');

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!doc || !visible || !canvas) return;
    let current = true;
    const render = renderPageThumbnail(doc, pageNumber, canvas, size);
    render.done.then(
      () => current && setDrawn('yes'),
      () => current && setDrawn('failed'),
    );
    return () => {
      current = false;
      render.cancel();
    };
  }, [doc, visible, pageNumber, size]);

  return (
    <div
      ref={boxRef}
      className={`page-thumb ${drawn === 'yes' ? 'drawn' : ''}`}
      style={{ width: size, height: size }}
      data-testid="page-thumb"
      data-drawn={drawn}
    >
      <canvas ref={canvasRef} style={{ transform: rotation ? `rotate(${rotation}deg)` : undefined }} />
      {drawn !== 'yes' && (
        <span className="page-thumb-placeholder">
          {drawn === 'no' && <span className="spinner spinner-small" aria-hidden="true" />}
          {pageNumber}
        </span>
      )}
    </div>
  );
}
