// The document cloud through its HTTP API (/api/cloud/v1/), as signed-in accounts use it: folders,
// names and their conflicts, stars, recent files, capacity (a limits file makes the free plan's
// tiny and the AI plan's 100 GB), the free space received and the offers, racing adds, adding uploads
// and task outputs, cloud files as a real tool's input, downloads, zips and thumbnails checked with
// unzip, qpdf and identify, the sweeper, the operator's list, and the deletion of an account.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOUD_NAME_MAX, ErrorCode, MB } from '@quire/contracts';
import { Client, quireForTests, signedIn, type Envelope } from './harness.js';
import { encryptPdf, makePdf, npages } from './fixtures.js';
import { sweep } from '../src/services/sweeper.js';

/** The free plan's cloud: about 100 kB, so its edge is met with small files. */
const FREE_CLOUD_GB = 100_000 / (1024 * MB);
const limitsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-cloud-limits-'));
const limitsFile = path.join(limitsDir, 'limits.json');
fs.writeFileSync(limitsFile, JSON.stringify({ free: { cloudGb: FREE_CLOUD_GB }, ai: { cloudGb: 100 } }));
afterAll(() => fs.rmSync(limitsDir, { recursive: true, force: true }));
const served = quireForTests('cloud', { limitsFile });
const PASSWORD = 'cloud-password-1';
const GB = 1024 * MB;

let ada: Client;
let bob: Client;
let pdf: string;

/** A cloud call's envelope (JSON body for POST and PUT, query in the path for GET). */
async function cloud(client: Client, pathname: string, body?: unknown, method = body === undefined ? 'GET' : 'POST'): Promise<Envelope> {
  const res = await client.raw(`/api/cloud/v1/${pathname}`, {
    method,
    ...(body !== undefined && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return (await res.json()) as Envelope;
}

/** Uploads a file as a tool file, then moves it into the cloud. */
async function addFile(client: Client, file: string, place: object = {}, name = path.basename(file)): Promise<Envelope> {
  const upload = await client.upload(file, name);
  expect(upload.code, upload.msg).toBe(0);
  return cloud(client, 'file/create', { upload_file_id: upload.data.file_id, ...place }, 'PUT');
}

function textFile(name: string, bytes: number): string {
  const file = path.join(served.dir, name);
  fs.writeFileSync(file, Buffer.alloc(bytes, 'a'));
  return file;
}

/** The bytes of a download, and the answer's content type. */
async function fetchBytes(client: Client, pathname: string, init?: RequestInit) {
  const res = await client.raw(pathname, init);
  return { status: res.status, type: res.headers.get('content-type') ?? '', bytes: Buffer.from(await res.arrayBuffer()) };
}

/** The account id of a signed-in client, from its user info. */
async function accountIdOf(client: Client): Promise<string> {
  const me = (await client.raw('/api/account/v1/me').then((r) => r.json())) as Envelope;
  return me.data.user_id;
}

/** The folder of an account's cloud bytes in storage. */
const cloudDirOf = async (client: Client) => path.join(served.quire.ctx.config.dataDir, 'storage', 'cloud', await accountIdOf(client));

const storedCloudFiles = (accountDir: string) =>
  fs.existsSync(accountDir) ? fs.readdirSync(accountDir).filter((f) => f !== 'thumbnails') : [];

beforeAll(async () => {
  ada = await signedIn(served.quire.url, served.quire.ctx, 'ada@example.org', 'premium', PASSWORD);
  bob = await signedIn(served.quire.url, served.quire.ctx, 'bob@example.org', 'premium', PASSWORD);
  pdf = await makePdf(path.join(served.dir, 'report.pdf'), 3, 'Report');
}, 60_000);

describe('who may call', () => {
  it('refuses every cloud call of a visitor with 3001, and takes an API key', async () => {
    const doc = await (await fetch(`${served.quire.url}/api/docs`)).json();
    const cloudPaths = Object.entries(doc.paths as Record<string, Record<string, unknown>>).filter(([p]) => p.startsWith('/api/cloud/v1/'));
    expect(cloudPaths.length).toBe(21);
    const visitor = new Client(served.quire.url);
    for (const [p, ops] of cloudPaths)
      for (const method of Object.keys(ops)) {
        const res = await visitor.raw(p, { method: method.toUpperCase() });
        expect(((await res.json()) as Envelope).code, `${method} ${p}`).toBe(ErrorCode.NotLogin);
      }
    const key = (await ada
      .raw('/api/account/v1/api-keys', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'cloud' }),
      })
      .then((r) => r.json())) as Envelope;
    const byKey = await fetch(`${served.quire.url}/api/cloud/v1/capacity`, { headers: { authorization: `Bearer ${key.data.key}` } });
    expect(((await byKey.json()) as Envelope).data).toEqual({ already_capacity: 0, total_capacity: 10 * GB, offer: 'purchase' });
  });
});

describe('folders', () => {
  it('makes, lists, renames and nests folders, with the name rules', async () => {
    const refusals: [unknown, string][] = [
      ['   ', 'Please enter name'],
      ['x'.repeat(CLOUD_NAME_MAX + 1), `The name can be at most ${CLOUD_NAME_MAX} characters.`],
      ['a/b', 'The name cannot contain / or \\.'],
    ];
    for (const [name, msg] of refusals)
      expect(await cloud(ada, 'directory/create', { name })).toMatchObject({ code: ErrorCode.InvalidParams, msg });
    expect((await cloud(ada, 'directory/create', { name: 'x'.repeat(CLOUD_NAME_MAX) })).code).toBe(0);

    const work = (await cloud(ada, 'directory/create', { name: 'Work' })).data;
    expect(work).toMatchObject({ name: 'Work', parent_id: null });
    expect(await cloud(ada, 'directory/create', { name: 'WORK' })).toMatchObject({
      code: ErrorCode.FolderExists,
      msg: 'The folder already exists',
    });
    const reports = (await cloud(ada, 'directory/create', { name: 'Reports', parent_id: work.folder_id })).data;
    expect(reports.parent_id).toBe(work.folder_id);
    // The same name under another parent is fine.
    expect((await cloud(ada, 'directory/create', { name: 'Reports' })).code).toBe(0);
    expect((await cloud(ada, 'directory/rename', { folder_id: reports.folder_id, name: '' })).msg).toBe('Please enter name');
    const renamed = await cloud(ada, 'directory/rename', { folder_id: reports.folder_id, name: 'Annual reports' });
    expect(renamed.data).toMatchObject({ folder_id: reports.folder_id, name: 'Annual reports' });
    await cloud(ada, 'directory/create', { name: 'Drafts', parent_id: work.folder_id });
    expect((await cloud(ada, 'directory/rename', { folder_id: reports.folder_id, name: 'drafts' })).code).toBe(ErrorCode.CloudNameExists);

    const tree = (await cloud(ada, 'directory/list')).data.folders as { name: string }[];
    expect(tree.map((f) => f.name).sort()).toEqual(['Annual reports', 'Drafts', 'Reports', 'Work', 'x'.repeat(CLOUD_NAME_MAX)].sort());
    const listing = (await cloud(ada, 'list', { folder_id: reports.folder_id })).data;
    expect(listing.path).toEqual([
      { folder_id: work.folder_id, name: 'Work' },
      { folder_id: reports.folder_id, name: 'Annual reports' },
    ]);
    const top = (await cloud(ada, 'list', { sort: 'name', order: 'asc' })).data;
    expect(top.folders.map((f: { name: string }) => f.name)).toEqual(['Reports', 'Work', 'x'.repeat(CLOUD_NAME_MAX)]);
    expect(top.path).toEqual([]);
  });
});

describe('files', () => {
  it('moves an upload into the cloud: the tool file is used up, its bytes are the cloud file', async () => {
    const upload = await ada.upload(pdf);
    const added = await cloud(ada, 'file/create', { upload_file_id: upload.data.file_id }, 'PUT');
    expect(added.data).toMatchObject({
      name: 'report.pdf',
      folder_id: null,
      size: fs.statSync(pdf).size,
      total_page: 3,
      encrypted: false,
      starred: false,
    });
    // Added is used: the recent list has it from now on.
    expect(added.data.opened_at).toBe(added.data.updated_at);
    expect((await ada.call(`file/download?file_id=${upload.data.file_id}`)).code).toBe(ErrorCode.NoData);
    const got = await fetchBytes(ada, `/api/cloud/v1/file/download?file_id=${added.data.file_id}`);
    expect(got.type).toBe('application/pdf');
    expect(got.bytes.equals(fs.readFileSync(pdf))).toBe(true);
    // Another account's upload is not the caller's to take.
    const bobs = await bob.upload(pdf);
    expect((await cloud(ada, 'file/create', { upload_file_id: bobs.data.file_id }, 'PUT')).code).toBe(ErrorCode.NoData);
    expect((await fetchBytes(bob, `/api/tools/v1/file/download?file_id=${bobs.data.file_id}`)).status).toBe(200);
  });

  it('asks, replaces or numbers a name the folder holds in any case', async () => {
    const folder = (await cloud(ada, 'directory/create', { name: 'Conflicts' })).data.folder_id;
    const first = (await addFile(ada, pdf, { folder_id: folder }, 'Plan.pdf')).data;
    const two = await makePdf(path.join(served.dir, 'two.pdf'), 2, 'Two');
    const asked = await addFile(ada, two, { folder_id: folder }, 'PLAN.pdf');
    expect(asked).toMatchObject({ code: ErrorCode.CloudNameExists, msg: 'The name already exists.' });
    const replaced = (await addFile(ada, two, { folder_id: folder, on_conflict: 'replace' }, 'plan.PDF')).data;
    expect(replaced).toMatchObject({ file_id: first.file_id, name: 'Plan.pdf', total_page: 2, size: fs.statSync(two).size });
    const download = await fetchBytes(ada, `/api/cloud/v1/file/download?file_id=${first.file_id}`);
    expect(download.bytes.equals(fs.readFileSync(two))).toBe(true);
    const renamed: string[] = [];
    for (const _ of [1, 2]) renamed.push((await addFile(ada, pdf, { folder_id: folder, on_conflict: 'rename' }, 'plan.pdf')).data.name);
    expect(renamed).toEqual(['plan (1).pdf', 'plan (2).pdf']);
    // Two requests racing for one name: one gets it, the other the refusal it would get after.
    const racing = await Promise.all([1, 2].map(() => addFile(ada, pdf, { folder_id: folder }, 'race.pdf')));
    expect(racing.map((r) => r.code).sort()).toEqual([0, ErrorCode.CloudNameExists]);
    const folders = await Promise.all([1, 2].map(() => cloud(ada, 'directory/create', { name: 'Race', parent_id: folder })));
    expect(folders.map((r) => r.code).sort()).toEqual([0, ErrorCode.FolderExists]);
    await cloud(ada, 'multi/delete', { file_ids: [racing.find((r) => r.code === 0)!.data.file_id] });
    const named = await addFile(ada, pdf, { folder_id: folder, name: 'Chosen name.pdf' });
    expect(named.data.name).toBe('Chosen name.pdf');
    expect((await addFile(ada, pdf, { folder_id: folder, name: '' })).msg).toBe('Please enter name');

    const listed = (await cloud(ada, 'list', { folder_id: folder, sort: 'name', order: 'asc' })).data;
    expect(listed.files.map((f: { name: string }) => f.name)).toEqual(['Chosen name.pdf', 'plan (1).pdf', 'plan (2).pdf', 'Plan.pdf']);
    const bySize = (await cloud(ada, 'list', { folder_id: folder, sort: 'size', order: 'asc' })).data.files;
    expect(bySize[0].name).toBe('Plan.pdf');
    // Search looks through the whole cloud, any case; % and _ are plain characters in it.
    const found = (await cloud(ada, 'list', { search: 'PLAN (' })).data;
    expect(found.files.map((f: { name: string }) => f.name).sort()).toEqual(['plan (1).pdf', 'plan (2).pdf']);
    expect((await cloud(ada, 'list', { search: '%' })).data.files).toEqual([]);
    expect((await cloud(ada, 'list', { search: 'conflicts' })).data.folders.map((f: { name: string }) => f.name)).toEqual(['Conflicts']);
  });

  it('renames, stars and moves files and folders, refusing a name taken and a folder moved into itself', async () => {
    const a = (await cloud(ada, 'directory/create', { name: 'Move A' })).data;
    const inner = (await cloud(ada, 'directory/create', { name: 'Inner', parent_id: a.folder_id })).data;
    const b = (await cloud(ada, 'directory/create', { name: 'Move B' })).data;
    const one = (await addFile(ada, pdf, { folder_id: a.folder_id }, 'one.pdf')).data;
    const other = (await addFile(ada, pdf, { folder_id: b.folder_id }, 'ONE.pdf')).data;

    expect((await cloud(ada, 'file/rename', { file_id: one.file_id, name: '' })).msg).toBe('Please enter name');
    const renamed = await cloud(ada, 'file/rename', { file_id: one.file_id, name: 'First.pdf' });
    expect(renamed.data).toMatchObject({ file_id: one.file_id, name: 'First.pdf' });
    expect(renamed.data.updated_at).toBeGreaterThanOrEqual(one.updated_at);
    expect((await cloud(ada, 'file/rename', { file_id: other.file_id, name: 'One.pdf' })).code).toBe(0);

    expect((await cloud(ada, 'star/mark', { file_id: one.file_id })).code).toBe(0);
    const starred = (await cloud(ada, 'star/list')).data.files;
    expect(starred.map((f: { file_id: string; starred: boolean }) => [f.file_id, f.starred])).toEqual([[one.file_id, true]]);
    expect((await cloud(ada, 'star/unmark', { file_id: one.file_id })).code).toBe(0);
    expect((await cloud(ada, 'star/list')).data.files).toEqual([]);

    await cloud(ada, 'file/rename', { file_id: one.file_id, name: 'one.pdf' });
    expect(await cloud(ada, 'multi/move', { file_ids: [one.file_id], to_folder_id: b.folder_id })).toMatchObject({
      code: ErrorCode.CloudNameExists,
    });
    expect(await cloud(ada, 'multi/move', { folder_ids: [a.folder_id], to_folder_id: inner.folder_id })).toMatchObject({
      code: ErrorCode.InvalidParams,
      msg: 'A folder cannot be moved into itself or a folder inside it.',
    });
    expect(
      (await cloud(ada, 'multi/move', { folder_ids: [b.folder_id], file_ids: [one.file_id], to_folder_id: inner.folder_id })).code,
    ).toBe(0);
    const moved = (await cloud(ada, 'list', { folder_id: inner.folder_id })).data;
    expect(moved.folders.map((f: { name: string }) => f.name)).toEqual(['Move B']);
    expect(moved.files.map((f: { name: string; folder_id: string }) => [f.name, f.folder_id])).toEqual([['one.pdf', inner.folder_id]]);
    expect((await cloud(ada, 'multi/move', { file_ids: [one.file_id] })).code).toBe(0);
    expect((await cloud(ada, 'list', {})).data.files.some((f: { file_id: string }) => f.file_id === one.file_id)).toBe(true);
  });
});

describe('recent files and downloads', () => {
  it('lists files as they are added and opened, newest first, and removes them from the list only', async () => {
    const first = (await addFile(ada, pdf, {}, 'recent-1.pdf')).data;
    await new Promise((r) => setTimeout(r, 5));
    const second = (await addFile(ada, pdf, {}, 'recent-2.pdf')).data;
    // Added is used: both head the list at once, the last added first.
    const added = (await cloud(ada, 'recent/list')).data.files.map((f: { file_id: string }) => f.file_id);
    expect(added.slice(0, 2)).toEqual([second.file_id, first.file_id]);
    await new Promise((r) => setTimeout(r, 5));
    await ada.raw(`/api/cloud/v1/file/download?file_id=${first.file_id}`);
    expect((await cloud(ada, 'recent/list')).data.files[0].file_id).toBe(first.file_id);
    await new Promise((r) => setTimeout(r, 5));
    await cloud(ada, 'file/use', { file_id: second.file_id });
    const recent = (await cloud(ada, 'recent/list')).data.files as { file_id: string; opened_at: number }[];
    expect(recent.slice(0, 2).map((f) => f.file_id)).toEqual([second.file_id, first.file_id]);
    expect(recent[0]!.opened_at).toBeGreaterThan(recent[1]!.opened_at);
    expect((await cloud(ada, 'recent/delete', { file_ids: [second.file_id] })).code).toBe(0);
    expect((await cloud(ada, 'recent/list')).data.files.map((f: { file_id: string }) => f.file_id)).not.toContain(second.file_id);
    expect((await fetchBytes(ada, `/api/cloud/v1/file/download?file_id=${second.file_id}`)).status).toBe(200);
    expect((await cloud(ada, 'recent/list')).data.files[0].file_id).toBe(second.file_id);
    // Part of a file, as the preview's pdf.js asks for it: the file counts as opened.
    const part = await fetchBytes(ada, `/api/cloud/v1/file/download?file_id=${first.file_id}`, { headers: { range: 'bytes=0-7' } });
    expect([part.status, part.bytes.toString('latin1')]).toEqual([206, '%PDF-1.7']);
    expect((await cloud(ada, 'recent/list')).data.files[0].file_id).toBe(first.file_id);
  });

  it('zips files and folders with their folders kept', async () => {
    const top = (await cloud(ada, 'directory/create', { name: 'Zip me' })).data.folder_id;
    const sub = (await cloud(ada, 'directory/create', { name: 'Sub', parent_id: top })).data.folder_id;
    await cloud(ada, 'directory/create', { name: 'Empty', parent_id: sub });
    // A folder named '..' cannot be made (it once could, and the zip named it 'document/').
    expect((await cloud(ada, 'directory/create', { name: '..' })).code).toBe(ErrorCode.InvalidParams);
    await addFile(ada, pdf, { folder_id: top }, 'a.pdf');
    await addFile(ada, textFile('notes.txt', 1234), { folder_id: sub });
    const loose = (await addFile(ada, pdf, {}, 'loose.pdf')).data.file_id;

    const zip = await fetchBytes(ada, '/api/cloud/v1/multi-download', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ file_ids: [loose], folder_ids: [top] }),
    });
    expect(zip.type).toBe('application/zip');
    const zipFile = path.join(served.dir, 'cloud.zip');
    fs.writeFileSync(zipFile, zip.bytes);
    const entries = execFileSync('unzip', ['-Z1', zipFile]).toString().trim().split('\n').sort();
    expect(entries).toEqual(['loose.pdf', 'Zip me/', 'Zip me/a.pdf', 'Zip me/Sub/', 'Zip me/Sub/notes.txt', 'Zip me/Sub/Empty/'].sort());
    expect(execFileSync('unzip', ['-p', zipFile, 'Zip me/Sub/notes.txt']).length).toBe(1234);
    expect(execFileSync('unzip', ['-p', zipFile, 'Zip me/a.pdf']).equals(fs.readFileSync(pdf))).toBe(true);
    expect((await cloud(ada, 'multi-download', { file_ids: ['nope'] })).code).toBe(ErrorCode.NoData);
  });

  it('draws a PDF first page as a small PNG once, and answers 3103 for another type, 3122 for an encrypted PDF', async () => {
    const wide = await makePdf(path.join(served.dir, 'wide.pdf'), 1, 'Wide', [842, 595]);
    const file = (await addFile(ada, wide)).data.file_id;
    const thumb = await fetchBytes(ada, `/api/cloud/v1/file/thumbnail?file_id=${file}`);
    expect(thumb.type).toBe('image/png');
    const png = path.join(served.dir, 'thumb.png');
    fs.writeFileSync(png, thumb.bytes);
    // A landscape A4 page: its longer side 320 pixels, the other in proportion (226.1, rounded either way).
    const [format, width, height] = execFileSync('identify', ['-format', '%m %w %h', png]).toString().split(' ');
    expect([format, Number(width), Math.abs(Number(height) - 226)]).toEqual(['PNG', 320, expect.any(Number)]);
    expect(Math.abs(Number(height) - (320 * 595) / 842)).toBeLessThan(1);
    expect(fs.readdirSync(path.join(await cloudDirOf(ada), 'thumbnails'))).toContain(`${file}.png`);
    expect((await fetchBytes(ada, `/api/cloud/v1/file/thumbnail?file_id=${file}`)).bytes.equals(thumb.bytes)).toBe(true);
    const text = (await addFile(ada, textFile('thumb.txt', 10))).data.file_id;
    expect((await cloud(ada, `file/thumbnail?file_id=${text}`)).code).toBe(ErrorCode.NotPdf);
    const locked = (await addFile(ada, encryptPdf(pdf, path.join(served.dir, 'locked.pdf'), 'secret-1'))).data;
    expect(locked).toMatchObject({ encrypted: true, total_page: 0 });
    expect((await cloud(ada, `file/thumbnail?file_id=${locked.file_id}`)).code).toBe(ErrorCode.Encrypted);
  });
});

describe('cloud files and tools', () => {
  it('gives a tool file of a cloud file that a real compress task takes', async () => {
    const file = (await addFile(ada, pdf, {}, 'to-compress.pdf')).data.file_id;
    const used = await cloud(ada, 'file/use', { file_id: file });
    expect(used.data).toMatchObject({ file_name: 'to-compress.pdf', total_page: 3, file_size: fs.statSync(pdf).size });
    const out = path.join(served.dir, 'compressed.pdf');
    const entry = await ada.runTool('compress', { file_id: used.data.file_id, level: 'medium' }, out);
    expect(entry.status).toBe(0);
    execFileSync('qpdf', ['--check', out]);
    expect(npages(out)).toBe(3);
    expect(execFileSync('pdftotext', [out, '-']).toString()).toContain('Report Page 3');
    // The cloud file stays as it was.
    expect((await fetchBytes(ada, `/api/cloud/v1/file/download?file_id=${file}`)).bytes.equals(fs.readFileSync(pdf))).toBe(true);
  });

  it("saves a task's output into the cloud, only the caller's task", async () => {
    const id = await ada.uploadId(pdf);
    const created = await ada.post('document/rotate', { file_id: id, angle: 90, pages: 'all' });
    const entry = await ada.waitTask(created.data.task_id);
    expect(entry.status).toBe(0);
    const folder = (await cloud(ada, 'directory/create', { name: 'Results' })).data.folder_id;
    const saved = await cloud(ada, 'task-result', { task_id: entry.task_id, folder_id: folder });
    expect(saved.data).toMatchObject({ folder_id: folder, total_page: 3, encrypted: false, name: entry.output_file_name });
    const fromTask = await fetchBytes(ada, `/api/tools/v1/document/download-doc?task_id=${entry.task_id}`);
    const fromCloud = await fetchBytes(ada, `/api/cloud/v1/file/download?file_id=${saved.data.file_id}`);
    expect(fromCloud.bytes.equals(fromTask.bytes)).toBe(true);
    expect(saved.data.size).toBe(fromTask.bytes.length);
    expect((await cloud(ada, 'task-result', { task_id: entry.task_id, folder_id: folder })).code).toBe(ErrorCode.CloudNameExists);
    expect((await cloud(bob, 'task-result', { task_id: entry.task_id })).code).toBe(ErrorCode.NoData);
  });

  it('keeps cloud files when the sweeper removes expired tool files', async () => {
    const file = (await addFile(ada, pdf, {}, 'kept.pdf')).data.file_id;
    const toolFile = await ada.uploadId(pdf);
    // Past the tool files' retention, within the sessions' life.
    const swept = await sweep(served.quire.ctx, Date.now() + (served.quire.ctx.config.retentionHours + 1) * 3600_000);
    expect(swept.files).toBeGreaterThan(0);
    expect((await ada.call(`file/download?file_id=${toolFile}`)).code).toBe(ErrorCode.NoData);
    expect((await fetchBytes(ada, `/api/cloud/v1/file/download?file_id=${file}`)).bytes.equals(fs.readFileSync(pdf))).toBe(true);
  });
});

describe("another account's ids", () => {
  it('answers 2405 for them in every kind of call, and changes nothing', async () => {
    const folder = (await cloud(ada, 'directory/create', { name: 'Private' })).data.folder_id;
    const file = (await addFile(ada, pdf, { folder_id: folder }, 'private.pdf')).data.file_id;
    const bobFolder = (await cloud(bob, 'directory/create', { name: 'Bobs' })).data.folder_id;
    const calls: [string, unknown][] = [
      ['list', { folder_id: folder }],
      ['directory/create', { name: 'In', parent_id: folder }],
      ['directory/rename', { folder_id: folder, name: 'Mine' }],
      ['directory/delete', { folder_id: folder }],
      ['star/mark', { file_id: file }],
      ['star/unmark', { file_id: file }],
      ['file/rename', { file_id: file, name: 'mine.pdf' }],
      ['multi/move', { file_ids: [file], to_folder_id: bobFolder }],
      ['multi/move', { folder_ids: [bobFolder], to_folder_id: folder }],
      ['multi/delete', { file_ids: [file] }],
      ['multi/delete', { folder_ids: [folder] }],
      ['recent/delete', { file_ids: [file] }],
      ['file/use', { file_id: file }],
      ['multi-download', { folder_ids: [folder] }],
    ];
    for (const [call, body] of calls) expect((await cloud(bob, call, body)).code, call).toBe(ErrorCode.NoData);
    expect((await cloud(bob, `file/download?file_id=${file}`)).code).toBe(ErrorCode.NoData);
    expect((await cloud(bob, `file/thumbnail?file_id=${file}`)).code).toBe(ErrorCode.NoData);
    const upload = await bob.upload(pdf);
    expect((await cloud(bob, 'file/create', { upload_file_id: upload.data.file_id, folder_id: folder }, 'PUT')).code).toBe(
      ErrorCode.NoData,
    );
    const mine = (await cloud(ada, 'list', { folder_id: folder })).data;
    expect(mine.files.map((f: { name: string; starred: boolean }) => [f.name, f.starred])).toEqual([['private.pdf', false]]);
    expect(mine.path).toEqual([{ folder_id: folder, name: 'Private' }]);
  });
});

describe('capacity', () => {
  it("takes files up to the plan's capacity, refuses one byte more storing nothing, and frees space on delete", async () => {
    const carol = await signedIn(served.quire.url, served.quire.ctx, 'carol@example.org', 'free', PASSWORD);
    const total = Math.floor(FREE_CLOUD_GB * 1024 * MB);
    expect((await cloud(carol, 'capacity')).data).toEqual({ already_capacity: 0, total_capacity: total, offer: 'expand' });
    const accountDir = await cloudDirOf(carol);
    const big = (await addFile(carol, textFile('big.txt', total - 1000))).data;
    expect((await cloud(carol, 'capacity')).data.already_capacity).toBe(total - 1000);
    expect(await addFile(carol, textFile('over.txt', 1001))).toMatchObject({
      code: ErrorCode.CloudFull,
      msg: 'File size exceeded. Please upgrade permissions.',
    });
    expect((await cloud(carol, 'capacity')).data.already_capacity).toBe(total - 1000);
    expect(storedCloudFiles(accountDir)).toHaveLength(1);
    const full = (await addFile(carol, textFile('exact.txt', 1000))).data;
    expect((await cloud(carol, 'capacity')).data.already_capacity).toBe(total);
    // A task's output past the capacity is refused alike.
    const task = await carol.post('document/rotate', { file_id: await carol.uploadId(pdf), angle: 90, pages: 'all' });
    expect((await carol.waitTask(task.data.task_id)).status).toBe(0);
    expect((await cloud(carol, 'task-result', { task_id: task.data.task_id })).code).toBe(ErrorCode.CloudFull);
    expect(storedCloudFiles(accountDir)).toHaveLength(2);
    // Replacing a file counts its size as freed.
    expect((await addFile(carol, textFile('exact.txt', 1000), { on_conflict: 'replace' })).code).toBe(0);
    expect((await addFile(carol, textFile('exact.txt', 1001), { on_conflict: 'replace' })).code).toBe(ErrorCode.CloudFull);

    const folder = (await cloud(carol, 'directory/create', { name: 'Box' })).data.folder_id;
    const nested = (await cloud(carol, 'directory/create', { name: 'Nested', parent_id: folder })).data.folder_id;
    await cloud(carol, 'multi/move', { file_ids: [big.file_id], to_folder_id: nested });
    expect((await cloud(carol, 'directory/delete', { folder_id: folder })).code).toBe(0);
    expect((await cloud(carol, 'capacity')).data.already_capacity).toBe(1000);
    expect((await cloud(carol, 'directory/list')).data.folders).toEqual([]);
    expect((await cloud(carol, `file/download?file_id=${big.file_id}`)).code).toBe(ErrorCode.NoData);
    expect(storedCloudFiles(accountDir)).toHaveLength(1);
    expect((await cloud(carol, 'multi/delete', { file_ids: [full.file_id] })).code).toBe(0);
    expect((await cloud(carol, 'capacity')).data.already_capacity).toBe(0);
    expect(storedCloudFiles(accountDir)).toHaveLength(0);
  });
});

describe('the free space and the offers', () => {
  it('offers the free 10 GB under it, gives it once and for good, and offers purchase from 10 GB to under 100 GB', async () => {
    const erin = await signedIn(served.quire.url, served.quire.ctx, 'erin@example.org', 'free', PASSWORD);
    const tiny = Math.floor(FREE_CLOUD_GB * GB);
    expect((await cloud(erin, 'capacity')).data).toEqual({ already_capacity: 0, total_capacity: tiny, offer: 'expand' });
    await addFile(erin, textFile('erin.txt', tiny - 10));
    expect((await addFile(erin, textFile('erin-more.txt', 11))).code).toBe(ErrorCode.CloudFull);
    const received = await cloud(erin, 'capacity/receive', {});
    expect(received.data).toEqual({ already_capacity: tiny - 10, total_capacity: 10 * GB, offer: 'purchase' });
    expect((await cloud(erin, 'capacity/receive', {})).data).toEqual(received.data);
    expect((await cloud(erin, 'capacity')).data).toEqual(received.data);
    expect((await addFile(erin, textFile('erin-more.txt', 11))).code).toBe(0);
    // Received for good: a plan that gives more counts, and back on the free plan the 10 GB stay.
    const erinId = await accountIdOf(erin);
    const { db } = served.quire.ctx;
    const planOf = (plan: string) => db.updateTable('accounts').set({ plan }).where('id', '=', erinId).execute();
    await planOf('ai');
    expect((await cloud(erin, 'capacity')).data).toMatchObject({ total_capacity: 100 * GB, offer: null });
    await planOf('free');
    expect((await cloud(erin, 'capacity')).data).toMatchObject({ total_capacity: 10 * GB, offer: 'purchase' });

    // A plan at 10 GB or more has nothing to receive: receiving records nothing and lowers nothing.
    const fred = await signedIn(served.quire.url, served.quire.ctx, 'fred@example.org', 'ai', PASSWORD);
    expect((await cloud(fred, 'capacity/receive', {})).data).toEqual({ already_capacity: 0, total_capacity: 100 * GB, offer: null });
    expect((await cloud(ada, 'capacity/receive', {})).data).toMatchObject({ total_capacity: 10 * GB, offer: 'purchase' });
    const fredId = await accountIdOf(fred);
    await db.updateTable('accounts').set({ plan: 'free' }).where('id', '=', fredId).execute();
    expect((await cloud(fred, 'capacity')).data).toEqual({ already_capacity: 0, total_capacity: tiny, offer: 'expand' });
  });

  it('lets racing adds of one account store no more than its capacity, refusing the rest with 41003 and keeping none of their bytes', async () => {
    const gina = await signedIn(served.quire.url, served.quire.ctx, 'gina@example.org', 'free', PASSWORD);
    const total = Math.floor(FREE_CLOUD_GB * GB);
    const size = Math.floor(total / 3.5);
    const uploads = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => (await gina.upload(textFile(`race-${i}.txt`, size))).data.file_id as string),
    );
    const answers = await Promise.all(uploads.map((id) => cloud(gina, 'file/create', { upload_file_id: id }, 'PUT')));
    expect(answers.map((a) => a.code).sort()).toEqual([0, 0, 0, ...Array(5).fill(ErrorCode.CloudFull)]);
    expect((await cloud(gina, 'capacity')).data.already_capacity).toBe(3 * size);
    expect(storedCloudFiles(await cloudDirOf(gina))).toHaveLength(3);
    // A replace racing an add that fits only after it: whichever goes first, the other sees its bytes.
    const kept = answers.find((a) => a.code === 0)!.data;
    const smaller = await gina.upload(textFile(kept.name, size - 100), kept.name);
    const bigger = await gina.upload(textFile('bigger.txt', total - 3 * size + 50));
    const [replace, add] = await Promise.all([
      cloud(gina, 'file/create', { upload_file_id: smaller.data.file_id, on_conflict: 'replace' }, 'PUT'),
      cloud(gina, 'file/create', { upload_file_id: bigger.data.file_id }, 'PUT'),
    ]);
    expect(replace.code).toBe(0);
    expect([0, ErrorCode.CloudFull]).toContain(add.code);
    const used = (await cloud(gina, 'capacity')).data.already_capacity;
    expect(used).toBe(3 * size - 100 + (add.code === 0 ? total - 3 * size + 50 : 0));
    expect(used).toBeLessThanOrEqual(total);
    expect(storedCloudFiles(await cloudDirOf(gina))).toHaveLength(add.code === 0 ? 4 : 3);
    // A replace past the capacity keeps the old bytes.
    const tooBig = await gina.upload(textFile(kept.name, total), kept.name);
    expect((await cloud(gina, 'file/create', { upload_file_id: tooBig.data.file_id, on_conflict: 'replace' }, 'PUT')).code).toBe(
      ErrorCode.CloudFull,
    );
    expect((await fetchBytes(gina, `/api/cloud/v1/file/download?file_id=${kept.file_id}`)).bytes.length).toBe(size - 100);
  });
});

describe("the operator's list", () => {
  it('counts the files and bytes each account keeps in its cloud', async () => {
    const hana = await signedIn(served.quire.url, served.quire.ctx, 'hana@example.org', 'free', PASSWORD);
    const { db } = served.quire.ctx;
    await db
      .updateTable('accounts')
      .set({ role: 'operator' })
      .where('id', '=', await accountIdOf(hana))
      .execute();
    const rowOf = async (email: string) => {
      const list = (await hana.raw(`/api/account/v1/admin/users?q=${encodeURIComponent(email)}`).then((r) => r.json())) as Envelope;
      return list.data.users[0];
    };
    // What the list says of an account with many files is what its cloud's folder in storage holds.
    const adaDir = await cloudDirOf(ada);
    const adaFiles = storedCloudFiles(adaDir);
    expect(adaFiles.length).toBeGreaterThan(10);
    const onDisk = adaFiles.reduce((sum, f) => sum + fs.statSync(path.join(adaDir, f)).size, 0);
    expect(await rowOf('ada@example.org')).toMatchObject({ cloud_files: adaFiles.length, cloud_bytes: onDisk });
    expect(await rowOf('hana@example.org')).toMatchObject({ cloud_files: 0, cloud_bytes: 0 });
    await addFile(hana, textFile('hana.txt', 1234));
    expect(await rowOf('hana@example.org')).toMatchObject({ cloud_files: 1, cloud_bytes: 1234 });
  });
});

describe('deleting the account', () => {
  it('deletes its cloud: folders, files and their bytes', async () => {
    const dora = await signedIn(served.quire.url, served.quire.ctx, 'dora@example.org', 'premium', PASSWORD);
    const doraId = await accountIdOf(dora);
    const folder = (await cloud(dora, 'directory/create', { name: 'Gone' })).data.folder_id;
    await addFile(dora, pdf, { folder_id: folder });
    const accountDir = await cloudDirOf(dora);
    expect(storedCloudFiles(accountDir)).toHaveLength(1);
    const deleted = await dora.raw('/api/account/v1/delete', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: PASSWORD }),
    });
    expect(((await deleted.json()) as Envelope).code).toBe(0);
    expect(fs.existsSync(accountDir)).toBe(false);
    const db = served.quire.ctx.db;
    expect(await db.selectFrom('cloud_files').selectAll().where('account_id', '=', doraId).execute()).toEqual([]);
    expect(await db.selectFrom('cloud_folders').selectAll().where('account_id', '=', doraId).execute()).toEqual([]);
    expect(await db.selectFrom('cloud_accounts').selectAll().where('account_id', '=', doraId).execute()).toEqual([]);
  });
});
