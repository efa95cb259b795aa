import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useRef, useState } from 'react';
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

/** A page preview, drawn only once it scrolls into view. */
export function PageThumb({ doc, pageNumber, size = 140, rotation = 0 }: PageThumbProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [visible, setVisible] = useState(false);
  const [drawn, setDrawn] = useState(false);

  useEffect(() => {
    const box = boxRef.current;
    if (!box || visible) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setVisible(true);
          observer.disconnect();
        }
      },
      { rootMargin: '200px' },
    );
    observer.observe(box);
    return () => observer.disconnect();
  }, [visible]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!doc || !visible || !canvas) return;
    const render = renderPageThumbnail(doc, pageNumber, canvas, size);
    render.done.then(
      () => setDrawn(true),
      () => {},
    );
    return () => render.cancel();
  }, [doc, visible, pageNumber, size]);

  return (
    <div ref={boxRef} className={`page-thumb ${drawn ? 'drawn' : ''}`} style={{ width: size, height: size }}>
      <canvas ref={canvasRef} style={{ transform: rotation ? `rotate(${rotation}deg)` : undefined }} />
      {!drawn && <span className="page-thumb-placeholder">{pageNumber}</span>}
    </div>
  );
}
