// One page of the editor: drawn by pdf.js at the zoom, its operations over it, and the pointer
// work of the current tool (drawing a box or a line, inking, placing, selecting and moving).
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { useT } from '../i18n/I18nProvider';
import { renderPageThumbnail } from '../pdf/pdfDocument';
import { useNearView } from '../ui/useNearView';
import { type EditOp, type MarkupKind, newOpId, type ShapeKind } from './editOps';
import { boxOf, type DrawnOp, isDrawn, moved, OpView, resized } from './OpView';
import {
  normalRotation,
  type PageFrame,
  type Point,
  pageFrame,
  rectToPage,
  rectToScreen,
  shownSize,
  spanned,
  toPage,
} from './pageCoordinates';
import { FormLayer, type FormWidget } from './FormLayer';
import { runsIn, useExistingObjects, useTextRuns } from './textRuns';

export type EditorMode = 'edit' | 'annotate';

export type EditorTool =
  | 'select'
  | 'editText'
  | 'textBox'
  | 'image'
  | 'whiteOut'
  | ShapeKind
  | MarkupKind
  | 'note'
  | 'comment'
  | 'ink'
  | 'stamp'
  | 'signature';

/** The look new operations take, chosen in the toolbar. */
export interface ToolStyle {
  color: string;
  fill: string | null;
  lineWidth: number;
  fontSize: number;
}

/** An image chosen for the image and signature tools, to place with a click. */
export interface PendingImage {
  dataUrl: string;
  /** Width over height. */
  aspect: number;
}

/** A drag shorter than this either way is a click. */
const MIN_DRAG_PX = 4;
const SHAPES: readonly EditorTool[] = ['rectangle', 'ellipse', 'line', 'arrow'];
const MARKUPS: readonly EditorTool[] = ['highlight', 'underline', 'strikeout'];
/** Tools that draw a box by dragging (or take a default size on a click). */
const BOXED: readonly EditorTool[] = ['textBox', 'whiteOut', 'comment', 'stamp'];
const DEFAULT_BOX = { textBox: [180, 24], whiteOut: [120, 24], comment: [160, 48], stamp: [140, 40] } as const;
const PLACED_IMAGE_WIDTH = 160;
const HIGHLIGHT_COLOR = '#ffd400';

interface PageProps {
  doc: PDFDocumentProxy;
  file: { fileId: string; password?: string };
  /** The page's number in the file. */
  source: number;
  /** Degrees clockwise added by the session's page operations. */
  extraRotation: number;
  zoom: number;
  /** Edit mode draws shapes into the page's content; annotate mode makes them annotations. */
  mode: EditorMode;
  ops: readonly EditOp[];
  tool: EditorTool;
  style: ToolStyle;
  pendingImage: PendingImage | null;
  selectedId: string | null;
  onSelect(id: string | null): void;
  onAdd(op: EditOp): void;
  onReplace(op: EditOp): void;
  /** The form's widgets on this page. */
  fields: readonly FormWidget[];
  values: ReadonlyMap<string, string | boolean>;
  onFill(name: string, value: string | boolean): void;
}

type Drag =
  | { kind: 'draw'; start: Point; now: Point }
  | { kind: 'ink'; points: Point[] }
  | { kind: 'move' | 'resize'; op: DrawnOp; start: Point; now: Point };

export function EditorPageView(props: PageProps) {
  const { doc, source, extraRotation, zoom, tool, selectedId } = props;
  const t = useT();
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const near = useNearView(boxRef);
  const [frame, setFrame] = useState<PageFrame | null>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [ownFrame, setOwnFrame] = useState<PageFrame | null>(null);
  const runs = useTextRuns(props.file, source, ownFrame, near && (tool === 'editText' || MARKUPS.includes(tool)));
  const existing = useExistingObjects(props.file, source, ownFrame, near && tool === 'select');
  const [chosenExisting, setChosenExisting] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    void pageFrame(doc, source).then((own) => {
      if (!current) return;
      setOwnFrame(own);
      setFrame({ ...own, rotation: normalRotation(own.rotation + extraRotation) });
    });
    return () => {
      current = false;
    };
  }, [doc, source, extraRotation]);

  const size = frame ? shownSize(frame, zoom) : null;
  const boxSize = size ? Math.max(size.width, size.height) : 0;
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !near || !boxSize) return;
    const render = renderPageThumbnail(doc, source, canvas, boxSize, extraRotation);
    render.done.catch(() => {});
    return () => render.cancel();
  }, [doc, source, near, boxSize, extraRotation]);

  const pointAt = (e: PointerEvent): Point => {
    const r = boxRef.current!.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };

  const finishDraw = (start: Point, end: Point) => {
    if (!frame) return;
    const dragged = Math.abs(end.x - start.x) >= MIN_DRAG_PX || Math.abs(end.y - start.y) >= MIN_DRAG_PX;
    const id = newOpId();
    const page = source;
    const { color, fill, lineWidth, fontSize } = props.style;
    if (SHAPES.includes(tool)) {
      if (!dragged) return;
      props.onAdd({
        id,
        page,
        kind: 'shape',
        shape: tool as ShapeKind,
        from: toPage(start, frame, zoom),
        to: toPage(end, frame, zoom),
        stroke: color,
        fill,
        lineWidth,
        annotation: props.mode === 'annotate',
      });
      return;
    }
    if (MARKUPS.includes(tool)) {
      const area = rectToPage(spanned(start, end), frame, zoom);
      const marked = runsIn(runs, area);
      if (!dragged && !marked.length) return;
      // Highlights are yellow, as every viewer draws them; underline and strike-out take the colour chosen.
      props.onAdd({
        id,
        page,
        kind: 'markup',
        markup: tool as MarkupKind,
        rects: marked.length ? marked : [area],
        color: tool === 'highlight' ? HIGHLIGHT_COLOR : color,
      });
      return;
    }
    if (!BOXED.includes(tool)) return;
    const [w, h] = DEFAULT_BOX[tool as keyof typeof DEFAULT_BOX];
    const rect = dragged
      ? rectToPage(spanned(start, end), frame, zoom)
      : rectToPage({ x: start.x, y: start.y, width: w * zoom, height: h * zoom }, frame, zoom);
    const op: EditOp =
      tool === 'whiteOut'
        ? { id, page, kind: 'whiteOut', rect }
        : tool === 'stamp'
          ? { id, page, kind: 'stamp', rect, label: t('editor.stampApproved'), color }
          : tool === 'comment'
            ? { id, page, kind: 'comment', rect, text: '' }
            : { id, page, kind: 'textBox', rect, text: '', fontSize, color };
    props.onAdd(op);
    props.onSelect(id);
  };

  const onPointerDown = (e: PointerEvent) => {
    if (!frame || e.button !== 0) return;
    const at = pointAt(e);
    if (tool === 'select' || tool === 'editText') {
      props.onSelect(null);
      setChosenExisting(null);
      return;
    }
    if (tool === 'note') {
      const id = newOpId();
      props.onAdd({ id, page: source, kind: 'note', at: toPage(at, frame, zoom), text: '' });
      props.onSelect(id);
      return;
    }
    if ((tool === 'image' || tool === 'signature') && props.pendingImage) {
      const { dataUrl, aspect } = props.pendingImage;
      const width = PLACED_IMAGE_WIDTH * zoom;
      const rect = rectToPage({ x: at.x, y: at.y, width, height: width / aspect }, frame, zoom);
      const id = newOpId();
      props.onAdd({ id, page: source, kind: tool, rect, dataUrl });
      props.onSelect(id);
      return;
    }
    e.currentTarget.setPointerCapture(e.pointerId);
    setDrag(tool === 'ink' ? { kind: 'ink', points: [at] } : { kind: 'draw', start: at, now: at });
  };

  const onPointerMove = (e: PointerEvent) => {
    if (!drag) return;
    const at = pointAt(e);
    setDrag(drag.kind === 'ink' ? { kind: 'ink', points: [...drag.points, at] } : { ...drag, now: at });
  };

  const onPointerUp = () => {
    if (!drag || !frame) return;
    setDrag(null);
    if (drag.kind === 'draw') finishDraw(drag.start, drag.now);
    else if (drag.kind === 'ink' && drag.points.length > 1)
      props.onAdd({
        id: newOpId(),
        page: source,
        kind: 'ink',
        paths: [drag.points.map((p) => toPage(p, frame, zoom))],
        color: props.style.color,
        lineWidth: props.style.lineWidth,
      });
    else if (drag.kind === 'move' || drag.kind === 'resize') {
      const changed = draggedOp(drag);
      if (changed !== drag.op) props.onReplace(changed);
    }
  };

  /** The operation as a move or resize under way leaves it. */
  const draggedOp = (d: Extract<Drag, { kind: 'move' | 'resize' }>): DrawnOp => {
    if (!frame) return d.op;
    const a = toPage(d.start, frame, zoom);
    const b = toPage(d.now, frame, zoom);
    if (Math.hypot(d.now.x - d.start.x, d.now.y - d.start.y) < 1) return d.op;
    return d.kind === 'move' ? moved(d.op, b.x - a.x, b.y - a.y) : resized(d.op, b.x - a.x, b.y - a.y);
  };

  const startMove = (e: PointerEvent, op: DrawnOp, kind: 'move' | 'resize') => {
    e.stopPropagation();
    props.onSelect(op.id);
    if (op.kind === 'note' && kind === 'move' && selectedId === op.id) return;
    boxRef.current!.setPointerCapture(e.pointerId);
    const at = pointAt(e);
    setDrag({ kind, op, start: at, now: at });
  };

  const shown = props.ops.filter(isDrawn).map((op) => (drag && 'op' in drag && drag.op.id === op.id ? draggedOp(drag) : op));
  const replacedRuns = new Set(props.ops.flatMap((op) => (op.kind === 'replaceText' ? [op.run] : [])));
  const draft = drag?.kind === 'draw' ? spanned(drag.start, drag.now) : null;

  return (
    <div
      ref={boxRef}
      className={`editor-page tool-${tool}`}
      style={size ? { width: size.width, height: size.height } : undefined}
      data-testid="editor-page"
      data-page={source}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
    >
      <canvas ref={canvasRef} />
      {frame &&
        shown.map((op) =>
          op.id === selectedId && (op.kind === 'replaceText' || op.kind === 'textBox' || op.kind === 'comment') ? (
            <TextEditor key={op.id} op={op} frame={frame} zoom={zoom} onDone={props.onReplace} />
          ) : (
            <OpView key={op.id} op={op} page={frame} zoom={zoom} />
          ),
        )}
      {frame &&
        tool === 'editText' &&
        runs
          .filter((run) => !replacedRuns.has(run.id))
          .map((run) => {
            const r = rectToScreen(run.rect, frame, zoom);
            return (
              <button
                key={run.id}
                type="button"
                className="text-run"
                style={{ left: r.x, top: r.y, width: r.width, height: r.height }}
                data-testid="text-run"
                title={run.text}
                aria-label={run.text}
                onPointerDown={(e) => e.stopPropagation()}
                onClick={() => {
                  const id = newOpId();
                  props.onAdd({
                    id,
                    page: source,
                    kind: 'replaceText',
                    run: run.id,
                    rect: run.rect,
                    text: run.text,
                    fontSize: run.fontSize,
                  });
                  props.onSelect(id);
                }}
              />
            );
          })}
      {frame &&
        (tool === 'select' || tool === 'editText') &&
        shown.map((op) => {
          if (op.kind === 'deleteObject') return null;
          if (op.id === selectedId && (op.kind === 'replaceText' || op.kind === 'textBox' || op.kind === 'comment')) return null;
          const r = rectToScreen(boxOf(op), frame, zoom);
          const pad = op.kind === 'note' ? 0 : 3;
          return (
            <div
              key={op.id}
              className={`op-hit ${op.id === selectedId ? 'selected' : ''}`}
              style={{
                left: r.x - pad,
                top: r.y - pad,
                width: Math.max(r.width, op.kind === 'note' ? 24 : 6) + 2 * pad,
                height: Math.max(r.height, op.kind === 'note' ? 24 : 6) + 2 * pad,
              }}
              data-testid="op-hit"
              data-kind={op.kind}
              onPointerDown={(e) => startMove(e, op, 'move')}
            >
              {op.id === selectedId && (op.kind === 'shape' || 'rect' in op) && (
                <span className="op-resize" aria-hidden="true" onPointerDown={(e) => startMove(e, op, 'resize')} />
              )}
            </div>
          );
        })}
      {frame && ownFrame && props.fields.length > 0 && (
        <FormLayer fields={props.fields} ownFrame={ownFrame} frame={frame} zoom={zoom} values={props.values} onFill={props.onFill} />
      )}
      {frame &&
        tool === 'select' &&
        existing
          .filter((object) => !props.ops.some((op) => op.kind === 'deleteObject' && op.target === object.id))
          .map((object) => {
            const r = rectToScreen(object.rect, frame, zoom);
            const chosen = chosenExisting === object.id;
            return (
              <div
                key={object.id}
                className={`existing-hit ${chosen ? 'selected' : ''}`}
                style={{ left: r.x, top: r.y, width: r.width, height: r.height }}
                data-testid="existing-object"
                data-kind={object.object}
                onPointerDown={(e) => {
                  e.stopPropagation();
                  props.onSelect(null);
                  setChosenExisting(object.id);
                }}
              >
                {chosen && (
                  <button
                    type="button"
                    className="existing-delete"
                    data-testid="delete-existing"
                    onPointerDown={(e) => e.stopPropagation()}
                    onClick={() => {
                      props.onAdd({
                        id: newOpId(),
                        page: source,
                        kind: 'deleteObject',
                        object: object.object,
                        target: object.id,
                        rect: object.rect,
                      });
                      setChosenExisting(null);
                    }}
                  >
                    {t('editor.delete')}
                  </button>
                )}
              </div>
            );
          })}
      {frame &&
        shown.map((op) =>
          op.kind === 'note' && op.id === selectedId ? (
            <NoteEditor key={op.id} op={op} frame={frame} zoom={zoom} onDone={props.onReplace} />
          ) : null,
        )}
      {draft && (
        <span
          className={`draw-draft ${MARKUPS.includes(tool) ? 'markup' : ''}`}
          style={{ left: draft.x, top: draft.y, width: draft.width, height: draft.height }}
        />
      )}
      {drag?.kind === 'ink' && (
        <svg className="op-svg ink-draft" width={size?.width} height={size?.height} aria-hidden="true">
          <polyline
            points={drag.points.map((p) => `${p.x},${p.y}`).join(' ')}
            fill="none"
            stroke={props.style.color}
            strokeWidth={props.style.lineWidth * zoom}
          />
        </svg>
      )}
    </div>
  );
}

type TextOp = Extract<EditOp, { kind: 'replaceText' | 'textBox' | 'comment' }>;

/** Typing into a text operation in place; the change is one undo step, made when the field is left. */
function TextEditor({ op, frame, zoom, onDone }: { op: TextOp; frame: PageFrame; zoom: number; onDone(op: EditOp): void }) {
  const t = useT();
  const [text, setText] = useState(op.text);
  const r = rectToScreen(op.rect, frame, zoom);
  const fontSize = (op.kind === 'comment' ? 11 : op.fontSize) * zoom;
  const commit = () => {
    if (text !== op.text) onDone({ ...op, text });
  };
  return (
    <textarea
      className={`op-box op-text-editing op-${op.kind}`}
      style={{ left: r.x, top: r.y, width: Math.max(r.width, 40), minHeight: r.height, fontSize, lineHeight: 1.1 }}
      value={text}
      aria-label={t('editor.textField')}
      data-testid="text-editor"
      // biome-ignore lint/a11y/noAutofocus: the text was just clicked into
      autoFocus
      onFocus={(e) => e.currentTarget.select()}
      onPointerDown={(e) => e.stopPropagation()}
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Escape' || (e.key === 'Enter' && !e.shiftKey && op.kind === 'replaceText')) {
          e.preventDefault();
          e.currentTarget.blur();
        }
      }}
    />
  );
}

/** A sticky note's text, in a small card beside its icon. */
function NoteEditor({
  op,
  frame,
  zoom,
  onDone,
}: {
  op: Extract<EditOp, { kind: 'note' }>;
  frame: PageFrame;
  zoom: number;
  onDone(op: EditOp): void;
}) {
  const t = useT();
  const [text, setText] = useState(op.text);
  const at = rectToScreen(boxOf(op), frame, zoom);
  return (
    <textarea
      className="note-editor"
      style={{ left: at.x + 28, top: at.y }}
      value={text}
      placeholder={t('editor.notePlaceholder')}
      aria-label={t('editor.noteText')}
      data-testid="note-editor"
      // biome-ignore lint/a11y/noAutofocus: the note was just placed or opened
      autoFocus
      onPointerDown={(e) => e.stopPropagation()}
      onChange={(e) => setText(e.target.value)}
      onBlur={() => text !== op.text && onDone({ ...op, text })}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Escape') e.currentTarget.blur();
      }}
    />
  );
}
