// The text already on a page, as boxes to click into (edit mode) or to mark (highlight,
// underline, strike-out), and the images and annotations already there to select and delete: what
// the server reads of a page, kept in the page's user space like every operation.
import type { PageObjects, PageRuns } from '@quire/contracts';
import { useEffect, useState } from 'react';
import { fetchObjects, fetchRuns } from '../api/editor';
import type { TextStyle } from './editOps';
import { type PageFrame, type Rect, rectToPage } from './pageCoordinates';

/** A run of text in one font, size and colour within a line. */
export interface TextRun {
  id: string;
  text: string;
  /** User space of the page as uploaded. */
  rect: Rect;
  /** Its own style, its font as the nearest of the 21 families. */
  style: TextStyle;
}

/** The server's runs, whose boxes are points from the top left of the page as uploaded and shown. */
export function runsOfPage(answer: PageRuns, frame: PageFrame): TextRun[] {
  return answer.runs.map((run) => ({
    id: run.id,
    text: run.text,
    rect: rectToPage(run.bbox, frame, 1),
    style: { font: run.family, size: run.size, color: run.color, bold: run.bold, italic: run.italic },
  }));
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

/** An image or annotation already in the file. */
export type ExistingObject =
  | { id: string; object: 'image'; rect: Rect }
  | { id: string; object: 'annotation'; rect: Rect; type: PageObjects['annotations'][number]['type']; contents: string };

/** The images and annotations of the server's answer, in user space. */
export function objectsOfPage(answer: PageObjects, frame: PageFrame): ExistingObject[] {
  return [
    ...answer.images.map((i) => ({ id: i.id, object: 'image' as const, rect: rectToPage(i.bbox, frame, 1) })),
    ...answer.annotations.map((a) => ({
      id: a.id,
      object: 'annotation' as const,
      rect: rectToPage(a.rect, frame, 1),
      type: a.type,
      contents: a.contents,
    })),
  ];
}

/** Annotations whose text is edited in place: a sticky note's, a text comment's. */
export const hasEditableText = (o: ExistingObject): o is ExistingObject & { type: 'note' | 'freetext' } =>
  o.object === 'annotation' && (o.type === 'note' || o.type === 'freetext');

type PageFile = { fileId: string; password?: string };

/**
 * What the server reads of page `source` once wanted, taken into user space; `frame` is the page
 * as uploaded (its own /Rotate). A page the server cannot read has nothing to click; drawing and
 * annotating still work.
 */
function usePageRead<T>(
  file: PageFile,
  source: number,
  frame: PageFrame | null,
  wanted: boolean,
  read: (file: PageFile, page: number, frame: PageFrame) => Promise<T[]>,
): T[] {
  const [items, setItems] = useState<T[]>([]);
  const { fileId, password } = file;
  useEffect(() => {
    if (!wanted || !frame) return;
    let current = true;
    read({ fileId, ...(password && { password }) }, source, frame).then(
      (found) => current && setItems(found),
      () => {},
    );
    return () => {
      current = false;
    };
  }, [fileId, password, source, frame, wanted, read]);
  return items;
}

const readRuns = async (file: PageFile, page: number, frame: PageFrame) =>
  runsOfPage(await fetchRuns(file.fileId, page, file.password), frame);
const readObjects = async (file: PageFile, page: number, frame: PageFrame) =>
  objectsOfPage(await fetchObjects(file.fileId, page, file.password), frame);

export const useTextRuns = (file: PageFile, source: number, frame: PageFrame | null, wanted: boolean) =>
  usePageRead(file, source, frame, wanted, readRuns);

export const useExistingObjects = (file: PageFile, source: number, frame: PageFrame | null, wanted: boolean) =>
  usePageRead(file, source, frame, wanted, readObjects);
