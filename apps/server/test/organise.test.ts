// The organise tools through the HTTP API against real qpdf, outputs checked with qpdf,
// pdfinfo and pdftotext.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { PDFDocument, PDFName, PDFNumber } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, pageRangeMessages } from '@quire/contracts';
import { quireForTests } from './harness.js';
import { encryptPdf, makeBrandedPdf, makePdf, npages, pageLabels, rotations } from './fixtures.js';

const served = quireForTests('organise');
const { client, dir } = served;
const file = (name: string) => path.join(dir, name);
let a3: string; // "A Page 1..3"
let b5: string; // "B Page 1..5"

beforeAll(async () => {
  await makePdf(file('a.pdf'), 3, 'A');
  await makePdf(file('b.pdf'), 5, 'B');
  await makePdf(file('c.pdf'), 10, 'C');
  encryptPdf(file('c.pdf'), file('c-locked.pdf'), 'open-sesame');
  a3 = await client.uploadId(file('a.pdf'));
  b5 = await client.uploadId(file('b.pdf'));
});

// biome-ignore lint/suspicious/noExplicitAny: qpdf's JSON objects, read in this file only
type Json = any;

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { maxBuffer: 64 * 1024 * 1024 }).toString();

/** Every value in qpdf's JSON (v2) of the file's objects, dictionaries and arrays walked through. */
function* jsonValues(value: Json): Generator<Json> {
  yield value;
  if (value && typeof value === 'object') for (const v of Object.values(value)) yield* jsonValues(v);
}

/** The distinct font programs, ICC profiles and images a PDF holds, as qpdf and poppler find them. */
function sharedParts(file: string) {
  const objects = Object.values(JSON.parse(run('qpdf', ['--json=2', '--json-key=qpdf', file])).qpdf[1] as Record<string, Json>);
  const distinct = (pick: (v: Json) => unknown) => new Set([...jsonValues(objects)].map(pick).filter((x) => x !== undefined)).size;
  const column = (out: string, header: RegExp, col: (cells: string[]) => string) =>
    new Set(
      out
        .split('\n')
        .slice(out.split('\n').findIndex((l) => header.test(l)) + 2)
        .filter(Boolean)
        .map((l) => col(l.trim().split(/\s+/))),
    ).size;
  return {
    fontPrograms: distinct((v) => (v?.['/Type'] === '/FontDescriptor' ? v['/FontFile2'] : undefined)),
    iccProfiles: distinct((v) => (Array.isArray(v) && v[0] === '/ICCBased' ? v[1] : undefined)),
    fonts: column(run('pdffonts', [file]), /^name/, (c) => c.at(-2)!),
    images: column(run('pdfimages', ['-list', file]), /^page/, (c) => c[10]!),
  };
}

describe('merge', () => {
  it('joins files in the order given', async () => {
    const entry = await client.runTool('merge', { file_ids: [b5, a3, b5] }, file('m.pdf'));
    expect(entry.status).toBe(0);
    expect(entry.output_file_name).toBe('b-merged.pdf');
    expect(npages(file('m.pdf'))).toBe(13);
    expect(pageLabels(file('m.pdf'))).toEqual([
      ...[1, 2, 3, 4, 5].map((n) => `B Page ${n}`),
      ...[1, 2, 3].map((n) => `A Page ${n}`),
      ...[1, 2, 3, 4, 5].map((n) => `B Page ${n}`),
    ]);
  });

  it('writes the font, ICC profile and image its inputs share once, every page kept', async () => {
    const inputs = await Promise.all([1, 2, 3, 4].map((i) => makeBrandedPdf(file(`brand${i}.pdf`), 3, `Brand${i}`)));
    const ids = [];
    for (const f of inputs) ids.push(await client.uploadId(f));
    const out = file('brand-merged.pdf');
    expect((await client.runTool('merge', { file_ids: ids }, out)).status).toBe(0);
    // qpdf alone keeps a copy of each per input: the inputs do share them.
    const joined = file('brand-qpdf.pdf');
    run('qpdf', ['--empty', '--pages', ...inputs, '--', joined]);
    expect(sharedParts(joined)).toEqual({ fontPrograms: 4, iccProfiles: 4, fonts: 4, images: 4 });
    expect(sharedParts(out)).toEqual({ fontPrograms: 1, iccProfiles: 1, fonts: 1, images: 1 });
    run('qpdf', ['--check', out]);
    expect(npages(out)).toBe(12);
    for (const [i, input] of inputs.entries()) {
      const range = ['-f', String(3 * i + 1), '-l', String(3 * i + 3)];
      expect(run('pdftotext', [...range, out, '-'])).toBe(run('pdftotext', [input, '-']));
    }
    // One copy of the font (390 KB) and the logo instead of four: about a quarter of qpdf's file.
    expect(fs.statSync(out).size).toBeLessThan(0.3 * fs.statSync(joined).size);
  });

  it("writes the shared font once and keeps the rest of qpdf's text as it was, an empty name included", async () => {
    // An empty name is a valid key, and a writer of its own might run it into the value after it ("/ 1" into "/1").
    const odd = await PDFDocument.load(fs.readFileSync(await makePdf(file('odd.pdf'), 1, 'Odd')));
    odd.getPage(0).node.set(PDFName.of(''), PDFNumber.of(1));
    fs.writeFileSync(file('odd.pdf'), await odd.save());
    const inputs = [
      await makeBrandedPdf(file('brand-a.pdf'), 1, 'BrandA'),
      await makeBrandedPdf(file('brand-b.pdf'), 1, 'BrandB'),
      file('odd.pdf'),
    ];
    const ids = [];
    for (const f of inputs) ids.push(await client.uploadId(f));
    const out = file('odd-merged.pdf');
    expect((await client.runTool('merge', { file_ids: ids }, out)).status).toBe(0);
    // Without a warning: qpdf reads the file exactly as it wrote it.
    expect(() => run('qpdf', ['--check', out])).not.toThrow();
    expect(pageLabels(out)).toEqual(['BrandA Page 1', 'BrandB Page 1', 'Odd Page 1']);
    const objects = JSON.parse(run('qpdf', ['--json=2', '--json-key=qpdf', out])).qpdf[1];
    expect([...jsonValues(objects)].some((v) => v?.['/Type'] === '/Page' && v['/'] === 1)).toBe(true);
    expect(sharedParts(out).fontPrograms).toBe(1);
  });

  it("gives qpdf's own join when the inputs share no stream, every page and its text kept", async () => {
    const c10 = await client.uploadId(file('c.pdf'));
    const out = file('unrelated-merged.pdf');
    expect((await client.runTool('merge', { file_ids: [a3, c10] }, out)).status).toBe(0);
    const joined = file('unrelated-qpdf.pdf');
    run('qpdf', ['--empty', '--pages', file('a.pdf'), file('c.pdf'), '--', joined]);
    // The same objects qpdf writes (its /ID aside, which is of one length).
    expect(fs.statSync(out).size).toBe(fs.statSync(joined).size);
    expect(npages(out)).toBe(13);
    expect(run('pdftotext', ['-f', '1', '-l', '3', out, '-'])).toBe(run('pdftotext', [file('a.pdf'), '-']));
    expect(run('pdftotext', ['-f', '4', '-l', '13', out, '-'])).toBe(run('pdftotext', [file('c.pdf'), '-']));
  });

  it('needs at least two files', async () => {
    const res = await client.post('merge', { file_ids: [a3] });
    expect(res.code).toBe(ErrorCode.InvalidParams);
  });
});

describe('split', () => {
  it('custom ranges give one PDF per range, offered as a zip and one by one', async () => {
    const entry = await client.runTool('split', { file_id: b5, mode: 'custom', ranges: '1-2, 4, 3-5' }, file('split.zip'));
    expect(entry.outputs.map((o) => o.name)).toEqual(['b-1-2.pdf', 'b-4.pdf', 'b-3-5.pdf']);
    const listing = execFileSync('unzip', ['-Z1', file('split.zip')])
      .toString()
      .trim()
      .split('\n');
    expect(listing).toEqual(['b-1-2.pdf', 'b-4.pdf', 'b-3-5.pdf']);
    const res = await client.raw(`/api/tools/v1/document/download-doc?task_id=${entry.task_id}&index=2`);
    fs.writeFileSync(file('part3.pdf'), Buffer.from(await res.arrayBuffer()));
    expect(pageLabels(file('part3.pdf'))).toEqual(['B Page 3', 'B Page 4', 'B Page 5']);
  });

  it('fixed ranges cut every n pages, the last part shorter', async () => {
    const entry = await client.runTool('split', { file_id: b5, mode: 'fixed', every: 2 }, file('fixed.zip'));
    expect(entry.outputs).toHaveLength(3);
    execFileSync('unzip', ['-o', '-q', file('fixed.zip'), '-d', file('fixed')]);
    const counts = entry.outputs.map((o) => npages(path.join(file('fixed'), o.name)));
    expect(counts).toEqual([2, 2, 1]);
  });

  it('refuses ranges outside the document with the spec message', async () => {
    const res = await client.post('split', { file_id: b5, mode: 'custom', ranges: '4-9' });
    expect(res).toMatchObject({ code: ErrorCode.InvalidParams, msg: pageRangeMessages.invalid });
  });
});

describe('extract, delete, rearrange, rotate', () => {
  it('extracts the pages named, in order', async () => {
    await client.runTool('extract_page', { file_id: b5, pages: '2, 4-5' }, file('x.pdf'));
    expect(pageLabels(file('x.pdf'))).toEqual(['B Page 2', 'B Page 4', 'B Page 5']);
  });

  it('deletes the pages named and keeps the rest', async () => {
    await client.runTool('delete_page', { file_id: b5, pages: '1, 3-4' }, file('d.pdf'));
    expect(pageLabels(file('d.pdf'))).toEqual(['B Page 2', 'B Page 5']);
  });

  it('will not delete every page', async () => {
    const res = await client.post('delete_page', { file_id: a3, pages: '1-3' });
    expect(res.code).toBe(ErrorCode.InvalidParams);
  });

  it('rearranges to a new order', async () => {
    await client.runTool('rearrange', { file_id: b5, order: [5, 3, 1, 2, 4] }, file('r.pdf'));
    expect(pageLabels(file('r.pdf'))).toEqual([5, 3, 1, 2, 4].map((n) => `B Page ${n}`));
  });

  it('rejects an order naming a page the document lacks', async () => {
    const res = await client.post('rearrange', { file_id: a3, order: [1, 4] });
    expect(res.code).toBe(ErrorCode.InvalidParams);
  });

  it('rotates all pages', async () => {
    await client.runTool('document/rotate', { file_id: a3, angle: 270, pages: 'all' }, file('rot.pdf'));
    expect(rotations(file('rot.pdf'))).toEqual([270, 270, 270]);
  });

  it('rotates a custom range only', async () => {
    await client.runTool('document/rotate', { file_id: b5, angle: 90, pages: '1, 3-4' }, file('rot2.pdf'));
    expect(rotations(file('rot2.pdf'))).toEqual([90, 0, 90, 90, 0]);
    expect(pageLabels(file('rot2.pdf'))).toEqual([1, 2, 3, 4, 5].map((n) => `B Page ${n}`));
  });

  it('gives the spec message for a malformed range', async () => {
    const res = await client.post('document/rotate', { file_id: b5, angle: 90, pages: 'one to three' });
    expect(res).toMatchObject({ code: ErrorCode.InvalidParams, msg: pageRangeMessages.format });
  });

  it('refuses angles other than 90, 180 and 270', async () => {
    const res = await client.post('document/rotate', { file_id: b5, angle: 45, pages: 'all' });
    expect(res.code).toBe(ErrorCode.InvalidParams);
  });
});

describe('encrypted input', () => {
  let locked: string;
  beforeAll(async () => {
    const up = await client.upload(file('c-locked.pdf'));
    expect(up.code).toBe(0);
    expect(up.data.encrypted).toBe(true);
    locked = up.data.file_id;
  });

  it('document/info asks for the password (3122) and tells a wrong one (3123)', async () => {
    expect((await client.call(`document/info?file_id=${locked}`)).code).toBe(ErrorCode.Encrypted);
    expect((await client.call(`document/info?file_id=${locked}&passwd=wrong`)).code).toBe(ErrorCode.WrongPassword);
    const ok = await client.call(`document/info?file_id=${locked}&passwd=open-sesame`);
    expect(ok).toMatchObject({ code: 0, data: { total_page: 10 } });
  });

  it('a tool call without the password gets 3122, with it the tool runs', async () => {
    expect((await client.post('split', { file_id: locked, mode: 'custom', ranges: '1-2' })).code).toBe(ErrorCode.Encrypted);
    const entry = await client.runTool(
      'split',
      { file_id: locked, passwd: 'open-sesame', mode: 'custom', ranges: '9-10' },
      file('unlocked.pdf'),
    );
    expect(entry.status).toBe(0);
    expect(pageLabels(file('unlocked.pdf'))).toEqual(['C Page 9', 'C Page 10']);
  });

  it('merges a locked file with its password given by position', async () => {
    await client.runTool('merge', { file_ids: [a3, locked], passwds: ['', 'open-sesame'] }, file('ml.pdf'));
    expect(npages(file('ml.pdf'))).toBe(13);
  });
});

describe('bad input', () => {
  it('refuses a file that is not a PDF', async () => {
    fs.writeFileSync(file('note.pdf'), 'just some text, not a PDF at all');
    expect((await client.upload(file('note.pdf'))).code).toBe(ErrorCode.NotPdf);
  });

  it('refuses a damaged PDF and keeps nothing of it', async () => {
    fs.writeFileSync(file('broken.pdf'), '%PDF-1.7\n1 0 obj <<>> garbage without pages\n%%EOF');
    expect((await client.upload(file('broken.pdf'))).code).toBe(ErrorCode.Damaged);
    const stored = fs.readdirSync(path.join(served.quire.ctx.config.dataDir, 'storage', 'files'));
    const rows = await served.quire.ctx.db.selectFrom('files').select('id').execute();
    expect(stored).toHaveLength(rows.length);
  });

  it('a file damaged after upload fails its task with 3124 and leaves no output', async () => {
    const id = await client.uploadId(file('a.pdf'));
    const row = await served.quire.ctx.db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    fs.writeFileSync(await served.quire.ctx.storage.localPath(row.storage_key), '%PDF-1.4\nthis is no longer a PDF');
    const created = await client.post('document/rotate', { file_id: id, angle: 90, pages: 'all' });
    const entry = await client.waitTask(created.data.task_id);
    expect(entry).toMatchObject({ status: ErrorCode.Damaged, is_done: true });
    expect(fs.existsSync(path.join(served.quire.ctx.config.dataDir, 'storage', 'outputs', entry.task_id))).toBe(false);
    expect((await client.raw(`/api/tools/v1/document/download-doc?task_id=${entry.task_id}`)).status).toBe(404);
  });
});
