// Chat with PDF's calls: a file's analysis, its summary, conversations and notes (/api/ai/v2/).
import type {
  aiConversation,
  aiFileInfo,
  aiNote,
  aiSummary,
  conversationDetail,
  conversationList,
  conversationPreview,
  conversationShared,
  conversationSync,
  noteList,
  AiFileInfo,
  AiSummary,
} from '@quire/contracts';
import type { z } from 'zod';
import { aiGet, aiPost, aiUrl } from './ai';
import { send, readEnvelope, type Answer } from './client';

export type AiConversation = z.infer<typeof aiConversation>;
export type ConversationDetail = z.infer<typeof conversationDetail>;
export type AiMessage = ConversationDetail['messages'][number];
export type AiNote = z.infer<typeof aiNote>;
export type ConversationPreview = z.infer<typeof conversationPreview>;

/** The file's AI status; the first call starts its analysis. */
export const analysisOf = (fileId: string): Promise<AiFileInfo> => aiPost<Answer<typeof aiFileInfo>>('file/info', { file_id: fileId });

export const summaryOf = (fileId: string): Promise<AiSummary> => aiPost<Answer<typeof aiSummary>>('chat/summary', { file_id: fileId });

/** Streamed calls: a new question about a file, or one in a conversation. */
export const ASK_FILE_STREAM = 'chat/completion/stream';
export const ASK_CONVERSATION_STREAM = 'conversation/chat/stream';

export const conversationsOf = async (fileId?: string): Promise<AiConversation[]> =>
  (await aiGet<Answer<typeof conversationList>>('conversation/list', { file_id: fileId })).conversations;

export const openConversation = (conversationId: string): Promise<ConversationDetail> =>
  aiGet<Answer<typeof conversationDetail>>('conversation/detail', { conversation_id: conversationId });

/** Messages written after `after` (ms), as a page open elsewhere left them. */
export const syncConversation = (conversationId: string, after: number): Promise<ConversationDetail> =>
  aiPost<Answer<typeof conversationSync>>('conversation/sync', { conversation_id: conversationId, after });

export const pinConversation = (conversationId: string, top: boolean): Promise<AiConversation> =>
  aiPost<Answer<typeof aiConversation>>('conversation/top', { conversation_id: conversationId, top });

export const renameConversation = (conversationId: string, title: string): Promise<AiConversation> =>
  aiPost<Answer<typeof aiConversation>>('conversation/edit', { conversation_id: conversationId, title });

export const deleteConversation = (conversationId: string): Promise<null> =>
  aiPost<null>('conversation/del', { conversation_id: conversationId });

export const shareConversation = (conversationId: string) =>
  aiPost<Answer<typeof conversationShared>>('conversation/share', { conversation_id: conversationId });

/** A shared conversation, read without an account. */
export const sharedConversation = (shareCode: string): Promise<ConversationPreview> =>
  aiGet<Answer<typeof conversationPreview>>('conversation/share/preview', { share_code: shareCode });

export const notesOf = async (fileId: string): Promise<AiNote[]> =>
  (await aiGet<Answer<typeof noteList>>('note/list', { file_id: fileId })).notes;

export const addNote = (fileId: string, page: number, text: string): Promise<AiNote> =>
  aiPost<Answer<typeof aiNote>>('note/add', { file_id: fileId, page, text });

export async function deleteNote(noteId: string): Promise<void> {
  await readEnvelope<null>(await send(aiUrl('note/delete', { note_id: noteId }), { method: 'DELETE' }));
}
