import { editRequest } from '@quire/contracts';
import { describe, expect, it } from 'vitest';
import type { EditOp, TextStyle } from './editOps';
import { editOperations, modeOf } from './editRequest';
import type { PageFrame } from './pageCoordinates';

const a4: PageFrame = { width: 595, height: 842, rotation: 0 };
const frames = new Map<number, PageFrame>([
  [1, a4],
  [2, { ...a4, rotation: 90 }],
  [3, a4],
]);
const plain: TextStyle = { font: 'liberation-sans', size: 12, color: '#000000', bold: false, italic: false };

describe('the save request', () => {
  it('sends boxes from the top left of the page as shown, y down', () => {
    const ops: EditOp[] = [
      { id: '1', page: 1, kind: 'whiteOut', rect: { x: 72, y: 700, width: 100, height: 20 } },
      { id: '2', page: 1, kind: 'markup', markup: 'highlight', rects: [{ x: 72, y: 750, width: 200, height: 12 }], color: '#ffd400' },
    ];
    expect(editOperations(ops, frames)).toEqual([
      { op: 'whiteout', page: 1, rect: { x: 72, y: 122, width: 100, height: 20 } },
      { op: 'annotate', page: 1, type: 'highlight', quads: [{ x: 72, y: 80, width: 200, height: 12 }], color: '#ffd400' },
    ]);
  });

  it('renumbers pages after deletes and moves, follows added rotation, and drops what was on a deleted page', () => {
    const ops: EditOp[] = [
      { id: '1', page: 1, kind: 'note', at: { x: 100, y: 800 }, text: 'gone with its page' },
      {
        id: '2',
        page: 3,
        kind: 'shape',
        shape: 'line',
        from: { x: 0, y: 0 },
        to: { x: 100, y: 0 },
        stroke: '#000000',
        fill: null,
        lineWidth: 2,
        annotation: true,
      },
      { id: '3', page: 1, kind: 'deletePage' },
      { id: '4', page: 3, kind: 'rotatePage', degrees: 90 },
      { id: '5', page: 3, kind: 'movePage', before: 2 },
    ];
    const sent = editOperations(ops, frames);
    expect(sent[0]).toEqual({
      op: 'pages',
      order: [
        { from: 3, rotate: 90 },
        { from: 2, rotate: 0 },
      ],
    });
    // Page 3 is now the first, turned: its bottom edge is shown as the left edge, running down.
    expect(sent.slice(1)).toEqual([
      {
        op: 'annotate',
        page: 1,
        type: 'line',
        points: [
          [0, 0],
          [0, 100],
        ],
        color: '#000000',
        width: 2,
      },
    ]);
    expect(editRequest.safeParse({ file_id: 'f', operations: sent }).success).toBe(true);
  });

  it('adds blank pages the size of the page of the file before them as shown, numbered where they end up', () => {
    // Blank page 4 follows page 2, turned by its own /Rotate: shown 842 wide, so it is 842 × 595, upright.
    const ops: EditOp[] = [
      { id: '1', page: 4, kind: 'addPage', after: 2 },
      { id: '2', page: 4, kind: 'whiteOut', rect: { x: 10, y: 500, width: 100, height: 20 } },
      { id: '3', page: 5, kind: 'addPage', after: 4 },
      { id: '4', page: 4, kind: 'movePage', before: 1 },
      { id: '5', page: 4, kind: 'rotatePage', degrees: 90 },
      { id: '6', page: 5, kind: 'deletePage' },
    ];
    const sent = editOperations(ops, frames);
    expect(sent[0]).toEqual({
      op: 'pages',
      order: [
        { from: 'blank', rotate: 90 },
        { from: 1, rotate: 0 },
        { from: 2, rotate: 0 },
        { from: 3, rotate: 0 },
      ],
    });
    // Moved to the start, it takes the first page's size (595 × 842), is page 1, and turned a quarter.
    expect(sent[1]).toEqual({ op: 'whiteout', page: 1, rect: { x: 500, y: 10, width: 20, height: 100 } });
    expect(editRequest.safeParse({ file_id: 'f', mode: modeOf(sent), operations: sent }).success).toBe(true);
  });

  it('sends edits the server accepts, and leaves out empty text', () => {
    const ops: EditOp[] = [
      {
        id: '1',
        page: 2,
        kind: 'replaceText',
        run: 'r7',
        rect: { x: 70, y: 72, width: 12, height: 200 },
        text: 'Thursday',
        style: plain,
        own: plain,
      },
      { id: '2', page: 1, kind: 'textBox', rect: { x: 10, y: 10, width: 100, height: 20 }, text: '  ', style: plain },
      { id: '3', page: 1, kind: 'image', rect: { x: 10, y: 10, width: 100, height: 50 }, dataUrl: 'data:image/png;base64,iVBORw0KGgo=' },
      {
        id: '4',
        page: 1,
        kind: 'shape',
        shape: 'rectangle',
        from: { x: 10, y: 10 },
        to: { x: 110, y: 10 },
        stroke: '#ff0000',
        fill: null,
        lineWidth: 1,
        annotation: false,
      },
    ];
    const sent = editOperations(ops, frames);
    expect(sent.map((o) => o.op)).toEqual(['replaceText', 'addImage', 'shape']);
    // The run keeps its own style: the server is asked for none.
    expect(sent[0]).toEqual({ op: 'replaceText', page: 2, run: 'r7', text: 'Thursday' });
    expect(sent[1]).toMatchObject({ image: 'iVBORw0KGgo=' });
    expect(sent[2]).toMatchObject({ kind: 'rect', rect: { x: 10, y: 832, width: 100, height: 1 } });
    expect(editRequest.safeParse({ file_id: 'f', operations: sent }).success).toBe(true);
  });

  it("sends only the parts of a run's style the user changed, and a text box's whole style", () => {
    const ops: EditOp[] = [
      {
        id: '1',
        page: 1,
        kind: 'replaceText',
        run: 'r1',
        rect: { x: 70, y: 700, width: 100, height: 12 },
        text: 'Bold now',
        style: { ...plain, font: 'carlito', bold: true, size: 14 },
        own: plain,
      },
      { id: '2', page: 1, kind: 'textBox', rect: { x: 10, y: 10, width: 100, height: 20 }, text: 'Box', style: { ...plain, italic: true } },
    ];
    const sent = editOperations(ops, frames);
    expect(sent[0]).toEqual({ op: 'replaceText', page: 1, run: 'r1', text: 'Bold now', font: 'carlito', bold: true, size: 14 });
    expect(sent[1]).toMatchObject({ op: 'addText', font: 'liberation-sans', size: 12, color: '#000000', bold: false, italic: true });
    expect(editRequest.safeParse({ file_id: 'f', operations: sent }).success).toBe(true);
  });

  it("moves an image already in the file to its new box, edits a note's text, and sends neither for an object deleted", () => {
    const box = { x: 300, y: 500, width: 100, height: 100 };
    const moved = { x: 250, y: 400, width: 150, height: 150 };
    const ops: EditOp[] = [
      { id: '1', page: 1, kind: 'moveImage', target: '1.i0', from: box, rect: moved },
      { id: '2', page: 1, kind: 'editAnnotation', target: 'a9', type: 'note', rect: box, text: 'New remark' },
      { id: '3', page: 1, kind: 'moveImage', target: '1.i1', from: box, rect: moved },
      { id: '4', page: 1, kind: 'deleteObject', object: 'image', target: '1.i1', rect: moved },
    ];
    const sent = editOperations(ops, frames);
    expect(sent).toEqual([
      // Points from the top left: the box's top is 842 - 550.
      { op: 'moveImage', page: 1, image: '1.i0', rect: { x: 250, y: 292, width: 150, height: 150 } },
      { op: 'editAnnotation', page: 1, annotation: 'a9', contents: 'New remark' },
      { op: 'deleteImage', page: 1, image: '1.i1' },
    ]);
    expect(editRequest.safeParse({ file_id: 'f', operations: sent }).success).toBe(true);
  });

  it('sends the filled fields as one fillForm, the latest value winning, and flattens last', () => {
    const ops: EditOp[] = [
      { id: '1', kind: 'flatten' },
      { id: '2', kind: 'fillField', name: 'name', value: 'Ada' },
      { id: '3', kind: 'fillField', name: 'agree', value: true },
      { id: '4', kind: 'fillField', name: 'name', value: 'Ada Lovelace' },
      { id: '5', page: 1, kind: 'deleteObject', object: 'annotation', target: 'a12', rect: { x: 1, y: 1, width: 5, height: 5 } },
    ];
    const sent = editOperations(ops, frames);
    expect(sent).toEqual([
      { op: 'fillForm', fields: { name: 'Ada Lovelace', agree: true } },
      { op: 'deleteAnnotation', page: 1, annotation: 'a12' },
      { op: 'flatten' },
    ]);
    expect(editRequest.safeParse({ file_id: 'f', operations: sent }).success).toBe(true);
  });

  it('asks for annotate mode only when every operation annotates or fills the form', () => {
    const note: EditOp = { id: '1', page: 1, kind: 'note', at: { x: 10, y: 10 }, text: 'hi' };
    const signature: EditOp = {
      id: '2',
      page: 1,
      kind: 'signature',
      rect: { x: 10, y: 10, width: 80, height: 30 },
      dataUrl: 'data:image/png;base64,iVBORw0KGgo=',
    };
    const whiteOut: EditOp = { id: '3', page: 1, kind: 'whiteOut', rect: { x: 10, y: 10, width: 80, height: 30 } };
    expect(modeOf(editOperations([note, signature], frames))).toBe('annotate');
    expect(modeOf(editOperations([note, whiteOut], frames))).toBe('edit');
    const mixed = {
      file_id: 'f',
      mode: modeOf(editOperations([note, whiteOut], frames)),
      operations: editOperations([note, whiteOut], frames),
    };
    expect(editRequest.safeParse(mixed).success).toBe(true);
  });
});
