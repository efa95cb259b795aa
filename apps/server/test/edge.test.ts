// The HTTP edge: headers on every kind of answer, the visitor cookie, upload bodies bounded in
// size and time before they fill the disk, client file names made safe, and zip names.
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, UPLOAD_PART_SIZE } from '@quire/contracts';
import { Client, quireForTests, type Running, startQuire } from './harness.js';
import { makePdf } from './fixtures.js';

const served = quireForTests('edge');
const { dir } = served;
const file = (name: string) => path.join(dir, name);
const MiB = 1024 * 1024;
const md5 = (buf: Buffer) => crypto.createHash('md5').update(buf).digest('hex');

beforeAll(async () => {
  await makePdf(file('a.pdf'), 2, 'A');
  await makePdf(file('three.pdf'), 3, 'Three');
});

/** Bytes of every file under `root`, as a disk-usage measure of the data folder. */
function dirBytes(root: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    try {
      total += fs.statSync(path.join(entry.parentPath, entry.name)).size;
    } catch {
      // deleted between listing and stat
    }
  }
  return total;
}

const filesUnder = (root: string) =>
  fs.existsSync(root) ? fs.readdirSync(root, { withFileTypes: true, recursive: true }).filter((e) => e.isFile()) : [];

/**
 * A client still sending when refused may see the connection reset before it reads the answer
 * (the server closes with the rest of the body unread); an answer it does read is 413 with 4012.
 */
function expectRefusedWhileSending(result: Sent) {
  if (result.status === 0) return;
  expect(result.status).toBe(413);
  expect(JSON.parse(result.body).code).toBe(ErrorCode.TooLarge);
}

function drainedOrClosed(req: http.ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      req.off('drain', done).off('close', done);
      resolve();
    };
    req.once('drain', done).once('close', done);
  });
}

interface Sent {
  status: number;
  body: string;
  /** Bytes the client managed to hand to its socket before the server stopped it. */
  sent: number;
  /** Most the data folder grew while the body was being sent. */
  peakGrowth: number;
}

/**
 * Sends a body of `total` bytes (chunked unless `contentLength` is given) as a client that does
 * not stop when answered: it writes until the server closes the connection, measuring the data
 * folder as it goes. With `stall` it sends only `head` and waits for the answer.
 */
function sendHuge(
  running: Running,
  pathname: string,
  opts: { cookie: string; total: number; headers?: Record<string, string>; head?: Buffer; contentLength?: number; stall?: boolean },
): Promise<Sent> {
  const baseline = dirBytes(running.ctx.config.dataDir);
  const url = new URL(running.url + pathname);
  return new Promise((resolve, reject) => {
    let sent = 0;
    let peak = 0;
    let status = 0;
    let body = '';
    let closed = false;
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname + url.search,
      method: pathname.includes('upload-part') ? 'PUT' : 'POST',
      headers: {
        cookie: opts.cookie,
        ...opts.headers,
        ...(opts.contentLength !== undefined && { 'content-length': String(opts.contentLength) }),
      },
    });
    const finish = () => {
      if (closed) return;
      closed = true;
      resolve({ status, body, sent, peakGrowth: peak });
    };
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      res.on('data', (c) => (body += c));
      res.on('error', () => {});
    });
    req.on('error', finish);
    req.on('close', finish);
    const chunk = Buffer.alloc(256 * 1024, 7);
    const pump = async () => {
      req.flushHeaders();
      if (opts.head) {
        req.write(opts.head);
        sent += opts.head.length;
      }
      while (!closed && sent < opts.total) {
        const ok = req.write(chunk);
        sent += chunk.length;
        if (sent % MiB === 0) peak = Math.max(peak, dirBytes(running.ctx.config.dataDir) - baseline);
        if (!ok) await drainedOrClosed(req);
      }
      if (!closed && !opts.stall) req.end();
    };
    pump().catch(reject);
  });
}

async function visitor(running: Running): Promise<Client> {
  const client = new Client(running.url);
  await client.call('config');
  return client;
}

async function chunkedUpload(client: Client, name: string, body: Buffer) {
  const policy = await client.post('file/upload-policy', { filename: name, file_size: body.length, md5_code: md5(body) });
  expect(policy.code).toBe(0);
  for (let n = 1; n <= policy.data.total_parts; n++) {
    const put = await client.call(`file/upload-part?upload_id=${policy.data.upload_id}&part_number=${n}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(body.subarray((n - 1) * UPLOAD_PART_SIZE, n * UPLOAD_PART_SIZE)),
    });
    expect(put.code).toBe(0);
  }
  return client.post('file/upload-complete', { upload_id: policy.data.upload_id });
}

describe('headers', () => {
  const webPolicy = (csp: string | null) => {
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("worker-src 'self' blob:");
    expect(csp).not.toContain("'unsafe-eval'");
    expect(csp).not.toContain('unsafe-inline');
  };
  const framingAndSniffing = (res: Response) => {
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  };

  it('API answers, errors included, are nosniff and may not be framed or run anything', async () => {
    const client = await visitor(served.quire);
    for (const pathname of ['config', 'no-such-call', 'get-task-result?task_id=nope']) {
      const res = await client.raw(`/api/tools/v1/${pathname}`);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      framingAndSniffing(res);
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
    }
  });

  it('every download is an attachment with a plain and an RFC 5987 name, and nosniff', async () => {
    const client = await visitor(served.quire);
    const fileId = (await client.upload(file('three.pdf'), "O'Brien (draft) ünï.pdf")).data.file_id;
    const split = await client.post('split', { file_id: fileId, mode: 'fixed', every: 1, multi_id: 'edge-bulk' });
    const rotate = await client.post('document/rotate', { file_id: fileId, angle: 90, pages: 'all', multi_id: 'edge-bulk' });
    await client.waitTask(split.data.task_id);
    await client.waitTask(rotate.data.task_id);
    const downloads = {
      upload: `file/download?file_id=${fileId}`,
      single: `document/download-doc?task_id=${rotate.data.task_id}`,
      oneOfSeveral: `document/download-doc?task_id=${split.data.task_id}&index=1`,
      zip: `document/download-doc?task_id=${split.data.task_id}`,
      bulk: 'download-doc-bulk?multi_id=edge-bulk',
    };
    const names: Record<string, string> = {};
    for (const [kind, pathname] of Object.entries(downloads)) {
      const res = await client.raw(`/api/tools/v1/${pathname}`);
      expect(res.status, kind).toBe(200);
      framingAndSniffing(res);
      const disposition = res.headers.get('content-disposition') ?? '';
      // attachment; filename="ascii"; filename*=UTF-8''attr-chars only
      const match = /^attachment; filename="([\x20-\x21\x23-\x5b\x5d-\x7e]*)"; filename\*=UTF-8''([A-Za-z0-9!#$&+\-.^_`|~%]+)$/.exec(
        disposition,
      );
      expect(match, `${kind}: ${disposition}`).not.toBeNull();
      names[kind] = decodeURIComponent(match![2]!);
      await res.arrayBuffer();
    }
    expect(names).toEqual({
      upload: "O'Brien (draft) ünï.pdf",
      single: "O'Brien (draft) ünï-rotated.pdf",
      oneOfSeveral: "O'Brien (draft) ünï-2.pdf",
      zip: "O'Brien (draft) ünï.zip",
      // Named after the first file and the tool of the run's first task.
      bulk: "O'Brien (draft) ünï-split.zip",
    });
  });

  it('web pages and static assets carry the content security policy', async () => {
    const index = fs.readFileSync(path.join(served.quire.ctx.config.webDist, 'index.html'), 'utf8');
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(index)![1]!;
    const style = /href="(\/assets\/[^"]+\.css)"/.exec(index)![1]!;
    for (const pathname of ['/', '/app/merge-pdf', '/de/app/split-pdf', script, style, '/favicon.svg']) {
      const res = await fetch(served.quire.url + pathname);
      expect(res.status, pathname).toBe(200);
      framingAndSniffing(res);
      webPolicy(res.headers.get('content-security-policy'));
      await res.arrayBuffer();
    }
  });

  it("lets this site alone frame the activity dialog's referral page, under any language prefix", async () => {
    for (const pathname of ['/app/activity/free', '/de/app/activity/free', '/app/activity/free?x=1']) {
      const res = await fetch(served.quire.url + pathname);
      expect(res.status, pathname).toBe(200);
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      const csp = res.headers.get('content-security-policy');
      expect(csp).toContain("frame-ancestors 'self'");
      expect(csp).not.toContain("frame-ancestors 'none'");
      await res.arrayBuffer();
    }
    for (const pathname of ['/app/activity/free-more', '/app/activity', '/x/y/app/activity/free']) {
      const res = await fetch(served.quire.url + pathname);
      expect(res.headers.get('x-frame-options'), pathname).toBe('DENY');
      await res.arrayBuffer();
    }
  });
});

describe('visitor cookie', () => {
  const cookieOf = async (running: Running, headers: Record<string, string> = {}) =>
    (await fetch(`${running.url}/api/tools/v1/config`, { headers })).headers.get('set-cookie') ?? '';

  it('is HttpOnly and SameSite=Lax, and not Secure over plain HTTP even if a stranger claims HTTPS', async () => {
    for (const cookie of [await cookieOf(served.quire), await cookieOf(served.quire, { 'x-forwarded-proto': 'https' })]) {
      expect(cookie).toMatch(/^quire_vid=[0-9a-f]{32};/);
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Lax/);
      expect(cookie).not.toMatch(/; Secure/);
    }
  });

  it('is Secure behind a trusted TLS-terminating proxy', async () => {
    const behindProxy = await startQuire({ trustProxy: '127.0.0.1' }, false);
    try {
      expect(await cookieOf(behindProxy, { 'x-forwarded-proto': 'https' })).toMatch(/; Secure/);
      expect(await cookieOf(behindProxy, { 'x-forwarded-proto': 'http' })).not.toMatch(/; Secure/);
    } finally {
      await behindProxy.stop();
    }
  });
});

describe('upload bodies', () => {
  it('a part sent as JSON or with no body is refused with 3100', async () => {
    const client = await visitor(served.quire);
    const body = fs.readFileSync(file('a.pdf'));
    const policy = await client.post('file/upload-policy', { filename: 'a.pdf', file_size: body.length, md5_code: md5(body) });
    const url = `file/upload-part?upload_id=${policy.data.upload_id}&part_number=1`;
    const answers = [
      await client.answer(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"data":"x"}' }),
      await client.answer(url, { method: 'PUT' }),
      await client.answer(url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' } }),
    ];
    for (const a of answers) {
      expect(a.status).toBe(400);
      expect(a.body?.code).toBe(ErrorCode.InvalidParams);
    }
  });

  it('an oversized part is refused as it passes the part size; the rest is not read or stored', async () => {
    const client = await visitor(served.quire);
    const body = Buffer.alloc(MiB, 1);
    const policy = await client.post('file/upload-policy', { filename: 'one-mib.pdf', file_size: body.length, md5_code: md5(body) });
    const pathname = `/api/tools/v1/file/upload-part?upload_id=${policy.data.upload_id}&part_number=1`;
    const headers = { 'content-type': 'application/octet-stream' };
    const streamed = await sendHuge(served.quire, pathname, { cookie: client.cookie, total: 128 * MiB, headers });
    expectRefusedWhileSending(streamed);
    // Socket buffers on both sides hold a few MiB; reading the body through would be 128.
    expect(streamed.sent).toBeLessThan(24 * MiB);
    expect(streamed.peakGrowth).toBeLessThan(4 * MiB);

    // A declared length over the part size is answered before any of the body is sent.
    const declared = await sendHuge(served.quire, pathname, {
      cookie: client.cookie,
      total: 0,
      headers,
      contentLength: 64 * MiB,
      stall: true,
    });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body).code).toBe(ErrorCode.TooLarge);
    expect(filesUnder(path.join(served.quire.ctx.tmpDir, 'uploads', policy.data.upload_id))).toEqual([]);

    // Other uploads are unaffected.
    const other = await chunkedUpload(await visitor(served.quire), 'after.pdf', fs.readFileSync(file('three.pdf')));
    expect(other.code).toBe(0);
  });

  it('an oversized one-request upload is refused as it passes the file size limit; the rest is not read', async () => {
    const small = await startQuire({ maxFileBytes: MiB }, false);
    try {
      const client = await visitor(small);
      const boundary = 'quireboundary';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`,
      );
      const headers = { 'content-type': `multipart/form-data; boundary=${boundary}` };
      const streamed = await sendHuge(small, '/api/tools/v1/file/stream', { cookie: client.cookie, total: 128 * MiB, headers, head });
      expectRefusedWhileSending(streamed);
      expect(streamed.sent).toBeLessThan(24 * MiB);
      expect(streamed.peakGrowth).toBeLessThan(4 * MiB);

      // Only the multipart head is sent: the declared length alone is refused.
      const declared = await sendHuge(small, '/api/tools/v1/file/stream', {
        cookie: client.cookie,
        total: 0,
        headers,
        head,
        contentLength: 64 * MiB,
        stall: true,
      });
      expect(declared.status).toBe(413);
      expect(JSON.parse(declared.body).code).toBe(ErrorCode.TooLarge);
      expect(filesUnder(small.ctx.tmpDir)).toEqual([]);
    } finally {
      await small.stop();
    }
  });

  it('a body that trickles is cut off after the body timeout and leaves no temporary file', async () => {
    const strict = await startQuire({ bodyTimeoutMs: 1000 }, false);
    try {
      const client = await visitor(strict);
      const body = Buffer.alloc(MiB, 1);
      const policy = await client.post('file/upload-policy', { filename: 'slow.pdf', file_size: body.length, md5_code: md5(body) });
      const boundary = 'quireboundary';
      const trickles = [
        {
          path: `/api/tools/v1/file/upload-part?upload_id=${policy.data.upload_id}&part_number=1`,
          method: 'PUT',
          type: 'application/octet-stream',
        },
        { path: '/api/tools/v1/file/stream', method: 'POST', type: `multipart/form-data; boundary=${boundary}` },
      ];
      for (const t of trickles) {
        const url = new URL(strict.url + t.path);
        const ended = await new Promise<{ ms: number; leftover: number }>((resolve) => {
          const started = Date.now();
          let leftover = 0;
          const req = http.request({
            host: url.hostname,
            port: url.port,
            path: url.pathname + url.search,
            method: t.method,
            headers: { cookie: client.cookie, 'content-type': t.type },
          });
          req.write(
            t.method === 'POST'
              ? `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.pdf"\r\n\r\n%PDF-1.7\n`
              : '%PDF-1.7\n',
          );
          // One byte every 250 ms: a connection kept open for ever at almost no cost to the client.
          const drip = setInterval(() => {
            leftover = Math.max(leftover, filesUnder(strict.ctx.tmpDir).length);
            req.write('x');
          }, 250);
          const done = () => {
            clearInterval(drip);
            resolve({ ms: Date.now() - started, leftover });
          };
          req.on('error', done);
          req.on('close', done);
          req.on('response', (res) => res.resume());
        });
        // The temporary file existed while the body arrived, and the cut-off came (generously) late enough to be the timeout's.
        expect(ended.leftover, t.path).toBeGreaterThan(0);
        expect(ended.ms).toBeGreaterThanOrEqual(1000);
        await expect.poll(() => filesUnder(strict.ctx.tmpDir).map((e) => e.name), { timeout: 10_000 }).toEqual([]);
      }
    } finally {
      await strict.stop();
    }
  });

  it('an upload aborted by the client leaves no temporary file', async () => {
    const client = await visitor(served.quire);
    const url = new URL(`${served.quire.url}/api/tools/v1/file/stream`);
    await new Promise<void>((resolve) => {
      const req = http.request({
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { cookie: client.cookie, 'content-type': 'multipart/form-data; boundary=b' },
      });
      req.on('error', () => resolve());
      req.write('--b\r\nContent-Disposition: form-data; name="file"; filename="cut.pdf"\r\n\r\n%PDF-1.7\n');
      req.write(Buffer.alloc(300 * 1024, 1));
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 500);
    });
    await expect
      .poll(() => filesUnder(served.quire.ctx.tmpDir).filter((e) => !e.parentPath.includes('uploads')), { timeout: 10_000 })
      .toEqual([]);
  });
});

describe('client file names', () => {
  it('are stripped of paths, backslashes, NULs, control characters and bare dots, and zip to sane unique names', async () => {
    const client = await visitor(served.quire);
    const pdf = fs.readFileSync(file('a.pdf'));
    const streamNames = ['..\\..\\Windows\\evil.pdf', '../../etc/passwd.pdf', 'C:\\Users\\me\\report.pdf'];
    const chunkedNames = ['tab\there\x07.pdf', 'nul\0one.pdf', 'nul\0two.pdf', '...', '.hidden.pdf', 'a\u202Efdp.exe'];
    const ids: string[] = [];
    const stored: string[] = [];
    for (const name of streamNames) {
      const res = await client.upload(file('a.pdf'), name);
      expect(res.code, name).toBe(0);
      ids.push(res.data.file_id);
      stored.push(res.data.file_name);
    }
    for (const name of chunkedNames) {
      const res = await chunkedUpload(client, name, pdf);
      expect(res.code, JSON.stringify(name)).toBe(0);
      ids.push(res.data.file_id);
      stored.push(res.data.file_name);
    }
    expect(stored).toEqual([
      'evil.pdf',
      'passwd.pdf',
      'report.pdf',
      'tabhere.pdf',
      'nulone.pdf',
      'nultwo.pdf',
      'document',
      'hidden.pdf',
      'afdp.exe',
    ]);
    for (const id of ids) {
      const created = await client.post('document/rotate', { file_id: id, angle: 90, pages: 'all', multi_id: 'names' });
      expect(created.code).toBe(0);
      expect((await client.waitTask(created.data.task_id)).status).toBe(0);
    }
    const res = await client.raw('/api/tools/v1/download-doc-bulk?multi_id=names');
    expect(res.status).toBe(200);
    fs.writeFileSync(file('names.zip'), Buffer.from(await res.arrayBuffer()));
    const entries = execFileSync('unzip', ['-Z1', file('names.zip')])
      .toString()
      .trimEnd()
      .split('\n');
    expect(entries).toHaveLength(ids.length);
    expect(new Set(entries).size).toBe(entries.length);
    for (const entry of entries) {
      expect(entry).toMatch(/^[^./\\][^/\\]*$/);
      expect(entry).not.toMatch(/\p{Cc}/u);
    }
    // unzip -t reads every entry back.
    expect(execFileSync('unzip', ['-tq', file('names.zip')]).toString()).toMatch(/No errors/);
  });

  it('a zip of several outputs is named after the whole input name', async () => {
    const client = await visitor(served.quire);
    const id = (await client.upload(file('three.pdf'), 'scan.v1.2-160F-2019.pdf')).data.file_id;
    const created = await client.post('split', { file_id: id, mode: 'custom', ranges: '1, 2-3' });
    const entry = await client.waitTask(created.data.task_id);
    expect(entry.output_file_name).toBe('scan.v1.2-160F-2019.zip');
    expect(entry.outputs.map((o) => o.name)).toEqual(['scan.v1.2-160F-2019-1.pdf', 'scan.v1.2-160F-2019-2-3.pdf']);
    const res = await client.raw(`/api/tools/v1/document/download-doc?task_id=${entry.task_id}`);
    expect(res.headers.get('content-disposition')).toContain(`filename="scan.v1.2-160F-2019.zip"`);
    await res.arrayBuffer();
  });
});
