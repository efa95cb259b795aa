// Test infrastructure: a minimal OpenAI-compatible server. No such server that runs GGUF comes
// from the npm registry or Debian 12, so the HTTP glue here is ours, while the inference is real:
// llama.cpp (node-llama-cpp) running the tests' tiny model. Chat completions stream one event per
// piece of text, then the usage llama.cpp counted, as OpenAI does with
// stream_options.include_usage, and stop generating when the client goes away. Completions
// (greedy) answer `echo` and `logprobs` as vLLM does: the prompt's tokens first, the first with no
// log-probability, each with its offset in the text and its most likely alternatives; or, with
// `echoes` off, as llama.cpp's server does: the generated tokens' log-probabilities only.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { LlamaChat, type LlamaContextSequence, type LlamaModel, type Token } from 'node-llama-cpp';
import { chatHistoryOf, predictEach, prebuiltLlama, tokenOffsets } from '../src/engines/ai/llama.js';

interface ChatRequest {
  model: string;
  messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
  max_tokens: number;
  temperature?: number;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
}

interface CompletionRequest {
  model: string;
  prompt: string;
  max_tokens?: number;
  echo?: boolean;
  logprobs?: number | null;
}

/** What the server saw of one request and what llama.cpp did with it. */
export interface ServedAnswer<Request = ChatRequest> {
  url: string;
  body: Request;
  /** Resolves once generation has ended: why, and the tokens llama.cpp counted. */
  ended: Promise<{ stopReason: string; promptTokens: number; completionTokens: number }>;
}

export interface OpenAiTestServer {
  baseUrl: string;
  /** The chat completions asked. */
  answers: ServedAnswer[];
  completions: ServedAnswer<CompletionRequest>[];
  /** A pause before generating, cut short when the client goes: a slow endpoint, however fast the machine (0: none). */
  delayMs: number;
  /** Completions send the prompt back with its log-probabilities when asked (vLLM); false: they never do (llama.cpp's server). */
  echoes: boolean;
  close(): Promise<void>;
}

/** `contextSize`: tokens of each request's context (the tiny model takes a token per character: a chat's passages need thousands). */
export async function startOpenAiServer(modelPath: string, key: string, contextSize = 1024): Promise<OpenAiTestServer> {
  const llama = await prebuiltLlama();
  const model = await llama.loadModel({ modelPath });
  const answers: ServedAnswer[] = [];
  const completions: ServedAnswer<CompletionRequest>[] = [];
  const behaviour = { delayMs: 0, echoes: true };
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
      const url = req.url ?? '';
      const delayMs = behaviour.delayMs;
      if (url !== '/v1/completions' && url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no such call: ${url}`, type: 'not_found_error' } }));
        return;
      }
      if (url === '/v1/completions') {
        const body = JSON.parse(raw) as CompletionRequest;
        completions.push({ url, body, ended: complete(model, contextSize, body, res, stop.signal, delayMs, behaviour.echoes) });
        return;
      }
      const body = JSON.parse(raw) as ChatRequest;
      answers.push({ url, body, ended: serve(model, contextSize, body, res, stop.signal, delayMs) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    answers,
    completions,
    get delayMs() {
      return behaviour.delayMs;
    },
    set delayMs(ms: number) {
      behaviour.delayMs = ms;
    },
    get echoes() {
      return behaviour.echoes;
    },
    set echoes(on: boolean) {
      behaviour.echoes = on;
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
    await pause(delayMs, stop);
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

/** Waits `ms`, or until the client goes. */
async function pause(ms: number, stop: AbortSignal) {
  if (ms > 0)
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      stop.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
}

/** One token of a completion's logprobs: its text, where it starts, its log-probability and the most likely tokens in its place. */
interface LoggedToken {
  text: string;
  offset: number;
  logprob: number | null;
  top: Record<string, number> | null;
}

/**
 * The `count` most likely tokens of a prediction (the map is sorted, most likely first) and the one
 * the text has, as vLLM lists them: by their text, each decoded as it would follow `before`.
 */
function topOf(model: LlamaModel, probabilities: Map<Token, number>, count: number, token: Token, before: readonly Token[]) {
  const listed = [...probabilities.keys()].slice(0, count);
  if (!listed.includes(token)) listed.push(token);
  return Object.fromEntries(listed.map((t) => [model.detokenize([t], false, before), Math.log(probabilities.get(t) ?? 0)]));
}

/** A greedy completion of `body.prompt` (vLLM's answer to echo and logprobs), written to `res` in one JSON answer. */
async function complete(
  model: LlamaModel,
  contextSize: number,
  body: CompletionRequest,
  res: http.ServerResponse,
  stop: AbortSignal,
  delayMs: number,
  echoes: boolean,
) {
  const context = await model.createContext({ contextSize: { max: contextSize }, threads: 1 });
  const sequence = context.getSequence();
  try {
    await pause(delayMs, stop);
    if (stop.aborted) return { stopReason: 'abort', promptTokens: 0, completionTokens: 0 };
    const text = model.tokenize(body.prompt);
    const prompt = model.tokens.bos === null ? text : [model.tokens.bos, ...text];
    const starts = tokenOffsets(model, body.prompt, text);
    const top = body.logprobs ?? 0;
    const logged: LoggedToken[] = [{ text: model.detokenize([prompt[0]!], true), offset: 0, logprob: null, top: null }];
    let last = new Map<Token, number>();
    await predictEach(sequence, prompt, (i, probabilities) => {
      const next = prompt[i + 1];
      last = probabilities;
      if (next === undefined) return;
      const offset = starts[i + 1 - (prompt.length - text.length)] ?? 0;
      const before = prompt.slice(0, i + 1);
      const logprob = Math.log(probabilities.get(next) ?? 0);
      logged.push({ text: model.detokenize([next], false, before), offset, logprob, top: topOf(model, probabilities, top, next, before) });
    });
    const generated = await generateGreedily(sequence, last, body.max_tokens ?? 16, model, body.prompt.length, top);
    if (stop.aborted) return { stopReason: 'abort', promptTokens: prompt.length, completionTokens: generated.length };
    // llama.cpp's server ignores echo: the answer holds the generated text and its tokens only.
    const shown = body.echo && echoes ? [...logged, ...generated] : generated;
    const completion = generated.map((t) => t.text).join('');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'cmpl-test',
        object: 'text_completion',
        model: body.model,
        choices: [
          {
            index: 0,
            text: body.echo && echoes ? body.prompt + completion : completion,
            logprobs: body.logprobs
              ? {
                  tokens: shown.map((t) => t.text),
                  token_logprobs: shown.map((t) => t.logprob),
                  top_logprobs: shown.map((t) => t.top),
                  text_offset: shown.map((t) => t.offset),
                }
              : null,
            finish_reason: 'length',
          },
        ],
        usage: { prompt_tokens: prompt.length, completion_tokens: generated.length, total_tokens: prompt.length + generated.length },
      }),
    );
    return { stopReason: 'maxTokens', promptTokens: prompt.length, completionTokens: generated.length };
  } finally {
    await context.dispose();
  }
}

/** `count` tokens picked greedily after the prompt whose last prediction is `first`, each as a completion logs it (offsets after `promptChars`). */
async function generateGreedily(
  sequence: LlamaContextSequence,
  first: Map<Token, number>,
  count: number,
  model: LlamaModel,
  promptChars: number,
  top: number,
): Promise<LoggedToken[]> {
  const generated: LoggedToken[] = [];
  let probabilities = first;
  let offset = promptChars;
  for (let n = 0; n < count; n++) {
    const token = probabilities.keys().next().value as Token;
    const before = [...sequence.contextTokens];
    const text = model.detokenize([token], false, before);
    generated.push({ text, offset, logprob: Math.log(probabilities.get(token)!), top: topOf(model, probabilities, top, token, before) });
    offset += text.length;
    if (n + 1 === count) break;
    const [result] = await sequence.controlledEvaluate([[token, { generateNext: { probabilities: true } }]]);
    probabilities = result!.next.probabilities!;
  }
  return generated;
}
