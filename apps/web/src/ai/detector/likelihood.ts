// How the result page words a detector score (0 to 1, the likelihood that a machine wrote it).
export type Likelihood = 'ai' | 'mixed' | 'human';

/** Scores from this up read as machine-written, below LOW as a person's; between, undecided. */
const HIGH = 0.65;
const LOW = 0.35;

export function likelihoodOf(score: number): Likelihood {
  return score >= HIGH ? 'ai' : score < LOW ? 'human' : 'mixed';
}
