// PDF to PowerPoint and to DXF against real-world PDFs: every file of the pdf.js corpus goes
// through the converter with output_format pptx and dxf over the HTTP API of one running Quire
// (with its password where it has one). Each must give a sound zip with one slide per page
// (unzip -t, the parts it lists and the deck's slide list) and a DXF whose group codes are whole
// numbers from its first SECTION to EOF, with a layer per page; or a catalogue code, in time.
//
// Run with: npx vitest run --project corpus apps/server/test/corpus-pptdxf.test.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '@quire/contracts';
import { Client, fileForm, startQuire, type Running } from './harness.js';
import { PDF_UPLOAD_REFUSALS, POLL_MS, collectConsoleErrors, pdfjsDir, pdfjsFiles, pdfjsPassword, pool, sh } from './corpusSupport.js';

const CONCURRENCY = 4;
const TASK_DEADLINE_MS = 90_000;

const TASK_REFUSALS = new Set<number>([ErrorCode.Damaged, ErrorCode.TaskFailed]);

const FORMATS = ['pptx', 'dxf'] as const;
type Format = (typeof FORMATS)[number];

/** What is wrong with a deck of `pages` slides, or null. */
async function pptxProblem(file: string, pages: number): Promise<string | null> {
  // unzip -t checks every part's CRC and names them: "    testing: ppt/slides/slide1.xml   OK".
  const test = await sh('unzip', ['-t', file]);
  if (test.code !== 0) return `unzip -t fails: ${test.stdout.split('\n').find((l) => /error|bad/i.test(l)) ?? test.code}`;
  const parts = [...test.stdout.matchAll(/^\s*testing: (\S+)\s+OK$/gm)].map((m) => m[1]!);
  const slides = parts.filter((p) => /^ppt\/slides\/slide\d+\.xml$/.test(p)).length;
  if (slides !== pages) return `${slides} slides for ${pages} pages`;
  for (const part of ['[Content_Types].xml', 'ppt/presentation.xml', 'ppt/slideMasters/slideMaster1.xml', 'ppt/theme/theme1.xml'])
    if (!parts.includes(part)) return `no ${part}`;
  const deck = (await sh('unzip', ['-p', file, 'ppt/presentation.xml'])).stdout;
  const listed = deck.match(/<p:sldId /g)?.length ?? 0;
  return listed === pages ? null : `presentation.xml lists ${listed} slides`;
}

/** What is wrong with a drawing of `pages` pages, or null. */
function dxfProblem(file: string, pages: number): string | null {
  const lines = fs.readFileSync(file, 'latin1').split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines.length % 2) return 'an odd number of lines';
  for (let i = 0; i < lines.length; i += 2)
    if (!/^\s*-?\d+$/.test(lines[i]!)) return `line ${i + 1} is no group code: ${lines[i]!.slice(0, 40)}`;
  if (lines[1] !== 'SECTION' || lines.at(-1) !== 'EOF') return `starts with ${lines[1]}, ends with ${lines.at(-1)}`;
  const sections = lines.filter((l, i) => i % 2 && l === 'SECTION').length;
  const ends = lines.filter((l, i) => i % 2 && l === 'ENDSEC').length;
  if (sections !== 3 || ends !== 3) return `${sections} SECTION, ${ends} ENDSEC`;
  const layers = lines.filter((l, i) => i % 2 && lines[i - 1] === '0' && l === 'LAYER').length;
  return layers === pages ? null : `${layers} layers for ${pages} pages`;
}

let quire: Running;
let client: Client;
let tmp: string;
let elapsedMs = 0;
let slowest = { ms: 0, what: '' };
const problems: string[] = [];
const serverErrors: string[] = [];
const outcomes: Record<Format, Map<string, number>> = { pptx: new Map(), dxf: new Map() };
const count = (format: Format, key: string) => outcomes[format].set(key, (outcomes[format].get(key) ?? 0) + 1);

async function convertFile(name: string, fileId: string, pages: number, password: string | undefined, format: Format) {
  const query = new URLSearchParams({ file_id: fileId, output_format: format, ...(password && { passwd: password }) });
  const created = await client.answer(`converter?${query}`);
  if (created.body?.code !== 0) {
    count(format, `refused ${created.body?.code ?? created.status}`);
    return problems.push(
      `${name} ${format}: call refused with ${created.body?.code ?? `HTTP ${created.status}`} ${created.body?.msg ?? ''}`,
    );
  }
  const started = Date.now();
  const entry = await client.waitTask((created.body.data as { task_id: string }).task_id, TASK_DEADLINE_MS, POLL_MS);
  if (Date.now() - started > slowest.ms) slowest = { ms: Date.now() - started, what: `${format} ${name}` };
  if (entry.status !== 0) {
    count(format, `failed ${entry.status}`);
    if (!TASK_REFUSALS.has(entry.status)) problems.push(`${name} ${format}: task failed with ${entry.status} (${entry.msg})`);
    return;
  }
  const out = path.join(tmp, `${name}.${format}`);
  await client.download(entry.task_id, out);
  const problem = format === 'pptx' ? await pptxProblem(out, pages) : dxfProblem(out, pages);
  fs.rmSync(out);
  count(format, problem ? 'BAD' : 'ok');
  if (problem) problems.push(`${name} ${format}: ${problem}`);
}

async function processFile(name: string) {
  try {
    const up = await client.answer('file/stream', { method: 'POST', body: fileForm(path.join(pdfjsDir, name)) });
    if (up.body?.code !== 0) {
      if (!up.body || !PDF_UPLOAD_REFUSALS.has(up.body.code))
        problems.push(`${name}: upload answered ${up.body?.code ?? `HTTP ${up.status}`}`);
      return;
    }
    const password = pdfjsPassword(name);
    let { file_id: fileId, total_page: pages } = up.body.data as { file_id: string; total_page: number };
    if (password) {
      const info = await client.answer(`document/info?file_id=${fileId}&passwd=${encodeURIComponent(password)}`);
      pages = (info.body!.data as { total_page: number }).total_page;
    }
    for (const format of FORMATS) await convertFile(name, fileId, pages, password, format);
  } catch (e) {
    problems.push(`${name}: ${(e as Error).message}`);
  }
}

describe('pdf.js corpus to PowerPoint and DXF over HTTP', () => {
  const files = pdfjsFiles();

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-corpus-pptdxf-'));
    collectConsoleErrors(serverErrors);
    quire = await startQuire({ engineTimeoutMs: 30_000 });
    client = new Client(quire.url);
    await client.answer('document/info?file_id=none');
    const started = Date.now();
    await pool(files, CONCURRENCY, processFile);
    elapsedMs = Date.now() - started;
  }, 1_500_000);

  afterAll(async () => {
    vi.restoreAllMocks();
    const tally = (f: Format) => [...outcomes[f]].map(([k, n]) => `${k} ${n}`).join(', ');
    console.log(
      `corpus to pptx/dxf: ${files.length} files in ${(elapsedMs / 1000).toFixed(1)} s | pptx: ${tally('pptx')} | dxf: ${tally('dxf')} | ` +
        `slowest task ${(slowest.ms / 1000).toFixed(1)} s (${slowest.what})`,
    );
    await quire?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('gives every accepted file a sound deck and drawing, or a catalogue failure', () => {
    expect(problems).toEqual([]);
    expect(outcomes.pptx.get('ok')).toBeGreaterThan(files.length * 0.9);
    expect(outcomes.dxf.get('ok')).toBeGreaterThan(files.length * 0.9);
  });

  it('logs no unexpected server error', () => {
    expect(serverErrors).toEqual([]);
  });
});
