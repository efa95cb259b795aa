// AI detector benchmark, model path: the detector's scores with a language model
// (apps/server/src/services/modelDetection.ts) on the held-out split of test-corpus/ai-detect/,
// the model run as the local provider runs it (llama.cpp in a bounded worker, one per passage):
// AUROC for passages and for sentences read with their neighbours, the perplexity ratios of each
// label against the logistic's midpoint, and the time a token takes.
//
//   QUIRE_AI_MODEL_PATH=model.gguf node --import tsx bench/ai-detect-model.ts
//   BENCH_PASSAGES=40 QUIRE_AI_MODEL_PATH=model.gguf node --import tsx bench/ai-detect-model.ts   # 40 of each label
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { localModel } from '../apps/server/src/engines/ai/local.js';
import type { Detection } from '../apps/server/src/classic/detector/detector.js';
import { modelDetection, perplexityRatio, RATIO_MIDPOINT } from '../apps/server/src/services/modelDetection.js';
import { auroc, passages } from './aiDetectSet.js';

const modelPath = process.env.QUIRE_AI_MODEL_PATH;
if (!modelPath) throw new Error('QUIRE_AI_MODEL_PATH names no GGUF model to measure');
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-detect-model-'));
const model = localModel({
  modelPath,
  memoryMb: Number(process.env.QUIRE_AI_MODEL_MEMORY_MB ?? 8192),
  contextTokens: Number(process.env.QUIRE_AI_MODEL_CONTEXT ?? 2048),
  threads: Number(process.env.QUIRE_AI_MODEL_THREADS ?? os.availableParallelism()),
  // A bench measures how long scoring takes: no limit cuts it short.
  timeoutMs: 24 * 3_600_000,
  workDir,
});

const most = Number(process.env.BENCH_PASSAGES ?? Number.POSITIVE_INFINITY);
const test = passages.filter((p) => p.split === 'test');
const chosen = (['human', 'machine'] as const).flatMap((label) => test.filter((p) => p.label === label).slice(0, most));
let tokens = 0;
let ms = 0;
const results: { machine: boolean; ratio: number; detection: Detection }[] = [];
for (const p of chosen) {
  const started = performance.now();
  const read = await model.score(p.text, new AbortController().signal);
  if (!read.scored) throw new Error(read.why);
  ms += performance.now() - started;
  tokens += read.engineTokens;
  results.push({ machine: p.label === 'machine', ratio: perplexityRatio(read.tokens)!, detection: modelDetection(p.text, read.tokens) });
}
fs.rmSync(workDir, { recursive: true, force: true });

const whole = results.map((r) => ({ score: r.detection.score, machine: r.machine }));
const sentences = results.flatMap((r) => r.detection.sentences.map((s) => ({ score: s.score, machine: r.machine })));
const accuracy = (threshold: number) => results.filter((r) => r.ratio < threshold === r.machine).length / results.length;
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
// The ratio that would separate these passages best, where the logistic's midpoint might be for this model.
const best = results.map((r) => r.ratio).reduce((a, b) => (accuracy(b + 1e-9) > accuracy(a + 1e-9) ? b : a), RATIO_MIDPOINT);
console.log(
  `${path.basename(modelPath)}: ${chosen.length} passages (${results.filter((r) => !r.machine).length} human), ` +
    `AUROC ${auroc(whole).toFixed(3)}, accuracy at 0.5 ${accuracy(RATIO_MIDPOINT).toFixed(3)}; ` +
    `${sentences.length} sentences: AUROC ${auroc(sentences).toFixed(3)}`,
);
console.log(
  `median ratio human ${median(results.filter((r) => !r.machine).map((r) => r.ratio)).toFixed(3)}, ` +
    `machine ${median(results.filter((r) => r.machine).map((r) => r.ratio)).toFixed(3)}; midpoint ${RATIO_MIDPOINT}, ` +
    `best threshold here ${best.toFixed(3)} (accuracy ${accuracy(best + 1e-9).toFixed(3)})`,
);
console.log(
  `${tokens} tokens in ${(ms / 1000).toFixed(1)} s: ${(ms / tokens).toFixed(2)} ms a token, each worker's start and model load included`,
);
