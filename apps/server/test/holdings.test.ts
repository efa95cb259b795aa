// The data volume cannot be filled by ordinary uploads: a visitor or account, and all visitors at one
// address, hold at most QUIRE_MAX_HELD_MB of uploads and results (the address: times the IP factor),
// refused beyond with 4017; and below QUIRE_MIN_FREE_MB free on the volume (read with statfs, here
// a reserve larger than the disk's free space) uploads and tasks answer 3500 and health says so.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@quire/contracts';
import { makePdf } from './fixtures.js';
import { Client, fileForm, quireForTests, startQuire } from './harness.js';

const IP_FACTOR = 4;

const HELD_CAP = 64 * 1024;
const served = quireForTests('holdings', { ipRateFactor: IP_FACTOR, maxHeldBytes: HELD_CAP });

async function uploadAnswer(client: Client, file: string) {
  const res = await client.raw('/api/tools/v1/file/stream', { method: 'POST', body: fileForm(file) });
  return { status: res.status, ...((await res.json()) as { code: number; data: { file_id: string } | null }) };
}

describe('bytes held', () => {
  it('are capped per visitor and per address: 4017 (HTTP 413) beyond, for uploads and tasks alike', async () => {
    const file = await makePdf(path.join(served.dir, 'held.pdf'), 20, 'Held');
    const size = fs.statSync(file).size;
    // Uploads are let in while the visitor holds less than the cap: the last one passes it.
    const perVisitor = Math.ceil(HELD_CAP / size);
    expect(perVisitor).toBeGreaterThanOrEqual(2);
    const first = new Client(served.quire.url);
    const ids: string[] = [];
    for (let n = 0; n < perVisitor; n++) {
      const answer = await uploadAnswer(first, file);
      expect(answer.code).toBe(0);
      ids.push(answer.data!.file_id);
    }
    expect(await uploadAnswer(first, file)).toMatchObject({ status: 413, code: ErrorCode.HoldingLimit });
    const task = await first.answer('document/rotate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ file_id: ids[0], angle: 90, pages: 'all' }),
    });
    expect(task).toMatchObject({ status: 413, body: { code: ErrorCode.HoldingLimit } });
    // A chunked upload under way holds its declared size: past the cap, the same visitor's next upload is refused.
    const chunked = new Client(served.quire.url);
    const policy = { filename: 'big.pdf', file_size: HELD_CAP, md5_code: 'f'.repeat(32) };
    expect((await chunked.post('file/upload-policy', policy)).code).toBe(0);
    expect(await uploadAnswer(chunked, file)).toMatchObject({ status: 413, code: ErrorCode.HoldingLimit });
    // New cookies from the same address: together they reach the address's cap (4 × the visitor's), then a fresh one is refused at once.
    let accepted = perVisitor;
    for (let visitor = 0; visitor < IP_FACTOR; visitor++) {
      const another = new Client(served.quire.url);
      for (;;) {
        const answer = await uploadAnswer(another, file);
        if (answer.code !== 0) {
          expect(answer).toMatchObject({ status: 413, code: ErrorCode.HoldingLimit });
          break;
        }
        accepted++;
      }
    }
    expect(accepted).toBe(Math.ceil(((IP_FACTOR - 1) * HELD_CAP) / size));
    expect(await uploadAnswer(new Client(served.quire.url), file)).toMatchObject({ status: 413, code: ErrorCode.HoldingLimit });
  }, 120_000);
});

/**
 * A multipart upload whose headers declare `declared` bytes, of which only the form's first bytes
 * are sent: the answer, if the server gives one before the rest of the body (within 5 s).
 */
function answerBeforeBody(url: string, cookie: string, declared: number): Promise<{ status: number; body: string }> {
  const boundary = 'quire-declared';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`;
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: hostname,
        port,
        method: 'POST',
        path: '/api/tools/v1/file/stream',
        headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(declared) },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          clearTimeout(unanswered);
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body: text });
        });
      },
    );
    const unanswered = setTimeout(() => {
      req.destroy();
      reject(new Error('no answer before the body was sent'));
    }, 5000);
    req.on('error', () => undefined);
    req.write(head);
  });
}

describe('an upload declared larger than what its owner may still hold', () => {
  it('is refused with 4017 (HTTP 413) before its body is read', async () => {
    const cap = 1024 ** 2;
    const quire = await startQuire({ maxHeldBytes: cap }, false);
    try {
      const client = new Client(quire.url);
      expect(await uploadAnswer(client, await makePdf(path.join(served.dir, 'first.pdf'), 1))).toMatchObject({ status: 200, code: 0 });
      // Well within the plan's file size, but not within the megabyte the visitor may hold.
      const answer = await answerBeforeBody(quire.url, client.cookie, 2 * cap);
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ code: ErrorCode.HoldingLimit, data: null });
      expect(fs.readdirSync(quire.ctx.scratchDir).filter((f) => f.endsWith('.upload'))).toEqual([]);
    } finally {
      await quire.stop();
    }
  });
});

describe('a data volume below its reserve', () => {
  it('refuses uploads and tasks with 3500 (HTTP 503), and health says low disk space', async () => {
    const volume = fs.statfsSync(served.dir);
    const free = volume.bavail * volume.bsize;
    const quire = await startQuire({ minFreeBytes: free + 1024 ** 4 }, false);
    try {
      const client = new Client(quire.url);
      const file = await makePdf(path.join(served.dir, 'reserve.pdf'), 1);
      expect(await uploadAnswer(client, file)).toMatchObject({ status: 503, code: ErrorCode.Busy });
      const task = await client.answer('document/rotate', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ file_id: 'f'.repeat(32), angle: 90, pages: 'all' }),
      });
      expect(task).toMatchObject({ status: 503, body: { code: ErrorCode.Busy } });
      const health = await fetch(`${quire.url}/api/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ code: ErrorCode.Busy, data: { status: 'low disk space' } });
    } finally {
      await quire.stop();
    }
  }, 60_000);
});
