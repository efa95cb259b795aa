// The headers of the AI suite's streamed answers, without zod: the page's shell imports them (ADR 0542).

export const STREAM_ID_HEADER = 'x-quire-stream-id';
/** A streamed question's conversation (a new one's id is known only from here). */
export const CONVERSATION_ID_HEADER = 'x-quire-conversation-id';
