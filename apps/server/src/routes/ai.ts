// The AI layer's calls under /api/ai/v2/: every one needs a signed-in account (3001 for a visitor)
// but a shared conversation's preview, and another account's ids answer 2405. Streamed calls send
// Server-Sent Events once their refusals (ids, quotas) are settled; what fails later is an event.
import { z } from 'zod';
import {
  aiAnswer,
  aiFileInfo,
  aiFileRequest,
  aiNote,
  aiSummary,
  completionRequest,
  conversationDetail as conversationDetailAnswer,
  conversationEditRequest,
  conversationList,
  conversationListQuery,
  conversationPreview,
  conversationQuestion,
  conversationRef,
  conversationShared,
  conversationSync,
  conversationSyncRequest,
  conversationTopRequest,
  aiConversation,
  CONVERSATION_ID_HEADER,
  ErrorCode,
  noteAddRequest,
  noteList,
  noteListQuery,
  noteRef,
  passageSummaryRequest,
  QuireError,
  sharePreviewQuery,
  STREAM_ID_HEADER,
  streamCancelQuery,
  summaryRequest,
  tokenCheck as tokenCheckAnswer,
  type AiStreamEvent,
} from '@quire/contracts';
import {
  addNote,
  changeConversation,
  completion,
  conversationDetail,
  fileInfo,
  listConversations,
  listNotes,
  preparePassageSummary,
  prepareQuestion,
  prepareSummary,
  removeConversation,
  removeNote,
  shareConversation,
  sharedConversation,
  summaryOf,
} from '../services/aiChat.js';
import type { PreparedAnswer, SpokenAnswer } from '../services/aiAnswers.js';
import { aiAccountOf, checkTokens, tokenCheck } from '../services/aiQuota.js';
import type { TextStream } from '../services/aiLanguage.js';
import { cancelStream, openStream } from '../services/aiStreams.js';
import type { Call, CallContext } from './calls.js';
import { securityHeaders } from './edge.js';

const base = '/api/ai/v2/';

/** An account's AI call. */
export const aiCall = (call: Omit<Call, 'session'>): Call => ({ ...call, path: base + call.path, session: 'account' });
export const accountOf = (c: CallContext) => aiAccountOf(c.ctx, c.identity);

/** Aborts when the client goes before its answer is sent: a model's work then stops, and what it was charged comes back. */
export function clientGone(c: CallContext): AbortSignal {
  const gone = new AbortController();
  c.reply.raw.once('close', () => {
    if (!c.reply.raw.writableFinished) gone.abort();
  });
  return gone.signal;
}

/**
 * Answers with Server-Sent Events: the headers (with the stream's id) at once, then what `run`
 * emits; a failure becomes an `error` event. The stream stops when cancelled or when the client goes.
 */
async function sendEvents(
  c: CallContext,
  run: (emit: (e: AiStreamEvent) => void, signal: AbortSignal) => Promise<void>,
  headers: Record<string, string> = {},
) {
  const stream = openStream(c.ownerId);
  const raw = c.reply.raw;
  c.reply.hijack();
  raw.writeHead(200, {
    ...securityHeaders(c.req),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    [STREAM_ID_HEADER]: stream.id,
    ...headers,
  });
  const emit = (e: AiStreamEvent) => {
    if (!raw.writableEnded) raw.write(`data: ${JSON.stringify(e)}\n\n`);
  };
  const signal = AbortSignal.any([stream.signal, clientGone(c)]);
  try {
    await run(emit, signal);
  } catch (e) {
    if (!(e instanceof QuireError)) console.error(e);
    if (e instanceof QuireError) emit({ type: 'error', code: e.code, msg: c.words.message(e), ...(e.data && { data: e.data }) });
    else emit({ type: 'error', code: ErrorCode.Generic, msg: c.words.code(ErrorCode.Generic) });
  } finally {
    stream.close();
    raw.end();
  }
}

/** Streams a prepared answer: its text, its citations, then `done` with the tokens charged. */
async function streamAnswer(answer: PreparedAnswer, emit: (e: AiStreamEvent) => void, signal: AbortSignal): Promise<SpokenAnswer> {
  const spoken = await answer.speak((text) => emit({ type: 'text', text }), signal, true);
  if (answer.citations.length) emit({ type: 'citations', citations: answer.citations });
  emit({ type: 'done', tokens: spoken.tokens, ...(spoken.cancelled && { cancelled: true }) });
  return spoken;
}

/**
 * A language tool streamed: its text as it is written, then the answer its plain call gives
 * (`result`), then `done`; 11003 for an account without tokens comes before the stream, as an envelope.
 */
export async function streamTool(c: CallContext, run: (stream: TextStream) => Promise<{ tokens: number }>) {
  await checkTokens(c.ctx, accountOf(c));
  await sendEvents(c, async (emit, signal) => {
    const result = await run({ onText: (text) => emit({ type: 'text', text }), signal });
    if (!signal.aborted) emit({ type: 'result', result });
    emit({ type: 'done', tokens: result.tokens, ...(signal.aborted && { cancelled: true }) });
  });
}

/** A question streamed: refused as an envelope before the stream (2405, 11007, 11003), answered as events; its conversation in a header. */
async function streamQuestion(c: CallContext, req: Parameters<typeof prepareQuestion>[2]) {
  const prepared = await prepareQuestion(c.ctx, accountOf(c), req);
  await sendEvents(c, async (emit, signal) => prepared.finish(await streamAnswer(prepared.answer, emit, signal)), {
    [CONVERSATION_ID_HEADER]: prepared.conversation.id,
  });
}

const questionSummary = (what: string) =>
  `${what}: the question counted (11007 past the plan's questions), the answer's tokens charged (11003; the classic provider counts words of question and answer); the file's analysis is waited for up to 60 s (90002), 11012 if it failed`;

export function aiCalls(): Call[] {
  return [
    aiCall({
      method: 'POST',
      path: 'file/info',
      summary:
        "A file's AI status (init, uploading, analyses, success, failed): the first call starts its analysis (the plan's pages per analysis, the first ones). " +
        'file_id is a document cloud file or an uploaded tool file of the account',
      body: aiFileRequest,
      response: aiFileInfo,
      handler: ({ body }, c) => fileInfo(c.ctx, accountOf(c), body.file_id),
    }),
    aiCall({
      method: 'POST',
      path: 'chat/summary',
      summary:
        "The file's summary with keywords, outline (bookmarks, else headings) and suggested questions, its tokens charged; waits for the analysis up to 60 s (90002), 11005 under 250 characters",
      body: summaryRequest,
      response: aiSummary,
      handler: ({ body }, c) => summaryOf(c.ctx, accountOf(c), body.file_id, body.with_lang),
    }),
    aiCall({
      method: 'POST',
      path: 'chat/summary/stream',
      summary: 'The summary streamed as events (text, then done); a refusal after the stream began (90002, 11005, 11003) is an error event',
      body: summaryRequest,
      streams: true,
      handler: async ({ body }, c) => {
        const account = accountOf(c);
        // The file's own refusals (2405, 3122…) come as an envelope; its analysis is started here.
        await fileInfo(c.ctx, account, body.file_id);
        await sendEvents(c, async (emit, signal) => {
          const { answer } = await prepareSummary(c.ctx, account, body.file_id, signal);
          await streamAnswer(answer, emit, signal);
        });
      },
    }),
    aiCall({
      method: 'POST',
      path: 'summary/text/stream',
      summary:
        'A passage (AI read’s selection, up to 20,000 characters) summarised and streamed as events; 11005 under 250 characters, 11003 without the tokens',
      body: passageSummaryRequest,
      streams: true,
      handler: async ({ body }, c) => {
        const answer = await preparePassageSummary(c.ctx, accountOf(c), body.text);
        await sendEvents(c, async (emit, signal) => {
          await streamAnswer(answer, emit, signal);
        });
      },
    }),
    aiCall({
      method: 'POST',
      path: 'chat/completion',
      summary: questionSummary('Answer a question about the file with the pages it rests on, in a new conversation or a given one'),
      body: completionRequest,
      response: aiAnswer,
      handler: ({ body }, c) => completion(c.ctx, accountOf(c), body),
    }),
    aiCall({
      method: 'POST',
      path: 'chat/completion/stream',
      summary: questionSummary('The answer streamed as events (text, citations, done)'),
      body: completionRequest,
      streams: true,
      handler: ({ body }, c) => streamQuestion(c, body),
    }),
    aiCall({
      method: 'POST',
      path: 'conversation/chat/stream',
      summary: questionSummary('A question in an existing conversation, streamed as events'),
      body: conversationQuestion,
      streams: true,
      handler: ({ body }, c) => streamQuestion(c, body),
    }),
    aiCall({
      method: 'GET',
      path: 'stream/cancel',
      summary:
        'Stop a stream of the account (its id from the X-Quire-Stream-Id header): it ends with done, cancelled; 11013 if it had ended',
      query: streamCancelQuery,
      handler: async ({ query }, c) => {
        accountOf(c);
        cancelStream(c.ownerId, query.stream_id);
        return null;
      },
    }),
    aiCall({
      method: 'GET',
      path: 'chat/gpt-token/check',
      summary: "The account's AI tokens used and its plan's total (this period's: the AI plan's month)",
      response: tokenCheckAnswer,
      handler: (_, c) => tokenCheck(c.ctx, accountOf(c)),
    }),
    aiCall({
      method: 'GET',
      path: 'conversation/list',
      summary: "The account's conversations, of one file when given, pinned first, then the latest",
      query: conversationListQuery,
      response: conversationList,
      handler: ({ query }, c) => listConversations(c.ctx, accountOf(c), query.file_id),
    }),
    aiCall({
      method: 'GET',
      path: 'conversation/detail',
      summary: 'A conversation with its messages, oldest first, each answer with its citations',
      query: conversationRef,
      response: conversationDetailAnswer,
      handler: ({ query }, c) => conversationDetail(c.ctx, accountOf(c), query.conversation_id),
    }),
    aiCall({
      method: 'POST',
      path: 'conversation/top',
      summary: 'Pin a conversation at the top of the list (top false: unpin)',
      body: conversationTopRequest,
      response: aiConversation,
      handler: ({ body }, c) => changeConversation(c.ctx, accountOf(c), body.conversation_id, { top: body.top }),
    }),
    aiCall({
      method: 'POST',
      path: 'conversation/del',
      summary: 'Delete a conversation with its messages',
      body: conversationRef,
      handler: async ({ body }, c) => {
        await removeConversation(c.ctx, accountOf(c), body.conversation_id);
        return null;
      },
    }),
    aiCall({
      method: 'POST',
      path: 'conversation/edit',
      summary: 'Rename a conversation',
      body: conversationEditRequest,
      response: aiConversation,
      handler: ({ body }, c) => changeConversation(c.ctx, accountOf(c), body.conversation_id, { title: body.title }),
    }),
    aiCall({
      method: 'POST',
      path: 'conversation/share',
      summary: 'A read-only link to a conversation (the same one each time); share/preview reads it',
      body: conversationRef,
      response: conversationShared,
      handler: ({ body }, c) => shareConversation(c.ctx, accountOf(c), body.conversation_id),
    }),
    aiCall({
      method: 'POST',
      path: 'conversation/sync',
      summary: 'A conversation and its messages written after a time (ms): a page open elsewhere catches up',
      body: conversationSyncRequest,
      response: conversationSync,
      handler: ({ body }, c) => conversationDetail(c.ctx, accountOf(c), body.conversation_id, body.after),
    }),
    {
      method: 'GET',
      path: `${base}conversation/share/preview`,
      summary: 'A shared conversation as anyone with its link reads it (no sign-in); 2405 for a code that names none',
      query: sharePreviewQuery,
      response: conversationPreview,
      handler: ({ query }, c) => sharedConversation(c.ctx, query.share_code),
    },
    aiCall({
      method: 'GET',
      path: 'note/list',
      summary: "The account's notes on a file, by page",
      query: noteListQuery,
      response: noteList,
      handler: ({ query }, c) => listNotes(c.ctx, accountOf(c), query.file_id),
    }),
    aiCall({
      method: 'POST',
      path: 'note/add',
      summary: 'A note on a page of a file the account analysed (file/info)',
      body: noteAddRequest,
      response: aiNote,
      handler: ({ body }, c) => addNote(c.ctx, accountOf(c), body),
    }),
    aiCall({
      method: 'DELETE',
      path: 'note/delete',
      summary: 'Delete a note',
      query: noteRef,
      response: z.null(),
      handler: async ({ query }, c) => {
        await removeNote(c.ctx, accountOf(c), query.note_id);
        return null;
      },
    }),
  ];
}
