// The `openai` provider: any endpoint speaking OpenAI's chat completions (Ollama, llama.cpp's or
// vLLM's server, a hosted service). The answer is streamed (Server-Sent Events) and the endpoint's
// own token counts are asked for at its end (stream_options.include_usage). A text is scored with
// the legacy completions call, which sends the prompt's log-probabilities back where it takes `echo`.
import { ErrorCode, QuireError } from '@quire/contracts';
import type { GenerateRequest, GenerateUsage, ModelProvider, ScoredToken, TextScore } from './model.js';

export interface OpenAiSettings {
  baseUrl: string;
  model: string;
  /** Sent in the Authorization header only: never in the URL, never logged. Empty: none. */
  key: string;
  /** One answer, from the request to its last event. */
  timeoutMs: number;
}

/**
 * An answer cancelled midway has no usage from the endpoint (it comes with the last event), so it
 * is charged as counted here: one token per streamed piece, as these servers send one token a
 * piece, and the prompt at this many characters a token, the usual figure for English text.
 */
const CHARS_PER_PROMPT_TOKEN = 4;

interface CompletionChunk {
  choices?: { delta?: { content?: string | null } }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: unknown;
}

class EndpointFailure extends Error {}

export function openAiModel(settings: OpenAiSettings): ModelProvider {
  return {
    name: 'openai',
    generate: (request, onText) => generate(settings, request, onText),
    score: (text, signal) => score(settings, text, signal),
    // fetch's connections are Node's shared pool: nothing of this provider's own to free.
    close: async () => {},
  };
}

async function generate(settings: OpenAiSettings, request: GenerateRequest, onText: (text: string) => void): Promise<GenerateUsage> {
  const pieces = { count: 0 };
  const estimate = (): GenerateUsage => ({
    promptTokens: Math.ceil(request.messages.reduce((n, m) => n + m.content.length, 0) / CHARS_PER_PROMPT_TOKEN),
    completionTokens: pieces.count,
  });
  if (request.signal?.aborted) return { promptTokens: 0, completionTokens: 0 };
  const deadline = AbortSignal.timeout(settings.timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, deadline]) : deadline;
  try {
    const response = await post(
      settings,
      'chat/completions',
      {
        messages: request.messages,
        max_tokens: request.maxTokens,
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        stream: true,
        stream_options: { include_usage: true },
      },
      signal,
      'text/event-stream',
    );
    if (!response.ok || !response.body) throw new EndpointFailure(await refusalOf(response));
    const usage = await readEvents(response.body, (text) => {
      pieces.count++;
      onText(text);
    });
    if (!usage) throw new EndpointFailure('ended its answer without token counts (stream_options.include_usage)');
    return usage;
  } catch (e) {
    if (request.signal?.aborted) return estimate();
    throw unavailable(settings, e, deadline);
  }
}

/**
 * Log-probabilities asked for at each place beside the text's own token: vLLM's default most
 * (its max_logprobs). The entropy an endpoint's answer gives is bounded from these (entropyBound).
 */
const TOP_LOGPROBS = 20;
/** Characters of text scored in one request: about 500 tokens of English, 3,000 at most of Chinese or Japanese, within a 4,096-token context. */
const SCORE_CHARS = 2000;
/** Answers of an endpoint that does not take a completion with echo and logprobs (or has no /completions): not a failure, a missing feature. */
const NOT_OFFERED = new Set([400, 404, 405, 422, 501]);

/**
 * Scores `text` with /completions, `echo` and `logprobs` (vLLM, and OpenAI's older models, send the
 * prompt's tokens back with their log-probabilities), a piece of SCORE_CHARS at a time under one
 * time limit for the whole text.
 */
async function score(settings: OpenAiSettings, text: string, cancel: AbortSignal): Promise<TextScore> {
  if (cancel.aborted) throw new QuireError(ErrorCode.Cancelled);
  const deadline = AbortSignal.timeout(settings.timeoutMs);
  const signal = AbortSignal.any([cancel, deadline]);
  const tokens: ScoredToken[] = [];
  let engineTokens = 0;
  try {
    for (const piece of piecesOf(text, SCORE_CHARS)) {
      // One token generated, as some servers refuse none; it is not part of the text and is not read.
      const body = { prompt: piece.text, echo: true, logprobs: TOP_LOGPROBS, max_tokens: 1, temperature: 0 };
      const response = await post(settings, 'completions', body, signal);
      if (NOT_OFFERED.has(response.status)) return { scored: false, why: await refusalOf(response) };
      if (!response.ok) throw new EndpointFailure(await refusalOf(response));
      const echoed = echoedTokens((await response.json()) as EchoedCompletion, piece.text);
      if ('why' in echoed) return { scored: false, why: echoed.why };
      for (const t of echoed.tokens) tokens.push({ ...t, start: t.start + piece.start });
      engineTokens += echoed.promptTokens;
    }
    return { scored: true, tokens, engineTokens };
  } catch (e) {
    if (cancel.aborted) throw new QuireError(ErrorCode.Cancelled);
    throw unavailable(settings, e, deadline);
  }
}

/** `text` cut into pieces of at most `most` characters, each ending before white space where it has any. */
function piecesOf(text: string, most: number): { start: number; text: string }[] {
  const pieces: { start: number; text: string }[] = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + most);
    if (end < text.length) {
      const space = text.slice(start, end).search(/\s\S*$/);
      // No white space at all: cut where the limit falls, never between the halves of a surrogate pair.
      end = space > 0 ? start + space : /[\ud800-\udbff]/.test(text[end - 1]!) ? end - 1 : end;
    }
    pieces.push({ start, text: text.slice(start, end) });
    start = end;
  }
  return pieces;
}

/** The legacy completion's answer with `echo` and `logprobs`: the prompt's tokens, then the one generated. */
interface EchoedCompletion {
  choices?: {
    text?: string;
    logprobs?: {
      tokens?: string[];
      token_logprobs?: (number | null)[];
      top_logprobs?: (Record<string, number> | null)[] | null;
      text_offset?: number[];
    } | null;
  }[];
  usage?: { prompt_tokens?: number } | null;
}

/**
 * The scored tokens of `prompt` in an echoed completion, or why it has none: an endpoint that
 * ignores `echo` (llama.cpp's server gives the generated token's log-probability only) answers
 * without the prompt.
 */
function echoedTokens(answer: EchoedCompletion, prompt: string): { tokens: ScoredToken[]; promptTokens: number } | { why: string } {
  const choice = answer.choices?.[0];
  const logprobs = choice?.logprobs;
  if (!choice?.text?.startsWith(prompt) || !logprobs?.tokens || !logprobs.token_logprobs || !logprobs.text_offset)
    return { why: 'answered a completion with echo and logprobs without the text’s tokens and their log-probabilities' };
  // The prompt's tokens are the first ones: as many as the endpoint counted, else those starting within the text.
  const promptTokens = answer.usage?.prompt_tokens ?? logprobs.text_offset.filter((offset) => offset < prompt.length).length;
  if (logprobs.token_logprobs.length < promptTokens || logprobs.text_offset.length < promptTokens)
    return { why: `echoed fewer log-probabilities than the ${promptTokens} tokens it counted in the text` };
  const tokens: ScoredToken[] = [];
  for (let i = 0; i < promptTokens; i++) {
    const logprob = logprobs.token_logprobs[i];
    // The first token (a start token where the model has one) has no prediction before it.
    if (logprob === null || logprob === undefined) continue;
    const start = Math.min(Math.max(0, logprobs.text_offset[i]!), prompt.length);
    tokens.push({
      start,
      logprob,
      entropy: entropyBound(logprobs.top_logprobs?.[i] ?? {}, TOP_LOGPROBS, logprobs.tokens[i] ?? '', logprob),
    });
  }
  return { tokens, promptTokens };
}

/**
 * A lower bound of the entropy (nats) of a prediction known by its `asked` most likely tokens
 * (`top`, by their text: vLLM adds the text's own token where it is not one of them) and the
 * log-probability of the token the text has. The tokens not listed, of probability r together,
 * are each at most as likely as the least of the top ones and at most r, so they add at least
 * −r·ln(min(least, r)). Where fewer than `asked` are listed, tokens of the same text (byte pieces)
 * shared an entry, and one left out may be likelier than the least listed: then only r bounds them.
 */
function entropyBound(top: Record<string, number>, asked: number, token: string, logprob: number): number {
  const listed = Object.entries(top);
  const most = (listed.length > asked ? listed.filter(([text]) => text !== token) : listed).map(([, lp]) => Math.exp(lp));
  const known = listed.length > asked || !(token in top) ? [...most, Math.exp(logprob)] : most;
  const rest = Math.max(0, 1 - known.reduce((sum, p) => sum + p, 0));
  const each = most.length >= asked ? Math.min(rest, ...most) : rest;
  const seen = known.reduce((h, p) => (p > 0 ? h - p * Math.log(p) : h), 0);
  return rest > 0 && each > 0 ? seen - rest * Math.log(each) : seen;
}

/** POSTs `body` (with the model's name) to the endpoint's `call`, the key in the Authorization header only. */
function post(settings: OpenAiSettings, call: string, body: object, signal: AbortSignal, accept = 'application/json'): Promise<Response> {
  return fetch(`${settings.baseUrl}/${call}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept,
      ...(settings.key ? { authorization: `Bearer ${settings.key}` } : {}),
    },
    body: JSON.stringify({ model: settings.model, ...body }),
    // A redirect could carry the key elsewhere: an endpoint is named by its final address.
    redirect: 'error',
    signal,
  });
}

/** Why an endpoint refused a call, for the log: its status and the start of its answer. */
async function refusalOf(response: Response): Promise<string> {
  const detail = (await response.text().catch(() => '')).replace(/\s+/g, ' ').slice(0, 200);
  return `answered HTTP ${response.status}${response.status === 401 ? ' (the key was refused)' : ''}: ${detail}`;
}

/** 11020 for a call that failed, saying why in the log: the endpoint's refusal, its time limit, or the network. */
function unavailable(settings: OpenAiSettings, e: unknown, deadline: AbortSignal): QuireError {
  const why =
    e instanceof EndpointFailure
      ? e.message
      : deadline.aborted
        ? `no answer within ${settings.timeoutMs / 1000} s`
        : `cannot be reached: ${causeOf(e)}`;
  console.warn(`AI endpoint ${settings.baseUrl}: ${why}`);
  return new QuireError(ErrorCode.AiUnavailable);
}

/** fetch's own message is "fetch failed"; the reason is in its cause (ECONNREFUSED, ENOTFOUND, …). */
function causeOf(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (e as Error).message;
}

/** Reads the event stream, handing each piece of text on; resolves with the usage of its last event. */
async function readEvents(body: ReadableStream<Uint8Array>, onText: (text: string) => void): Promise<GenerateUsage | undefined> {
  let usage: GenerateUsage | undefined;
  let pending = '';
  const decoder = new TextDecoder();
  const onEvent = (data: string) => {
    if (data === '[DONE]') return;
    let chunk: CompletionChunk;
    try {
      chunk = JSON.parse(data) as CompletionChunk;
    } catch {
      throw new EndpointFailure('sent an event that is not JSON');
    }
    if (chunk.error) throw new EndpointFailure(`sent an error: ${JSON.stringify(chunk.error).slice(0, 200)}`);
    const text = chunk.choices?.[0]?.delta?.content;
    if (text) onText(text);
    if (chunk.usage) usage = { promptTokens: chunk.usage.prompt_tokens ?? 0, completionTokens: chunk.usage.completion_tokens ?? 0 };
  };
  for await (const bytes of body) {
    pending += decoder.decode(bytes, { stream: true });
    // Events end with a blank line; a line of an event starting `data:` holds its payload.
    const events = pending.split(/\r?\n\r?\n/);
    pending = events.pop() ?? '';
    for (const event of events) {
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (data) onEvent(data);
    }
  }
  return usage;
}
