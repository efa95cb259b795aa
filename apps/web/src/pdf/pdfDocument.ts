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

/** An encrypted document waits for its password; pdf.js asks again while it is wrong. */
export interface PasswordRequest {
  incorrect: boolean;
  submit(password: string): void;
}

export type PdfState = { doc: PDFDocumentProxy | null; failed: boolean; passwordRequest?: PasswordRequest };

/** pdf.js's PasswordResponses.INCORRECT_PASSWORD. */
const INCORRECT_PASSWORD = 2;

/** What pdf.js opens: a URL, or bytes already fetched. Bytes are copied: pdf.js hands them to its worker, which leaves them empty here. */
function documentSource(
  source: string | Blob | Uint8Array,
): Promise<{ url: string } | { data: Uint8Array }> | { url: string } | { data: Uint8Array } {
  if (typeof source === 'string') return { url: source };
  if (source instanceof Uint8Array) return { data: source.slice() };
  return source.arrayBuffer().then((b) => ({ data: new Uint8Array(b) }));
}

/**
 * Opens the PDF at `source` (a URL, or bytes already fetched) with its password for previews; closed
 * again on unmount. With `askPassword`, an encrypted document is not a failure: the state carries a
 * request that hands the password to pdf.js, so it is checked and used in the browser only.
 */
export function usePdfDocument(source: string | Blob | Uint8Array | undefined, password?: string, askPassword = false): PdfState {
  const [state, setState] = useState<PdfState>({ doc: null, failed: false });
  useEffect(() => {
    if (!source) return;
    let cancelled = false;
    let destroy: (() => Promise<void>) | undefined;
    setState({ doc: null, failed: false });
    Promise.all([loadPdfJs(), documentSource(source)])
      .then(([pdfjs, from]) => {
        if (cancelled) return null;
        // isEvalSupported off: never compile font code from a document with eval. Where the server
        // sends byte ranges (uploads), only the parts the drawn pages need are fetched, not the whole file.
        const task = pdfjs.getDocument({
          ...from,
          isEvalSupported: false,
          disableStream: true,
          disableAutoFetch: true,
          ...(password && { password }),
        });
        if (askPassword)
          task.onPassword = (update: (password: string) => void, reason: number) => {
            if (!cancelled)
              setState({ doc: null, failed: false, passwordRequest: { incorrect: reason === INCORRECT_PASSWORD, submit: update } });
          };
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
  }, [source, password, askPassword]);
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
  return renderPage(doc, pageNumber, canvas, (natural) => boxSize / Math.max(natural.width, natural.height), extraRotation);
}

/**
 * Draws page `pageNumber` into `canvas` at the scale `scaleOf` gives for its natural size (points),
 * turned `extraRotation` degrees beyond its own /Rotate, sharp on high-density screens. Returns a
 * function that cancels a render still under way.
 */
export function renderPage(
  doc: PDFDocumentProxy,
  pageNumber: number,
  canvas: HTMLCanvasElement,
  scaleOf: (natural: { width: number; height: number }) => number,
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
    const scale = scaleOf(natural);
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

/**
 * Lays page `pageNumber`'s text over its drawing in `container` at `scale` (CSS pixels per point),
 * as pdf.js's transparent text layer: the page's words can then be selected and copied.
 */
export async function renderTextLayer(doc: PDFDocumentProxy, pageNumber: number, container: HTMLElement, scale: number) {
  const [pdfjs, page] = await Promise.all([loadPdfJs(), doc.getPage(pageNumber)]);
  container.replaceChildren();
  container.style.setProperty('--total-scale-factor', String(scale));
  const layer = new pdfjs.TextLayer({ textContentSource: page.streamTextContent(), container, viewport: page.getViewport({ scale }) });
  await layer.render();
  return () => layer.cancel();
}
