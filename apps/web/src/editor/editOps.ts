// The operations of an edit session, as the page makes them and the server applies them.
// Positions are in the page's user space (points from the bottom left of the unrotated page);
// `page` is the page's number in the file as opened, whatever page operations come later.
import type { FontFamilyId } from '@quire/contracts';
import type { PageFrame, Point, Rect } from './pageCoordinates';

export type ShapeKind = 'rectangle' | 'ellipse' | 'line' | 'arrow';
export type MarkupKind = 'highlight' | 'underline' | 'strikeout';

interface OnPage {
  id: string;
  page: number;
}

/** How a text is set: one of the 21 families, its size in points, colour and style. */
export interface TextStyle {
  font: FontFamilyId;
  size: number;
  color: string;
  bold: boolean;
  italic: boolean;
}

export type EditOp =
  /** Text already in the page, re-set: `run` is the server's id of the run, `own` its style as the file has it. */
  | (OnPage & { kind: 'replaceText'; run: string; rect: Rect; text: string; style: TextStyle; own: TextStyle })
  | (OnPage & { kind: 'textBox'; rect: Rect; text: string; style: TextStyle })
  | (OnPage & { kind: 'image'; rect: Rect; dataUrl: string })
  | (OnPage & { kind: 'whiteOut'; rect: Rect })
  | (OnPage & {
      kind: 'shape';
      shape: ShapeKind;
      from: Point;
      to: Point;
      stroke: string;
      fill: string | null;
      lineWidth: number;
      annotation: boolean;
    })
  | (OnPage & { kind: 'markup'; markup: MarkupKind; rects: Rect[]; color: string })
  | (OnPage & { kind: 'note'; at: Point; text: string })
  | (OnPage & { kind: 'comment'; rect: Rect; text: string })
  | (OnPage & { kind: 'ink'; paths: Point[][]; color: string; lineWidth: number })
  | (OnPage & { kind: 'stamp'; rect: Rect; label: string; color: string })
  | (OnPage & { kind: 'signature'; rect: Rect; dataUrl: string })
  | (OnPage & { kind: 'rotatePage'; degrees: 90 | -90 })
  | (OnPage & { kind: 'deletePage' })
  /** Moves page `page` to just before the page now at `before` (0 = at the end). */
  | (OnPage & { kind: 'movePage'; before: number })
  /**
   * A blank page added just after page `after` (0: at the start); `page` is its own number, past
   * the file's pages, which later operations on it use.
   */
  | (OnPage & { kind: 'addPage'; after: number })
  /** An image or annotation already in the file, by the server's id, removed. */
  | (OnPage & { kind: 'deleteObject'; object: 'image' | 'annotation'; target: string; rect: Rect })
  /** An image already in the file moved or resized from `from` to `rect`. */
  | (OnPage & { kind: 'moveImage'; target: string; from: Rect; rect: Rect })
  /** A note's or text comment's new text: an annotation already in the file, at `rect`. */
  | (OnPage & { kind: 'editAnnotation'; target: string; type: 'note' | 'freetext'; rect: Rect; text: string })
  /** A form field's new value: text and choices a string, a check box a boolean. */
  | { id: string; kind: 'fillField'; name: string; value: string | boolean }
  | { id: string; kind: 'flatten' };

export type PageOp = Extract<EditOp, { kind: 'rotatePage' | 'deletePage' | 'movePage' | 'addPage' }>;
/** Operations on the form as a whole, on no page. */
export type FormOp = Extract<EditOp, { kind: 'fillField' | 'flatten' }>;

export const isFormOp = (op: EditOp): op is FormOp => op.kind === 'fillField' || op.kind === 'flatten';

/** The values the session gives form fields, by name, the latest change winning. */
export function filledValues(ops: readonly EditOp[]): Map<string, string | boolean> {
  return new Map(ops.flatMap((op) => (op.kind === 'fillField' ? [[op.name, op.value] as const] : [])));
}

export const isPageOp = (op: EditOp): op is PageOp =>
  op.kind === 'rotatePage' || op.kind === 'deletePage' || op.kind === 'movePage' || op.kind === 'addPage';

/** A page of the document being edited: which page of the file it shows and its added rotation. */
export interface LaidOutPage {
  source: number;
  /** Degrees clockwise added to the page's own /Rotate. */
  rotation: number;
  /** A page the session added: `source` is past the file's pages. */
  blank?: true;
}

/** The pages after the session's page operations, in order: what the thumbnails and the saved file show. */
export function pageLayout(ops: readonly EditOp[], pageCount: number): LaidOutPage[] {
  let pages: LaidOutPage[] = Array.from({ length: pageCount }, (_, i) => ({ source: i + 1, rotation: 0 }));
  for (const op of ops.filter(isPageOp)) {
    if (op.kind === 'addPage') {
      const after = pages.findIndex((p) => p.source === op.after);
      pages.splice(op.after === 0 ? 0 : after < 0 ? pages.length : after + 1, 0, { source: op.page, rotation: 0, blank: true });
      continue;
    }
    const at = pages.findIndex((p) => p.source === op.page);
    if (at < 0) continue;
    const page = pages[at]!;
    if (op.kind === 'rotatePage') pages[at] = { ...page, rotation: (((page.rotation + op.degrees) % 360) + 360) % 360 };
    else if (op.kind === 'deletePage') pages = pages.filter((_, i) => i !== at);
    else {
      const rest = pages.filter((_, i) => i !== at);
      const before = rest.findIndex((p) => p.source === op.before);
      rest.splice(before < 0 ? rest.length : before, 0, page);
      pages = rest;
    }
  }
  return pages;
}

/** The number a new blank page takes: past the file's pages and every page the session added. */
export function newBlankPage(ops: readonly EditOp[], pageCount: number): number {
  return Math.max(pageCount, ...ops.flatMap((op) => (op.kind === 'addPage' ? [op.page] : []))) + 1;
}

/**
 * The frame of each page laid out, by number: a file's page as uploaded, a blank page the size of
 * the file's page before it as shown (of the first at the start), upright, as the server makes it.
 */
export function layoutFrames(layout: readonly LaidOutPage[], frames: ReadonlyMap<number, PageFrame>): Map<number, PageFrame> {
  const out = new Map(frames);
  layout.forEach((page, i) => {
    if (!page.blank) return;
    const model = frames.get(
      layout
        .slice(0, i)
        .reverse()
        .find((p) => !p.blank)?.source ?? 1,
    );
    if (!model) return;
    const turned = model.rotation % 180 !== 0;
    out.set(page.source, { width: turned ? model.height : model.width, height: turned ? model.width : model.height, rotation: 0 });
  });
  return out;
}

/** A fresh id for an operation. */
export function newOpId(): string {
  return crypto.randomUUID();
}
