import { describe, expect, it } from 'vitest';
import { interruptionShown } from './interruptions';

describe('interruptionShown', () => {
  it('shows the first asking interruption in priority order, none when none asks', () => {
    expect(interruptionShown(new Map())).toBeUndefined();
    expect(interruptionShown(new Map([['gift', 1]]))).toBe('gift');
    expect(
      interruptionShown(
        new Map([
          ['gift', 1],
          ['bookmark', 1],
          ['badge', 2],
        ]),
      ),
    ).toBe('badge');
    expect(
      interruptionShown(
        new Map([
          ['banner', 1],
          ['event', 1],
        ]),
      ),
    ).toBe('event');
  });

  it('passes over a kind no one asks for any more', () => {
    expect(
      interruptionShown(
        new Map([
          ['banner', 0],
          ['gift', 1],
        ]),
      ),
    ).toBe('gift');
  });
});
