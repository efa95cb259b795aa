// Chat with PDF: a file's analysis (its first pages' text in chunks with their pages, and the
// summary made from it), the summary, answers to questions with the pages they rest on,
// conversations and notes. The classic provider answers from the document's own passages; a tool
// whose provider is a model (ctx.modelFor) gets those passages as its context instead.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import {
  AI_CONSTANTS,
  ErrorCode,
  MB,
  QuireError,
  type AiCitation,
  type AiFileInfo,
  type AiSummary,
  type aiConversation,
  type aiMessage,
  type aiNote,
} from '@quire/contracts';
import type { AppContext } from '../context.js';
import { refusal } from '../texts/words.js';
import {
  analysesIn,
  chunksOf,
  deleteConversation,
  deleteNote,
  findAnalysis,
  findAnalysisById,
  findConversation,
  findSharedConversation,
  insertAnalysis,
  insertConversation,
  insertMessages,
  insertNote,
  messagesOf,
  notesOf,
  replaceChunks,
  updateAnalysis,
  updateConversation,
  conversationsOf,
} from '../db/aiRepo.js';
import { findCloudFile } from '../db/cloudRepo.js';
import type { AiAnalysisTable, AiConversationTable, AiMessageTable } from '../db/schema.js';
import { detectFileType } from '../engines/fileTypes.js';
import { pageLayout } from '../engines/poppler.js';
import { bookmarksOf, inspectPdf } from '../engines/qpdf.js';
import { boundFor } from '../engines/run.js';
import { chunkPages, rankChunks } from '../classic/retrieval.js';
import { centralSentences, summarise, type ClassicSummary } from '../classic/summary.js';
import { sentencesOf, termsOf } from '../classic/text.js';
import { newId } from '../ids.js';
import { accountOwner } from './accounts.js';
import { classicAnswer, modelAnswer, type PreparedAnswer, type SpokenAnswer } from './aiAnswers.js';
import { chargeQuestion, refundQuestion, tokenCheck, type AiAccount } from './aiQuota.js';
import { ownedFile } from './files.js';

/** An analysis left unfinished this long was cut short (its process stopped): the next file/info starts it again. */
const STALE_ANALYSIS_MS = 10 * 60_000;
/** Passages an answer quotes, and cites, at most. */
const ANSWER_PASSAGES = 3;
const notFound = () => new QuireError(ErrorCode.NoData);
const isFinished = (status: AiAnalysisTable['status']) => status === 'success' || status === 'failed';

function toFileInfo(row: AiAnalysisTable): AiFileInfo {
  return {
    file_id: row.file_id,
    file_name: row.file_name,
    status: row.status,
    total_page: row.total_page,
    analysed_pages: row.pages,
    ...(row.status === 'failed' && { error_code: row.error_code }),
  };
}

/** The stored bytes a file id names: the account's cloud file, else its uploaded tool file (2405 when neither). */
async function sourceOf(ctx: AppContext, account: AiAccount, fileId: string) {
  const cloud = await findCloudFile(ctx.db, account.id, fileId);
  const row = cloud ?? (await ownedFile(ctx, accountOwner(account.id), fileId));
  return { key: row.storage_key, name: row.name, size: row.size, totalPage: row.total_page, encrypted: row.encrypted === 1 };
}

/** Reads the file's first pages into chunks and the summary; the status moves on as it goes. */
async function analyse(ctx: AppContext, account: AiAccount, row: AiAnalysisTable, key: string): Promise<void> {
  const step = (status: AiAnalysisTable['status']) => updateAnalysis(ctx.db, row.id, { status, updated_at: Date.now() });
  try {
    await step('uploading');
    const local = await ctx.storage.localPath(key);
    await step('analyses');
    const pages = Math.min(row.total_page, account.limits.pagesPerAnalysis);
    await fs.mkdir(ctx.scratchDir, { recursive: true });
    const layout = await pageLayout(local, pages, path.join(ctx.scratchDir, `${newId()}.layout.html`), ctx.toolLimits);
    const bookmarks = (await bookmarksOf(local, boundFor('inspect', ctx.toolLimits))).filter((b) => b.page <= pages);
    const chunks = chunkPages(layout.pages);
    await replaceChunks(
      ctx.db,
      row.id,
      chunks.map((c, seq) => ({ analysis_id: row.id, seq, page: c.page, text: c.text, terms: JSON.stringify(c.terms), length: c.length })),
    );
    const summary = summarise(layout.pages, layout.lines, bookmarks);
    const textChars = layout.pages.reduce((sum, p) => sum + p.replace(/\s+/g, ' ').trim().length, 0);
    await updateAnalysis(ctx.db, row.id, {
      status: 'success',
      pages,
      text_chars: textChars,
      summary: JSON.stringify(summary),
      updated_at: Date.now(),
    });
  } catch (e) {
    console.warn(`AI analysis ${row.id} failed: ${(e as Error).message}`);
    const code = e instanceof QuireError ? e.code : ErrorCode.AnalysisFailed;
    await updateAnalysis(ctx.db, row.id, { status: 'failed', error_code: code, updated_at: Date.now() });
  }
}

/**
 * The file's AI status (POST /v2/file/info). The first call checks the file (a PDF, opening without a password,
 * within the plan's size) and starts its analysis; a failed or cut-short one starts again.
 */
export async function fileInfo(ctx: AppContext, account: AiAccount, fileId: string): Promise<AiFileInfo> {
  const existing = await findAnalysis(ctx.db, account.id, fileId);
  const restart =
    existing && (existing.status === 'failed' || (!isFinished(existing.status) && existing.updated_at < Date.now() - STALE_ANALYSIS_MS));
  if (existing && !restart) return toFileInfo(existing);
  const source = await sourceOf(ctx, account, fileId);
  if (source.size > account.limits.maxFileMb * MB)
    throw new QuireError(ErrorCode.TooLarge, undefined, { upgrade: 'AiSize', limit: account.limits.maxFileMb });
  const local = await ctx.storage.localPath(source.key);
  if ((await detectFileType(local, source.name)) !== 'pdf') throw new QuireError(ErrorCode.NotPdf);
  // Encrypted with an empty user password opens as it is; one that needs a password is 3122.
  if (source.encrypted) await inspectPdf(local, undefined, ctx.inspectLimits);
  const now = Date.now();
  const row: AiAnalysisTable = existing
    ? { ...existing, status: 'init', error_code: 0, updated_at: now }
    : {
        id: newId(),
        account_id: account.id,
        file_id: fileId,
        file_name: source.name,
        status: 'init',
        error_code: 0,
        total_page: source.totalPage,
        pages: 0,
        text_chars: 0,
        summary: '',
        created_at: now,
        updated_at: now,
      };
  if (existing) await updateAnalysis(ctx.db, row.id, { status: 'init', error_code: 0, updated_at: now });
  else if (!(await insertAnalysis(ctx.db, row))) return toFileInfo((await findAnalysis(ctx.db, account.id, fileId))!);
  void analyse(ctx, account, row, source.key).catch((e: unknown) => console.warn(`AI analysis ${row.id}: ${(e as Error).message}`));
  return toFileInfo(row);
}

/**
 * The file's finished analysis, started if need be and waited for up to ctx.config.aiAnalysisWaitMs (60 s):
 * 11012 if it failed, 90002 if it did not finish in time.
 */
async function finishedAnalysis(ctx: AppContext, account: AiAccount, fileId: string, signal?: AbortSignal): Promise<AiAnalysisTable> {
  await fileInfo(ctx, account, fileId);
  const deadline = Date.now() + ctx.config.aiAnalysisWaitMs;
  for (;;) {
    const row = (await findAnalysis(ctx.db, account.id, fileId))!;
    if (row.status === 'success') return row;
    if (row.status === 'failed') throw new QuireError(ErrorCode.AnalysisFailed);
    if (Date.now() >= deadline || signal?.aborted) throw new QuireError(ErrorCode.UploadFailed);
    await new Promise((r) => setTimeout(r, AI_CONSTANTS.summaryPollMs));
  }
}

/** What a model is told besides the question: answer from these passages only, citing their pages. */
const CHAT_SYSTEM =
  'Answer the question from the passages of the document below, citing each page you use as (page N). ' +
  'If the passages do not hold the answer, say so.';
const SUMMARY_SYSTEM = 'Summarise the document below in a short paragraph, then list its main points.';
/** Characters of the document a model's summary is given: its beginning. */
const SUMMARY_CONTEXT_CHARS = 12_000;
const NOT_FOUND_ANSWER = 'The analysed pages of the document do not seem to hold this. Try other words, or ask about one of its sections.';

export interface PreparedSummary {
  analysis: AiAnalysisTable;
  summary: ClassicSummary;
  answer: PreparedAnswer;
}

/** The file's summary, its analysis waited for (90002, 11012), refused for text under 250 characters (11005), its tokens charged. */
export async function prepareSummary(ctx: AppContext, account: AiAccount, fileId: string, signal?: AbortSignal): Promise<PreparedSummary> {
  const analysis = await finishedAnalysis(ctx, account, fileId, signal);
  if (analysis.text_chars < AI_CONSTANTS.minTextChars) throw new QuireError(ErrorCode.TextTooShort);
  const summary = JSON.parse(analysis.summary) as ClassicSummary;
  const model = ctx.modelFor('summary');
  if (!model) return { analysis, summary, answer: await classicAnswer(ctx, account, '', summary.summary, []) };
  let context = '';
  for (const c of await chunksOf(ctx.db, analysis.id)) {
    if (context.length + c.text.length > SUMMARY_CONTEXT_CHARS) break;
    context += `${c.text}\n\n`;
  }
  return { analysis, summary, answer: await modelAnswer(ctx, account, model, SUMMARY_SYSTEM, context, []) };
}

const PASSAGE_SUMMARY_SYSTEM = 'Summarise the passage below in a few sentences, keeping its main points.';

/**
 * A passage's summary (AI read's selection): its most central sentences, about a third of them
 * (1 to 5), or a model's; 11005 under 250 characters. The classic provider charges the passage's
 * words and the summary's.
 */
export async function preparePassageSummary(ctx: AppContext, account: AiAccount, text: string): Promise<PreparedAnswer> {
  const passage = text.trim();
  if (passage.length < AI_CONSTANTS.minTextChars) throw new QuireError(ErrorCode.TextTooShort);
  const model = ctx.modelFor('summary');
  if (model) return modelAnswer(ctx, account, model, PASSAGE_SUMMARY_SYSTEM, passage, []);
  const count = Math.min(5, Math.max(1, Math.round(sentencesOf(passage).length / 3)));
  const central = centralSentences(passage, count);
  // A passage of fragments (a table, a list) has no sentence TextRank takes: its first sentences stand in.
  return classicAnswer(ctx, account, passage, (central.length ? central : sentencesOf(passage).slice(0, count)).join(' '), []);
}

/** POST /v2/chat/summary: the whole summary in one answer. */
export async function summaryOf(ctx: AppContext, account: AiAccount, fileId: string, lang = 'en'): Promise<AiSummary> {
  const { summary, answer } = await prepareSummary(ctx, account, fileId);
  const spoken = await answer.speak(() => {}, new AbortController().signal, false);
  const { used_tokens, total_tokens } = await tokenCheck(ctx, account);
  return {
    file_id: fileId,
    lang,
    summary: spoken.text,
    keywords: summary.keywords,
    outlines: summary.outline,
    questions: summary.questions,
    per_tokens: spoken.tokens,
    total: total_tokens,
    used: used_tokens,
    state: 'success',
  };
}

/** The best passages' sentences that share most terms with the question, each with its page. */
function classicReply(chunks: readonly { page: number; text: string }[], question: string): string {
  if (chunks.length === 0) return NOT_FOUND_ANSWER;
  const asked = new Set(termsOf(question));
  return chunks
    .map((chunk) => {
      const sentences = sentencesOf(chunk.text);
      const overlap = sentences.map((s) => new Set(termsOf(s).filter((t) => asked.has(t))).size);
      const best = Math.max(...overlap);
      const chosen = sentences.filter((_, i) => overlap[i] === best || (overlap[i]! > 0 && overlap[i]! >= best - 1)).slice(0, 3);
      return `${chosen.join(' ')} (page ${chunk.page})`;
    })
    .join('\n\n');
}

export interface PreparedQuestion {
  conversation: AiConversationTable;
  answer: PreparedAnswer;
  /** Records the answer as sent in the conversation. */
  finish(spoken: SpokenAnswer): Promise<void>;
}

const message = (
  conversationId: string,
  role: AiMessageTable['role'],
  content: string,
  citations: AiCitation[],
  tokens: number,
  at: number,
) => ({
  id: newId(),
  conversation_id: conversationId,
  role,
  content,
  citations: JSON.stringify(citations),
  tokens,
  created_at: at,
});

/**
 * A question about a file, in a new conversation or one of the account's (2405 for another's):
 * the analysis waited for, the question counted (11007), the answer's tokens charged (11003, the
 * question then not counted), the question recorded.
 */
export async function prepareQuestion(
  ctx: AppContext,
  account: AiAccount,
  req: { file_id?: string | undefined; conversation_id?: string | undefined; question: string },
): Promise<PreparedQuestion> {
  let conversation = req.conversation_id ? await findConversation(ctx.db, account.id, req.conversation_id) : undefined;
  if (req.conversation_id && !conversation) throw notFound();
  const known = conversation && (await findAnalysisById(ctx.db, account.id, conversation.analysis_id));
  if (conversation && (!known || (req.file_id && known.file_id !== req.file_id))) throw notFound();
  const analysis = known ?? (await finishedAnalysis(ctx, account, req.file_id!));
  const ranked = rankChunks(
    (await chunksOf(ctx.db, analysis.id)).map((c) => ({ ...c, terms: JSON.parse(c.terms) as Record<string, number> })),
    req.question,
    ANSWER_PASSAGES,
  );
  const citations = ranked.map((c) => ({ page: c.page, text: c.text }));
  await chargeQuestion(ctx, account);
  let answer: PreparedAnswer;
  try {
    const model = ctx.modelFor('chat');
    answer = model
      ? await modelAnswer(
          ctx,
          account,
          model,
          `${CHAT_SYSTEM}\n\n${citations.map((c) => `[page ${c.page}] ${c.text}`).join('\n\n')}`,
          req.question,
          citations,
        )
      : await classicAnswer(ctx, account, req.question, classicReply(ranked, req.question), citations);
  } catch (e) {
    await refundQuestion(ctx, account);
    throw e;
  }
  const now = Date.now();
  if (!conversation) {
    conversation = {
      id: newId(),
      account_id: account.id,
      analysis_id: analysis.id,
      title: req.question.slice(0, 120),
      top: 0,
      share_code: null,
      created_at: now,
      updated_at: now,
    };
    await insertConversation(ctx.db, conversation);
  } else await updateConversation(ctx.db, account.id, conversation.id, { updated_at: now });
  await insertMessages(ctx.db, [message(conversation.id, 'user', req.question, [], 0, now)]);
  const id = conversation.id;
  return {
    conversation,
    answer,
    async finish(spoken) {
      // A millisecond after the question at least: the conversation reads in order.
      await insertMessages(ctx.db, [message(id, 'assistant', spoken.text, answer.citations, spoken.tokens, Math.max(Date.now(), now + 1))]);
    },
  };
}

/** POST /v2/chat/completion: the whole answer in one. */
export async function completion(ctx: AppContext, account: AiAccount, req: Parameters<typeof prepareQuestion>[2]) {
  const prepared = await prepareQuestion(ctx, account, req);
  const spoken = await prepared.answer.speak(() => {}, new AbortController().signal, false);
  await prepared.finish(spoken);
  return { conversation_id: prepared.conversation.id, answer: spoken.text, citations: prepared.answer.citations, tokens: spoken.tokens };
}

type Conversation = z.infer<typeof aiConversation>;
type Message = z.infer<typeof aiMessage>;

function toConversation(row: AiConversationTable, analysis: AiAnalysisTable | undefined): Conversation {
  return {
    conversation_id: row.id,
    file_id: analysis?.file_id ?? '',
    file_name: analysis?.file_name ?? '',
    title: row.title,
    top: row.top === 1,
    shared: row.share_code !== null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const toMessage = (row: AiMessageTable): Message => ({
  message_id: row.id,
  role: row.role,
  content: row.content,
  citations: JSON.parse(row.citations) as AiCitation[],
  tokens: row.tokens,
  created_at: row.created_at,
});

async function ownedConversation(ctx: AppContext, account: AiAccount, id: string) {
  const row = await findConversation(ctx.db, account.id, id);
  if (!row) throw notFound();
  return { row, conversation: toConversation(row, await findAnalysisById(ctx.db, account.id, row.analysis_id)) };
}

/** The analysis of one of the account's files; 2405 when it has none (never asked about, or another account's). */
async function analysisOfFile(ctx: AppContext, account: AiAccount, fileId: string): Promise<AiAnalysisTable> {
  const row = await findAnalysis(ctx.db, account.id, fileId);
  if (!row) throw notFound();
  return row;
}

export async function listConversations(ctx: AppContext, account: AiAccount, fileId?: string) {
  const analysis = fileId ? await analysisOfFile(ctx, account, fileId) : undefined;
  const rows = await conversationsOf(ctx.db, account.id, analysis?.id);
  const analyses = new Map((await analysesIn(ctx.db, account.id, [...new Set(rows.map((r) => r.analysis_id))])).map((a) => [a.id, a]));
  return { conversations: rows.map((r) => toConversation(r, analyses.get(r.analysis_id))) };
}

/** The conversation with its messages after `after` (ms; all by default). */
export async function conversationDetail(ctx: AppContext, account: AiAccount, id: string, after?: number) {
  const { conversation } = await ownedConversation(ctx, account, id);
  return { conversation, messages: (await messagesOf(ctx.db, id, after)).map(toMessage) };
}

export async function changeConversation(ctx: AppContext, account: AiAccount, id: string, change: { title?: string; top?: boolean }) {
  await ownedConversation(ctx, account, id);
  await updateConversation(ctx.db, account.id, id, {
    ...(change.title !== undefined && { title: change.title, updated_at: Date.now() }),
    ...(change.top !== undefined && { top: change.top ? 1 : 0 }),
  });
  return (await ownedConversation(ctx, account, id)).conversation;
}

export async function removeConversation(ctx: AppContext, account: AiAccount, id: string): Promise<void> {
  await ownedConversation(ctx, account, id);
  await deleteConversation(ctx.db, account.id, id);
}

/** A read-only link to the conversation (the same link each time). */
export async function shareConversation(ctx: AppContext, account: AiAccount, id: string) {
  const { row } = await ownedConversation(ctx, account, id);
  const code = row.share_code ?? newId();
  if (!row.share_code) await updateConversation(ctx.db, account.id, id, { share_code: code });
  return { share_code: code, share_url: `${ctx.config.publicUrl}/app/chat-pdf?conversation=${code}` };
}

/** A shared conversation as anyone with its link reads it; 2405 for a code that names none. */
export async function sharedConversation(ctx: AppContext, code: string) {
  const row = await findSharedConversation(ctx.db, code);
  if (!row) throw notFound();
  const analysis = await findAnalysisById(ctx.db, row.account_id, row.analysis_id);
  return {
    title: row.title,
    file_name: analysis?.file_name ?? '',
    messages: (await messagesOf(ctx.db, row.id)).map(({ role, content, citations, created_at }) => ({
      role,
      content,
      citations: JSON.parse(citations) as AiCitation[],
      created_at,
    })),
  };
}

type Note = z.infer<typeof aiNote>;

export async function listNotes(ctx: AppContext, account: AiAccount, fileId: string): Promise<{ notes: Note[] }> {
  const analysis = await analysisOfFile(ctx, account, fileId);
  const rows = await notesOf(ctx.db, account.id, analysis.id);
  return { notes: rows.map((r) => ({ note_id: r.id, file_id: fileId, page: r.page, text: r.text, created_at: r.created_at })) };
}

/** A note on a page of the file (within its pages). */
export async function addNote(ctx: AppContext, account: AiAccount, req: { file_id: string; page: number; text: string }): Promise<Note> {
  const analysis = await analysisOfFile(ctx, account, req.file_id);
  if (analysis.total_page > 0 && req.page > analysis.total_page)
    throw refusal(ErrorCode.InvalidParams, 'error.page.count', { count: analysis.total_page });
  const row = { id: newId(), account_id: account.id, analysis_id: analysis.id, page: req.page, text: req.text, created_at: Date.now() };
  await insertNote(ctx.db, row);
  return { note_id: row.id, file_id: req.file_id, page: row.page, text: row.text, created_at: row.created_at };
}

export async function removeNote(ctx: AppContext, account: AiAccount, noteId: string): Promise<void> {
  if (!(await deleteNote(ctx.db, account.id, noteId))) throw notFound();
}
