// Robustness of the conversions to PDF against real-world files: every file of the office and
// images corpora goes through its conversion over the HTTP API of one running Quire (documents
// through GET converter, images through images_merge_pdf and the converter), with the passwords
// of the encrypted ones too. Each must give a PDF that independent tools accept (qpdf --check,
// pdfinfo pages >= 1) or a catalogue code, in time, and never a server error, a crash or a hang.
// Files expected to convert must convert; the summary per format is printed at the end.
//
// Run with: npx vitest run --project corpus apps/server/test/corpus-office.test.ts
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@quire/contracts';
import { Client, fileForm, startQuire, type Answer, type Running } from './harness.js';
import { POLL_MS, corpusRoot, pool, readPasswords, readTsv, sh } from './corpusSupport.js';

/** Files in flight at once: one per LibreOffice listener. */
const CONCURRENCY = 2;
const TASK_DEADLINE_MS = 120_000;

const manifest = new Map(
  readTsv('office-images-manifest.tsv').map(([file, , kind, , , note]) => [file!, { kind: kind!, note: note ?? '' }]),
);
const passwords = readPasswords('office-images-passwords.tsv');

/**
 * Files that cannot give a PDF here, besides those damaged on purpose (the manifest's "broken:") and
 * the formats Quire does not take (WebP, HEIC): variants the engines of Debian 12 cannot read (the
 * manifest says so for the two office files), and a bomb. Every other file must convert.
 */
const expectedRefusals: Record<string, string> = {
  'office/image.rtf': 'LibreOffice 7.4 cannot open its picture (manifest)',
  'office/pictures.ppt': 'LibreOffice 7.4 cannot open it (manifest)',
  'images/testimgl.jpg': 'lossless JPEG (SOF3): MuPDF does not decode it',
  'images/multipage.tiff': '1-bit palette TIFF pages: MuPDF 1.21 does not decode them',
  'images/decompression_bomb.gif': 'declares a 65535 x 66601 frame: refused before decoding',
};
const isExpectedRefusal = (file: string) =>
  file in expectedRefusals || manifest.get(file)?.note.startsWith('broken:') || /\.(webp|heic|heif)$/.test(file);

/** Codes each step may answer with, besides success. */
// 3105 for a damaged image or office container, found at upload.
const UPLOAD_REFUSALS = new Set<number>([ErrorCode.UnsupportedType, ErrorCode.TooLarge, ErrorCode.Unreadable]);
// 3122 for a locked file the upload found locked (the checks below allow it only for those with passwords).
const CALL_REFUSALS = new Set<number>([ErrorCode.UnsupportedType, ErrorCode.WrongType, ErrorCode.TooLarge, ErrorCode.Encrypted]);
const TASK_REFUSALS = new Set<number>([ErrorCode.Unreadable, ErrorCode.Encrypted, ErrorCode.WrongPassword, ErrorCode.TaskFailed]);

/** What independent tools say of an output: null when it is a sound PDF with pages. */
async function outputProblem(pdf: string): Promise<string | null> {
  const check = await sh('qpdf', ['--check', pdf]);
  if (check.code !== 0 && check.code !== 3)
    return `qpdf --check exit ${check.code}: ${(check.stderr || check.stdout).trim().split('\n').pop()}`;
  const info = await sh('pdfinfo', [pdf]);
  const pages = Number(/^Pages:\s+(\d+)/m.exec(info.stdout)?.[1] ?? 0);
  return info.code === 0 && pages >= 1 ? null : `pdfinfo exit ${info.code}, ${pages} pages`;
}

type Outcome = 'ok' | number;
interface Run {
  file: string;
  format: string;
  how: string;
  outcome: Outcome;
  ms: number;
}

let quire: Running;
let client: Client;
let tmp: string;
const runs: Run[] = [];
const problems: string[] = [];

/** Queues a conversion, follows it, checks what comes out; the outcome, problems noted. */
async function convertOnce(file: string, how: string, queue: () => Promise<Answer>): Promise<Outcome> {
  const created = await queue();
  if (!created.body || created.status >= 500) {
    problems.push(`${file} ${how}: HTTP ${created.status} without a catalogue answer`);
    return -1;
  }
  if (created.body.code !== 0) {
    if (!CALL_REFUSALS.has(created.body.code)) problems.push(`${file} ${how}: call refused with ${created.body.code} ${created.body.msg}`);
    return created.body.code;
  }
  const entry = await client.waitTask(created.body.data.task_id as string, TASK_DEADLINE_MS, POLL_MS);
  if (entry.status !== 0) {
    if (!TASK_REFUSALS.has(entry.status)) problems.push(`${file} ${how}: task failed with ${entry.status} ${entry.msg}`);
    if (entry.outputs.length) problems.push(`${file} ${how}: a failed task kept outputs`);
    return entry.status;
  }
  const out = path.join(tmp, `${path.basename(file)}.${how}.pdf`);
  await client.download(entry.task_id, out);
  const problem = await outputProblem(out);
  fs.rmSync(out, { force: true });
  if (problem) {
    problems.push(`${file} ${how}: output ${problem}`);
    return -1;
  }
  return 'ok';
}

async function runFile(file: string) {
  const local = path.join(corpusRoot, file);
  const format = manifest.get(file)?.kind ?? path.extname(file).slice(1);
  const record = async (how: string, queue: () => Promise<Answer>) => {
    const started = Date.now();
    const outcome = await convertOnce(file, how, queue);
    runs.push({ file, format, how, outcome, ms: Date.now() - started });
  };
  const up = await client.answer('file/stream', { method: 'POST', body: fileForm(local) });
  if (!up.body || up.status >= 500) {
    problems.push(`${file}: upload answered HTTP ${up.status} without a catalogue answer`);
    return;
  }
  if (up.body.code !== 0) {
    if (!UPLOAD_REFUSALS.has(up.body.code)) problems.push(`${file}: upload refused with ${up.body.code} ${up.body.msg}`);
    runs.push({ file, format, how: 'upload', outcome: up.body.code, ms: 0 });
    return;
  }
  const id = up.body.data.file_id as string;
  await record('converter', () => client.answer(`converter?file_id=${id}&output_format=pdf`));
  const password = passwords.get(file);
  if (password) await record('converter+password', () => client.answer(`converter?file_id=${id}&passwd=${encodeURIComponent(password)}`));
  if (file.startsWith('images/')) {
    await record('images_merge_pdf', () =>
      client.answer('images_merge_pdf', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ file_ids: [id], margin: 'small' }),
      }),
    );
  }
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-corpus-office-'));
  quire = await startQuire({ officeListeners: CONCURRENCY, workerConcurrency: CONCURRENCY, engineTimeoutMs: 60_000 });
  client = new Client(quire.url);
  // One visitor for every request: the cookie is taken before requests run side by side.
  await client.answer('config');
});

afterAll(async () => {
  await quire?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('office and image corpus through the conversions to PDF', () => {
  it('gives a sound PDF or a catalogue code for every file, in time', async () => {
    const files = ['office', 'images'].flatMap((d) => fs.readdirSync(path.join(corpusRoot, d)).map((f) => `${d}/${f}`)).sort();
    expect(files.length).toBeGreaterThan(70);
    const started = Date.now();
    await pool(files, CONCURRENCY, async (file) => {
      try {
        await runFile(file);
      } catch (e) {
        problems.push(`${file}: ${(e as Error).message}`);
      }
    });
    const elapsed = Date.now() - started;

    // The summary per format: how many conversions gave a PDF, and the codes of the others.
    const byFormat = new Map<string, { ok: number; refused: Record<string, number> }>();
    for (const r of runs) {
      const row = byFormat.get(r.format) ?? { ok: 0, refused: {} };
      if (r.outcome === 'ok') row.ok++;
      else row.refused[String(r.outcome)] = (row.refused[String(r.outcome)] ?? 0) + 1;
      byFormat.set(r.format, row);
    }
    const lines = [...byFormat].sort().map(
      ([f, r]) =>
        `  ${f.padEnd(8)} ${String(r.ok).padStart(3)} ok  ${Object.entries(r.refused)
          .map(([c, n]) => `${n}x${c}`)
          .join(' ')}`,
    );
    const slowest = [...runs].sort((a, b) => b.ms - a.ms)[0];
    console.log(
      `office/images corpus: ${files.length} files, ${runs.length} conversions in ${(elapsed / 1000).toFixed(1)} s (slowest ${slowest?.file} ${slowest?.how} ${slowest?.ms} ms)\n${lines.join('\n')}`,
    );

    expect(problems).toEqual([]);
    // Every file expected to convert did, in each way it was tried (a password-protected file: with its password).
    const missed = runs.filter(
      (r) =>
        r.outcome !== 'ok' &&
        !isExpectedRefusal(r.file) &&
        !(passwords.has(r.file) && r.how === 'converter' && r.outcome === ErrorCode.Encrypted),
    );
    expect(missed.map((r) => `${r.file} ${r.how}: ${r.outcome}`)).toEqual([]);
    // And each expected refusal was one.
    const converted = runs.filter((r) => r.outcome === 'ok' && r.file in expectedRefusals);
    expect(converted.map((r) => `${r.file} ${r.how}`)).toEqual([]);
  });
});
