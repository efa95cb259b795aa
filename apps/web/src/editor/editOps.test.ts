import { describe, expect, it } from 'vitest';
import { type EditOp, pageLayout } from './editOps';

describe('the page layout after page operations', () => {
  it('rotates, deletes and moves pages by their number in the file', () => {
    const ops: EditOp[] = [
      { id: '1', kind: 'rotatePage', page: 2, degrees: 90 },
      { id: '2', kind: 'note', page: 2, at: { x: 10, y: 10 }, text: 'kept on its page' },
      { id: '3', kind: 'deletePage', page: 1 },
      { id: '4', kind: 'movePage', page: 4, before: 2 },
      { id: '5', kind: 'rotatePage', page: 2, degrees: -90 },
      { id: '6', kind: 'rotatePage', page: 3, degrees: -90 },
    ];
    expect(pageLayout(ops, 4)).toEqual([
      { source: 4, rotation: 0 },
      { source: 2, rotation: 0 },
      { source: 3, rotation: 270 },
    ]);
  });

  it('moves a page to the end and ignores operations on a deleted page', () => {
    const ops: EditOp[] = [
      { id: '1', kind: 'movePage', page: 1, before: 0 },
      { id: '2', kind: 'deletePage', page: 2 },
      { id: '3', kind: 'rotatePage', page: 2, degrees: 90 },
    ];
    expect(pageLayout(ops, 3).map((p) => p.source)).toEqual([3, 1]);
  });
});
