// The streamed answers running in this process, so that GET /v2/stream/cancel can stop one. A
// stream's id goes to its client in a header; an ended stream's owner is remembered a while, so
// that cancelling it late is told it ended (11013) while another owner's id is still not found.
import { ErrorCode, QuireError } from '@quire/contracts';
import { newId } from '../ids.js';

interface Live {
  ownerId: string;
  controller: AbortController;
}

const live = new Map<string, Live>();
/** Ended streams' owners, oldest first; at most ENDED_KEPT of them. */
const ended = new Map<string, string>();
const ENDED_KEPT = 10_000;

export interface OpenStream {
  id: string;
  signal: AbortSignal;
  /** Marks the stream ended (its cancel then answers 11013). */
  close(): void;
}

export function openStream(ownerId: string): OpenStream {
  const id = newId();
  const controller = new AbortController();
  live.set(id, { ownerId, controller });
  return {
    id,
    signal: controller.signal,
    close() {
      live.delete(id);
      ended.set(id, ownerId);
      if (ended.size > ENDED_KEPT) ended.delete(ended.keys().next().value!);
    },
  };
}

/** Stops the owner's stream: 2405 for an id it does not own, 11013 for one that has ended. */
export function cancelStream(ownerId: string, id: string): void {
  const stream = live.get(id);
  if (stream?.ownerId === ownerId) {
    stream.controller.abort();
    return;
  }
  if (ended.get(id) === ownerId) throw new QuireError(ErrorCode.StreamExpired);
  throw new QuireError(ErrorCode.NoData);
}
