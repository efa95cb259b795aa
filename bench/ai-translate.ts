// Apertium round trips on corpus text: English paragraphs of the test corpus's PDFs (their text as
// pdftotext reads it) translated to another language and back with Quire's engine path
// (engines/language/apertium.ts: prlimit, a file per run, the route through a pivot), and the same
// directions run by the `apertium` command line in the same run, as the reference for time.
//
//   node --import tsx bench/ai-translate.ts            (BENCH_REPS=3 by default)
//
// See bench/README.md.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { installedDirections, routeOf, translateAlong, type ApertiumDirection } from '../apps/server/src/engines/language/apertium.js';
import { wordCount } from '../apps/server/src/services/aiLanguage.js';

const REPS = Math.max(1, Number(process.env.BENCH_REPS) || 3);
const limits = { timeoutMs: 120_000, memoryMb: 1024 };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-translate-'));
const corpus = path.join(import.meta.dirname, '../test-corpus/pdfjs');
/** English prose of the corpus: a paper, a tax form's instructions, a cheat sheet's notes. */
const SOURCES = ['issue13201.pdf', '160F-2019.pdf', 'canvas.pdf', 'bug1997343.pdf'];
/** Through Spanish both ways (en → fr is en → es → fr): the round trip is four runs of Apertium. */
const TARGETS = ['es', 'ca', 'gl', 'fr', 'pt', 'it'];

/** Paragraphs (blank-line separated) of at least 8 words, each joined onto one line. */
function paragraphs(file: string): string[] {
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', path.join(corpus, file), '-'], { encoding: 'utf8' });
  return text
    .split(/\n\s*\n|\f/)
    .map((p) =>
      p
        .replace(/-\n(?=\p{Ll})/gu, '')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((p) => wordCount(p) >= 8);
}

const STOP = new Set(
  'the a an and or of to in on at by for with from as is are was were be been it its this that these those which who not no but if then than so such can may will would'.split(
    ' ',
  ),
);
const contentWords = (text: string) => (text.toLowerCase().match(/\p{L}{3,}/gu) ?? []).filter((w) => !STOP.has(w));

/** Share of the source's content words (with repeats) found again in the round trip. */
function retention(source: string, back: string): number {
  const have = new Map<string, number>();
  for (const w of contentWords(back)) have.set(w, (have.get(w) ?? 0) + 1);
  const words = contentWords(source);
  let kept = 0;
  for (const w of words) {
    const n = have.get(w) ?? 0;
    if (n > 0) {
      kept++;
      have.set(w, n - 1);
    }
  }
  return words.length ? kept / words.length : 1;
}

/** chrF (character n-grams 1–6, β = 2) of `hypothesis` against `reference`, 0–100. */
function chrF(hypothesis: string, reference: string): number {
  const grams = (s: string, n: number) => {
    const m = new Map<string, number>();
    const t = s.replace(/\s+/g, ' ');
    for (let i = 0; i + n <= t.length; i++) m.set(t.slice(i, i + n), (m.get(t.slice(i, i + n)) ?? 0) + 1);
    return m;
  };
  let p = 0;
  let r = 0;
  for (let n = 1; n <= 6; n++) {
    const h = grams(hypothesis, n);
    const ref = grams(reference, n);
    let common = 0;
    for (const [g, c] of h) common += Math.min(c, ref.get(g) ?? 0);
    const hs = [...h.values()].reduce((a, b) => a + b, 0);
    const rs = [...ref.values()].reduce((a, b) => a + b, 0);
    p += hs ? common / hs : 0;
    r += rs ? common / rs : 0;
  }
  p /= 6;
  r /= 6;
  return p + r ? (100 * 5 * p * r) / (4 * p + r) : 0;
}

/** The `apertium` command line along a route, the text in a file as Quire gives it. */
function cliAlong(route: readonly ApertiumDirection[], text: string): string {
  let current = text;
  const file = path.join(tmp, 'cli.txt');
  for (const d of route) {
    fs.writeFileSync(file, current);
    current = execFileSync('apertium', ['-u', '-f', 'txt', d.mode, file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  }
  return current;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const texts = SOURCES.flatMap(paragraphs);
const source = texts.join('\n\n');
const words = wordCount(source);
const directions = await installedDirections();
console.log(`${texts.length} paragraphs, ${words} words from ${SOURCES.length} corpus PDFs; ${REPS} repetitions\n`);
console.log('| round trip | hops | content words kept | chrF | Quire ms (there + back) | apertium CLI ms | time ratio | words/s (Quire) |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const to of TARGETS) {
  const there = routeOf(directions, 'en', to, 2);
  const back = routeOf(directions, to, 'en', 2);
  if (!there || !back) {
    console.log(`| en → ${to} → en | not installed | | | | | | |`);
    continue;
  }
  const quireMs: number[] = [];
  const cliMs: number[] = [];
  let result = '';
  for (let rep = 0; rep < REPS; rep++) {
    let start = performance.now();
    result = await translateAlong(back, await translateAlong(there, source, tmp, limits), tmp, limits);
    quireMs.push(performance.now() - start);
    start = performance.now();
    cliAlong(back, cliAlong(there, source));
    cliMs.push(performance.now() - start);
  }
  const backs = result.split('\n\n');
  if (backs.length !== texts.length) throw new Error(`en → ${to} → en lost paragraphs apart: ${backs.length} of ${texts.length}`);
  const kept = texts.reduce((sum, t, i) => sum + retention(t, backs[i]!) * contentWords(t).length, 0) / contentWords(source).length;
  const score = texts.reduce((sum, t, i) => sum + chrF(backs[i]!, t), 0) / texts.length;
  const q = median(quireMs);
  const c = median(cliMs);
  console.log(
    `| en → ${to} → en | ${there.length + back.length} | ${(kept * 100).toFixed(1)} % | ${score.toFixed(1)} | ${q.toFixed(0)} | ${c.toFixed(0)} | ${(q / c).toFixed(2)} | ${((2 * words) / (q / 1000)).toFixed(0)} |`,
  );
}
fs.rmSync(tmp, { recursive: true, force: true });
