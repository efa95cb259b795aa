// A whole PDF translated by a model through the API, the task run by the worker: llama.cpp on the
// tiny random-weights model the test writes, behind the tests' OpenAI-compatible server (whose
// record of each request and of llama.cpp's counts is the test's independent view) and as the
// local provider. A random model writes gibberish, so this checks the plumbing: the paragraphs
// asked for in numbered batches then one by one when the answer does not read back, the lines
// written in place with the page numbers kept, the tokens charged as the engine counted them, the
// model's languages (en→de, which no Apertium pair has), a cancel and the task's time limit.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultLimits, ErrorCode, withOverride } from '@quire/contracts';
import { type Config, loadConfig } from '../src/config.js';
import { findAccountByEmail } from '../src/db/accountsRepo.js';
import { aiAccountOf, chargeTokens } from '../src/services/aiQuota.js';
import { type Client, type Envelope, type Running, signedIn, startQuire } from './harness.js';
import { startOpenAiServer, type OpenAiTestServer } from './openaiServer.js';
import { until } from './serverProcess.js';
import { writeTinyModel } from './tinyModel.js';

const KEY = 'endpoint-key-for-translation';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-translate-model-'));
const modelPath = path.join(dir, 'tiny.gguf');
const limits = withOverride(defaultLimits, { free: { ai: { tokens: 100_000 } } });

const TITLE = 'The Green Garden';
const PARAGRAPH = [
  'The house is big and the garden is green. The old dog',
  'sleeps in the sun every day, and the children play with',
  'the water in the morning.',
];
const PAGES = 3;

/** Three pages, each a title, a paragraph of three lines and its number at the foot. */
async function englishPdf(file: string): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= PAGES; n++) {
    const page = doc.addPage([595, 842]);
    page.drawText(TITLE, { x: 72, y: 760, size: 24, font });
    for (const [i, line] of PARAGRAPH.entries()) page.drawText(line, { x: 72, y: 700 - i * 16, size: 12, font });
    page.drawText(`${n}`, { x: 290, y: 40, size: 10, font });
  }
  fs.writeFileSync(file, await doc.save());
  return file;
}

const pdftotext = (file: string, page: number) =>
  execFileSync('pdftotext', ['-layout', '-f', `${page}`, '-l', `${page}`, file, '-'], { encoding: 'utf8' });
const pageCount = (file: string) => Number(/^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))?.[1]);

const usedTokens = async (client: Client) =>
  ((await (await client.raw('/api/ai/v2/chat/gpt-token/check')).json()) as Envelope).data.used_tokens as number;

let endpoint: OpenAiTestServer;
let source: string;
beforeAll(async () => {
  writeTinyModel(modelPath);
  source = await englishPdf(path.join(dir, 'garden.pdf'));
  endpoint = await startOpenAiServer(modelPath, KEY, 8192);
}, 60_000);
afterAll(async () => {
  await endpoint.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const defaults = loadConfig({}, []);
/** In a describe: a Quire for its tests whose translations are a model's, the endpoint's or the local provider's. */
function quireTranslatingBy(translate: 'openai' | 'local', over: Partial<Config> = {}): () => Running {
  let quire: Running | undefined;
  beforeAll(async () => {
    quire = await startQuire({
      limits,
      aiProviders: { ...defaults.aiProviders, translate },
      aiModels: {
        local: { modelPath, memoryMb: 2048, contextTokens: 8192, threads: 1 },
        openai: { baseUrl: endpoint.baseUrl, model: 'tiny', key: KEY },
      },
      ...over,
    });
  }, 60_000);
  afterAll(() => quire?.stop());
  return () => quire!;
}

let accounts = 0;
/** A new free account's client, `spent` of its tokens spent already as other calls would. */
async function account(quire: Running, spent = 0): Promise<Client> {
  const email = `translate-model-${accounts++}@example.org`;
  const client = await signedIn(quire.url, quire.ctx, email, 'free');
  const row = await findAccountByEmail(quire.ctx.db, email);
  if (spent) await chargeTokens(quire.ctx, aiAccountOf(quire.ctx, { ownerId: row!.id, account: row }), spent);
  return client;
}

/** Asks for the test PDF in German: the call's answer, and how many requests the endpoint had before it. */
async function translateToGerman(client: Client) {
  const fileId = await client.uploadId(source);
  const asked = endpoint.answers.length;
  return { created: await client.postAi('translate/file', { file_id: fileId, from: 'en', to: 'de' }), asked };
}

/** The PDF's paragraphs as MuPDF reads them (a block a paragraph, its lines joined), in order. */
const PARAGRAPHS = Array.from({ length: PAGES }, () => [TITLE, PARAGRAPH.join(' ')]).flat();

/** Each page's text is the original's nowhere but its number, which stays. */
function expectTranslatedInPlace(out: string) {
  expect(pageCount(out)).toBe(PAGES);
  for (let n = 1; n <= PAGES; n++) {
    const text = pdftotext(out, n);
    const lines = text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    expect(lines.at(-1), `page ${n}`).toBe(`${n}`);
    for (const line of [TITLE, ...PARAGRAPH]) expect(text, `page ${n}`).not.toContain(line);
    // The translation is written there: letters of the model's, on the lines above the number.
    expect(lines.slice(0, -1).join(' '), `page ${n}`).toMatch(/\p{L}{3}/u);
    expect(pdftotext(source, n)).toContain(TITLE);
  }
}

describe('a PDF translated by a model behind an OpenAI-compatible endpoint', () => {
  const quire = quireTranslatingBy('openai');

  it('translates en→de in place, numbered paragraphs first then one by one, charged what llama.cpp counted', async () => {
    const client = await account(quire());
    const { created, asked } = await translateToGerman(client);
    expect(created.code, created.msg).toBe(0);
    // Nothing is charged as it is queued: the model's answers are, as the engine counts them.
    expect(created.data.tokens).toBe(0);
    const entry = await client.waitTask(created.data.task_id);
    expect(entry.status, entry.msg).toBe(0);

    const requests = endpoint.answers.slice(asked);
    const asks = requests.map((r) => r.body.messages.at(-1)!.content);
    // The paragraphs numbered in one request; a random model's answer has no numbers to read back, so each is asked for alone.
    expect(asks).toEqual([PARAGRAPHS.map((text, i) => `[${i + 1}] ${text}`).join('\n\n'), ...PARAGRAPHS]);
    for (const r of requests) expect(r.body.messages[0]!.content).toMatch(/from English into German/);
    const counted = await Promise.all(requests.map((r) => r.ended));
    expect(counted.map((c) => c.stopReason)).not.toContain('abort');
    const engineTokens = counted.reduce((n, c) => n + c.promptTokens + c.completionTokens, 0);
    expect(await usedTokens(client)).toBe(engineTokens);
    expect(entry.outputs?.[0]?.note).toContain(`by the language model, for ${engineTokens.toLocaleString('en-US')} AI tokens`);

    const out = path.join(dir, 'garden-de.pdf');
    await client.download(entry.task_id, out);
    execFileSync('qpdf', ['--check', out]);
    expectTranslatedInPlace(out);
  });

  it('offers the model’s languages: 11021 for a pair outside them, even one Apertium has, queuing and charging nothing', async () => {
    const client = await account(quire());
    const fileId = await client.uploadId(source);
    const languages = ((await (await client.raw('/api/ai/v2/translate/languages')).json()) as Envelope).data;
    expect(languages.pairs).toContainEqual({ from: 'en', to: 'de', via: [] });
    const asked = endpoint.answers.length;
    // Apertium's English–Catalan pair is installed; the model's languages have no Catalan.
    for (const to of ['ca', 'xx', 'en'])
      expect((await client.postAi('translate/file', { file_id: fileId, from: 'en', to })).code, to).toBe(ErrorCode.LanguageUnavailable);
    expect(endpoint.answers.length).toBe(asked);
    expect(await usedTokens(client)).toBe(0);
  });

  it('refuses an account without tokens (11003); one that runs out midway fails with 11003 and is charged nothing', async () => {
    const spent = await translateToGerman(await account(quire(), limits.free.ai.tokens));
    expect(spent.created.code).toBe(ErrorCode.NotEnoughTokens);
    expect(endpoint.answers.length).toBe(spent.asked);

    // 2,500 tokens left: the numbered request's bound (its bytes, its chat template's 256 and twice
    // its bytes written) fits, and what it spends leaves too few for the paragraphs after it.
    const client = await account(quire(), limits.free.ai.tokens - 2500);
    const { created, asked } = await translateToGerman(client);
    expect(created.code, created.msg).toBe(0);
    expect((await client.waitTask(created.data.task_id)).status).toBe(ErrorCode.NotEnoughTokens);
    expect(endpoint.answers.length - asked).toBeGreaterThanOrEqual(2);
    expect(await usedTokens(client)).toBe(limits.free.ai.tokens - 2500);
  });

  it('stops at a cancel: the request in flight is dropped, none follows, and what the provider counted of it is charged', async () => {
    const client = await account(quire());
    // However fast the model, the first request is still waiting when the cancel comes.
    endpoint.delayMs = 60_000;
    try {
      const { created, asked } = await translateToGerman(client);
      const inFlight = await until('the first request', () => endpoint.answers[asked]);
      expect((await client.post('document/cancel-task', { task_id: created.data.task_id })).code).toBe(0);
      expect((await inFlight.ended).stopReason).toBe('abort');
      expect((await client.waitTask(created.data.task_id)).status).toBe(ErrorCode.Cancelled);
      await new Promise((r) => setTimeout(r, 1500));
      expect(endpoint.answers.length).toBe(asked + 1);
      // An answer stopped before the endpoint's usage came is counted by the provider: its prompt at 4 characters a token.
      const chars = inFlight.body.messages.reduce((n, m) => n + m.content.length, 0);
      expect(await usedTokens(client)).toBe(Math.ceil(chars / 4));
    } finally {
      endpoint.delayMs = 0;
    }
  });
});

describe('a model’s PDF translation out of time', () => {
  const quire = quireTranslatingBy('openai', { taskTimeoutMs: 10_000 });

  it('fails at the task’s time limit, stopping the request in flight, and gives back what it was charged', async () => {
    const client = await account(quire());
    endpoint.delayMs = 60_000;
    try {
      const started = Date.now();
      const { created, asked } = await translateToGerman(client);
      const entry = await client.waitTask(created.data.task_id);
      expect(entry.status).toBe(ErrorCode.TaskFailed);
      expect(entry.msg).toMatch(/took too long/);
      expect(Date.now() - started).toBeLessThan(40_000);
      expect((await endpoint.answers[asked]!.ended).stopReason).toBe('abort');
      expect(endpoint.answers.length).toBe(asked + 1);
      expect(await usedTokens(client)).toBe(0);
    } finally {
      endpoint.delayMs = 0;
    }
  });
});

describe('a PDF translated by the local model (llama.cpp in its worker process)', () => {
  const quire = quireTranslatingBy('local');

  it('translates en→de in place, charged the tokens the note says', async () => {
    const client = await account(quire());
    const { created } = await translateToGerman(client);
    expect(created.code, created.msg).toBe(0);
    const entry = await client.waitTask(created.data.task_id, 300_000);
    expect(entry.status, entry.msg).toBe(0);
    const used = await usedTokens(client);
    expect(used).toBeGreaterThan(0);
    expect(entry.outputs?.[0]?.note).toContain(`for ${used.toLocaleString('en-US')} AI tokens`);
    const out = path.join(dir, 'garden-de-local.pdf');
    await client.download(entry.task_id, out);
    expectTranslatedInPlace(out);
  });
});
