// A page's size as shown and its text as pdf.js reads it, for the editing previews (crop box,
// redaction marks, text hits). Each page's text is read once per open document.
import type { SearchSpec } from '@quire/contracts';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { TextItem } from 'pdfjs-dist/types/src/display/api';
import { useEffect, useState } from 'react';
import { textHits, type Measure, type ShownPage, type TextHit, type TextItemLike } from './textHits';

export interface ShownSize {
  /** Points, as the page is shown (CropBox, after /Rotate). */
  width: number;
  height: number;
}

/** The size of page `page` as shown, once pdf.js has it. */
export function useShownSize(doc: PDFDocumentProxy | null, page: number): ShownSize | null {
  const [size, setSize] = useState<ShownSize | null>(null);
  useEffect(() => {
    if (!doc) return;
    let cancelled = false;
    doc.getPage(page).then(
      (p) => {
        const vp = p.getViewport({ scale: 1 });
        if (!cancelled) setSize({ width: vp.width, height: vp.height });
      },
      () => {},
    );
    return () => {
      cancelled = true;
    };
  }, [doc, page]);
  return size;
}

interface PageTextData {
  items: TextItemLike[];
  page: ShownPage;
}

let context: CanvasRenderingContext2D | null | undefined;

/** Text widths from the browser's own fonts of the same family: close enough to place a hit. */
const measureText: Measure = (text, family) => {
  context ??= document.createElement('canvas').getContext('2d');
  if (!context) return text.length;
  context.font = `100px ${family}`;
  return context.measureText(text).width;
};

const textCache = new WeakMap<PDFDocumentProxy, Map<number, Promise<PageTextData>>>();

function pageText(doc: PDFDocumentProxy, n: number): Promise<PageTextData> {
  let pages = textCache.get(doc);
  if (!pages) {
    pages = new Map();
    textCache.set(doc, pages);
  }
  let data = pages.get(n);
  if (!data) {
    data = doc.getPage(n).then(async (p) => {
      const vp = p.getViewport({ scale: 1 });
      const content = await p.getTextContent();
      return {
        items: content.items
          .filter((i): i is TextItem => 'str' in i)
          .map((i) => ({ ...i, fontFamily: content.styles[i.fontName]?.fontFamily ?? 'sans-serif' })),
        page: { toShown: (x, y) => vp.convertToViewportPoint(x, y) as [number, number], width: vp.width, height: vp.height },
      };
    });
    pages.set(n, data);
  }
  return data;
}

export interface TextHitsState {
  /** Each page's hits. */
  byPage: Map<number, TextHit[]>;
  total: number;
  /** Pages searched so far; the search runs through the whole document in the background. */
  searched: number;
  done: boolean;
}

const noHits: TextHitsState = { byPage: new Map(), total: 0, searched: 0, done: true };

/** Hits of `searches` over the whole document, updated as the pages are read. */
export function useTextHits(doc: PDFDocumentProxy | null, pageCount: number, searches: readonly SearchSpec[]): TextHitsState {
  const [state, setState] = useState<TextHitsState>(noHits);
  const key = JSON.stringify(searches);
  useEffect(() => {
    const specs = JSON.parse(key) as SearchSpec[];
    if (!doc || !specs.length) {
      setState(noHits);
      return;
    }
    let cancelled = false;
    setState({ ...noHits, done: false });
    void (async () => {
      const byPage = new Map<number, TextHit[]>();
      let total = 0;
      for (let n = 1; n <= pageCount && !cancelled; n++) {
        try {
          const data = await pageText(doc, n);
          const hits = textHits(data.items, data.page, specs, measureText);
          if (hits.length) {
            byPage.set(n, hits);
            total += hits.length;
          }
        } catch {
          // A page pdf.js cannot read has no preview; the server still searches it.
        }
        if (!cancelled && (n % 10 === 0 || n === pageCount))
          setState({ byPage: new Map(byPage), total, searched: n, done: n === pageCount });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [doc, pageCount, key]);
  return state;
}
