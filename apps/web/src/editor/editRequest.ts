// The session's operations as document/content takes them: pages renumbered and coordinates
// turned into points from the top left of each page as it will be shown (after the session's
// page operations), which is where the server draws them.
import { annotateModeOps, type EditOperationInput } from '@quire/contracts';
import { type EditOp, filledValues, isFormOp, isPageOp, layoutFrames, pageLayout, type TextStyle } from './editOps';
import { normalRotation, type PageFrame, type Point, type Rect, rectToScreen, spanned, toScreen } from './pageCoordinates';

/** A box the server takes: at least a point wide and high (a shape drawn along one axis is flat). */
const solid = (r: Rect): Rect => ({ ...r, width: Math.max(1, r.width), height: Math.max(1, r.height) });

const base64Of = (dataUrl: string) => dataUrl.slice(dataUrl.indexOf(',') + 1);

/** The contract's names of a style's parts. */
const styleFields = ({ font, size, color, bold, italic }: TextStyle) => ({ font, size, color, bold, italic });

/** The parts of a run's style the user changed: the rest the server takes from the run itself. */
function changedStyle(style: TextStyle, own: TextStyle): Partial<ReturnType<typeof styleFields>> {
  const asked = styleFields(style);
  const had = styleFields(own);
  return Object.fromEntries(Object.entries(asked).filter(([k, v]) => had[k as keyof typeof had] !== v));
}

/**
 * `fileFrames`: each page of the file as uploaded (its size and own /Rotate), by number. Operations on
 * a page the session deleted are left out; an empty text box or note is not sent. Blank pages the
 * session added are numbered where they stand like any other page.
 */
export function editOperations(ops: readonly EditOp[], fileFrames: ReadonlyMap<number, PageFrame>): EditOperationInput[] {
  const layout = pageLayout(ops, fileFrames.size);
  const frames = layoutFrames(layout, fileFrames);
  const out: EditOperationInput[] = [];
  if (ops.some(isPageOp))
    out.push({ op: 'pages', order: layout.map((p) => ({ from: p.blank ? 'blank' : p.source, rotate: normalRotation(p.rotation) })) });
  const fields = filledValues(ops);
  if (fields.size) out.push({ op: 'fillForm', fields: Object.fromEntries(fields) });
  // Flattening comes last: it bakes the values just filled into the page.
  const flatten = ops.some((op) => op.kind === 'flatten');
  // An object deleted is not also moved or edited: the server finds objects where the file has them.
  const deleted = new Set(ops.flatMap((op) => (op.kind === 'deleteObject' ? [op.target] : [])));
  for (const op of ops) {
    if (isPageOp(op) || isFormOp(op)) continue;
    const at = layout.findIndex((p) => p.source === op.page);
    const own = frames.get(op.page);
    if (at < 0 || !own) continue;
    const frame: PageFrame = { ...own, rotation: normalRotation(own.rotation + layout[at]!.rotation) };
    const page = at + 1;
    const rect = (r: Rect) => solid(rectToScreen(r, frame, 1));
    const point = (p: Point): [number, number] => {
      const s = toScreen(p, frame, 1);
      return [s.x, s.y];
    };
    switch (op.kind) {
      case 'replaceText':
        out.push({ op: 'replaceText', page, run: op.run, text: op.text, ...changedStyle(op.style, op.own) });
        break;
      case 'textBox':
        if (op.text.trim()) out.push({ op: 'addText', page, rect: rect(op.rect), text: op.text, ...styleFields(op.style) });
        break;
      case 'image':
        out.push({ op: 'addImage', page, rect: rect(op.rect), image: base64Of(op.dataUrl) });
        break;
      case 'signature':
        // A stamp annotation with the picture as its appearance: annotate mode, movable later.
        out.push({ op: 'annotate', page, type: 'stamp', rect: rect(op.rect), image: base64Of(op.dataUrl) });
        break;
      case 'whiteOut':
        out.push({ op: 'whiteout', page, rect: rect(op.rect) });
        break;
      case 'shape': {
        const box = rect(spanned(op.from, op.to));
        const points: [[number, number], [number, number]] = [point(op.from), point(op.to)];
        const boxed = op.shape === 'rectangle' || op.shape === 'ellipse';
        if (op.annotation) {
          const type = op.shape === 'rectangle' ? 'square' : op.shape === 'ellipse' ? 'circle' : 'line';
          out.push({ op: 'annotate', page, type, ...(boxed ? { rect: box } : { points }), color: op.stroke, width: op.lineWidth });
        } else {
          const kind = op.shape === 'rectangle' ? 'rect' : op.shape;
          out.push({
            op: 'shape',
            page,
            kind,
            ...(boxed ? { rect: box } : { points }),
            stroke: op.stroke,
            fill: op.fill,
            width: op.lineWidth,
          });
        }
        break;
      }
      case 'markup':
        out.push({ op: 'annotate', page, type: op.markup, quads: op.rects.map(rect), color: op.color });
        break;
      case 'note':
        out.push({
          op: 'annotate',
          page,
          type: 'note',
          rect: rect({ x: op.at.x, y: op.at.y - 18, width: 18, height: 18 }),
          contents: op.text,
        });
        break;
      case 'comment':
        if (op.text.trim())
          out.push({ op: 'annotate', page, type: 'freetext', rect: rect(op.rect), contents: op.text, font_size: 11, color: '#fff8c4' });
        break;
      case 'ink':
        out.push({ op: 'annotate', page, type: 'ink', ink: op.paths.map((path) => path.map(point)), color: op.color, width: op.lineWidth });
        break;
      case 'stamp':
        out.push({ op: 'annotate', page, type: 'stamp', rect: rect(op.rect), contents: op.label, color: op.color });
        break;
      case 'moveImage':
        if (!deleted.has(op.target)) out.push({ op: 'moveImage', page, image: op.target, rect: rect(op.rect) });
        break;
      case 'editAnnotation':
        if (!deleted.has(op.target)) out.push({ op: 'editAnnotation', page, annotation: op.target, contents: op.text });
        break;
      case 'deleteObject':
        out.push(
          op.object === 'image' ? { op: 'deleteImage', page, image: op.target } : { op: 'deleteAnnotation', page, annotation: op.target },
        );
        break;
    }
  }
  if (flatten) out.push({ op: 'flatten' });
  return out;
}

/** The request's mode: annotate while every operation only annotates or fills the form, else edit. */
export function modeOf(operations: readonly EditOperationInput[]): 'edit' | 'annotate' {
  return operations.every((o) => annotateModeOps.has(o.op)) ? 'annotate' : 'edit';
}
