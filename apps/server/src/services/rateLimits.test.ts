import { describe, expect, it } from 'vitest';
import { RateLimited, RateLimits } from './rateLimits.js';

const limits = () =>
  new RateLimits({
    uploadRate: { perSecond: 2, burst: 3 },
    taskRate: { perSecond: 0.5, burst: 1 },
    accountRate: { perSecond: 0.5, burst: 1 },
    ipRateFactor: 2,
  });
const refusal = (take: () => void) => {
  try {
    take();
  } catch (e) {
    return e;
  }
  return undefined;
};

describe('rate limits', () => {
  it('takes a burst at once, then refills at the rate, saying when to come back', () => {
    const r = limits();
    for (let i = 0; i < 3; i++) r.take('upload', 'v', '1.2.3.4', 0);
    const refused = refusal(() => r.take('upload', 'v', '1.2.3.4', 0));
    expect(refused).toBeInstanceOf(RateLimited);
    expect(refused).toMatchObject({ code: 3500, retryAfterS: 1 });
    // Half a second refills one token at 2 per second.
    expect(refusal(() => r.take('upload', 'v', '1.2.3.4', 500))).toBeUndefined();
    // Task creation is counted apart from uploads.
    expect(refusal(() => r.take('task', 'v', '1.2.3.4', 500))).toBeUndefined();
    expect(refusal(() => r.take('task', 'v', '1.2.3.4', 500))).toMatchObject({ retryAfterS: 2 });
  });

  it('limits an address to its factor of visitors, however many cookies it shows', () => {
    const r = limits();
    // The address has 2 × 1 task tokens: a third visitor from it waits.
    r.take('task', 'a', '1.2.3.4', 0);
    r.take('task', 'b', '1.2.3.4', 0);
    expect(refusal(() => r.take('task', 'c', '1.2.3.4', 0))).toBeInstanceOf(RateLimited);
    // A refused call costs its visitor nothing; another address is not affected.
    expect(refusal(() => r.take('task', 'c', '5.6.7.8', 0))).toBeUndefined();
  });
});
