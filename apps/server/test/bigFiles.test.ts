// A file much bigger than the server's memory budget goes through upload, a task and both downloads
// while the server's own resident memory stays nearly flat: every byte is streamed, never held whole.
import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from './fixtures.js';
import { Client } from './harness.js';
import { freePort, memoryOf, startServer, visitorFileLimit } from './serverProcess.js';

const MB = 1024 * 1024;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bigfiles-'));
const client = new Client('');
let server: ChildProcess;

beforeAll(async () => {
  const port = await freePort();
  server = await startServer(path.join(dir, 'data'), port, visitorFileLimit(dir, 200));
  client.base = `http://127.0.0.1:${port}`;
}, 120_000);
afterAll(() => {
  server?.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A one-page PDF of about `bytes`, nearly all of it one uncompressed content stream of blanks (written in pieces). */
async function paddedPdf(file: string, bytes: number) {
  const out = fs.createWriteStream(file);
  const offsets: number[] = [];
  let at = 0;
  const write = async (s: string | Buffer) => {
    at += Buffer.byteLength(s);
    if (!out.write(s)) await new Promise<void>((r) => out.once('drain', () => r()));
  };
  const object = async (n: number, body: string) => {
    offsets[n] = at;
    await write(`${n} 0 obj\n${body}\nendobj\n`);
  };
  await write('%PDF-1.7\n');
  await object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  await object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  await object(3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>');
  const content = '0 0 1 rg 72 72 200 200 re f\n';
  const blanks = Buffer.alloc(MB, 0x20);
  const pieces = Math.floor(bytes / MB);
  offsets[4] = at;
  await write(`4 0 obj\n<< /Length ${content.length + pieces * MB} >>\nstream\n${content}`);
  for (let i = 0; i < pieces; i++) await write(blanks);
  await write('\nendstream\nendobj\n');
  const xref = at;
  await write(
    `xref\n0 5\n0000000000 65535 f \n${offsets
      .slice(1)
      .map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)
      .join('')}`,
  );
  await write(`trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
}

const digest = async (algorithm: string, file: string) => {
  const hash = crypto.createHash(algorithm);
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
};
const md5 = (file: string) => digest('md5', file);

/** Uploads from disk without holding the file here either (a Blob backed by the file). */
async function upload(file: string): Promise<{ file_id: string; file_size: number }> {
  const form = new FormData();
  form.append('file', await fs.openAsBlob(file), path.basename(file));
  const res = await client.call('file/stream', { method: 'POST', body: form });
  if (res.code !== 0) throw new Error(`upload failed: ${res.code} ${res.msg}`);
  return res.data;
}

/** The web app's way for files over the threshold: parts of the policy's size, a few at a time, then complete. */
async function uploadInParts(file: string): Promise<{ file_id: string; file_size: number }> {
  const blob = await fs.openAsBlob(file);
  const policy = await client.post('file/upload-policy', {
    filename: path.basename(file),
    file_size: blob.size,
    md5_code: await md5(file),
  });
  const { upload_id, part_size, total_parts } = policy.data;
  const parts = Array.from({ length: total_parts }, (_, i) => i + 1);
  const send = async () => {
    for (let n = parts.shift(); n !== undefined; n = parts.shift()) {
      const res = await client.call(`file/upload-part?upload_id=${upload_id}&part_number=${n}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream' },
        body: blob.slice((n - 1) * part_size, n * part_size),
      });
      if (res.code !== 0) throw new Error(`part ${n}: ${res.code} ${res.msg}`);
    }
  };
  await Promise.all(Array.from({ length: 4 }, send));
  const done = await client.post('file/upload-complete', { upload_id });
  if (done.code !== 0) throw new Error(`upload-complete failed: ${done.code} ${done.msg}`);
  return done.data;
}

async function download(pathname: string, dest: string) {
  const res = await client.raw(`/api/tools/v1/${pathname}`);
  expect(res.status).toBe(200);
  await pipeline(Readable.fromWeb(res.body as ReadableStream), fs.createWriteStream(dest));
}

/** Runs `work` and answers how far the server's peak resident memory rose over its resident memory before. */
async function rssGrowth(work: () => Promise<void>): Promise<number> {
  const pid = server.pid!;
  const start = memoryOf(pid, 'VmRSS')!;
  // Resets the peak (VmHWM) to the present resident size, so the peak read after is the work's own.
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  await work();
  return memoryOf(pid, 'VmHWM')! - start;
}

describe('a 150 MB file', () => {
  it('is uploaded (in one request and in parts), rotated and downloaded with the server growing by far less than its size', async () => {
    // The same calls on a small file first, so what is measured is not code loading or warming up.
    const small = await upload(await makePdf(path.join(dir, 'small.pdf'), 2));
    const warm = await client.runTool(
      'document/rotate',
      { file_id: small.file_id, angle: 90, pages: 'all' },
      path.join(dir, 'small-rot.pdf'),
    );
    expect(warm.status).toBe(0);
    await download(`file/download?file_id=${small.file_id}`, path.join(dir, 'small-back.pdf'));

    const big = path.join(dir, 'big.pdf');
    await paddedPdf(big, 150 * MB);
    const size = fs.statSync(big).size;
    const [back, backInParts, rotated] = ['back.pdf', 'back-parts.pdf', 'rotated.pdf'].map((n) => path.join(dir, n)) as [
      string,
      string,
      string,
    ];
    const growth = await rssGrowth(async () => {
      const { file_id, file_size } = await upload(big);
      expect(file_size).toBe(size);
      const created = await client.post('document/rotate', { file_id, angle: 90, pages: 'all' });
      expect(created.code).toBe(0);
      expect((await client.waitTask(created.data.task_id, 300_000)).status).toBe(0);
      await download(`document/download-doc?task_id=${created.data.task_id}`, rotated);
      await download(`file/download?file_id=${file_id}`, back);
      const inParts = await uploadInParts(big);
      expect(inParts.file_size).toBe(size);
      await download(`file/download?file_id=${inParts.file_id}`, backInParts);
    });

    expect(await digest('sha256', back)).toBe(await digest('sha256', big));
    expect(await digest('sha256', backInParts)).toBe(await digest('sha256', big));
    expect(execFileSync('pdfinfo', ['-f', '1', '-l', '1', rotated], { encoding: 'utf8' })).toMatch(/Page +1 rot: +90/);
    // Holding the file once (a readFile, an arrayBuffer(), a concatenated body) would add 150 MB.
    console.log(`server RSS growth: ${(growth / MB).toFixed(1)} MB`);
    expect(growth).toBeLessThan(size / 2);
  }, 600_000);
});
