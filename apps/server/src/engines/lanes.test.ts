import { describe, expect, it } from 'vitest';
import { inLanes } from './lanes.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('inLanes', () => {
  it('runs every item, never more than its lanes at once', async () => {
    let running = 0;
    let most = 0;
    const seen: number[] = [];
    await inLanes([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      most = Math.max(most, ++running);
      await tick();
      seen.push(item);
      running--;
    });
    expect(most).toBe(3);
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('starts nothing after a failure, and throws it once the runs under way have ended', async () => {
    const started: number[] = [];
    let ended = 0;
    const run = inLanes([1, 2, 3, 4, 5, 6], 2, async (item) => {
      started.push(item);
      if (item === 1) throw new Error('page 1');
      await tick();
      ended++;
    });
    await expect(run).rejects.toThrow('page 1');
    expect(started).toEqual([1, 2]);
    expect(ended).toBe(1);
  });
});
