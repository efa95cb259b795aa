// What a refused request is answered with over real HTTP: a quota, a cut-short upload, a bad
// escape in a path and a write to a page are 4xx in the {code, msg, data} envelope (or with
// Allow), never a 500; a PDF whose image has too many pixels is told so, not that the file is too
// large; a text too long for the proofreader is told its limit in the caller's words, not zod's.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { AI_LANGUAGE_LIMITS, aiTextTooLongMessage, defaultLimits, ErrorCode, tooManyPixelsMessage } from '@quire/contracts';
import { Client, type Envelope, quireForTests, signedIn } from './harness.js';
import { pixelBomb } from './bombFixtures.js';
import { makePdf } from './fixtures.js';

// A free account's tokens cover no call at all.
const served = quireForTests('refusals', {
  limits: { ...defaultLimits, free: { ...defaultLimits.free, ai: { ...defaultLimits.free.ai, tokens: 1 } } },
});
const { dir } = served;
const file = (name: string) => path.join(dir, name);

beforeAll(async () => {
  await makePdf(file('a.pdf'), 2, 'A');
});

/** One request as a client writes it byte for byte (fetch would mend a bad escape or a short body). */
function rawRequest(
  method: string,
  pathname: string,
  headers: Record<string, string> = {},
  body?: Buffer,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const url = new URL(served.quire.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path: pathname, headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const uploadsLeft = () => fs.readdirSync(served.quire.ctx.scratchDir).filter((f) => f.endsWith('.upload'));

describe('refusals are 4xx in the envelope', () => {
  it('answers an AI call past the tokens 11003 with HTTP 402', async () => {
    const free = await signedIn(served.quire.url, served.quire.ctx, 'no-tokens@example.org', 'free');
    const res = await free.raw('/api/ai/v2/rewrite', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'In order to win the game, the team has to play well.' }),
    });
    expect(res.status).toBe(402);
    expect(((await res.json()) as Envelope).code).toBe(ErrorCode.NotEnoughTokens);
  });

  it('answers a multipart upload that ends before its closing boundary 90002 with 400, keeping no temporary file', async () => {
    const client = new Client(served.quire.url);
    await client.call('config');
    const pdf = fs.readFileSync(file('a.pdf'));
    const boundary = 'quire-cut-short';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
    // Half the file and no closing boundary: the body is complete as declared, the form is not. The
    // longer body is past the framing allowance: its declared length is weighed against what the
    // visitor may still hold before the parser starts.
    for (const padding of [0, 300_000]) {
      const body = Buffer.concat([head, pdf.subarray(0, pdf.length >> 1), Buffer.alloc(padding, 'x')]);
      const res = await rawRequest(
        'POST',
        '/api/tools/v1/file/stream',
        { cookie: client.cookie, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length) },
        body,
      );
      expect(res.status, `padding ${padding}`).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ code: ErrorCode.UploadFailed, data: null });
    }
    expect(uploadsLeft()).toEqual([]);
  });

  it('answers a path with a bad percent escape 3100 with 400 in the envelope', async () => {
    const res = await rawRequest('GET', '/api/x/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(res.body)).toMatchObject({ code: ErrorCode.InvalidParams, data: null });
  });

  it('answers a write to a page 405 with the methods it takes', async () => {
    for (const pathname of ['/app/home', '/pricing', '/no-such-page']) {
      const res = await rawRequest('POST', pathname, { 'content-type': 'application/x-www-form-urlencoded' }, Buffer.from('a=1'));
      expect(res.status, pathname).toBe(405);
      expect(res.headers.allow, pathname).toBe('GET, HEAD');
    }
  });
});

describe('what is too large is named', () => {
  it('refuses a PDF whose image declares 151 megapixels (a file of a few KB) for its pixels, not its size', async () => {
    const bomb = await pixelBomb(file('pixels.pdf'), 12_300);
    expect(fs.statSync(bomb).size).toBeLessThan(100 * 1024);
    const answer = await new Client(served.quire.url).upload(bomb);
    expect(answer).toMatchObject({ code: ErrorCode.TooLarge, msg: tooManyPixelsMessage });
  });
});

describe('a text past the AI language limit', () => {
  it("is refused with the limit's message in the caller's language, not the validator's", async () => {
    const client = await signedIn(served.quire.url, served.quire.ctx, 'long-text@example.org', 'free');
    const text = 'word '.repeat(AI_LANGUAGE_LIMITS.maxTextChars / 5 + 1);
    const ask = async (language: string) => {
      const res = await client.raw('/api/ai/v2/proofread/text', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-language': language },
        body: JSON.stringify({ text, lang: 'en-US' }),
      });
      expect(res.status).toBe(400);
      return (await res.json()) as Envelope;
    };
    expect(await ask('en')).toMatchObject({ code: ErrorCode.InvalidParams, msg: aiTextTooLongMessage });
    expect((await ask('de-DE')).msg).toBe('Der Text ist zu lang: höchstens 20.000 Zeichen auf einmal. Bitte kürzen Sie ihn.');
  });
});
