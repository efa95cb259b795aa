// One operation drawn over its page, in screen pixels: what the saved file will show, near enough
// to place and judge it (the server draws the real thing with the PDF's own fonts).
import type { CSSProperties, ReactNode } from 'react';
import { type EditOp, type FormOp, isFormOp, isPageOp, type PageOp, type TextStyle } from './editOps';
import { cssFontFamily } from './editorFonts';
import { type PageFrame, type Point, type Rect, rectToScreen, spanned, toScreen } from './pageCoordinates';

/** Changes to images and annotations already in the file: drawn and handled with those objects. */
export type ObjectOp = Extract<EditOp, { kind: 'moveImage' | 'editAnnotation' }>;
const isObjectOp = (op: EditOp): op is ObjectOp => op.kind === 'moveImage' || op.kind === 'editAnnotation';

/** The operations drawn over a page (not page, form, field or existing objects' operations). */
export type DrawnOp = Exclude<EditOp, PageOp | FormOp | ObjectOp>;

export const isDrawn = (op: EditOp): op is DrawnOp => !isPageOp(op) && !isFormOp(op) && !isObjectOp(op);

/** CSS of a text set in `style` at `zoom`: the family's own file, its size and colour. */
export const textCss = (style: TextStyle, zoom: number): CSSProperties => ({
  fontFamily: cssFontFamily(style),
  fontSize: style.size * zoom,
  color: style.color,
});

/** Sticky notes are drawn this size whatever the zoom, as viewers draw their icon. */
const NOTE_PX = 24;

/** The smallest box holding all the points. */
function spannedAll(points: readonly Point[]): Rect {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  return spanned({ x: Math.min(...xs), y: Math.min(...ys) }, { x: Math.max(...xs), y: Math.max(...ys) });
}

/** The user-space box an operation takes: what is selected, moved and resized. */
export function boxOf(op: DrawnOp): Rect {
  switch (op.kind) {
    case 'shape':
      return spanned(op.from, op.to);
    case 'markup':
      return spannedAll(op.rects.flatMap((r) => [r, { x: r.x + r.width, y: r.y + r.height }]));
    case 'note':
      return { x: op.at.x, y: op.at.y - 18, width: 18, height: 18 };
    case 'ink':
      return spannedAll(op.paths.flat());
    default:
      return op.rect;
  }
}

/** The operation moved by (dx, dy) points. */
export function moved<Op extends DrawnOp>(op: Op, dx: number, dy: number): Op {
  const shift = (p: Point): Point => ({ x: p.x + dx, y: p.y + dy });
  const shiftRect = (r: Rect): Rect => ({ ...r, x: r.x + dx, y: r.y + dy });
  switch (op.kind) {
    case 'shape':
      return { ...op, from: shift(op.from), to: shift(op.to) };
    case 'markup':
      return { ...op, rects: op.rects.map(shiftRect) };
    case 'note':
      return { ...op, at: shift(op.at) };
    case 'ink':
      return { ...op, paths: op.paths.map((path) => path.map(shift)) };
    default:
      return { ...op, rect: shiftRect((op as Extract<DrawnOp, { rect: Rect }>).rect) };
  }
}

/** The operation with its box's top right corner dragged by (dx, dy) points; the bottom left stays. */
export function resized<Op extends DrawnOp>(op: Op, dx: number, dy: number): Op {
  if (op.kind === 'shape') return { ...op, to: { x: op.to.x + dx, y: op.to.y + dy } };
  if (!('rect' in op)) return op;
  const r = op.rect;
  return { ...op, rect: { ...r, width: Math.max(4, r.width + dx), height: Math.max(4, r.height + dy) } };
}

/** A screen box as CSS. */
export const boxStyle = (r: Rect): CSSProperties => ({ left: r.x, top: r.y, width: r.width, height: r.height });

const MARKUP_COLOR = { highlight: 'rgba(255, 214, 0, 0.45)', underline: '#1d6fe0', strikeout: '#d93025' } as const;

/** An SVG over `box` (screen pixels) with `pad` pixels of room around it for strokes and arrow heads. */
function PaddedSvg({ box, pad, children }: { box: Rect; pad: number; children: ReactNode }) {
  return (
    <svg
      className="op-svg"
      style={{ left: box.x - pad, top: box.y - pad }}
      width={box.width + 2 * pad}
      height={box.height + 2 * pad}
      aria-hidden="true"
    >
      {children}
    </svg>
  );
}

function ShapeSvg({ op, page, zoom }: { op: Extract<DrawnOp, { kind: 'shape' }>; page: PageFrame; zoom: number }) {
  const box = rectToScreen(boxOf(op), page, zoom);
  const pad = op.lineWidth * zoom + 8;
  const a = toScreen(op.from, page, zoom);
  const b = toScreen(op.to, page, zoom);
  const local = (p: Point) => ({ x: p.x - box.x + pad, y: p.y - box.y + pad });
  const [p, q] = [local(a), local(b)];
  const stroke = { stroke: op.stroke, strokeWidth: op.lineWidth * zoom, fill: op.fill ?? 'none' };
  const head = Math.max(8, op.lineWidth * zoom * 4);
  const angle = Math.atan2(q.y - p.y, q.x - p.x);
  const wing = (turn: number) => `${q.x - head * Math.cos(angle + turn)},${q.y - head * Math.sin(angle + turn)}`;
  return (
    <PaddedSvg box={box} pad={pad}>
      {op.shape === 'rectangle' && <rect x={pad} y={pad} width={box.width} height={box.height} {...stroke} />}
      {op.shape === 'ellipse' && (
        <ellipse cx={pad + box.width / 2} cy={pad + box.height / 2} rx={box.width / 2} ry={box.height / 2} {...stroke} />
      )}
      {(op.shape === 'line' || op.shape === 'arrow') && <line x1={p.x} y1={p.y} x2={q.x} y2={q.y} {...stroke} />}
      {op.shape === 'arrow' && <polyline points={`${wing(0.45)} ${q.x},${q.y} ${wing(-0.45)}`} {...stroke} fill="none" />}
    </PaddedSvg>
  );
}

export function OpView({ op, page, zoom }: { op: DrawnOp; page: PageFrame; zoom: number }) {
  const screen = (r: Rect) => rectToScreen(r, page, zoom);
  switch (op.kind) {
    case 'shape':
      return <ShapeSvg op={op} page={page} zoom={zoom} />;
    case 'markup':
      return (
        <>
          {op.rects.map((r) => {
            const s = screen(r);
            const style: CSSProperties =
              op.markup === 'highlight'
                ? { ...boxStyle(s), background: MARKUP_COLOR.highlight }
                : op.markup === 'underline'
                  ? { left: s.x, top: s.y + s.height * 0.82, width: s.width, height: Math.max(1, zoom), background: MARKUP_COLOR.underline }
                  : { left: s.x, top: s.y + s.height * 0.5, width: s.width, height: Math.max(1, zoom), background: MARKUP_COLOR.strikeout };
            return <span key={`${r.x},${r.y}`} className="op-markup" style={style} />;
          })}
        </>
      );
    case 'note': {
      const at = toScreen(op.at, page, zoom);
      return (
        <span className="op-note" style={{ left: at.x, top: at.y, width: NOTE_PX, height: NOTE_PX }} title={op.text}>
          <svg viewBox="0 0 24 24" width={NOTE_PX} height={NOTE_PX} aria-hidden="true">
            <path d="M3 3h18v13h-7l-5 5v-5H3z" fill="#ffd400" stroke="#8a6d00" strokeWidth="1.5" />
          </svg>
        </span>
      );
    }
    case 'ink': {
      const box = screen(boxOf(op));
      const pad = op.lineWidth * zoom + 2;
      return (
        <PaddedSvg box={box} pad={pad}>
          {op.paths.map((path) => (
            <polyline
              key={path.map((p) => `${p.x},${p.y}`).join(' ')}
              points={path
                .map((p) => toScreen(p, page, zoom))
                .map((p) => `${p.x - box.x + pad},${p.y - box.y + pad}`)
                .join(' ')}
              fill="none"
              stroke={op.color}
              strokeWidth={op.lineWidth * zoom}
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          ))}
        </PaddedSvg>
      );
    }
    case 'whiteOut':
      return <span className="op-box op-white-out" style={boxStyle(screen(op.rect))} />;
    case 'deleteObject':
      return <span className="op-box op-deleted" style={boxStyle(screen(op.rect))} />;
    case 'image':
    case 'signature':
      return <img className="op-box op-image" style={boxStyle(screen(op.rect))} src={op.dataUrl} alt="" draggable={false} />;
    case 'stamp':
      return (
        <span
          className="op-box op-stamp"
          style={{ ...boxStyle(screen(op.rect)), color: op.color, borderColor: op.color, fontSize: op.rect.height * zoom * 0.5 }}
        >
          {op.label}
        </span>
      );
    case 'replaceText':
    case 'textBox':
      return (
        <span
          className={`op-box op-text ${op.kind === 'replaceText' ? 'op-replaced' : ''}`}
          style={{ ...boxStyle(screen(op.rect)), ...textCss(op.style, zoom) }}
        >
          {op.text}
        </span>
      );
    case 'comment':
      return (
        <span className="op-box op-comment" style={{ ...boxStyle(screen(op.rect)), fontSize: 11 * zoom }}>
          {op.text}
        </span>
      );
  }
}
