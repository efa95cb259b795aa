// The data volume cannot be filled by ordinary uploads: a visitor or account, and all visitors at one
// address, hold at most QUIRE_MAX_HELD_MB of uploads and results (the address: times the IP factor),
// refused beyond with 4017; and below QUIRE_MIN_FREE_MB free on the volume (read with statfs, here
// a reserve larger than the disk's free space) uploads and tasks answer 3500 and health says so.
import fs from 'node:fs';
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
