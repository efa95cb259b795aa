import { describe, expect, it } from 'vitest';
import { runOfItem, runsIn } from './textRuns';

describe('text runs', () => {
  it('boxes an item from below its baseline to its ascent, from the page origin', () => {
    const run = runOfItem({ str: 'Hello', transform: [12, 0, 0, 12, 110, 720], width: 30, height: 12 }, { x: 10, y: 20 });
    expect(run.rect).toMatchObject({ x: 100, y: 697, width: 30 });
    expect(run.rect.height).toBeCloseTo(13.8);
    expect(run.fontSize).toBe(12);
  });

  it('marks the part of each line a drag covers, and no line it only grazes', () => {
    const lines = [0, 1, 2].map((i) =>
      runOfItem({ str: 'line', transform: [10, 0, 0, 10, 100, 700 - 14 * i], width: 200, height: 10 }, { x: 0, y: 0 }),
    );
    // A drag over the middle line from x 150 on, touching the edges of its neighbours.
    const marked = runsIn(lines, { x: 150, y: 684, width: 500, height: 14 });
    expect(marked).toHaveLength(1);
    expect(marked[0]).toMatchObject({ x: 150, width: 150, y: lines[1]!.rect.y });
  });
});
