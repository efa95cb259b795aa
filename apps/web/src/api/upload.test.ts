import { describe, expect, it } from 'vitest';
import { ApiError, NETWORK_ERROR } from './client';
import { md5OfBlob, planParts, runPool, uploadInParts, withRetry } from './upload';

const KB = 1024;
const envelope = (data: unknown, code = 0, status = 200) =>
  new Response(JSON.stringify({ code, msg: code ? 'failed' : 'success', data }), { status });

describe('planParts', () => {
  it('numbers parts from 1 and keeps the last part short', () => {
    expect(planParts(1200 * KB, 512 * KB, [])).toEqual([
      { partNumber: 1, start: 0, end: 512 * KB },
      { partNumber: 2, start: 512 * KB, end: 1024 * KB },
      { partNumber: 3, start: 1024 * KB, end: 1200 * KB },
    ]);
  });

  it('skips parts the server already has', () => {
    expect(planParts(1200 * KB, 512 * KB, [1, 3]).map((p) => p.partNumber)).toEqual([2]);
    expect(planParts(1024 * KB, 512 * KB, [1, 2])).toEqual([]);
  });
});

describe('withRetry', () => {
  const noSleep = async () => {};

  it('retries transient failures up to the limit', async () => {
    let calls = 0;
    const waits: number[] = [];
    const result = await withRetry(
      async () => {
        if (++calls < 4) throw new ApiError(NETWORK_ERROR);
        return 'ok';
      },
      { retries: 15, delayMs: 2000, sleep: async (ms) => void waits.push(ms) },
    );
    expect(result).toBe('ok');
    expect(calls).toBe(4);
    expect(waits).toEqual([2000, 2000, 2000]);
  });

  it('gives up after `retries` retries', async () => {
    let calls = 0;
    const failing = () => {
      calls++;
      return Promise.reject(new ApiError(3500));
    };
    await expect(withRetry(failing, { retries: 15, delayMs: 2000, sleep: noSleep })).rejects.toThrow(ApiError);
    expect(calls).toBe(16);
  });

  it('does not retry a refused request', async () => {
    let calls = 0;
    const refused = () => {
      calls++;
      return Promise.reject(new ApiError(3100, 'bad upload id'));
    };
    await expect(withRetry(refused, { retries: 15, delayMs: 2000, sleep: noSleep })).rejects.toThrow('bad upload id');
    expect(calls).toBe(1);
  });
});

describe('runPool', () => {
  it('never runs more than the limit at once', async () => {
    let running = 0;
    let peak = 0;
    const done: number[] = [];
    await runPool([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 3, async (n) => {
      peak = Math.max(peak, ++running);
      await new Promise((r) => setTimeout(r, 1));
      running--;
      done.push(n);
    });
    expect(peak).toBe(3);
    expect(done.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});

describe('md5OfBlob', () => {
  it('hashes across slice boundaries', async () => {
    const blob = new Blob(['The quick brown fox jumps over the lazy dog']);
    expect(await md5OfBlob(blob, 5)).toBe('9e107d9d372bb6826bd81d3542a419d6');
  });
});

describe('uploadInParts', () => {
  it('resumes: sends only missing parts, retries a flaky one, then completes', async () => {
    const size = 1300 * KB; // parts 1..3
    const file = new File([new Uint8Array(size)], 'big.pdf', { type: 'application/pdf' });
    const calls: { method: string; url: string; bytes?: number }[] = [];
    let part3Failures = 0;
    const fakeFetch = async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const bytes = init?.body instanceof Blob ? init.body.size : undefined;
      calls.push({ method, url, ...(bytes !== undefined && { bytes }) });
      if (url.includes('upload-policy')) {
        const body = JSON.parse(String(init?.body));
        expect(body).toMatchObject({ filename: 'big.pdf', file_size: size });
        expect(body.md5_code).toMatch(/^[0-9a-f]{32}$/);
        return envelope({ upload_id: 'u1', part_size: 512 * KB, total_parts: 3, uploaded_parts: [2] });
      }
      if (url.includes('upload-part')) {
        if (url.includes('part_number=3') && part3Failures++ < 2) return new Response('bad gateway', { status: 502 });
        return envelope({ part_number: 1, received: bytes });
      }
      if (url.includes('upload-complete')) {
        return envelope({
          file_id: 'f1',
          file_name: 'big.pdf',
          file_size: size,
          file_url: '/x',
          page_w: 1,
          page_h: 1,
          total_page: 1,
          encrypted: false,
        });
      }
      throw new Error(`unexpected ${url}`);
    };
    const progress: number[] = [];
    const info = await uploadInParts(
      file,
      { chunkThreshold: 512 * KB, onProgress: (done) => progress.push(done) },
      { fetch: fakeFetch, sleep: async () => {} },
    );

    expect(info.file_id).toBe('f1');
    const puts = calls.filter((c) => c.method === 'PUT');
    expect(puts.map((c) => new URL(c.url, 'http://x').searchParams.get('part_number'))).toEqual(['1', '3', '3', '3']);
    expect(puts[0]!.bytes).toBe(512 * KB);
    expect(puts.at(-1)!.bytes).toBe(size - 1024 * KB);
    expect(progress[0]).toBe(512 * KB); // part 2 was already there
    expect(progress.at(-1)).toBe(size);
    expect(calls.at(-1)!.url).toContain('upload-complete');
  });

  it('fails with the server message when a part is refused', async () => {
    const file = new File([new Uint8Array(600 * KB)], 'a.pdf');
    const fakeFetch = async (url: string) =>
      url.includes('upload-policy')
        ? envelope({ upload_id: 'u1', part_size: 512 * KB, total_parts: 2, uploaded_parts: [] })
        : envelope(null, 3100, 400);
    await expect(
      uploadInParts(file, { chunkThreshold: 512 * KB, onProgress: () => {} }, { fetch: fakeFetch, sleep: async () => {} }),
    ).rejects.toThrow('failed');
  });
});
