// The AI detector's model path: how predictable a text is to the language model the operator set
// for the detector. This is Binoculars (Hans et al., 2024) with one model as both observer and
// performer: the text's log-perplexity under the model (the mean −ln p of its tokens) over the
// model's own expected cross-entropy at the same places (the mean entropy of its predictions).
// Text a machine wrote is about as predictable as the model expects its own writing to be, or
// more (a ratio near 1 or below); a person's surprises it more (above). Per sentence as the
// classic detector does, with the offsets of its sentences.
import { splitSentences } from '../classic/detector/features.js';
import { aroundSentence, type Detection } from '../classic/detector/detector.js';
import type { ScoredToken } from '../engines/ai/model.js';

/**
 * The logistic from the ratio R to the likelihood that a machine wrote the text:
 * P = 1 / (1 + e^(SLOPE · (R − MIDPOINT))). The midpoint is Binoculars' published threshold (0.9);
 * the slope puts R = 0.8 at 0.82 and R = 1.0 at 0.18. Neither is fitted to a model here (none can be
 * had on this machine): bench/ai-detect-model.ts measures a model's ratios on the labelled passages.
 */
export const RATIO_MIDPOINT = 0.9;
export const RATIO_SLOPE = 15;

/** The ratio of `tokens`: their log-perplexity over their mean entropy; undefined when there are none. */
export function perplexityRatio(tokens: readonly ScoredToken[]): number | undefined {
  let surprise = 0;
  let entropy = 0;
  for (const t of tokens) {
    surprise -= t.logprob;
    entropy += t.entropy;
  }
  if (tokens.length === 0) return undefined;
  // A model certain of every place (no entropy) that the text surprised reads it as a person's.
  return entropy > 0 ? surprise / entropy : surprise > 0 ? Number.POSITIVE_INFINITY : 1;
}

/** The likelihood, 0 to 1, that a machine wrote text of this ratio; 0.5 (undecided) for text the model read no token of. */
export function machineLikelihood(ratio: number | undefined): number {
  return ratio === undefined ? 0.5 : 1 / (1 + Math.exp(RATIO_SLOPE * (ratio - RATIO_MIDPOINT)));
}

/** Scores `text` whole and per sentence from the tokens the model scored (their offsets in `text`). */
export function modelDetection(text: string, tokens: readonly ScoredToken[]): Detection {
  const sentences = splitSentences(text);
  // Each token belongs to the last sentence starting at or before it (white space between sentences to the one before).
  const bySentence = sentences.map((): ScoredToken[] => []);
  let at = 0;
  for (const token of tokens) {
    while (at + 1 < sentences.length && sentences[at + 1]!.start <= token.start) at++;
    bySentence[at]?.push(token);
  }
  return {
    score: machineLikelihood(perplexityRatio(tokens)),
    sentences: sentences.map((s, i) => ({
      sentence: s.text,
      start: s.start,
      end: s.end,
      // One sentence has too few tokens for a steady ratio: its neighbours are read with it, as the statistical detector does.
      score: machineLikelihood(perplexityRatio(aroundSentence(bySentence, i).flat())),
    })),
  };
}
