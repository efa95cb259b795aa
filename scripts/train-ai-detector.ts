// Fits the AI detector's logistic model on the training split of test-corpus/ai-detect/ and writes
// apps/server/src/classic/detector/weights.json. The test split is left alone (bench/ai-detect.ts).
//
//   node --import tsx scripts/train-ai-detector.ts
import fs from 'node:fs';
import path from 'node:path';
import { type DetectorWeights, probability, textFeatures, WEIGHTS_FILE } from '../apps/server/src/classic/detector/detector.js';
import { FEATURE_NAMES } from '../apps/server/src/classic/detector/features.js';

interface Passage {
  text: string;
  label: 'human' | 'machine';
  split: 'train' | 'test';
}

/** L2 penalty: the set is a few hundred passages against some thirty features. */
const L2 = 0.05;
const STEPS = 4000;
const RATE = 0.2;

const file = path.join(import.meta.dirname, '../test-corpus/ai-detect/passages.jsonl');
const train = fs
  .readFileSync(file, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Passage)
  .filter((p) => p.split === 'train');
const xs = train.map((p) => textFeatures(p.text));
const ys = train.map((p) => (p.label === 'machine' ? 1 : 0));
const n = FEATURE_NAMES.length;
const mean = FEATURE_NAMES.map((_, j) => xs.reduce((a, x) => a + x[j]!, 0) / xs.length);
// A feature that never varies in training (std 0) is left with weight 0 rather than divided by 0.
const std = FEATURE_NAMES.map((_, j) => Math.sqrt(xs.reduce((a, x) => a + (x[j]! - mean[j]!) ** 2, 0) / xs.length) || 1);
// Each class weighs the same whatever its number of passages.
const positives = ys.filter((y) => y === 1).length;
const classWeight = (y: number) => (y === 1 ? xs.length / (2 * positives) : xs.length / (2 * (xs.length - positives)));

const model: DetectorWeights = { features: FEATURE_NAMES, mean, std, weights: new Array(n).fill(0), bias: 0 };
for (let step = 0; step < STEPS; step++) {
  const grad = new Array(n).fill(0);
  let gradBias = 0;
  xs.forEach((x, i) => {
    const err = classWeight(ys[i]!) * (probability(model, x) - ys[i]!);
    gradBias += err;
    for (let j = 0; j < n; j++) grad[j] += (err * (x[j]! - mean[j]!)) / std[j]!;
  });
  model.bias -= (RATE * gradBias) / xs.length;
  for (let j = 0; j < n; j++) model.weights[j] = model.weights[j]! - RATE * (grad[j] / xs.length + L2 * model.weights[j]!);
}

const round = (v: number) => Number(v.toPrecision(6));
const out = { ...model, mean: mean.map(round), std: std.map(round), weights: model.weights.map(round), bias: round(model.bias) };
fs.writeFileSync(WEIGHTS_FILE, `${JSON.stringify(out, null, 2)}\n`);
const correct = xs.filter((x, i) => (probability(out, x) >= 0.5 ? 1 : 0) === ys[i]).length;
console.log(`${train.length} training passages (${positives} machine); training accuracy ${(correct / xs.length).toFixed(3)}`);
for (const [name, w] of FEATURE_NAMES.map((f, j) => [f, out.weights[j]!] as const).sort((a, b) => Math.abs(b[1]) - Math.abs(a[1])))
  console.log(`${name.padEnd(24)} ${w > 0 ? '+' : ''}${w.toFixed(3)}`);
