// The AI detector benchmarks' labelled set (test-corpus/ai-detect/) and their measure.
import fs from 'node:fs';
import path from 'node:path';

export interface Passage {
  text: string;
  label: 'human' | 'machine';
  source: string;
  split: 'train' | 'test';
}

export const passages = fs
  .readFileSync(path.join(import.meta.dirname, '../test-corpus/ai-detect/passages.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as Passage);

/** Area under the ROC curve: the chance that a machine item scores above a human one (ties count half). */
export function auroc(scored: readonly { score: number; machine: boolean }[]): number {
  const pos = scored.filter((s) => s.machine).map((s) => s.score);
  const neg = scored.filter((s) => !s.machine).map((s) => s.score);
  let wins = 0;
  for (const p of pos) for (const q of neg) wins += p > q ? 1 : p === q ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}
