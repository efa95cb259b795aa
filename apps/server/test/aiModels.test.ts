// The model providers against a real inference engine: llama.cpp running a tiny random-weights
// model the test writes (tinyModel.ts), directly (local) and behind an OpenAI-compatible server
// (openai), answering and scoring text. The tiny vocabulary has one token per character, so token
// counts and offsets are checked against the text itself.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ErrorCode } from '@quire/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { localModel, type LocalModelSettings } from '../src/engines/ai/local.js';
import type { GenerateRequest, ModelProvider, TextScore } from '../src/engines/ai/model.js';
import { openAiModel } from '../src/engines/ai/openai.js';
import { createModelProvider, reportModelProblems } from '../src/engines/ai/providers.js';
import { loadConfig } from '../src/config.js';
import { perplexityRatio } from '../src/services/modelDetection.js';
import { startOpenAiServer, type OpenAiTestServer } from './openaiServer.js';
import { prose, tinyModelTokens, tinyModelWriting, writeTinyModel } from './tinyModel.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-ai-models-'));
const modelPath = path.join(dir, 'tiny.gguf');
const KEY = 'sk-test-0123456789abcdef';

const settings = (over: Partial<LocalModelSettings> = {}): LocalModelSettings => ({
  modelPath,
  memoryMb: 2048,
  contextTokens: 1024,
  threads: 1,
  timeoutMs: 60_000,
  workDir: path.join(dir, 'work'),
  ...over,
});

const ask = (content: string, over: Partial<GenerateRequest> = {}): GenerateRequest => ({
  messages: [
    { role: 'system', content: 'Answer briefly.' },
    { role: 'user', content },
  ],
  maxTokens: 12,
  temperature: 0,
  ...over,
});

/** The llama.cpp workers this test process has running now (read from /proc, not from the code under test). */
function llamaWorkers(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === process.pid && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('llama-worker');
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Runs `request`, collecting the pieces of text; aborts after `abortAfter` pieces when given. */
async function answer(model: ModelProvider, request: GenerateRequest, abortAfter?: number) {
  const pieces: string[] = [];
  const stop = new AbortController();
  let workersAtAbort: number[] = [];
  const usage = await model.generate({ ...request, signal: stop.signal }, (text) => {
    pieces.push(text);
    if (pieces.length !== abortAfter) return;
    workersAtAbort = llamaWorkers();
    stop.abort();
  });
  return { pieces, text: pieces.join(''), usage, workersAtAbort };
}

async function failure(run: Promise<unknown>) {
  const e = await run.then(
    () => undefined,
    (err: unknown) => err,
  );
  return (e as { code?: number } | undefined)?.code;
}

function warnings() {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  return {
    text: () => warn.mock.calls.map((c) => c.join(' ')).join('\n'),
    restore: () => warn.mockRestore(),
  };
}

let vocabulary = 0;
beforeAll(() => {
  vocabulary = writeTinyModel(modelPath);
});

/** The tokens `model` scored of `text`; fails the test where it could not score. */
async function scored(model: ModelProvider, text: string): Promise<Extract<TextScore, { scored: true }>> {
  const score = await model.score(text, new AbortController().signal);
  if (!score.scored) throw new Error(`not scored: ${score.why}`);
  return score;
}

/** Offsets from `from` as the tiny model's tokenizer reads a text: the space it adds before the text (at its start), then a token a character. */
const offsetsOf = (text: string, from = 0) => [from, ...Array.from({ length: text.length }, (_, i) => from + i)];
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('local provider (llama.cpp in a bounded worker)', () => {
  it('streams an answer in pieces and reports llama.cpp’s token counts', async () => {
    const { pieces, text, usage } = await answer(localModel(settings()), ask('hello there'));
    expect(pieces.length).toBeGreaterThan(3);
    expect(usage.completionTokens).toBe(tinyModelTokens(text));
    // Greedy decoding never picks the end token (its output row is zero): the answer is as long as allowed.
    expect(usage.completionTokens).toBe(12);
    // The prompt's count moves by exactly the characters added to the question.
    const longer = await answer(localModel(settings()), ask('hello there and more'));
    expect(longer.usage.promptTokens - usage.promptTokens).toBe(' and more'.length);
  });

  it('stops at max tokens', async () => {
    const { usage, text } = await answer(localModel(settings()), ask('count', { maxTokens: 5 }));
    expect(usage.completionTokens).toBe(5);
    expect(tinyModelTokens(text)).toBe(5);
  });

  it('stops when aborted, charging the tokens counted so far, and leaves no worker running', async () => {
    const { pieces, usage, workersAtAbort } = await answer(localModel(settings()), ask('a long answer', { maxTokens: 1000 }), 3);
    expect(workersAtAbort).toHaveLength(1);
    expect(llamaWorkers()).toEqual([]);
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    expect(usage.completionTokens).toBeGreaterThanOrEqual(3);
    expect(usage.completionTokens).toBeLessThan(1000);
    expect(usage.promptTokens).toBeGreaterThan(0);
    const atStop = pieces.length;
    await new Promise((r) => setTimeout(r, 1000));
    expect(pieces.length).toBe(atStop);
  });

  it('holds the worker to its memory bound: a context too large for it answers 11020, and runs under a larger bound', async () => {
    // A context of 2^20 tokens: its key-value cache alone is 512 MB (2 layers, 64 values of 2 bytes, keys and values).
    const huge = { contextTokens: 1 << 20 };
    const log = warnings();
    try {
      expect(await failure(answer(localModel(settings({ memoryMb: 1400, ...huge })), ask('hello')))).toBe(ErrorCode.AiUnavailable);
      expect(log.text()).toMatch(/memory bound 1400 MB/);
    } finally {
      log.restore();
    }
    expect((await answer(localModel(settings({ memoryMb: 1400 })), ask('hello', { maxTokens: 3 }))).usage.completionTokens).toBe(3);
    expect((await answer(localModel(settings({ memoryMb: 8192, ...huge })), ask('hello', { maxTokens: 3 }))).usage.completionTokens).toBe(
      3,
    );
  });

  it('answers 11020 when it runs out of time', async () => {
    const log = warnings();
    try {
      expect(await failure(answer(localModel(settings({ timeoutMs: 200 })), ask('hello')))).toBe(ErrorCode.AiUnavailable);
      expect(log.text()).toMatch(/no answer within 0.2 s/);
    } finally {
      log.restore();
    }
  });

  it('answers 11020 for a missing, a foreign or a damaged model file, saying which in the log', async () => {
    const notGguf = path.join(dir, 'notes.gguf');
    fs.writeFileSync(notGguf, 'these are not weights');
    const damaged = path.join(dir, 'damaged.gguf');
    fs.writeFileSync(damaged, fs.readFileSync(modelPath).subarray(0, 20_000));
    const log = warnings();
    try {
      for (const file of [path.join(dir, 'absent.gguf'), notGguf, damaged])
        expect(await failure(answer(localModel(settings({ modelPath: file })), ask('hello')))).toBe(ErrorCode.AiUnavailable);
      expect(log.text()).toMatch(/absent\.gguf: the file does not exist/);
      expect(log.text()).toMatch(/notes\.gguf: it is not a GGUF file/);
      expect(log.text()).toMatch(/damaged\.gguf: cannot be loaded/);
    } finally {
      log.restore();
    }
  });
});

describe('local provider scoring a text (llama.cpp in a bounded worker)', () => {
  it('scores each token at its offset, the same each time, with the start token and the tokenizer’s space counted', async () => {
    const text = prose(300);
    const first = await scored(localModel(settings()), text);
    expect(first.tokens.map((t) => t.start)).toEqual(offsetsOf(text));
    expect(first.tokens).toHaveLength(tinyModelTokens(text) + 1);
    // The start token is evaluated too; the first of the text is predicted from it.
    expect(first.engineTokens).toBe(tinyModelTokens(text) + 2);
    for (const t of first.tokens) {
      expect(t.logprob).toBeLessThan(0);
      expect(t.entropy).toBeGreaterThan(0);
      expect(t.entropy).toBeLessThanOrEqual(Math.log(vocabulary));
    }
    expect(await scored(localModel(settings()), text)).toEqual(first);
  });

  it('reads the model’s own greedy writing as no more surprising than it expected, token by token, and prose as more', async () => {
    const prompt = 'The river rose in the night.';
    const writing = await tinyModelWriting(modelPath, prompt, 200);
    const { tokens } = await scored(localModel(settings()), writing);
    const written = tokens.filter((t) => t.start >= prompt.length);
    expect(written).toHaveLength(tinyModelTokens(writing.slice(prompt.length)));
    // Each written token is the most likely: its surprise (−ln p) is at most the prediction's entropy.
    for (const t of written) expect(-t.logprob).toBeLessThanOrEqual(t.entropy + 1e-6);
    expect(perplexityRatio(written)).toBeLessThan(0.9);
    expect(perplexityRatio((await scored(localModel(settings()), prose(300))).tokens)).toBeGreaterThan(1.2);
  });

  it('reads a text longer than its context in pieces, each from its start', async () => {
    const text = prose(600);
    const whole = await scored(localModel(settings()), text);
    // node-llama-cpp's smallest context: 256 tokens, the start token and 255 of the text's 601.
    const pieces = await scored(localModel(settings({ contextTokens: 256 })), text);
    expect(pieces.engineTokens).toBe(601 + 3);
    expect(pieces.tokens.map((t) => t.start)).toEqual(whole.tokens.map((t) => t.start));
    for (let i = 0; i < 255; i++) expect(pieces.tokens[i]!.logprob).toBeCloseTo(whole.tokens[i]!.logprob, 4);
    // The second piece's first token is read after the start token only, not after the 255 before it.
    expect(Math.abs(pieces.tokens[255]!.logprob - whole.tokens[255]!.logprob)).toBeGreaterThan(1e-3);
  });

  it('places the byte tokens of a character outside the vocabulary at that character', async () => {
    const text = `${prose(250)} Then \u2014 na\u00efve.`;
    const { tokens } = await scored(localModel(settings()), text);
    const starts = tokens.map((t) => t.start);
    // Three bytes in UTF-8, three tokens; two for the i with diaeresis.
    expect(starts.filter((s) => s === text.indexOf('\u2014'))).toHaveLength(3);
    expect(starts.filter((s) => s === text.indexOf('\u00ef'))).toHaveLength(2);
    expect(tokens).toHaveLength(text.length + 1 + 2 + 1);
    expect(starts.every((s, i) => i === 0 || s >= starts[i - 1]!)).toBe(true);
    expect(starts.at(-1)).toBe(text.length - 1);
  });

  it('ends a scoring cancelled midway, leaving no worker running (3127)', async () => {
    const stop = new AbortController();
    const scoring = localModel(settings()).score(prose(600), stop.signal);
    await vi.waitFor(() => expect(llamaWorkers()).toHaveLength(1), { timeout: 20_000, interval: 10 });
    stop.abort();
    expect(await failure(scoring)).toBe(ErrorCode.Cancelled);
    expect(llamaWorkers()).toEqual([]);
  });

  it('answers 11020 when scoring runs out of time, leaving no worker running', async () => {
    const log = warnings();
    try {
      expect(await failure(localModel(settings({ timeoutMs: 200 })).score(prose(300), new AbortController().signal))).toBe(
        ErrorCode.AiUnavailable,
      );
      expect(log.text()).toMatch(/no answer within 0.2 s/);
      expect(llamaWorkers()).toEqual([]);
    } finally {
      log.restore();
    }
  });
});

describe('openai provider (an OpenAI-compatible endpoint)', () => {
  let server: OpenAiTestServer;
  const provider = (over: { key?: string; baseUrl?: string; timeoutMs?: number } = {}) =>
    openAiModel({ baseUrl: server.baseUrl, model: 'tiny', key: KEY, timeoutMs: 60_000, ...over });

  beforeAll(async () => {
    // A context for the longest piece of text scored in one request (2,000 characters, a token each).
    server = await startOpenAiServer(modelPath, KEY, 4096);
  });
  afterAll(async () => {
    await server.close();
  });

  it('streams the answer and reports the endpoint’s usage', async () => {
    const { pieces, text, usage } = await answer(provider(), ask('hello there'));
    const served = server.answers.at(-1)!;
    expect(pieces.length).toBeGreaterThan(3);
    expect(served.body).toMatchObject({ model: 'tiny', stream: true, stream_options: { include_usage: true }, max_tokens: 12 });
    expect(served.url).toBe('/v1/chat/completions');
    const ended = await served.ended;
    expect(usage).toEqual({ promptTokens: ended.promptTokens, completionTokens: ended.completionTokens });
    expect(usage.completionTokens).toBe(tinyModelTokens(text));
  });

  it('closes the connection when aborted, and the endpoint stops generating', async () => {
    const { pieces, usage } = await answer(provider(), ask('a long answer', { maxTokens: 1000 }), 3);
    const ended = await server.answers.at(-1)!.ended;
    expect(ended.stopReason).toBe('abort');
    expect(ended.completionTokens).toBeLessThan(1000);
    // The endpoint's usage comes with its last event, which a cancelled answer never gets: counted here.
    expect(usage.completionTokens).toBe(pieces.length);
  });

  it('is what the configuration builds for a tool set to openai', async () => {
    const config = loadConfig(
      {
        aiProviders: { ...loadConfig({}, []).aiProviders, chat: 'openai' },
        aiModels: { local: settings(), openai: { baseUrl: server.baseUrl, model: 'tiny', key: KEY } },
      },
      [],
    );
    const { text, usage } = await answer(createModelProvider('openai', config, dir), ask('hi', { maxTokens: 4 }));
    expect(usage.completionTokens).toBe(tinyModelTokens(text));
    expect(usage.completionTokens).toBe(4);
  });

  it('answers 11020 for a refused key, never writing the key in the log', async () => {
    const log = warnings();
    try {
      expect(await failure(answer(provider({ key: 'sk-wrong-key-abc' }), ask('hello')))).toBe(ErrorCode.AiUnavailable);
      expect(log.text()).toMatch(/HTTP 401 \(the key was refused\)/);
      expect(log.text()).not.toMatch(/sk-wrong-key-abc|sk-test/);
    } finally {
      log.restore();
    }
  });

  it('answers 11020 for an endpoint that cannot be reached', async () => {
    // A port that was free a moment ago: nothing listens there.
    const free = net.createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const port = (free.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => free.close(() => resolve()));
    const log = warnings();
    try {
      expect(await failure(answer(provider({ baseUrl: `http://127.0.0.1:${port}/v1` }), ask('hello')))).toBe(ErrorCode.AiUnavailable);
      expect(log.text()).toMatch(/cannot be reached: ECONNREFUSED/);
    } finally {
      log.restore();
    }
  });

  it('answers 11020 when the endpoint is too slow, and closes the connection', async () => {
    const log = warnings();
    // However fast this machine runs the tiny model, the endpoint takes longer than the deadline.
    server.delayMs = 10_000;
    try {
      const asked = server.answers.length;
      expect(await failure(answer(provider({ timeoutMs: 1500 }), ask('hello')))).toBe(ErrorCode.AiUnavailable);
      expect(log.text()).toMatch(/no answer within 1.5 s/);
      expect(server.answers.length).toBe(asked + 1);
      expect((await server.answers.at(-1)!.ended).stopReason).toBe('abort');
    } finally {
      server.delayMs = 0;
      log.restore();
    }
  });

  it('scores a text with echo and logprobs: the local model’s log-probabilities and offsets, its entropies bounded below', async () => {
    const text = prose(300);
    const remote = await scored(provider(), text);
    const served = server.completions.at(-1)!;
    expect(served.url).toBe('/v1/completions');
    expect(served.body).toMatchObject({ model: 'tiny', prompt: text, echo: true, logprobs: 20, max_tokens: 1 });
    expect(remote.engineTokens).toBe((await served.ended).promptTokens);
    expect(remote.engineTokens).toBe(tinyModelTokens(text) + 2);
    const local = await scored(localModel(settings()), text);
    expect(remote.tokens.map((t) => t.start)).toEqual(offsetsOf(text));
    remote.tokens.forEach((t, i) => {
      expect(t.logprob).toBeCloseTo(local.tokens[i]!.logprob, 4);
      expect(t.entropy).toBeGreaterThan(0);
      expect(t.entropy).toBeLessThanOrEqual(local.tokens[i]!.entropy + 1e-6);
    });
  });

  it('sends a long text in pieces cut before white space, placing each piece’s tokens in the whole', async () => {
    const text = prose(9000);
    const asked = server.completions.length;
    const remote = await scored(provider(), text);
    const sent = server.completions.slice(asked).map((c) => c.body.prompt);
    expect(sent.join('')).toBe(text);
    expect(sent).toHaveLength(5);
    for (const piece of sent) expect(piece.length).toBeLessThanOrEqual(2000);
    for (const piece of sent.slice(1)) expect(piece).toMatch(/^ \S/);
    let from = 0;
    const expected = sent.flatMap((piece) => {
      const offsets = offsetsOf(piece, from);
      from += piece.length;
      return offsets;
    });
    expect(remote.tokens.map((t) => t.start)).toEqual(expected);
    expect(remote.engineTokens).toBe(text.length + 2 * sent.length);
  });

  it('says an endpoint that cannot score text cannot: one that ignores echo (llama.cpp’s server), one without completions', async () => {
    server.echoes = false;
    try {
      expect(await provider().score(prose(300), new AbortController().signal)).toEqual({
        scored: false,
        why: expect.stringMatching(/without the text’s tokens and their log-probabilities/),
      });
    } finally {
      server.echoes = true;
    }
    expect(await provider({ baseUrl: `${server.baseUrl}/elsewhere` }).score(prose(300), new AbortController().signal)).toEqual({
      scored: false,
      why: expect.stringMatching(/^answered HTTP 404/),
    });
  });

  it('answers 11020 when scoring takes too long and 3127 when cancelled, closing the connection either way', async () => {
    const log = warnings();
    server.delayMs = 10_000;
    try {
      expect(await failure(provider({ timeoutMs: 1500 }).score(prose(300), new AbortController().signal))).toBe(ErrorCode.AiUnavailable);
      expect(log.text()).toMatch(/no answer within 1.5 s/);
      expect((await server.completions.at(-1)!.ended).stopReason).toBe('abort');
      const asked = server.completions.length;
      const stop = new AbortController();
      const scoring = provider().score(prose(300), stop.signal);
      await vi.waitFor(() => expect(server.completions).toHaveLength(asked + 1), { timeout: 10_000, interval: 10 });
      stop.abort();
      expect(await failure(scoring)).toBe(ErrorCode.Cancelled);
      expect((await server.completions.at(-1)!.ended).stopReason).toBe('abort');
    } finally {
      server.delayMs = 0;
      log.restore();
    }
  });
});

describe('the providers built from the configuration', () => {
  const config = (modelFile: string) =>
    loadConfig(
      {
        dataDir: dir,
        aiProviders: {
          chat: 'local',
          summary: 'classic',
          explain: 'classic',
          rewrite: 'classic',
          translate: 'classic',
          proofread: 'classic',
          detect: 'classic',
        },
        aiModels: { local: { modelPath: modelFile, memoryMb: 2048, contextTokens: 1024, threads: 1 }, openai: undefined },
      },
      [],
    );

  it('run the configured local model', async () => {
    const { text, usage } = await answer(
      createModelProvider('local', config(modelPath), path.join(dir, 'work')),
      ask('hi', { maxTokens: 4 }),
    );
    expect(usage.completionTokens).toBe(tinyModelTokens(text));
    expect(usage.completionTokens).toBe(4);
  });

  it('say at the start when the local model file is missing, and nothing when it is fine', async () => {
    const log = warnings();
    try {
      await reportModelProblems(config(modelPath));
      expect(log.text()).toBe('');
      await reportModelProblems(config(path.join(dir, 'gone.gguf')));
      expect(log.text()).toMatch(/AI local model .*gone\.gguf: the file does not exist; the tools it answers fail with 11020/);
    } finally {
      log.restore();
    }
  });
});
