// The classic provider's AI-text detector: a statistical one, no language model. The features of
// features.ts, measured against n-gram models counted from human text shipped beside this file
// (human.txt, manual pages), are combined by a logistic model whose weights scripts/train-ai-detector.ts
// fits on the labelled set in test-corpus/ai-detect/ and writes to weights.json.
import fs from 'node:fs';
import path from 'node:path';
import { FEATURE_NAMES, featuresOf, HumanTextModel, sentenceStats, splitSentences, type SentenceStats } from './features.js';

/** A logistic model over standardised features: P(machine) = σ(bias + Σ wᵢ (xᵢ − meanᵢ) / stdᵢ). */
export interface DetectorWeights {
  features: string[];
  mean: number[];
  std: number[];
  weights: number[];
  bias: number;
}

export interface DetectedSentence {
  sentence: string;
  /** Offsets of the sentence in the text (UTF-16 code units). */
  start: number;
  end: number;
  /** Likelihood, 0 to 1, that the sentence (read with its neighbours) was written by a machine. */
  score: number;
}

export interface Detection {
  /** Likelihood, 0 to 1, that the whole text was written by a machine. */
  score: number;
  sentences: DetectedSentence[];
}

const here = import.meta.dirname;
export const WEIGHTS_FILE = path.join(here, 'weights.json');

let model: HumanTextModel | undefined;
/** The n-gram models, counted once per process on first use (2 to 3 s for the shipped text, about 45 MB). */
function humanModel(): HumanTextModel {
  model ??= new HumanTextModel(fs.readFileSync(path.join(here, 'human.txt'), 'utf8'));
  return model;
}

let weights: DetectorWeights | undefined;
function trainedWeights(): DetectorWeights {
  if (!weights) {
    const read = JSON.parse(fs.readFileSync(WEIGHTS_FILE, 'utf8')) as DetectorWeights;
    // Weights of another feature list would be applied to the wrong measurements.
    if (read.features.join() !== FEATURE_NAMES.join())
      throw new Error('weights.json was trained on other features: run scripts/train-ai-detector.ts');
    weights = read;
  }
  return weights;
}

/** The sentences of a text with their stats. */
function measured(text: string): { sentences: ReturnType<typeof splitSentences>; stats: SentenceStats[] } {
  const sentences = splitSentences(text);
  const m = humanModel();
  return { sentences, stats: sentences.map((s) => sentenceStats(m, s.text)) };
}

/** The feature vector of a whole text (what the training script fits the weights on). */
export function textFeatures(text: string): number[] {
  return featuresOf(measured(text).stats);
}

/** P(machine) of a feature vector under the weights. */
export function probability(w: DetectorWeights, x: readonly number[]): number {
  let z = w.bias;
  for (let i = 0; i < x.length; i++) z += (w.weights[i]! * (x[i]! - w.mean[i]!)) / w.std[i]!;
  return 1 / (1 + Math.exp(-z));
}

/** Sentences on each side of a sentence that its score reads too: one sentence alone says too little. */
const SENTENCE_CONTEXT = 1;

/** What a sentence's score reads: the items of sentence `i` and of SENTENCE_CONTEXT sentences on each side. */
export const aroundSentence = <T>(bySentence: readonly T[], i: number): T[] =>
  bySentence.slice(Math.max(0, i - SENTENCE_CONTEXT), i + SENTENCE_CONTEXT + 1);

/**
 * Scores a text and each of its sentences. Time and memory grow linearly with its length, which
 * the caller bounds (the plan's single-request limit).
 */
export function detect(text: string): Detection {
  const w = trainedWeights();
  const { sentences, stats } = measured(text);
  return {
    score: probability(w, featuresOf(stats)),
    sentences: sentences.map((s, i) => ({
      sentence: s.text,
      start: s.start,
      end: s.end,
      score: probability(w, featuresOf(aroundSentence(stats, i))),
    })),
  };
}
