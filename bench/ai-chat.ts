// Chat with PDF's classic provider on a written-down question set (bench/ai-chat-questions.json:
// 45 questions over 6 PDFs of test-corpus/pdfjs, each with its answer and the pages holding it).
//
//   node --import tsx bench/ai-chat.ts
//
// A real Quire (API, SQLite) is started; an AI-plan account uploads each PDF, waits for its
// analysis, asks for its summary and asks every question through POST /api/ai/v2/chat/completion.
// Measured: the share of answers citing a page that holds the answer, the share whose cited
// passages contain the answer itself, and the same page measure for a baseline that always cites
// page 1 (the reference in the same run); the share of each document's headings the summary's
// outline names; the median time of an answer. See bench/README.md.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Client, signedIn, startQuire } from '../apps/server/test/harness.js';

interface Question {
  question: string;
  answer: string;
  pages: number[];
}
interface Document {
  file: string;
  title: string;
  headings: string[];
  questions: Question[];
}

const set = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'ai-chat-questions.json'), 'utf8')) as { documents: Document[] };
const corpus = path.join(import.meta.dirname, '../test-corpus/pdfjs');
/** Compared as pdftotext and the analysis may space them: case, runs of white space and soft hyphens aside. */
const norm = (s: string) =>
  s
    .replace(/\u00ad\s*/g, '')
    .replace(/\s+/g, ' ')
    .toLowerCase();

/** A heading as compared: without its numbering ("2.1", "A.") and normalised. */
const heading = (s: string) =>
  norm(s)
    .replace(/^([0-9]+(\.[0-9]+)*\.?|[a-z]\.)\s+/, '')
    .trim();

async function call(client: Client, pathname: string, body: unknown) {
  const res = await client.raw(`/api/ai/v2/${pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await res.json();
  if (answer.code !== 0) throw new Error(`${pathname}: ${answer.code} ${answer.msg}`);
  return answer.data;
}

const quire = await startQuire({}, false);
try {
  const client = await signedIn(quire.url, quire.ctx, 'bench@example.org', 'ai');
  const rows: string[] = [];
  const totals = { questions: 0, pageHit: 0, passageHit: 0, baseline: 0, headings: 0, covered: 0 };
  /** The documents of more than one page, where citing the right page takes more than citing any. */
  const multi = { documents: 0, questions: 0, pageHit: 0, baseline: 0 };
  const times: number[] = [];
  for (const doc of set.documents) {
    const fileId = await client.uploadId(path.join(corpus, doc.file));
    let totalPage = 0;
    for (;;) {
      const info = await call(client, 'file/info', { file_id: fileId });
      if (info.status === 'failed') throw new Error(`${doc.file}: analysis failed (${info.error_code})`);
      totalPage = info.total_page;
      if (info.status === 'success') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const summary = await call(client, 'chat/summary', { file_id: fileId });
    const titles = (summary.outlines as { title: string }[]).map((o) => heading(o.title));
    const covered = doc.headings.filter((h) => titles.some((t) => t === heading(h) || t.startsWith(`${heading(h)} `))).length;
    let pageHit = 0;
    let passageHit = 0;
    let baseline = 0;
    for (const q of doc.questions) {
      const started = performance.now();
      const answer = await call(client, 'chat/completion', { file_id: fileId, question: q.question });
      times.push(performance.now() - started);
      const citations = answer.citations as { page: number; text: string }[];
      if (citations.some((c) => q.pages.includes(c.page))) pageHit++;
      if (citations.some((c) => norm(c.text).includes(norm(q.answer)))) passageHit++;
      if (q.pages.includes(1)) baseline++;
    }
    const n = doc.questions.length;
    rows.push(
      `| ${doc.file} | ${doc.title} | ${n} | ${pageHit}/${n} | ${passageHit}/${n} | ${baseline}/${n} | ${covered}/${doc.headings.length} |`,
    );
    if (totalPage > 1) {
      multi.documents++;
      multi.questions += n;
      multi.pageHit += pageHit;
      multi.baseline += baseline;
    }
    totals.questions += n;
    totals.pageHit += pageHit;
    totals.passageHit += passageHit;
    totals.baseline += baseline;
    totals.headings += doc.headings.length;
    totals.covered += covered;
  }
  const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(0)} %`;
  const median = times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
  console.log(
    '| file | document | questions | cites a right page | cited passage holds the answer | baseline: page 1 | summary outline names the heading |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(row);
  console.log(
    `| **all** | ${set.documents.length} documents | ${totals.questions} | **${pct(totals.pageHit, totals.questions)}** | **${pct(totals.passageHit, totals.questions)}** | ${pct(totals.baseline, totals.questions)} | **${pct(totals.covered, totals.headings)}** |`,
  );
  console.log(
    `| more than one page | ${multi.documents} documents | ${multi.questions} | **${pct(multi.pageHit, multi.questions)}** | | ${pct(multi.baseline, multi.questions)} | |`,
  );
  console.log(`\nMedian time of an answer (HTTP round trip): ${median.toFixed(0)} ms`);
} finally {
  await quire.stop();
}
