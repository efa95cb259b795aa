// One streamed AI answer as page state: the text growing as it arrives, its citations or result, the tokens
// it cost, and Stop (which cancels it on the server, so the account is charged only for what came).
import type { AiCitation } from '@quire/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { cancelAiStream, streamAi } from '../api/aiStream';
import { ApiError, NETWORK_ERROR, isAbort } from '../api/client';

export type AiAnswerStatus = 'idle' | 'streaming' | 'done' | 'cancelled' | 'failed';

export interface AiAnswer {
  status: AiAnswerStatus;
  text: string;
  citations: AiCitation[];
  /** A language tool's whole answer (its plain call's), once it is done; check it with the call's schema. */
  result?: Record<string, unknown>;
  /** Tokens charged for the answer, once it is done. */
  tokens?: number;
  /** Why it failed: a catalogue error, before the stream (a refusal, with its upgrade) or in it. */
  error?: ApiError;
}

const idle: AiAnswer = { status: 'idle', text: '', citations: [] };

export interface AiStream {
  answer: AiAnswer;
  /** Starts a streamed call (replacing any answer shown); resolves with the final answer. `onHeaders` sees the answer's headers. */
  start(path: string, body: unknown, onHeaders?: (headers: Headers) => void): Promise<AiAnswer>;
  /** Stops the running answer: on the server by its id, and the reading here. */
  stop(): void;
  reset(): void;
}

export function useAiStream(): AiStream {
  const [answer, setAnswer] = useState<AiAnswer>(idle);
  const running = useRef<{ reading: AbortController; streamId?: string } | null>(null);

  const stop = useCallback(() => {
    const run = running.current;
    if (!run) return;
    // Cancelling on the server ends the stream with done+cancelled; without an id yet, stop reading.
    if (run.streamId) void cancelAiStream(run.streamId).catch(() => run.reading.abort());
    else run.reading.abort();
  }, []);

  const start = useCallback(
    async (path: string, body: unknown, onHeaders?: (headers: Headers) => void): Promise<AiAnswer> => {
      stop();
      const run: { reading: AbortController; streamId?: string } = { reading: new AbortController() };
      running.current = run;
      let current: AiAnswer = { status: 'streaming', text: '', citations: [] };
      const show = (next: AiAnswer) => {
        current = next;
        if (running.current === run) setAnswer(next);
      };
      show(current);
      try {
        await streamAi(
          path,
          body,
          {
            onStart: (id, headers) => {
              run.streamId = id;
              onHeaders?.(headers);
            },
            onEvent: (e) => {
              if (e.type === 'text') show({ ...current, text: current.text + e.text });
              else if (e.type === 'citations') show({ ...current, citations: e.citations });
              else if (e.type === 'result') show({ ...current, result: e.result });
              else if (e.type === 'done') show({ ...current, status: e.cancelled ? 'cancelled' : 'done', tokens: e.tokens });
              else show({ ...current, status: 'failed', error: new ApiError(e.code, e.msg, { upgrade: e.data }) });
            },
          },
          run.reading.signal,
        );
        if (current.status === 'streaming') show({ ...current, status: 'failed', error: new ApiError(NETWORK_ERROR) });
      } catch (e) {
        if (isAbort(e)) show({ ...current, status: 'cancelled' });
        else show({ ...current, status: 'failed', error: e instanceof ApiError ? e : new ApiError(NETWORK_ERROR) });
      } finally {
        if (running.current === run) running.current = null;
      }
      return current;
    },
    [stop],
  );

  const reset = useCallback(() => {
    stop();
    setAnswer(idle);
  }, [stop]);

  // Leaving the page stops the answer, so it is not charged for text nobody reads.
  useEffect(() => stop, [stop]);

  return { answer, start, stop, reset };
}
