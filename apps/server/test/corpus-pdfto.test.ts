// PDF to documents on real-world PDFs: every file of the pdf.js corpus goes to Word over the HTTP
// API of one running Quire, and every twentieth file to each other format too. Each must be refused
// with a catalogue code or give an output independent tools accept: Python's zipfile and XML parser
// for docx, xlsx and epub, its zipfile for the stored entries of pages; a UTF-8 decoder for text;
// brace balance for RTF. The Word document's
// text is compared with pdftotext's words, so a conversion that loses the text cannot pass.
//
// Run with: npx vitest run --project corpus apps/server/test/corpus-pdfto.test.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskEntry } from '@quire/contracts';
import { Client, fileForm, startQuire, type Running } from './harness.js';
import { PDF_TOOL_REFUSALS, PDF_UPLOAD_REFUSALS, POLL_MS, pdfjsDir, pdfjsFiles, pdfjsPassword, pool, sh } from './corpusSupport.js';

const CONCURRENCY = 2;
const TASK_DEADLINE_MS = 90_000;
/** Share of pdftotext's words the Word document must hold, where pdftotext finds enough of them. */
const MIN_WORD_SHARE = 0.6;
const MIN_WORDS = 20;
const OTHER_EVERY = 20;
type Format = 'docx' | 'xlsx' | 'html' | 'rtf' | 'txt' | 'epub' | 'pages';
const OTHERS: Format[] = ['xlsx', 'html', 'rtf', 'txt', 'epub', 'pages'];

/** A zip output checked at the end, all in one Python process (a process per file costs more than the conversions under load). */
interface ZipOutput {
  name: string;
  format: 'docx' | 'xlsx' | 'epub' | 'pages';
  path: string;
  /** pdftotext's words, for a Word document whose source has enough of them. */
  sourceWords?: Set<string>;
}

const ZIP_CHECK = `
import sys, json, zipfile, re, xml.etree.ElementTree as E
for job in json.load(sys.stdin):
    try:
        z = zipfile.ZipFile(job['path'])
        names = z.namelist()
        need = {'docx': ['word/document.xml', 'word/styles.xml', 'word/numbering.xml'], 'xlsx': ['xl/workbook.xml'], 'epub': [],
                'pages': ['Index/Document.iwa', 'Index/Metadata.iwa', 'Metadata/DocumentIdentifier']}[job['format']]
        missing = [n for n in need if n not in names]
        if missing: raise Exception('missing ' + ', '.join(missing))
        if job['format'] == 'epub' and names[0] != 'mimetype': raise Exception('mimetype is not the first entry')
        if job['format'] == 'epub' and z.getinfo('mimetype').compress_type != zipfile.ZIP_STORED: raise Exception('mimetype is compressed')
        if job['format'] == 'pages' and any(i.compress_type != zipfile.ZIP_STORED for i in z.infolist()): raise Exception('an entry is compressed')
        if job['format'] == 'pages' and z.testzip(): raise Exception('bad CRC in ' + z.testzip())
        parts = (need if job['format'] != 'pages' else []) + [n for n in names if n.startswith('xl/worksheets/') or re.search(r'\\.(xhtml|opf)$', n) or n == 'META-INF/container.xml']
        for n in parts: E.fromstring(z.read(n))
        text = ' '.join(re.findall(r'<w:t(?: [^>]*)?>([^<]*)</w:t>', z.read('word/document.xml').decode('utf-8'))) if job['format'] == 'docx' else ''
        print(json.dumps({'ok': True, 'text': text}))
    except Exception as e:
        print(json.dumps({'ok': False, 'error': str(e)[:300]}))
`;

const words = (text: string) => new Set(text.toLowerCase().match(/\b[a-z]{3,}\b/g) ?? []);

let quire: Running;
let client: Client;
let tmpRoot: string;
const failures: string[] = [];
const outcomes = new Map<string, Map<string, number>>();
const shares: number[] = [];
const zips: ZipOutput[] = [];
const docxTexts = new Map<string, string>();
let keptDir: string;
let slowest = { ms: 0, what: '' };

const count = (format: string, outcome: string) => {
  const m = outcomes.get(format) ?? new Map<string, number>();
  m.set(outcome, (m.get(outcome) ?? 0) + 1);
  outcomes.set(format, m);
};

/** Converts; the output file, or null when refused with a catalogue code (counted). */
async function convert(name: string, fileId: string, format: Format, dir: string): Promise<string | null> {
  const passwd = pdfjsPassword(name);
  const started = Date.now();
  const created = (
    await client.answer(`converter?${new URLSearchParams({ file_id: fileId, output_format: format, ...(passwd && { passwd }) })}`)
  ).body;
  if (created?.code !== 0) {
    if (!created || !PDF_TOOL_REFUSALS.has(created.code))
      failures.push(`${name} ${format}: call answered ${created?.code} ${created?.msg}`);
    count(format, `refused ${created?.code}`);
    return null;
  }
  let entry: TaskEntry;
  try {
    entry = await client.waitTask(created.data.task_id, TASK_DEADLINE_MS, POLL_MS);
  } catch (e) {
    failures.push(`${name} ${format}: ${(e as Error).message}`);
    return null;
  }
  const ms = Date.now() - started;
  if (ms > slowest.ms) slowest = { ms, what: `${name} ${format}` };
  if (entry.status !== 0) {
    if (!PDF_TOOL_REFUSALS.has(entry.status)) failures.push(`${name} ${format}: task failed ${entry.status} ${entry.msg}`);
    count(format, `failed ${entry.status}`);
    return null;
  }
  const out = path.join(dir, `out.${format}`);
  await client.download(entry.task_id, out);
  return out;
}

/** What is wrong with a text, RTF or HTML output, or null; zips are checked at the end (ZIP_CHECK). */
function outputProblem(format: Exclude<Format, ZipOutput['format']>, out: string): string | null {
  const bytes = fs.readFileSync(out);
  if (format === 'txt') {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      return null;
    } catch {
      return 'not UTF-8';
    }
  }
  if (format === 'rtf') {
    const text = bytes.toString('latin1');
    if (!text.startsWith('{\\rtf1')) return 'no RTF header';
    const depth = [...text.replace(/\\[\\{}]/g, '')].reduce((d, c) => (d < 0 ? d : c === '{' ? d + 1 : c === '}' ? d - 1 : d), 0);
    return depth === 0 ? null : `braces unbalanced (${depth})`;
  }
  if (format === 'html') {
    const text = bytes.toString('utf8');
    return text.startsWith('<!DOCTYPE html>') && text.trimEnd().endsWith('</html>') ? null : 'not a whole HTML document';
  }
  return null;
}

async function processFile(name: string, index: number) {
  const dir = fs.mkdtempSync(path.join(tmpRoot, 'f-'));
  try {
    const up = (await client.answer('file/stream', { method: 'POST', body: fileForm(path.join(pdfjsDir, name)) })).body;
    if (up?.code !== 0) {
      if (!up || !PDF_UPLOAD_REFUSALS.has(up.code)) failures.push(`${name}: upload answered ${up?.code} ${up?.msg}`);
      count('upload', `refused ${up?.code}`);
      return;
    }
    count('upload', 'ok');
    const fileId = up.data.file_id as string;
    for (const format of index % OTHER_EVERY === 0 ? (['docx', ...OTHERS] as Format[]) : (['docx'] as Format[])) {
      const out = await convert(name, fileId, format, dir);
      if (!out) continue;
      if (format === 'docx' || format === 'xlsx' || format === 'epub' || format === 'pages') {
        const kept = path.join(keptDir, `${zips.length}.${format}`);
        fs.renameSync(out, kept);
        const zip: ZipOutput = { name, format, path: kept };
        zips.push(zip);
        if (format !== 'docx') continue;
        // The text must survive: pdftotext's words (poppler, not MuPDF) are compared with the document's.
        const passwd = pdfjsPassword(name);
        const source = words((await sh('pdftotext', [...(passwd ? ['-upw', passwd] : []), path.join(pdfjsDir, name), '-'])).stdout);
        if (source.size >= MIN_WORDS) zip.sourceWords = source;
        continue;
      }
      const problem = outputProblem(format, out);
      if (problem) failures.push(`${name} ${format}: ${problem}`);
      count(format, problem ? 'FAILED' : 'ok');
    }
  } catch (e) {
    failures.push(`${name}: ${(e as Error).stack ?? e}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

beforeAll(async () => {
  tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-corpus-pdfto-'));
  keptDir = fs.mkdtempSync(path.join(tmpRoot, 'outputs-'));
  quire = await startQuire({ engineTimeoutMs: 30_000 });
  client = new Client(quire.url);
  // One visitor: the cookie is set before files are uploaded in parallel.
  await client.call('get-task-result?task_id=none');
  expect(client.cookie).not.toBe('');
});

afterAll(async () => {
  await quire?.stop();
  fs.rmSync(tmpRoot, { recursive: true, force: true });
});

describe('pdf.js corpus to documents over HTTP', () => {
  it('gives a valid document or a catalogue refusal for every file', async () => {
    const files = pdfjsFiles();
    expect(files.length).toBeGreaterThan(200);
    const started = Date.now();
    await pool(files, CONCURRENCY, processFile);
    const checked = (await sh('python3', ['-c', ZIP_CHECK], JSON.stringify(zips))).stdout.trim().split('\n');
    expect(checked).toHaveLength(zips.length);
    for (const [i, line] of checked.entries()) {
      const zip = zips[i]!;
      const result = JSON.parse(line) as { ok: boolean; error?: string; text?: string };
      count(zip.format, result.ok ? 'ok' : 'FAILED');
      if (!result.ok) failures.push(`${zip.name} ${zip.format}: ${result.error}`);
      if (result.ok && zip.format === 'docx') docxTexts.set(zip.name, result.text!);
      if (!result.ok || !zip.sourceWords) continue;
      const got = words(result.text!);
      const share = [...zip.sourceWords].filter((w) => got.has(w)).length / zip.sourceWords.size;
      shares.push(share);
      if (share < MIN_WORD_SHARE)
        failures.push(`${zip.name} docx: holds ${Math.round(share * 100)}% of the ${zip.sourceWords.size} words pdftotext finds`);
    }
    shares.sort((a, b) => a - b);
    const summary = [...outcomes].map(([format, m]) => `${format}: ${[...m].map(([k, n]) => `${k} ${n}`).join(', ')}`);
    console.log(
      [
        `${files.length} files in ${Math.round((Date.now() - started) / 1000)} s; slowest ${slowest.what} ${slowest.ms} ms`,
        ...summary,
        `docx word share vs pdftotext over ${shares.length} files with text: min ${shares[0]?.toFixed(2)}, median ${shares[Math.floor(shares.length / 2)]?.toFixed(2)}`,
        ...failures.map((f) => `FAIL ${f}`),
      ].join('\n'),
    );
    expect(failures).toEqual([]);
    // Characters past U+FFFF (mathematical italic here) come through whole, not cut to 16 bits.
    expect(docxTexts.get('bug1997343.pdf')).toMatch(/\u{1D45B}\s+mod\s+\u{1D45D}/u);
    expect(outcomes.get('docx')?.get('ok') ?? 0).toBeGreaterThan(files.length * 0.8);
  });
});
