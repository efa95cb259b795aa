// The AI detector's calls against a real server: scores for text and for the text of PDF, Word and
// text files (read independently with pdftotext), the 250-character minimum, the single-request
// limit, the character quota of each plan just under and over, a file over the plan's pages
// refused and deleted, and another account's file. With a model set for the detector (the tests'
// tiny model, in llama.cpp or behind an OpenAI-compatible server): its scores, the statistical
// detector where an endpoint cannot score, and characters given back when the model fails or the
// client goes.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultLimits, ErrorCode, withOverride } from '@quire/contracts';
import { Client, quireForTests, signedIn, startQuire, type Envelope } from './harness.js';
import { encryptPdf, makePdf } from './fixtures.js';
import { startOpenAiServer, type OpenAiTestServer } from './openaiServer.js';
import { prose, tinyModelWriting, writeTinyModel } from './tinyModel.js';

/** Small quotas for free and the AI plan, so that each is reached in a few calls; Premium keeps the product's 100,000. */
const limits = withOverride(defaultLimits, {
  free: { ai: { detectorChars: 1000, detectorMaxRequestChars: 600 } },
  ai: { ai: { detectorChars: 1000, detectorMaxRequestChars: 600 } },
});
const served = quireForTests('ai-detect', { limits });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-ai-detect-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const BASE = '/api/ai/v2/ai-detect/';
let emails = 0;
const account = (plan: 'free' | 'premium' | 'ai' = 'free') =>
  signedIn(served.quire.url, served.quire.ctx, `detect-${emails++}@example.org`, plan);

async function post(client: Client, call: string, body: unknown): Promise<Envelope> {
  const res = await client.raw(BASE + call, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Envelope;
}
const charCheck = async (client: Client) => ((await (await client.raw(`${BASE}char/check`)).json()) as Envelope).data;

describe('AI detector', () => {
  it('refuses visitors every call (3001)', async () => {
    const visitor = new Client(served.quire.url);
    expect((await post(visitor, 'predict/text', { text: prose(300) })).code).toBe(ErrorCode.NotLogin);
    expect((await post(visitor, 'predict/file', { file_id: 'x' })).code).toBe(ErrorCode.NotLogin);
    expect(((await (await visitor.raw(`${BASE}char/check`)).json()) as Envelope).code).toBe(ErrorCode.NotLogin);
  });

  it('scores text whole and per sentence, with the offsets of each sentence, at 250 characters and not at 249', async () => {
    const client = await account();
    const short = await post(client, 'predict/text', { text: prose(249) });
    expect(short.code).toBe(ErrorCode.TextTooShort);
    expect(await charCheck(client)).toEqual({ total: 1000, used: 0 });

    const text = `  ${prose(250)}\n`;
    const res = await post(client, 'predict/text', { text });
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({ total: 1000, remain: 750, per_chars: 250, method: 'statistical' });
    expect(res.data.score).toBeGreaterThanOrEqual(0);
    expect(res.data.score).toBeLessThanOrEqual(1);
    expect(res.data.sentences.length).toBe(3);
    for (const s of res.data.sentences) {
      expect(text.slice(s.start, s.end)).toBe(s.sentence);
      expect(s.score).toBeGreaterThanOrEqual(0);
      expect(s.score).toBeLessThanOrEqual(1);
    }
    expect(await charCheck(client)).toEqual({ total: 1000, used: 250 });
  });

  it('tells a licence from this project’s specification, which a language model wrote', async () => {
    const client = await account('premium');
    const gpl = fs.readFileSync('/usr/share/common-licenses/GPL-3', 'utf8').slice(2000, 4000);
    const adr = fs
      .readFileSync(path.resolve(import.meta.dirname, '../../../docs/adr/0022-engine-bounds-per-job.md'), 'utf8')
      .slice(0, 2000);
    const human = await post(client, 'predict/text', { text: gpl });
    const machine = await post(client, 'predict/text', { text: adr });
    expect(human.data.score).toBeLessThan(0.5);
    expect(machine.data.score).toBeGreaterThan(0.5);
  });

  for (const plan of ['free', 'ai'] as const) {
    it(`charges ${plan} characters up to its quota, and refuses one request over its single-request limit`, async () => {
      const client = await account(plan);
      expect((await post(client, 'predict/text', { text: prose(601) })).code).toBe(ErrorCode.DetectorRequestLimit);
      expect((await post(client, 'predict/text', { text: prose(600) })).data.remain).toBe(400);
      // Just over what is left: refused, nothing charged; exactly what is left: taken.
      const over = await post(client, 'predict/text', { text: prose(401) });
      expect(over.code).toBe(ErrorCode.DetectorCharsLimit);
      expect(over.data).toEqual(plan === 'free' ? { upgrade: 'detectorLimit', limit: 1000 } : null);
      expect(await charCheck(client)).toEqual({ total: 1000, used: 600 });
      expect((await post(client, 'predict/text', { text: prose(400) })).data.remain).toBe(0);
      expect((await post(client, 'predict/text', { text: prose(250) })).code).toBe(ErrorCode.DetectorCharsLimit);
    });
  }

  it('lets only one of two racing requests take characters that suffice for one', async () => {
    const client = await account();
    const answers = await Promise.all([
      post(client, 'predict/text', { text: prose(600) }),
      post(client, 'predict/text', { text: prose(600) }),
    ]);
    expect(answers.map((a) => a.code).sort()).toEqual([0, ErrorCode.DetectorCharsLimit]);
    expect(await charCheck(client)).toEqual({ total: 1000, used: 600 });
  });

  it("gives Premium 100,000 characters a month, 50,000 a request, and says 'Limit of 100,000 characters exceeded'", async () => {
    const client = await account('premium');
    expect((await post(client, 'predict/text', { text: prose(50_001) })).code).toBe(ErrorCode.DetectorRequestLimit);
    expect((await post(client, 'predict/text', { text: prose(50_000) })).data.remain).toBe(50_000);
    expect((await post(client, 'predict/text', { text: prose(49_999) })).data.remain).toBe(1);
    const over = await post(client, 'predict/text', { text: prose(250) });
    expect(over).toMatchObject({ code: ErrorCode.DetectorCharsLimit, msg: 'Limit of 100,000 characters exceeded' });
    // The next month's quota is whole again.
    const ctx = served.quire.ctx;
    const now = ctx.now;
    const nextMonth = new Date(now());
    nextMonth.setUTCMonth(nextMonth.getUTCMonth() + 1);
    ctx.now = () => nextMonth.getTime();
    try {
      expect(await charCheck(client)).toEqual({ total: 100_000, used: 0 });
    } finally {
      ctx.now = now;
    }
  });

  it('scores the text of a PDF as pdftotext reads it', async () => {
    const client = await account('premium');
    const pdf = path.resolve(import.meta.dirname, '../../../test-corpus/pdfjs/issue13201.pdf');
    const res = await post(client, 'predict/file', { file_id: await client.uploadId(pdf) });
    expect(res.code).toBe(0);
    // pdftotext's plain text joins a word hyphenated across lines; its layout keeps the hyphen.
    const squeeze = (s: string) => s.replace(/[\s-]+/g, '');
    const independent = squeeze(execFileSync('pdftotext', ['-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' }));
    // Every sentence is the PDF's text, and together they are nearly all of it.
    for (const s of res.data.sentences) expect(independent).toContain(squeeze(s.sentence));
    const covered = res.data.sentences.reduce((n: number, s: { sentence: string }) => n + squeeze(s.sentence).length, 0);
    expect(covered / independent.length).toBeGreaterThan(0.9);
  });

  it('scores Word and UTF-16 text files', async () => {
    const client = await account('premium');
    const text = prose(900);
    const txt = path.join(tmp, 'utf16.txt');
    fs.writeFileSync(txt, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const fromText = await post(client, 'predict/file', { file_id: await client.uploadId(txt) });
    expect(fromText.data.per_chars).toBe(900);
    expect(fromText.data.sentences[0].sentence).toBe(text.slice(0, text.indexOf('.') + 1));
    // A Word document made by LibreOffice from the same text.
    execFileSync('soffice', ['--headless', `-env:UserInstallation=file://${tmp}/lo`, '--convert-to', 'docx', '--outdir', tmp, txt], {
      stdio: 'ignore',
    });
    const fromWord = await post(client, 'predict/file', { file_id: await client.uploadId(path.join(tmp, 'utf16.docx')) });
    expect(fromWord.code).toBe(0);
    // LibreOffice breaks the lines of a text file's paragraph; the words are the same.
    const sentences = fromWord.data.sentences.map((s: { sentence: string }) => s.sentence.replace(/\s+/g, ' '));
    expect(sentences.join(' ')).toBe(text);
  });

  it('refuses a free account a PDF over 10 pages (11011), takes 10, and deletes each file once read', async () => {
    const client = await account();
    const label = 'Rivers rise and fall with the seasons';
    const ten = await client.uploadId(await makePdf(path.join(tmp, 'ten.pdf'), 10, label));
    expect((await post(client, 'predict/file', { file_id: ten })).code).toBe(0);
    expect((await client.answer(`file/download?file_id=${ten}`)).body?.code).toBe(ErrorCode.NoData);
    expect(fs.existsSync(path.join(served.quire.ctx.config.dataDir, 'storage', 'files', `${ten}.pdf`))).toBe(false);
    const eleven = await client.uploadId(await makePdf(path.join(tmp, 'eleven.pdf'), 11, label));
    const stored = path.join(served.quire.ctx.config.dataDir, 'storage', 'files', `${eleven}.pdf`);
    expect(fs.existsSync(stored)).toBe(true);
    const refused = await post(client, 'predict/file', { file_id: eleven });
    expect(refused).toMatchObject({ code: ErrorCode.DetectorFileLimit, data: { upgrade: 'detectorLimit', limit: 10 } });
    const download = await client.answer(`file/download?file_id=${eleven}`);
    expect(download.body?.code).toBe(ErrorCode.NoData);
    expect(fs.existsSync(stored)).toBe(false);
  });

  it('refuses a file with too little text (11005) or a password (3122), and charges nothing', async () => {
    const client = await account();
    const short = await client.uploadId(await makePdf(path.join(tmp, 'short.pdf'), 2, 'Short'));
    expect((await post(client, 'predict/file', { file_id: short })).code).toBe(ErrorCode.TextTooShort);
    const locked = encryptPdf(await makePdf(path.join(tmp, 'plain.pdf'), 1, prose(300)), path.join(tmp, 'locked.pdf'), 'secret-1');
    expect((await post(client, 'predict/file', { file_id: await client.uploadId(locked) })).code).toBe(ErrorCode.Encrypted);
    expect(await charCheck(client)).toEqual({ total: 1000, used: 0 });
  });

  it("answers 2405 for another account's file, and charges nothing", async () => {
    const owner = await account('premium');
    const other = await account('premium');
    const fileId = await owner.uploadId(await makePdf(path.join(tmp, 'owned.pdf'), 1, 'Owned'));
    expect((await post(other, 'predict/file', { file_id: fileId })).code).toBe(ErrorCode.NoData);
    expect(await charCheck(other)).toEqual({ total: 100_000, used: 0 });
  });
});

describe('AI detector with a model set for it (the tiny model, in llama.cpp and behind an endpoint)', () => {
  const KEY = 'endpoint-key-for-the-detector';
  const modelPath = path.join(tmp, 'tiny.gguf');
  let endpoint: OpenAiTestServer;
  let quire: Awaited<ReturnType<typeof startQuire>>;
  let client: Client;
  beforeAll(async () => {
    writeTinyModel(modelPath);
    endpoint = await startOpenAiServer(modelPath, KEY, 4096);
    quire = await startQuire({
      aiProviders: { ...served.quire.ctx.config.aiProviders, detect: 'local' },
      aiModels: {
        local: { modelPath, memoryMb: 2048, contextTokens: 1024, threads: 1 },
        openai: { baseUrl: endpoint.baseUrl, model: 'tiny', key: KEY },
      },
    });
    client = await signedIn(quire.url, quire.ctx, 'model-detector@example.org', 'premium');
  }, 60_000);
  afterAll(async () => {
    await quire?.stop();
    await endpoint?.close();
  });
  /** The detector's provider from now on: the server reads it at each request. */
  const detectWith = (provider: 'local' | 'openai' | 'classic') => {
    quire.ctx.config.aiProviders.detect = provider;
  };
  const predict = (text: string) => post(client, 'predict/text', { text });
  const used = async () => (await charCheck(client)).used as number;

  // Three sentences of prose, then the tiny model's own greedy writing after them: a person's text, then a
  // machine's. The model reads its writing as predictable after what it was written after: alone too.
  const human = prose(255);
  let mixed = '';
  let writing = '';
  beforeAll(async () => {
    mixed = await tinyModelWriting(modelPath, `${human} The`, 400);
    writing = await tinyModelWriting(modelPath, 'The', 300);
  }, 60_000);

  it('answers method model with the model’s scores: sentences at their offsets, the writing a machine’s, the prose a person’s', async () => {
    detectWith('local');
    const before = await used();
    const res = await predict(mixed);
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({ method: 'model', per_chars: mixed.length, remain: 100_000 - before - mixed.length });
    expect(res.data.fallback).toBeUndefined();
    const sentences = res.data.sentences as { sentence: string; start: number; end: number; score: number }[];
    for (const s of sentences) {
      expect(mixed.slice(s.start, s.end)).toBe(s.sentence);
      expect(s.score).toBeGreaterThanOrEqual(0);
      expect(s.score).toBeLessThanOrEqual(1);
    }
    // Together the sentences are the whole text but the white space between them.
    expect(sentences.map((s) => s.sentence).join(' ')).toBe(mixed);
    expect(sentences[0]!.sentence).toBe(human.slice(0, human.indexOf('.') + 1));
    expect(sentences[0]!.score).toBeLessThan(0.5);
    expect(sentences.at(-1)!.score).toBeGreaterThan(0.5);
    expect((await predict(human)).data.score).toBeLessThan(0.5);
    expect((await predict(writing)).data.score).toBeGreaterThan(0.5);
    // The same text scores the same again.
    expect((await predict(mixed)).data).toMatchObject({ score: res.data.score, sentences: res.data.sentences });
  });

  it('answers method statistical, with other scores, where the detector’s provider is classic', async () => {
    detectWith('classic');
    const res = await predict(writing);
    expect(res.data.method).toBe('statistical');
    expect(res.data.fallback).toBeUndefined();
    // The statistical detector knows nothing of the tiny model: its writing is letters at random to it.
    expect(res.data.score).toBeLessThan(0.5);
  });

  it('scores through an endpoint that echoes log-probabilities, and falls back to statistics, saying so, where it does not', async () => {
    detectWith('openai');
    const asked = endpoint.completions.length;
    const res = await predict(mixed);
    expect(res.data.method).toBe('model');
    expect(endpoint.completions).toHaveLength(asked + 1);
    expect(res.data.sentences.at(-1).score).toBeGreaterThan(0.5);
    const log = vi.spyOn(console, 'warn').mockImplementation(() => {});
    endpoint.echoes = false;
    try {
      const before = await used();
      const fallback = await predict(mixed);
      expect(fallback.data).toMatchObject({ method: 'statistical', fallback: 'model-cannot-score', per_chars: mixed.length });
      expect(await used()).toBe(before + mixed.length);
      expect(log.mock.calls.join('\n')).toMatch(/the openai model cannot score text, the statistical detector answers/);
    } finally {
      endpoint.echoes = true;
      log.mockRestore();
    }
  });

  it('gives the characters back when the model fails (11020)', async () => {
    detectWith('local');
    const log = vi.spyOn(console, 'warn').mockImplementation(() => {});
    fs.renameSync(modelPath, `${modelPath}.away`);
    try {
      const before = await used();
      expect((await predict(mixed)).code).toBe(ErrorCode.AiUnavailable);
      expect(await used()).toBe(before);
    } finally {
      fs.renameSync(`${modelPath}.away`, modelPath);
      log.mockRestore();
    }
  });

  it('stops scoring when the client goes, closing the endpoint’s connection, and gives the characters back', async () => {
    detectWith('openai');
    const before = await used();
    const asked = endpoint.completions.length;
    endpoint.delayMs = 30_000;
    const gone = new AbortController();
    try {
      const request = client.raw(`${BASE}predict/text`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: mixed }),
        signal: gone.signal,
      });
      await vi.waitFor(() => expect(endpoint.completions).toHaveLength(asked + 1), { timeout: 10_000, interval: 10 });
      expect(await used()).toBe(before + mixed.length);
      gone.abort();
      await expect(request).rejects.toThrow();
      expect((await endpoint.completions.at(-1)!.ended).stopReason).toBe('abort');
      await vi.waitFor(async () => expect(await used()).toBe(before), { timeout: 10_000, interval: 50 });
    } finally {
      endpoint.delayMs = 0;
    }
  });
});
