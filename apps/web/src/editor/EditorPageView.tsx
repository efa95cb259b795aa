// One page of the editor: drawn by pdf.js at the zoom, its operations over it, and the pointer
// work of the current tool (drawing a box or a line, inking, placing, selecting and moving).
import type { PDFDocumentProxy } from 'pdfjs-dist';
import {
  type CSSProperties,
  Fragment,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  type RefObject,
  useCallback,
  useEffect,
  useRef,
  useState,
} from 'react';
import { useT } from '../i18n/I18nProvider';
import { renderPageThumbnail } from '../pdf/pdfDocument';
import { useNearView } from '../ui/useNearView';
import { type EditOp, type MarkupKind, newOpId, type ShapeKind, type TextStyle } from './editOps';
import { CORNERS, type Corner, movedBox, NUDGE_PT, resizedBox } from './objectBox';
import { boxOf, boxStyle, type DrawnOp, isDrawn, moved, OpView, resized, textCss } from './OpView';
import {
  normalRotation,
  type PageFrame,
  type Point,
  pageFrame,
  type Rect,
  rectToPage,
  rectToScreen,
  shownSize,
  spanned,
  toPage,
} from './pageCoordinates';
import { FormLayer, type FormWidget } from './FormLayer';
import { type ExistingObject, hasEditableText, runsIn, useExistingObjects, useTextRuns } from './textRuns';

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
  /** New text boxes. */
  text: TextStyle;
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
  /** A page the session added: its size, nothing of the file to draw or find on it. */
  blank?: PageFrame;
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
  onRemove(id: string): void;
  /** The form's widgets on this page. */
  fields: readonly FormWidget[];
  values: ReadonlyMap<string, string | boolean>;
  onFill(name: string, value: string | boolean): void;
}

type Drag =
  | { kind: 'draw'; start: Point; now: Point }
  | { kind: 'ink'; points: Point[] }
  | { kind: 'move' | 'resize'; op: DrawnOp; start: Point; now: Point }
  /** An image of the file: `box` where it was on screen when the drag began; `corner` resizes, free of its proportions with Shift. */
  | { kind: 'object'; object: ExistingObject; box: Rect; corner: Corner | null; start: Point; now: Point; free: boolean };

/** The screen box an image of the file takes during a drag. */
function draggedBox(d: Extract<Drag, { kind: 'object' }>): Rect {
  const [dx, dy] = [d.now.x - d.start.x, d.now.y - d.start.y];
  return d.corner ? resizedBox(d.box, d.corner, dx, dy, !d.free) : movedBox(d.box, dx, dy);
}

export function EditorPageView(props: PageProps) {
  const { doc, source, blank, extraRotation, zoom, tool, selectedId } = props;
  const t = useT();
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const near = useNearView(boxRef);
  const [frame, setFrame] = useState<PageFrame | null>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [ownFrame, setOwnFrame] = useState<PageFrame | null>(null);
  const runs = useTextRuns(props.file, source, ownFrame, near && !blank && (tool === 'editText' || MARKUPS.includes(tool)));
  const existing = useExistingObjects(props.file, source, ownFrame, near && !blank && tool === 'select');
  const [chosenExisting, setChosenExisting] = useState<string | null>(null);
  const [editingText, setEditingText] = useState<string | null>(null);
  // Bumped after each drawing of the canvas: a moved image is copied from it.
  const [drawn, setDrawn] = useState(0);
  // The text operation just made by a click or a drag, its text not typed yet: Escape takes it away again.
  const [fresh, setFresh] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    void (blank ? Promise.resolve(blank) : pageFrame(doc, source)).then((own) => {
      if (!current) return;
      setOwnFrame(own);
      setFrame({ ...own, rotation: normalRotation(own.rotation + extraRotation) });
    });
    return () => {
      current = false;
    };
  }, [doc, source, blank, extraRotation]);

  const size = frame ? shownSize(frame, zoom) : null;
  const boxSize = size ? Math.max(size.width, size.height) : 0;
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !near || !boxSize || blank) return;
    const render = renderPageThumbnail(doc, source, canvas, boxSize, extraRotation);
    render.done.then(() => setDrawn((n) => n + 1)).catch(() => {});
    return () => render.cancel();
  }, [doc, source, blank, near, boxSize, extraRotation]);

  const pointAt = (e: PointerEvent): Point => {
    const r = boxRef.current!.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };

  const finishDraw = (start: Point, end: Point) => {
    if (!frame) return;
    const dragged = Math.abs(end.x - start.x) >= MIN_DRAG_PX || Math.abs(end.y - start.y) >= MIN_DRAG_PX;
    const id = newOpId();
    const page = source;
    const { color, fill, lineWidth } = props.style;
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
            : { id, page, kind: 'textBox', rect, text: '', style: props.style.text };
    props.onAdd(op);
    props.onSelect(id);
    setFresh(id);
  };

  const onPointerDown = (e: PointerEvent) => {
    if (!frame || e.button !== 0) return;
    const at = pointAt(e);
    if (tool === 'select' || tool === 'editText') {
      props.onSelect(null);
      setChosenExisting(null);
      setEditingText(null);
      return;
    }
    if (tool === 'note') {
      const id = newOpId();
      props.onAdd({ id, page: source, kind: 'note', at: toPage(at, frame, zoom), text: '' });
      props.onSelect(id);
      setFresh(id);
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
    if (drag.kind === 'ink') setDrag({ kind: 'ink', points: [...drag.points, at] });
    else if (drag.kind === 'object') setDrag({ ...drag, now: at, free: e.shiftKey });
    else setDrag({ ...drag, now: at });
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
    } else if (drag.kind === 'object' && Math.hypot(drag.now.x - drag.start.x, drag.now.y - drag.start.y) >= 1)
      placeImage(drag.object, draggedBox(drag));
  };

  const moveOf = (target: string) =>
    props.ops.find((op): op is Extract<EditOp, { kind: 'moveImage' }> => op.kind === 'moveImage' && op.target === target);
  const textEditOf = (target: string) =>
    props.ops.find((op): op is Extract<EditOp, { kind: 'editAnnotation' }> => op.kind === 'editAnnotation' && op.target === target);

  /** An image of the file put at `box` (screen pixels): one undo step, the first move adding the operation. */
  const placeImage = (object: ExistingObject, box: Rect) => {
    if (!frame) return;
    const rect = rectToPage(box, frame, zoom);
    const earlier = moveOf(object.id);
    if (earlier) props.onReplace({ ...earlier, rect });
    else props.onAdd({ id: newOpId(), page: source, kind: 'moveImage', target: object.id, from: object.rect, rect });
  };

  const deleteObject = (object: ExistingObject) => {
    props.onAdd({ id: newOpId(), page: source, kind: 'deleteObject', object: object.object, target: object.id, rect: object.rect });
    setChosenExisting(null);
    setEditingText(null);
  };

  /** An annotation's text as the session has it. */
  const textOf = (object: ExistingObject) => {
    const edited = textEditOf(object.id);
    return edited ? edited.text : object.object === 'annotation' ? object.contents : '';
  };

  const setTextOf = (object: ExistingObject & { type: 'note' | 'freetext' }, text: string) => {
    const earlier = textEditOf(object.id);
    if (earlier) props.onReplace({ ...earlier, text });
    else
      props.onAdd({ id: newOpId(), page: source, kind: 'editAnnotation', target: object.id, type: object.type, rect: object.rect, text });
  };

  const startObjectDrag = (e: PointerEvent, object: ExistingObject, box: Rect, corner: Corner | null) => {
    e.stopPropagation();
    boxRef.current!.setPointerCapture(e.pointerId);
    const at = pointAt(e);
    setDrag({ kind: 'object', object, box, corner, start: at, now: at, free: e.shiftKey });
  };

  /** Keys on an object of the file: arrows move an image, Delete removes, Escape lets go. */
  const onObjectKey = (e: KeyboardEvent<HTMLElement>, object: ExistingObject, box: Rect) => {
    if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      e.stopPropagation();
      deleteObject(object);
      return;
    }
    if (e.key === 'Escape') {
      e.stopPropagation();
      setChosenExisting(null);
      e.currentTarget.blur();
      return;
    }
    const step = (e.shiftKey ? 10 : 1) * NUDGE_PT * zoom;
    const nudges: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const nudge = nudges[e.key];
    if (nudge && object.object === 'image') {
      e.preventDefault();
      e.stopPropagation();
      placeImage(object, movedBox(box, ...nudge));
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

  /** Typing into an operation's text is kept: the operation is no longer new. */
  const typed = (op: EditOp) => {
    setFresh(null);
    props.onReplace(op);
  };
  /** Escape: what was typed is dropped, and an operation made for it taken away again. */
  const cancelTyping = (id: string) => {
    if (id === fresh) props.onRemove(id);
    setFresh(null);
    props.onSelect(null);
  };

  const shown = props.ops.filter(isDrawn).map((op) => (drag && 'op' in drag && drag.op.id === op.id ? draggedOp(drag) : op));
  const replacedRuns = new Set(props.ops.flatMap((op) => (op.kind === 'replaceText' ? [op.run] : [])));
  const draft = drag?.kind === 'draw' ? spanned(drag.start, drag.now) : null;
  // An object deleted is not drawn moved or edited: the save sends only its deletion.
  const deletedTargets = new Set(props.ops.flatMap((op) => (op.kind === 'deleteObject' ? [op.target] : [])));
  const screen = (r: Rect) => rectToScreen(r, frame!, zoom);
  /** Images of the file at a new place (screen boxes), the one being dragged where the drag has it. */
  const movedImages = new Map<string, { from: Rect; to: Rect }>();
  if (frame) {
    for (const op of props.ops)
      if (op.kind === 'moveImage' && !deletedTargets.has(op.target))
        movedImages.set(op.target, { from: screen(op.from), to: screen(op.rect) });
    if (drag?.kind === 'object') movedImages.set(drag.object.id, { from: screen(drag.object.rect), to: draggedBox(drag) });
  }
  const editedComments = props.ops.filter(
    (op): op is Extract<EditOp, { kind: 'editAnnotation' }> =>
      op.kind === 'editAnnotation' && op.type === 'freetext' && !deletedTargets.has(op.target) && op.target !== editingText,
  );

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the page is drawn on with the pointer; the keyboard reaches the objects over it
    <div
      ref={boxRef}
      className={`editor-page tool-${tool}`}
      style={size ? { width: size.width, height: size.height } : undefined}
      data-testid="editor-page"
      data-page={source}
      onPointerDown={onPointerDown}
      onMouseDown={keepFocus}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
    >
      <canvas ref={canvasRef} />
      {[...movedImages].map(([id, { from, to }]) => (
        <MovedImage key={id} canvas={canvasRef} drawn={drawn} from={from} to={to} />
      ))}
      {frame &&
        editedComments.map((op) => (
          <span key={op.id} className="op-box op-comment" style={{ ...boxStyle(screen(op.rect)), fontSize: 11 * zoom }}>
            {op.text}
          </span>
        ))}
      {frame &&
        shown.map((op) =>
          op.id === selectedId && (op.kind === 'replaceText' || op.kind === 'textBox' || op.kind === 'comment') ? (
            <TextEditor key={op.id} op={op} frame={frame} zoom={zoom} onDone={typed} onCancel={() => cancelTyping(op.id)} />
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
                    style: run.style,
                    own: run.style,
                  });
                  props.onSelect(id);
                  setFresh(id);
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
          .filter((object) => !deletedTargets.has(object.id) && (object.object === 'annotation' || props.mode === 'edit'))
          .map((object) => {
            const box = movedImages.get(object.id)?.to ?? rectToScreen(object.rect, frame, zoom);
            const chosen = chosenExisting === object.id;
            const movable = object.object === 'image';
            const label = movable ? t('editor.imageInFile') : t('editor.annotationInFile', { text: textOf(object) });
            return (
              <Fragment key={object.id}>
                <button
                  type="button"
                  className={`existing-hit ${chosen ? 'selected' : ''} ${movable ? 'movable' : ''}`}
                  style={boxStyle(box)}
                  data-testid="existing-object"
                  data-kind={object.object}
                  data-id={object.id}
                  aria-label={label}
                  aria-pressed={chosen}
                  title={label}
                  onFocus={() => setChosenExisting(object.id)}
                  onPointerDown={(e) => {
                    e.stopPropagation();
                    props.onSelect(null);
                    setChosenExisting(object.id);
                    if (movable && e.button === 0) startObjectDrag(e, object, box, null);
                  }}
                  onClick={() => hasEditableText(object) && setEditingText(object.id)}
                  onKeyDown={(e) => onObjectKey(e, object, box)}
                >
                  {chosen &&
                    movable &&
                    CORNERS.map((corner) => (
                      <span
                        key={corner}
                        className={`object-handle ${corner}`}
                        data-testid={`handle-${corner}`}
                        aria-hidden="true"
                        onPointerDown={(e) => startObjectDrag(e, object, box, corner)}
                      />
                    ))}
                </button>
                {chosen && (
                  <button
                    type="button"
                    className="existing-delete"
                    style={{ left: box.x + box.width, top: box.y }}
                    data-testid="delete-existing"
                    onPointerDown={(e) => e.stopPropagation()}
                    onClick={() => deleteObject(object)}
                  >
                    {t('editor.delete')}
                  </button>
                )}
                {editingText === object.id && hasEditableText(object) && (
                  <CardEditor
                    at={
                      object.type === 'note'
                        ? { left: box.x + box.width + 4, top: box.y }
                        : { left: box.x, top: box.y, width: Math.max(box.width, 160), minHeight: box.height }
                    }
                    text={textOf(object)}
                    label={t('editor.annotationText')}
                    testId="annotation-editor"
                    onDone={(text) => {
                      if (text !== textOf(object)) setTextOf(object, text);
                      setEditingText(null);
                    }}
                    onCancel={() => setEditingText(null)}
                  />
                )}
              </Fragment>
            );
          })}
      {frame &&
        shown.map((op) => {
          if (op.kind !== 'note' || op.id !== selectedId) return null;
          const at = rectToScreen(boxOf(op), frame, zoom);
          return (
            <CardEditor
              key={op.id}
              at={{ left: at.x + 28, top: at.y }}
              text={op.text}
              label={t('editor.noteText')}
              placeholder={t('editor.notePlaceholder')}
              testId="note-editor"
              onDone={(text) => typed({ ...op, text })}
              onCancel={() => cancelTyping(op.id)}
            />
          );
        })}
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

/**
 * The mouse's press on the page itself does not move the focus: the text field a click opens (a
 * note's) keeps the keyboard. Controls over the page (buttons, form fields) take it as usual.
 */
function keepFocus(e: MouseEvent<HTMLElement>) {
  if (!(e.target as HTMLElement).closest('button, input, textarea, select')) e.preventDefault();
}

/**
 * Text typed in place: kept when the field is left, and when it goes away without being left (a
 * click elsewhere on the page deselects, taking the field away before it could lose the focus);
 * dropped on Escape.
 */
function useTypedText(initial: string, onKeep: (text: string) => void) {
  const [text, setText] = useState(initial);
  const typing = useRef({ text: initial, kept: initial, dropped: false, onKeep });
  typing.current.onKeep = onKeep;
  const keep = useCallback(() => {
    const now = typing.current;
    if (now.dropped || now.text === now.kept) return;
    now.kept = now.text;
    now.onKeep(now.text);
  }, []);
  useEffect(() => keep, [keep]);
  return {
    text,
    keep,
    change(next: string) {
      typing.current.text = next;
      setText(next);
    },
    drop() {
      typing.current.dropped = true;
    },
  };
}

/** Typing into a text operation in place; the change is one undo step, made when the field is left. */
function TextEditor(props: { op: TextOp; frame: PageFrame; zoom: number; onDone(op: EditOp): void; onCancel(): void }) {
  const { op, frame, zoom } = props;
  const t = useT();
  const typing = useTypedText(op.text, (text) => props.onDone({ ...op, text }));
  const r = rectToScreen(op.rect, frame, zoom);
  const font = op.kind === 'comment' ? { fontSize: 11 * zoom } : textCss(op.style, zoom);
  return (
    <textarea
      className={`op-box op-text-editing op-${op.kind}`}
      style={{ left: r.x, top: r.y, width: Math.max(r.width, 40), minHeight: r.height, ...font, lineHeight: 1.1 }}
      value={typing.text}
      aria-label={t('editor.textField')}
      data-testid="text-editor"
      // biome-ignore lint/a11y/noAutofocus: the text was just clicked into
      autoFocus
      onFocus={(e) => e.currentTarget.select()}
      onPointerDown={(e) => e.stopPropagation()}
      onChange={(e) => typing.change(e.target.value)}
      onBlur={typing.keep}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Escape') {
          e.preventDefault();
          typing.drop();
          props.onCancel();
        } else if (e.key === 'Enter' && !e.shiftKey && op.kind === 'replaceText') {
          e.preventDefault();
          e.currentTarget.blur();
        }
      }}
    />
  );
}

/**
 * A text typed in a small card over the page (a note's, a comment's): kept when the card is left
 * (one undo step), dropped with Escape.
 */
function CardEditor(props: {
  at: CSSProperties;
  text: string;
  label: string;
  placeholder?: string;
  testId: string;
  onDone(text: string): void;
  onCancel(): void;
}) {
  const typing = useTypedText(props.text, props.onDone);
  return (
    <textarea
      className="note-editor"
      style={props.at}
      value={typing.text}
      placeholder={props.placeholder}
      aria-label={props.label}
      data-testid={props.testId}
      // biome-ignore lint/a11y/noAutofocus: the note was just placed or opened
      autoFocus
      // Typing goes on after the text there is.
      onFocus={(e) => e.currentTarget.setSelectionRange(e.currentTarget.value.length, e.currentTarget.value.length)}
      onPointerDown={(e) => e.stopPropagation()}
      onChange={(e) => typing.change(e.target.value)}
      onBlur={typing.keep}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Escape') {
          typing.drop();
          props.onCancel();
        }
      }}
    />
  );
}

/** An image of the file shown at its new place, copied from the drawn page; its old place is covered. */
function MovedImage({ canvas, drawn, from, to }: { canvas: RefObject<HTMLCanvasElement | null>; drawn: number; from: Rect; to: Rect }) {
  const copy = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const page = canvas.current;
    const target = copy.current;
    if (!page || !target || !page.clientWidth || !drawn) return;
    // The page's canvas has more pixels than CSS pixels on dense screens.
    const k = page.width / page.clientWidth;
    target.width = Math.max(1, Math.round(to.width * k));
    target.height = Math.max(1, Math.round(to.height * k));
    target.getContext('2d')?.drawImage(page, from.x * k, from.y * k, from.width * k, from.height * k, 0, 0, target.width, target.height);
  }, [canvas, drawn, from.x, from.y, from.width, from.height, to.width, to.height]);
  return (
    <>
      <span className="op-box op-moved-from" style={boxStyle(from)} />
      <canvas ref={copy} className="op-box op-moved-image" style={boxStyle(to)} data-testid="moved-image" />
    </>
  );
}
