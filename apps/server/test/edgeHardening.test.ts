// The HTTP edge against what the attacker did: a body trickling just fast enough never to
// count as stalled, and a server behind a TLS proxy that never told browsers to keep to HTTPS.
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@quire/contracts';
import { quireForTests, startQuire } from './harness.js';

const BODY_TIMEOUT_MS = 2000;
const served = quireForTests('edge-hardening', { bodyTimeoutMs: BODY_TIMEOUT_MS });

interface Trickled {
  status: number;
  body: string;
  sentBytes: number;
  elapsedMs: number;
}

/**
 * POSTs a multipart upload of `fileBytes`, `step` bytes every `everyMs`: never stalled by the
 * progress rule, but slower than any real upload. Resolves with the answer, or status 0 if the
 * connection ended without one.
 */
function trickle(url: string, fileBytes: number, step: number, everyMs: number): Promise<Trickled> {
  const boundary = 'quire-trickle';
  const head = Buffer.from(
    `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="slow.pdf"\r\ncontent-type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = Buffer.concat([head, Buffer.alloc(fileBytes, 0x20), tail]);
  const started = Date.now();
  return new Promise((resolve) => {
    let sentBytes = 0;
    let done = false;
    const finish = (status: number, text: string) => {
      if (done) return;
      done = true;
      clearInterval(timer);
      resolve({ status, body: text, sentBytes, elapsedMs: Date.now() - started });
    };
    const req = http.request(`${url}/api/tools/v1/file/stream`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length) },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => {
        text += c.toString();
      });
      res.on('end', () => finish(res.statusCode ?? 0, text));
      res.on('error', () => finish(res.statusCode ?? 0, text));
    });
    req.on('error', () => finish(0, ''));
    const timer = setInterval(() => {
      if (sentBytes >= body.length) return clearInterval(timer);
      const chunk = body.subarray(sentBytes, sentBytes + step);
      sentBytes += chunk.length;
      req.write(chunk);
      if (sentBytes >= body.length) req.end();
    }, everyMs);
  });
}

describe('a request body', () => {
  it('trickling just over the progress rule is answered 408 (90002) at its deadline, before it ends', async () => {
    // 8.5 KiB every 0.5 s: 34 KiB in every 2 s body timeout (the rule asks 16), 17 KiB/s in all.
    // 160 KiB would take about 9.6 s; the deadline is 2 s plus 160 KiB at 32 KiB/s, 7 s.
    const fileBytes = 160 * 1024;
    const answer = await trickle(served.quire.url, fileBytes, 8704, 500);
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body).code).toBe(ErrorCode.UploadFailed);
    expect(answer.sentBytes).toBeLessThan(fileBytes);
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS + 5000 - 100);
  }, 60_000);
});

describe('Strict-Transport-Security', () => {
  const hsts = async (url: string, headers: Record<string, string> = {}) =>
    (await fetch(`${url}/api/tools/v1/config`, { headers })).headers.get('strict-transport-security');

  it('is sent behind a trusted TLS proxy that says https, not over plain HTTP or on a stranger’s word', async () => {
    expect(await hsts(served.quire.url, { 'x-forwarded-proto': 'https' })).toBeNull();
    const behindProxy = await startQuire({ trustProxy: '127.0.0.1' }, false);
    try {
      expect(await hsts(behindProxy.url, { 'x-forwarded-proto': 'https' })).toBe('max-age=31536000');
      const page = await fetch(`${behindProxy.url}/app/home`, { headers: { 'x-forwarded-proto': 'https' } });
      expect(page.headers.get('strict-transport-security')).toBe('max-age=31536000');
      expect(await hsts(behindProxy.url, { 'x-forwarded-proto': 'http' })).toBeNull();
      expect(await hsts(behindProxy.url)).toBeNull();
    } finally {
      await behindProxy.stop();
    }
  });
});
