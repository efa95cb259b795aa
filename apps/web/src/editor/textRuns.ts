// The text already on a page, as boxes to click into (edit mode) or to mark (highlight,
// underline, strike-out): the server's runs, kept in the page's user space like every operation.
import type { PageRuns } from '@quire/contracts';
import { useEffect, useState } from 'react';
import { fetchRuns } from '../api/editor';
import { type PageFrame, type Rect, rectToPage } from './pageCoordinates';

/** A run of text in one font, size and colour within a line. */
export interface TextRun {
  id: string;
  text: string;
  /** User space of the page as uploaded. */
  rect: Rect;
  fontSize: number;
}

/** The server's runs, whose boxes are points from the top left of the page as uploaded and shown. */
export function runsOfPage(answer: PageRuns, frame: PageFrame): TextRun[] {
  return answer.runs.map((run) => ({ id: run.id, text: run.text, rect: rectToPage(run.bbox, frame, 1), fontSize: run.size }));
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

/** The runs of page `source` once wanted; `frame` is the page as uploaded (its own /Rotate). */
export function useTextRuns(
  file: { fileId: string; password?: string },
  source: number,
  frame: PageFrame | null,
  wanted: boolean,
): TextRun[] {
  const [runs, setRuns] = useState<TextRun[]>([]);
  const { fileId, password } = file;
  useEffect(() => {
    if (!wanted || !frame) return;
    let current = true;
    fetchRuns(fileId, source, password).then(
      (answer) => current && setRuns(runsOfPage(answer, frame)),
      // A page whose text cannot be read has no runs to click; drawing and annotating still work.
      () => {},
    );
    return () => {
      current = false;
    };
  }, [fileId, password, source, frame, wanted]);
  return runs;
}
