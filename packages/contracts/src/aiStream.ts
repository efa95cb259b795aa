// The events of a streamed AI answer: chat, summaries and the language tools.
import { z } from 'zod';
import { aiCitation } from './ai.js';
import { limitRefusal } from './limits.js';

/**
 * One event of a streamed answer (Server-Sent Events, `data: <json>` per event): text as it
 * comes, then the citations (chat) or the whole answer of the language tool's plain call
 * (`result`), then `done` with the tokens charged; or `error` with a catalogue code. A cancelled
 * stream (/v2/stream/cancel) ends with `done` and `cancelled: true`, and no result.
 */
export const aiStreamEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('citations'), citations: z.array(aiCitation) }),
  z.object({ type: z.literal('result'), result: z.record(z.string(), z.unknown()) }),
  z.object({ type: z.literal('done'), tokens: z.number().int().min(0), cancelled: z.boolean().optional() }),
  // A limit's refusal carries its dialog, as an envelope's does.
  z.object({ type: z.literal('error'), code: z.number().int(), msg: z.string(), data: limitRefusal.optional() }),
]);
export type AiStreamEvent = z.infer<typeof aiStreamEvent>;
