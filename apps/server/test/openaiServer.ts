// Test infrastructure: a minimal OpenAI-compatible chat completions server. No such server that
// runs GGUF comes from the npm registry or Debian 12, so the HTTP glue here is ours, while the
// inference is real: llama.cpp (node-llama-cpp) running the tests' tiny model. It streams one
// event per piece of text, then the usage llama.cpp counted, as OpenAI does with
// stream_options.include_usage, and stops generating when the client goes away.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { LlamaChat, type LlamaModel } from 'node-llama-cpp';
import { chatHistoryOf, prebuiltLlama } from '../src/engines/ai/llama.js';

interface ChatRequest {
  model: string;
  messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
  max_tokens: number;
  temperature?: number;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
}

/** What the server saw of one request and what llama.cpp did with it. */
export interface ServedAnswer {
  url: string;
  body: ChatRequest;
  /** Resolves once generation has ended: why, and the tokens llama.cpp counted. */
  ended: Promise<{ stopReason: string; promptTokens: number; completionTokens: number }>;
}

export interface OpenAiTestServer {
  baseUrl: string;
  answers: ServedAnswer[];
  /** A pause before generating, cut short when the client goes: a slow endpoint, however fast the machine (0: none). */
  delayMs: number;
  close(): Promise<void>;
}

/** `contextSize`: tokens of each request's context (the tiny model takes a token per character: a chat's passages need thousands). */
export async function startOpenAiServer(modelPath: string, key: string, contextSize = 1024): Promise<OpenAiTestServer> {
  const llama = await prebuiltLlama();
  const model = await llama.loadModel({ modelPath });
  const answers: ServedAnswer[] = [];
  const pacing = { delayMs: 0 };
  const server = http.createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${key}`) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } }));
      return;
    }
    // Watched from the start: a client may be gone (its time limit) before its request is read.
    const stop = new AbortController();
    res.on('close', () => stop.abort());
    let raw = '';
    req.setEncoding('utf8').on('data', (chunk: string) => {
      raw += chunk;
    });
    req.on('end', () => {
      const body = JSON.parse(raw) as ChatRequest;
      const answer = { url: req.url ?? '', body, ended: serve(model, contextSize, body, res, stop.signal, pacing.delayMs) };
      answers.push(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    answers,
    get delayMs() {
      return pacing.delayMs;
    },
    set delayMs(ms: number) {
      pacing.delayMs = ms;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await model.dispose();
      await llama.dispose();
    },
  };
}

/** Tokens of the context kept for the prompt when an answer may run on (the tests' prompts are short). */
const CONTEXT_MARGIN = 512;

async function serve(
  model: LlamaModel,
  contextSize: number,
  body: ChatRequest,
  res: http.ServerResponse,
  stop: AbortSignal,
  delayMs: number,
) {
  const context = await model.createContext({ contextSize: { max: contextSize }, threads: 1 });
  const sequence = context.getSequence();
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
  const chunk = (delta: object, usage: object | null = null) => ({
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    model: body.model,
    choices: usage ? [] : [{ index: 0, delta, finish_reason: null }],
    usage,
  });
  try {
    if (delayMs > 0)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delayMs);
        stop.addEventListener('abort', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    // A client gone before generation starts: node-llama-cpp looks at the signal only between tokens.
    if (stop.aborted) return { stopReason: 'abort', promptTokens: 0, completionTokens: 0 };
    const result = await new LlamaChat({ contextSequence: sequence }).generateResponse(chatHistoryOf(body.messages), {
      // Never past the context: llama.cpp would shift it, and a shift does not stop for the abort signal.
      maxTokens: Math.min(body.max_tokens, contextSize - CONTEXT_MARGIN),
      temperature: body.temperature ?? 0,
      signal: stop,
      stopOnAbortSignal: true,
      onTextChunk: (text) => {
        if (text) send(chunk({ content: text }));
      },
    });
    const usage = { promptTokens: sequence.tokenMeter.usedInputTokens, completionTokens: sequence.tokenMeter.usedOutputTokens };
    if (!stop.aborted) {
      if (body.stream_options?.include_usage)
        send(
          chunk(
            {},
            {
              prompt_tokens: usage.promptTokens,
              completion_tokens: usage.completionTokens,
              total_tokens: usage.promptTokens + usage.completionTokens,
            },
          ),
        );
      res.end('data: [DONE]\n\n');
    }
    return { stopReason: stop.aborted ? 'abort' : result.metadata.stopReason, ...usage };
  } finally {
    await context.dispose();
  }
}
