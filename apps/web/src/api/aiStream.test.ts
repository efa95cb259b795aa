// The SSE reader's edge cases, with a fetch stand-in that cuts the stream where a network may;
// the e2e suites stream real answers from the server.
import { type AiStreamEvent, STREAM_ID_HEADER } from '@quire/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { streamAi } from './aiStream';
import { ApiError } from './client';

function answerWith(chunks: Uint8Array[], headers: Record<string, string>): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  return new Response(body, { headers });
}

async function read(res: Response): Promise<{ events: AiStreamEvent[]; streamId?: string }> {
  vi.stubGlobal('fetch', async () => res);
  const events: AiStreamEvent[] = [];
  let streamId: string | undefined;
  await streamAi('chat/completion/stream', {}, { onStart: (id) => (streamId = id), onEvent: (e) => events.push(e) });
  return { events, ...(streamId && { streamId }) };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('streamAi', () => {
  const sse = { 'content-type': 'text/event-stream; charset=utf-8', [STREAM_ID_HEADER]: 's1' };

  it('hands on events split anywhere across chunks, in order, with the stream id first', async () => {
    const text = 'data: {"type":"text","text":"Héllo "}\n\ndata: {"type":"text","text":"world"}\n\n';
    const done = ': a comment\n\ndata: {"type":"citations","citations":[{"page":3,"text":"x"}]}\n\ndata: {"type":"done","tokens":7}\n\n';
    const encode = (s: string) => new TextEncoder().encode(s);
    const bytes = encode(text + done);
    const byteAt = (i: number) => encode(text.slice(0, i)).length;
    // Cut inside the JSON, between the two bytes of é, and inside the blank line.
    const cuts = [9, byteAt(text.indexOf('é')) + 1, byteAt(text.indexOf('\n\n')) + 1, bytes.length];
    const chunks = cuts.map((end, i) => bytes.slice(i ? cuts[i - 1] : 0, end));
    const { events, streamId } = await read(answerWith(chunks, sse));
    expect(streamId).toBe('s1');
    expect(events).toEqual([
      { type: 'text', text: 'Héllo ' },
      { type: 'text', text: 'world' },
      { type: 'citations', citations: [{ page: 3, text: 'x' }] },
      { type: 'done', tokens: 7 },
    ]);
  });

  it('skips blocks that are not events of the contract', async () => {
    const { events } = await read(
      answerWith([new TextEncoder().encode('data: not json\n\ndata: {"type":"weird"}\n\ndata: {"type":"done","tokens":0}\n\n')], sse),
    );
    expect(events).toEqual([{ type: 'done', tokens: 0 }]);
  });

  it('throws the refusal the server answers before a stream', async () => {
    const refusal = new Response(JSON.stringify({ code: 11003, msg: 'tokens', data: null }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
    const error = await read(refusal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 11003 });
  });
});
