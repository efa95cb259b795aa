// pdf.js in the browser, loaded only on pages that show previews.
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useState } from 'react';

type PdfJs = typeof import('pdfjs-dist');
let pdfjsPromise: Promise<PdfJs> | undefined;

function loadPdfJs(): Promise<PdfJs> {
  pdfjsPromise ??= import('pdfjs-dist').then((pdfjs) => {
    pdfjs.GlobalWorkerOptions.workerSrc = new URL('pdfjs-dist/build/pdf.worker.min.mjs', import.meta.url).toString();
    return pdfjs;
  });
  return pdfjsPromise;
}

export type PdfState = { doc: PDFDocumentProxy | null; failed: boolean };

/**
 * Opens the PDF at `url`, or held in `source` bytes, (with its password) for previews; closed
 * again on unmount. Bytes are copied: pdf.js hands them to its worker, which leaves them empty here.
 */
export function usePdfDocument(source: string | Uint8Array | undefined, password?: string): PdfState {
  const [state, setState] = useState<PdfState>({ doc: null, failed: false });
  useEffect(() => {
    if (!source) return;
    let cancelled = false;
    let destroy: (() => Promise<void>) | undefined;
    setState({ doc: null, failed: false });
    loadPdfJs()
      .then((pdfjs) => {
        if (cancelled) return null;
        // isEvalSupported off: never compile font code from a document with eval. Where the server
        // sends byte ranges (uploads), only the parts the drawn pages need are fetched, not the whole file.
        const task = pdfjs.getDocument({
          ...(typeof source === 'string' ? { url: source } : { data: source.slice() }),
          isEvalSupported: false,
          disableStream: true,
          disableAutoFetch: true,
          ...(password && { password }),
        });
        destroy = () => task.destroy();
        return task.promise;
      })
      .then(
        (doc) => {
          if (!cancelled && doc) setState({ doc, failed: false });
        },
        () => {
          if (!cancelled) setState({ doc: null, failed: true });
        },
      );
    return () => {
      cancelled = true;
      void destroy?.();
    };
  }, [source, password]);
  return state;
}

// Rendering several pages at once only makes them all late: draw a few at a time.
const MAX_PARALLEL_RENDERS = 3;
let running = 0;
const waiting: (() => void)[] = [];

async function withRenderSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_PARALLEL_RENDERS) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/**
 * Draws page `pageNumber` into `canvas` so its longer side is `boxSize` CSS pixels, turned
 * `extraRotation` degrees clockwise beyond its own /Rotate.
 * Returns a function that cancels a render still under way.
 */
export function renderPageThumbnail(
  doc: PDFDocumentProxy,
  pageNumber: number,
  canvas: HTMLCanvasElement,
  boxSize: number,
  extraRotation = 0,
) {
  let cancelled = false;
  let cancelRender: (() => void) | undefined;
  const done = withRenderSlot(async () => {
    if (cancelled) return;
    const page = await doc.getPage(pageNumber);
    const rotation = (page.rotate + extraRotation) % 360;
    const natural = page.getViewport({ scale: 1, rotation });
    const pixelRatio = Math.min(window.devicePixelRatio || 1, 2);
    const scale = boxSize / Math.max(natural.width, natural.height);
    const viewport = page.getViewport({ scale: scale * pixelRatio, rotation });
    canvas.width = Math.round(viewport.width);
    canvas.height = Math.round(viewport.height);
    canvas.style.width = `${Math.round(viewport.width / pixelRatio)}px`;
    canvas.style.height = `${Math.round(viewport.height / pixelRatio)}px`;
    if (cancelled) return;
    const task = page.render({ canvas, viewport });
    cancelRender = () => task.cancel();
    await task.promise;
  });
  return {
    done,
    cancel() {
      cancelled = true;
      cancelRender?.();
    },
  };
}
