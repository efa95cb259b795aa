// The AI suite's streamed answers: Server-Sent Events of `aiStreamEvent`, cancellable by the
// stream's id. Apart from ai.ts so that the pages without AI do not load the events' schema.
import { type AiStreamEvent, ErrorCode, STREAM_ID_HEADER, aiStreamEvent } from '@quire/contracts';
import { aiGet, aiUrl } from './ai';
import { ApiError, readEnvelope, send } from './client';

/** Stops a running stream on the server; one that has just ended (11013) is not an error here. */
export async function cancelAiStream(streamId: string): Promise<void> {
  try {
    await aiGet<null>('stream/cancel', { stream_id: streamId });
  } catch (e) {
    if (!(e instanceof ApiError && e.code === ErrorCode.StreamExpired)) throw e;
  }
}

export interface AiStreamHandlers {
  /** The stream's id (what cancelAiStream takes) and the answer's headers, as soon as they arrive. */
  onStart?: (streamId: string, headers: Headers) => void;
  onEvent: (event: AiStreamEvent) => void;
}

/**
 * POSTs `body` to a streaming call and hands each event to `onEvent` as it arrives. A refusal
 * before the stream (an envelope: 2405, 11003, 11007, …) throws ApiError; an `error` event is
 * handed on like any other. Resolves when the stream ends.
 */
export async function streamAi(path: string, body: unknown, handlers: AiStreamHandlers, signal?: AbortSignal): Promise<void> {
  const res = await send(aiUrl(path), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify(body),
    ...(signal && { signal }),
  });
  if (!res.headers.get('content-type')?.startsWith('text/event-stream') || !res.body) {
    await readEnvelope<null>(res);
    throw new ApiError(ErrorCode.Generic);
  }
  const streamId = res.headers.get(STREAM_ID_HEADER);
  if (streamId) handlers.onStart?.(streamId, res.headers);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffered += value;
    let end = buffered.indexOf('\n\n');
    while (end >= 0) {
      const event = parseEvent(buffered.slice(0, end));
      buffered = buffered.slice(end + 2);
      if (event) handlers.onEvent(event);
      end = buffered.indexOf('\n\n');
    }
  }
}

/** One SSE block's `data:` lines as an aiStreamEvent; anything else (comments, unknown shapes) is skipped. */
function parseEvent(block: string): AiStreamEvent | undefined {
  const data = block
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(5).trimStart())
    .join('\n');
  if (!data) return undefined;
  try {
    const parsed = aiStreamEvent.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
