// The API's shared behaviour: envelopes, ownership, chunked upload, bulk download, limits, docs.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, UPLOAD_PART_SIZE, errorMessages, toolDefinitions } from '@quire/contracts';
import { Client, quireForTests, startQuire } from './harness.js';
import { makePdf, npages, pageLabels } from './fixtures.js';

const served = quireForTests('api');
const { dir } = served;
const file = (name: string) => path.join(dir, name);

beforeAll(async () => {
  await makePdf(file('a.pdf'), 2, 'A');
  await makePdf(file('big-base.pdf'), 400, 'Big');
  // Big enough for several 512 KB parts: an incompressible attachment makes it ~1.6 MB.
  await makePdf(file('big.pdf'), 400, 'Big', undefined, crypto.randomBytes(1_600_000));
});

describe('envelope and docs', () => {
  it('answers health', async () => {
    const res = await (await fetch(`${served.quire.url}/api/health`)).json();
    expect(res).toEqual({ code: 0, msg: 'success', data: { status: 'ok' } });
  });

  it('serves an OpenAPI document describing every tool call', async () => {
    const doc = await (await fetch(`${served.quire.url}/api/docs`)).json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const tool of toolDefinitions) {
      const path = doc.paths[`/api/tools/v1/${tool.apiPath.replace(/:(\w+)/g, '{$1}')}`];
      // Every tool takes a JSON body; the spec's GET (the converter) its query string too.
      expect(path?.post?.requestBody).toBeDefined();
      if (tool.apiMethod === 'GET') expect(path?.get?.parameters).toBeDefined();
    }
    // The calls a password can come with take it in a POST body as well as in the spec's query.
    expect(doc.paths['/api/tools/v1/document/info'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['file_id', 'passwd']);
    expect(doc.paths['/api/tools/v1/document/info'].post.requestBody).toBeDefined();
    expect(doc.paths['/api/tools/v1/file/download'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['file_id']);
    expect(doc.paths['/api/tools/v1/get-task-result'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['task_id', 'multi_id']);
    expect(
      Object.keys(doc.paths['/api/tools/v1/document/cancel-task'].post.requestBody.content['application/json'].schema.properties),
    ).toEqual(['task_id', 'multi_id']);
  });

  it('answers unknown API paths with 2405 in the envelope', async () => {
    const res = await new Client(served.quire.url).call('no-such-call');
    expect(res).toEqual({ code: ErrorCode.NoData, msg: errorMessages[ErrorCode.NoData], data: null });
  });

  it('refuses malformed JSON with a catalogue code', async () => {
    const res = await new Client(served.quire.url).call('merge', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{nope',
    });
    expect(res.code).toBe(ErrorCode.InvalidParams);
  });
});

describe('ownership', () => {
  it('another visitor gets 2405 for a file, its info, its tasks and downloads, and learns nothing', async () => {
    const owner = new Client(served.quire.url);
    const stranger = new Client(served.quire.url);
    await stranger.call('config');
    const fileId = await owner.uploadId(file('a.pdf'));
    const created = await owner.post('document/rotate', { file_id: fileId, angle: 90, pages: 'all' });
    await owner.waitTask(created.data.task_id);

    const answers = [
      await stranger.call(`document/info?file_id=${fileId}`),
      await stranger.post('document/info', { file_id: fileId }),
      await stranger.post('converter', { file_id: fileId, output_format: 'png' }),
      await stranger.post('document/rotate', { file_id: fileId, angle: 90, pages: 'all' }),
      await stranger.call(`get-task-result?task_id=${created.data.task_id}`),
      await stranger.call(`get-task-result?multi_id=${created.data.multi_id}`),
      await stranger.call(`document/download-doc?task_id=${created.data.task_id}`),
      await stranger.call(`download-doc-bulk?multi_id=${created.data.multi_id}`),
      await stranger.call(`file/download?file_id=${fileId}`),
      await stranger.post('document/delete-outputs', { multi_id: created.data.multi_id }),
      await stranger.post('document/output-as-file', { task_id: created.data.task_id }),
      await stranger.post('document/cancel-task', { task_id: created.data.task_id }),
      await stranger.post('document/cancel-task', { multi_id: created.data.multi_id }),
    ];
    for (const res of answers) expect(res).toEqual({ code: ErrorCode.NoData, msg: 'No data found.', data: null });
    // In the caller's language when it asks for one: the catalogue's own words, by code.
    const inGerman = { 'accept-language': 'de-DE,de;q=0.9' };
    expect(await stranger.call(`document/info?file_id=${fileId}`, { headers: inGerman })).toEqual({
      code: ErrorCode.NoData,
      msg: 'Keine Daten gefunden.',
      data: null,
    });
    expect((await stranger.call('no-such-call', { headers: { 'accept-language': 'ja' } })).msg).toBe('データが見つかりません。');
    // The owner still can.
    expect((await owner.call(`document/info?file_id=${fileId}`)).code).toBe(0);
    expect((await owner.raw(`/api/tools/v1/document/download-doc?task_id=${created.data.task_id}`)).status).toBe(200);
  });
});

describe('bulk download', () => {
  it('zips the outputs of every task sharing a multi_id', async () => {
    const client = new Client(served.quire.url);
    const id = await client.uploadId(file('a.pdf'));
    const first = await client.post('document/rotate', { file_id: id, angle: 90, pages: 'all', multi_id: 'batch-1' });
    const second = await client.post('extract_page', { file_id: id, pages: '2', multi_id: 'batch-1' });
    expect(second.data.multi_id).toBe(first.data.multi_id);
    await client.waitTask(first.data.task_id);
    await client.waitTask(second.data.task_id);
    const results = await client.call(`get-task-result?multi_id=batch-1`);
    expect(results.data).toHaveLength(2);
    const res = await client.raw('/api/tools/v1/download-doc-bulk?multi_id=batch-1');
    expect(res.headers.get('content-type')).toBe('application/zip');
    fs.writeFileSync(file('bulk.zip'), Buffer.from(await res.arrayBuffer()));
    expect(
      execFileSync('unzip', ['-Z1', file('bulk.zip')])
        .toString()
        .trim()
        .split('\n')
        .sort(),
    ).toEqual(['a-extracted.pdf', 'a-rotated.pdf']);
    // Named after the first file and the tool of the first task.
    expect(res.headers.get('content-disposition')).toContain('filename="a-rotate.zip"');
  });
});

describe('upload download', () => {
  it('sends a byte range when asked, so a viewer need not fetch all of a large file first', async () => {
    const client = new Client(served.quire.url);
    const id = await client.uploadId(file('big.pdf'));
    const bytes = fs.readFileSync(file('big.pdf'));
    const get = (range?: string) => client.raw(`/api/tools/v1/file/download?file_id=${id}`, range ? { headers: { range } } : {});

    const whole = await get();
    expect([whole.status, whole.headers.get('accept-ranges')]).toEqual([200, 'bytes']);
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    for (const [range, start, end] of [
      ['bytes=100-199', 100, 199],
      ['bytes=1000000-', 1_000_000, bytes.length - 1],
      ['bytes=-50', bytes.length - 50, bytes.length - 1],
      [`bytes=${bytes.length - 10}-${bytes.length + 500}`, bytes.length - 10, bytes.length - 1],
    ] as const) {
      const res = await get(range);
      expect(res.status, range).toBe(206);
      expect(res.headers.get('content-range'), range).toBe(`bytes ${start}-${end}/${bytes.length}`);
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes.subarray(start, end + 1)), range).toBe(true);
    }
    // Several ranges, or none that fits: the whole file, as HTTP allows.
    for (const range of ['bytes=0-1,5-6', `bytes=${bytes.length}-`, 'items=0-1']) {
      const res = await get(range);
      expect(res.status, range).toBe(200);
      expect((await res.arrayBuffer()).byteLength, range).toBe(bytes.length);
    }
  });
});

describe('after the result', () => {
  it("takes a task's output as a new upload another tool runs on, without a download", async () => {
    const client = new Client(served.quire.url);
    const id = await client.uploadId(file('a.pdf'));
    const rotated = await client.post('document/rotate', { file_id: id, angle: 90, pages: 'all' });
    await client.waitTask(rotated.data.task_id);
    const taken = await client.post('document/output-as-file', { task_id: rotated.data.task_id });
    expect(taken).toMatchObject({ code: 0, data: { file_name: 'a-rotated.pdf', total_page: 2, encrypted: false } });
    const entry = await client.runTool('extract_page', { file_id: taken.data.file_id, pages: '2' }, file('continued.pdf'));
    expect(entry.status).toBe(0);
    expect(pageLabels(file('continued.pdf'))).toEqual(['A Page 2']);
    // An index the task does not have is no data.
    expect((await client.post('document/output-as-file', { task_id: rotated.data.task_id, index: 7 })).code).toBe(ErrorCode.NoData);
  });

  it('deletes the outputs of a run at once: their downloads answer 2405 after', async () => {
    const client = new Client(served.quire.url);
    const id = await client.uploadId(file('a.pdf'));
    const first = await client.post('document/rotate', { file_id: id, angle: 90, pages: 'all', multi_id: 'gone-1' });
    const second = await client.post('extract_page', { file_id: id, pages: '1', multi_id: 'gone-1' });
    await client.waitTask(first.data.task_id);
    await client.waitTask(second.data.task_id);
    const stored = () =>
      fs
        .readdirSync(path.join(served.quire.ctx.config.dataDir, 'storage', 'outputs'))
        .filter((n) => [first.data.task_id, second.data.task_id].includes(n));
    expect(stored()).toHaveLength(2);
    expect(await client.post('document/delete-outputs', { multi_id: 'gone-1' })).toEqual({ code: 0, msg: 'success', data: { deleted: 2 } });
    expect(stored()).toEqual([]);
    expect((await client.call(`document/download-doc?task_id=${first.data.task_id}`)).code).toBe(ErrorCode.NoData);
    expect((await client.call('download-doc-bulk?multi_id=gone-1')).code).toBe(ErrorCode.NoData);
    expect((await client.post('document/delete-outputs', { multi_id: 'gone-1' })).code).toBe(ErrorCode.NoData);
  });
});

describe('chunked upload', () => {
  const md5 = (buf: Buffer) => crypto.createHash('md5').update(buf).digest('hex');

  async function sendPart(client: Client, uploadId: string, body: Buffer, n: number) {
    const part = body.subarray((n - 1) * UPLOAD_PART_SIZE, n * UPLOAD_PART_SIZE);
    return client.call(`file/upload-part?upload_id=${uploadId}&part_number=${n}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(part),
    });
  }

  it('resumes an interrupted upload without resending finished parts, then verifies the md5', async () => {
    const client = new Client(served.quire.url);
    const body = fs.readFileSync(file('big.pdf'));
    const request = { filename: 'big.pdf', file_size: body.length, md5_code: md5(body) };
    const policy = await client.post('file/upload-policy', request);
    expect(policy.code).toBe(0);
    const total = policy.data.total_parts;
    expect(total).toBe(Math.ceil(body.length / UPLOAD_PART_SIZE));
    expect(total).toBeGreaterThanOrEqual(3);
    // The connection "drops" after parts 1 and 3.
    await sendPart(client, policy.data.upload_id, body, 1);
    await sendPart(client, policy.data.upload_id, body, 3);
    const resumed = await client.post('file/upload-policy', request);
    expect(resumed.data).toMatchObject({ upload_id: policy.data.upload_id, uploaded_parts: [1, 3] });
    const missing = [];
    for (let n = 1; n <= total; n++) if (!resumed.data.uploaded_parts.includes(n)) missing.push(n);
    await Promise.all(missing.map((n) => sendPart(client, policy.data.upload_id, body, n)));
    const done = await client.post('file/upload-complete', { upload_id: policy.data.upload_id });
    expect(done).toMatchObject({ code: 0, data: { file_name: 'big.pdf', file_size: body.length, total_page: 400 } });
    const stored = await client.raw(`/api/tools/v1/file/download?file_id=${done.data.file_id}`);
    expect(md5(Buffer.from(await stored.arrayBuffer()))).toBe(request.md5_code);
  });

  it('refuses completion when the bytes do not match the md5, and keeps nothing', async () => {
    const client = new Client(served.quire.url);
    const body = fs.readFileSync(file('big.pdf'));
    const policy = await client.post('file/upload-policy', { filename: 'x.pdf', file_size: body.length, md5_code: 'f'.repeat(32) });
    for (let n = 1; n <= policy.data.total_parts; n++) await sendPart(client, policy.data.upload_id, body, n);
    const done = await client.post('file/upload-complete', { upload_id: policy.data.upload_id });
    expect(done.code).toBe(ErrorCode.UploadFailed);
    expect(fs.readdirSync(served.quire.ctx.tmpDir).filter((n) => n.endsWith('.joined'))).toEqual([]);
    expect(
      (
        await client.call(`file/upload-part?upload_id=${policy.data.upload_id}&part_number=1`, {
          method: 'PUT',
          headers: { 'content-type': 'application/octet-stream' },
          body: 'x',
        })
      ).code,
    ).toBe(ErrorCode.NoData);
  });

  it('refuses a part of the wrong size', async () => {
    const client = new Client(served.quire.url);
    const body = fs.readFileSync(file('big.pdf'));
    const policy = await client.post('file/upload-policy', { filename: 'y.pdf', file_size: body.length, md5_code: md5(body) });
    const res = await client.call(`file/upload-part?upload_id=${policy.data.upload_id}&part_number=1`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(10),
    });
    expect(res.code).toBe(ErrorCode.UploadFailed);
  });
});

describe('limits', () => {
  it('refuses a file over the size limit with 4012, in one piece or in parts', async () => {
    const small = await startQuire({ maxFileBytes: 1000 });
    try {
      const client = new Client(small.url);
      expect((await client.upload(file('a.pdf'))).code).toBe(ErrorCode.TooLarge);
      const policy = await client.post('file/upload-policy', { filename: 'big.pdf', file_size: 5000, md5_code: 'a'.repeat(32) });
      expect(policy).toMatchObject({ code: ErrorCode.TooLarge, msg: 'File size exceeds the limit.' });
    } finally {
      await small.stop();
    }
  });

  it('refuses a PDF over the page limit', async () => {
    const small = await startQuire({ maxPages: 1 });
    try {
      expect((await new Client(small.url).upload(file('a.pdf'))).code).toBe(ErrorCode.TooManyPages);
    } finally {
      await small.stop();
    }
  });

  it('refuses a merge whose document would pass the page limit, naming the limit', async () => {
    const pages = await npages(file('a.pdf'));
    const small = await startQuire({ maxPages: pages });
    try {
      const client = new Client(small.url);
      const id = await client.uploadId(file('a.pdf'));
      const created = await client.post('merge', { file_ids: [id, id] });
      expect(created).toMatchObject({ code: ErrorCode.TooManyPages, msg: `The number of pages exceeds the limit of ${pages} pages.` });
    } finally {
      await small.stop();
    }
  });

  it('stops an engine at its time limit and fails the task cleanly', async () => {
    const slow = await startQuire();
    slow.ctx.toolLimits.timeoutMs = 1;
    try {
      const client = new Client(slow.url);
      const id = await client.uploadId(file('big-base.pdf'));
      const created = await client.post('document/rotate', { file_id: id, angle: 90, pages: 'all' });
      const entry = await client.waitTask(created.data.task_id);
      expect(entry.status).toBe(ErrorCode.TaskFailed);
      expect(fs.readdirSync(path.join(slow.ctx.scratchDir, 'work')).filter((n) => n.startsWith(entry.task_id))).toEqual([]);
      // Other work is unaffected once the limit is sane again.
      slow.ctx.toolLimits.timeoutMs = 60_000;
      const again = await client.runTool('document/rotate', { file_id: id, angle: 90, pages: '1' }, file('after.pdf'));
      expect(again.status).toBe(0);
      expect(npages(file('after.pdf'))).toBe(400);
      expect(pageLabels(file('after.pdf'))[0]).toBe('Big Page 1');
    } finally {
      await slow.stop();
    }
  });
});
