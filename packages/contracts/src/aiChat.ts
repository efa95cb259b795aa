// Chat with PDF's calls under /api/ai/v2/: a file's analysis (its AI status), the summary, the
// questions and their conversations, and notes. A file is named by its document cloud id or by an
// uploaded tool file's id; the analysis reads its first pages (the plan's pages per analysis).
import { z } from 'zod';
import { aiCitation, aiStatuses } from './ai.js';

const id = z.string().min(1).max(64);
const count = z.number().int().min(0);

export const aiFileRequest = z.object({ file_id: id });
/** POST /v2/file/info: the analysis of the file (started by the first call), and how far it got. */
export const aiFileInfo = z.object({
  file_id: id,
  file_name: z.string(),
  status: z.enum(aiStatuses),
  total_page: count,
  /** Pages analysed: the first ones, up to the plan's pages per analysis. */
  analysed_pages: count,
  /** The catalogue code of a failed analysis. */
  error_code: z.number().int().optional(),
});
export type AiFileInfo = z.infer<typeof aiFileInfo>;

export const summaryRequest = z.object({
  file_id: id,
  with_lang: z.string().max(16).optional().describe('The language of the answer; the classic provider answers in the document’s own'),
});
export const outlineEntry = z.object({ title: z.string(), page: z.number().int().min(1), level: z.number().int().min(1) });
/** POST /v2/chat/summary */
export const aiSummary = z.object({
  file_id: id,
  lang: z.string(),
  summary: z.string(),
  keywords: z.array(z.string()),
  outlines: z.array(outlineEntry),
  questions: z.array(z.string()),
  /** Tokens this summary cost; total and used: the account's after it. */
  per_tokens: count,
  total: count,
  used: count,
  state: z.enum(aiStatuses),
});
export type AiSummary = z.infer<typeof aiSummary>;

/** POST /v2/summary/text/stream: a passage (AI read's selection) summarised; 11005 under 250 characters. */
export const passageSummaryRequest = z.object({ text: z.string().max(20_000) });

export const question = z.string().trim().min(1).max(1999);
export const completionRequest = z
  .object({
    /** The file asked about; a conversation's own file when only conversation_id is given. */
    file_id: id.optional(),
    question,
    /** Continue this conversation; none: a new one about file_id, titled by the question. */
    conversation_id: id.optional(),
  })
  .refine((r) => r.file_id || r.conversation_id, 'Give the file_id, or the conversation_id to continue.');
export const conversationQuestion = z.object({ conversation_id: id, question });
/** POST /v2/chat/completion */
export const aiAnswer = z.object({
  conversation_id: id,
  answer: z.string(),
  citations: z.array(aiCitation),
  tokens: count,
});

export const conversationRef = z.object({ conversation_id: id });
export const conversationListQuery = z.object({ file_id: id.optional() });
export const aiConversation = z.object({
  conversation_id: id,
  file_id: id,
  file_name: z.string(),
  title: z.string(),
  top: z.boolean(),
  shared: z.boolean(),
  created_at: count,
  updated_at: count,
});
export const aiMessage = z.object({
  message_id: id,
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  citations: z.array(aiCitation),
  tokens: count,
  created_at: count,
});
export const conversationList = z.object({ conversations: z.array(aiConversation) });
export const conversationDetail = z.object({ conversation: aiConversation, messages: z.array(aiMessage) });
export const conversationTopRequest = conversationRef.extend({ top: z.boolean().default(true) });
export const conversationEditRequest = conversationRef.extend({ title: z.string().trim().min(1).max(240) });
export const conversationShared = z.object({ share_code: z.string(), share_url: z.string() });
/** Messages after a time (ms), for a page open elsewhere to catch up with the conversation. */
export const conversationSyncRequest = conversationRef.extend({ after: count.default(0) });
export const conversationSync = z.object({ conversation: aiConversation, messages: z.array(aiMessage) });
export const sharePreviewQuery = z.object({ share_code: z.string().min(1).max(64) });
/** A shared conversation as anyone with its link reads it. */
export const conversationPreview = z.object({
  title: z.string(),
  file_name: z.string(),
  messages: z.array(aiMessage.pick({ role: true, content: true, citations: true, created_at: true })),
});

export const noteListQuery = z.object({ file_id: id });
export const noteAddRequest = z.object({ file_id: id, page: z.number().int().min(1), text: z.string().trim().min(1).max(5000) });
export const noteRef = z.object({ note_id: id });
export const aiNote = z.object({ note_id: id, file_id: id, page: z.number().int().min(1), text: z.string(), created_at: count });
export const noteList = z.object({ notes: z.array(aiNote) });

/** GET /v2/stream/cancel: the id comes in the X-Quire-Stream-Id header of the stream's answer. */
export const streamCancelQuery = z.object({ stream_id: id });
