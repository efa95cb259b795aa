// The `openai` provider: any endpoint speaking OpenAI's chat completions (Ollama, llama.cpp's or
// vLLM's server, a hosted service). The answer is streamed (Server-Sent Events) and the endpoint's
// own token counts are asked for at its end (stream_options.include_usage).
import { ErrorCode, QuireError } from '@quire/contracts';
import type { GenerateRequest, GenerateUsage, ModelProvider } from './model.js';

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
    const response = await fetch(`${settings.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        ...(settings.key ? { authorization: `Bearer ${settings.key}` } : {}),
      },
      body: JSON.stringify({
        model: settings.model,
        messages: request.messages,
        max_tokens: request.maxTokens,
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        stream: true,
        stream_options: { include_usage: true },
      }),
      // A redirect could carry the key elsewhere: an endpoint is named by its final address.
      redirect: 'error',
      signal,
    });
    if (!response.ok || !response.body) {
      const detail = (await response.text().catch(() => '')).replace(/\s+/g, ' ').slice(0, 200);
      throw new EndpointFailure(`answered HTTP ${response.status}${response.status === 401 ? ' (the key was refused)' : ''}: ${detail}`);
    }
    const usage = await readEvents(response.body, (text) => {
      pieces.count++;
      onText(text);
    });
    if (!usage) throw new EndpointFailure('ended its answer without token counts (stream_options.include_usage)');
    return usage;
  } catch (e) {
    if (request.signal?.aborted) return estimate();
    const why =
      e instanceof EndpointFailure
        ? e.message
        : deadline.aborted
          ? `no answer within ${settings.timeoutMs / 1000} s`
          : `cannot be reached: ${causeOf(e)}`;
    console.warn(`AI endpoint ${settings.baseUrl}: ${why}`);
    throw new QuireError(ErrorCode.AiUnavailable);
  }
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
