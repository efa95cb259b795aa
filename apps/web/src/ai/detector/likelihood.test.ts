import { describe, expect, it } from 'vitest';
import { likelihoodOf } from './likelihood';

describe('likelihoodOf', () => {
  it('reads a score as human below 0.35, machine from 0.65, undecided between', () => {
    expect([0, 0.349, 0.35, 0.5, 0.649, 0.65, 1].map(likelihoodOf)).toEqual(['human', 'human', 'mixed', 'mixed', 'mixed', 'ai', 'ai']);
  });
});
