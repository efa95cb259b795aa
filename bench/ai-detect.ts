// AI detector benchmark: AUROC of the statistical detector on the held-out split of
// test-corpus/ai-detect/ (sources it was not trained on), for whole passages and for single
// sentences read with their neighbours, and the time it takes on the longest text one request may send.
//
//   node --import tsx bench/ai-detect.ts
import { performance } from 'node:perf_hooks';
import { premiumAiLimits } from '@quire/contracts';
import { detect } from '../apps/server/src/classic/detector/detector.js';
import { auroc, passages } from './aiDetectSet.js';

for (const split of ['train', 'test'] as const) {
  const set = passages.filter((p) => p.split === split);
  const results = set.map((p) => ({ p, d: detect(p.text) }));
  const whole = results.map(({ p, d }) => ({ score: d.score, machine: p.label === 'machine' }));
  const sentences = results.flatMap(({ p, d }) => d.sentences.map((s) => ({ score: s.score, machine: p.label === 'machine' })));
  const accuracy = whole.filter((s) => s.score >= 0.5 === s.machine).length / whole.length;
  const human = set.filter((p) => p.label === 'human').length;
  console.log(
    `${split.padEnd(5)} ${human} human, ${set.length - human} machine passages: AUROC ${auroc(whole).toFixed(3)}, ` +
      `accuracy at 0.5 ${accuracy.toFixed(3)}; ${sentences.length} sentences: AUROC ${auroc(sentences).toFixed(3)}`,
  );
  if (split === 'test') {
    for (const source of [...new Set(set.map((p) => p.source.split(':')[0]!))]) {
      const mine = results.filter(({ p }) => p.source.startsWith(`${source}:`)).map(({ d }) => d.score);
      const flagged = mine.filter((s) => s >= 0.5).length;
      console.log(`      ${source.padEnd(22)} ${mine.length} passages, ${flagged} scored machine (≥ 0.5)`);
    }
  }
}

// The longest text one request may send: the test passages repeated up to the paid plans' single-request limit.
const longest = passages
  .map((p) => p.text)
  .join('\n\n')
  .slice(0, premiumAiLimits.detectorMaxRequestChars);
const started = performance.now();
const d = detect(longest);
console.log(
  `${longest.length} characters, ${d.sentences.length} sentences: ${(performance.now() - started).toFixed(0)} ms, ` +
    `heap ${(process.memoryUsage().heapUsed / 1048576).toFixed(0)} MB after`,
);
