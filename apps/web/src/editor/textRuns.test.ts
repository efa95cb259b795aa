import { describe, expect, it } from 'vitest';
import type { PageRuns } from '@quire/contracts';
import { runsIn, runsOfPage, type TextRun } from './textRuns';

const run = (id: string, bbox: { x: number; y: number; width: number; height: number }): PageRuns['runs'][number] => ({
  id,
  text: id,
  bbox,
  origin: [bbox.x, bbox.y + bbox.height],
  font: 'Helvetica',
  family: 'liberation-sans',
  size: 10,
  color: '#000000',
  bold: false,
  italic: false,
  line: 0,
  paragraph: 0,
  paragraph_bbox: bbox,
});

describe('text runs', () => {
  it('takes the server boxes (top left, y down, as shown) into the page user space', () => {
    const [upright] = runsOfPage(
      { page: 1, width: 595, height: 842, runs: [run('a', { x: 72, y: 70, width: 200, height: 12 })] },
      { width: 595, height: 842, rotation: 0 },
    );
    expect(upright!.rect).toEqual({ x: 72, y: 760, width: 200, height: 12 });
    // On a page turned 90°, a line shown across the top runs up the unrotated page.
    const [turned] = runsOfPage(
      { page: 1, width: 842, height: 595, runs: [run('b', { x: 72, y: 70, width: 200, height: 12 })] },
      { width: 595, height: 842, rotation: 90 },
    );
    expect(turned!.rect).toEqual({ x: 70, y: 72, width: 12, height: 200 });
  });

  it('marks the part of each line a drag covers, and no line it only grazes', () => {
    const lines: TextRun[] = [0, 1, 2].map((i) => ({
      id: String(i),
      text: 'line',
      rect: { x: 100, y: 697 - 14 * i, width: 200, height: 12 },
      style: { font: 'liberation-sans', size: 10, color: '#000000', bold: false, italic: false },
    }));
    // A drag over the middle line from x 150 on, touching the edges of its neighbours.
    const marked = runsIn(lines, { x: 150, y: 682, width: 500, height: 14 });
    expect(marked).toEqual([{ x: 150, y: 683, width: 150, height: 12 }]);
  });
});
