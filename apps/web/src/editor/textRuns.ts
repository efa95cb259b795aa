// The text already on a page, as boxes to click into (edit mode) or to mark (highlight,
// underline, strike-out): pdf.js's text items in the page's user space.
import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { TextItem } from 'pdfjs-dist/types/src/display/api';
import { useEffect, useState } from 'react';
import type { TextItemLike } from '../pdf/textHits';
import type { Rect } from './pageCoordinates';

/** A run of text: one pdf.js item, with the box its glyphs fill. */
export interface TextRun {
  text: string;
  rect: Rect;
  fontSize: number;
}

/**
 * The run of an item whose baseline starts at (e, f) of its matrix, with the page's origin at
 * `origin` (a CropBox need not start at 0, 0): from a quarter em below the baseline to the ascent.
 */
export function runOfItem(item: TextItemLike, origin: { x: number; y: number }): TextRun {
  const [, , c = 0, d = 1, e = 0, f = 0] = item.transform;
  const fontSize = item.height || Math.hypot(c, d) || 1;
  return {
    text: item.str,
    rect: { x: e - origin.x, y: f - origin.y - 0.25 * fontSize, width: item.width, height: 1.15 * fontSize },
    fontSize,
  };
}

/** The parts of runs inside `area` (user space): what a drag over the text marks, one box per run. */
export function runsIn(runs: readonly TextRun[], area: Rect): Rect[] {
  return runs.flatMap((run) => {
    const r = run.rect;
    const middle = r.y + r.height / 2;
    if (middle < area.y || middle > area.y + area.height) return [];
    const x0 = Math.max(r.x, area.x);
    const x1 = Math.min(r.x + r.width, area.x + area.width);
    return x1 - x0 > 0.5 ? [{ x: x0, y: r.y, width: x1 - x0, height: r.height }] : [];
  });
}

/** The runs of page `pageNumber`, read once the page is near. */
export function useTextRuns(doc: PDFDocumentProxy | null, pageNumber: number, wanted: boolean): TextRun[] {
  const [runs, setRuns] = useState<TextRun[]>([]);
  useEffect(() => {
    if (!doc || !wanted) return;
    let current = true;
    void (async () => {
      const page = await doc.getPage(pageNumber);
      const [x0 = 0, y0 = 0] = page.view;
      const content = await page.getTextContent();
      const found = content.items
        .filter((i): i is TextItem => 'str' in i && i.str.trim() !== '')
        .map((i) => runOfItem(i, { x: x0, y: y0 }));
      if (current) setRuns(found);
    })().catch(() => {
      // A page whose text pdf.js cannot read has no runs to click; drawing and annotating still work.
    });
    return () => {
      current = false;
    };
  }, [doc, pageNumber, wanted]);
  return runs;
}
