// Chat with PDF's calls: a file's analysis, its summary, conversations and notes (/api/ai/v2/).
import {
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
  type AiFileInfo,
  type AiSummary,
} from '@quire/contracts';
import type { z } from 'zod';
import { aiGet, aiPost, aiUrl } from './ai';
import { noData, send, readEnvelope } from './client';

export type AiConversation = z.infer<typeof aiConversation>;
export type ConversationDetail = z.infer<typeof conversationDetail>;
export type AiMessage = ConversationDetail['messages'][number];
export type AiNote = z.infer<typeof aiNote>;
export type ConversationPreview = z.infer<typeof conversationPreview>;

/** The file's AI status; the first call starts its analysis. */
export const analysisOf = (fileId: string): Promise<AiFileInfo> => aiPost('file/info', { file_id: fileId }, aiFileInfo);

export const summaryOf = (fileId: string): Promise<AiSummary> => aiPost('chat/summary', { file_id: fileId }, aiSummary);

/** Streamed calls: a new question about a file, or one in a conversation. */
export const ASK_FILE_STREAM = 'chat/completion/stream';
export const ASK_CONVERSATION_STREAM = 'conversation/chat/stream';

export const conversationsOf = async (fileId?: string): Promise<AiConversation[]> =>
  (await aiGet('conversation/list', { file_id: fileId }, conversationList)).conversations;

export const openConversation = (conversationId: string): Promise<ConversationDetail> =>
  aiGet('conversation/detail', { conversation_id: conversationId }, conversationDetail);

/** Messages written after `after` (ms), as a page open elsewhere left them. */
export const syncConversation = (conversationId: string, after: number): Promise<ConversationDetail> =>
  aiPost('conversation/sync', { conversation_id: conversationId, after }, conversationSync);

export const pinConversation = (conversationId: string, top: boolean): Promise<AiConversation> =>
  aiPost('conversation/top', { conversation_id: conversationId, top }, aiConversation);

export const renameConversation = (conversationId: string, title: string): Promise<AiConversation> =>
  aiPost('conversation/edit', { conversation_id: conversationId, title }, aiConversation);

export const deleteConversation = (conversationId: string): Promise<null> =>
  aiPost('conversation/del', { conversation_id: conversationId }, noData);

export const shareConversation = (conversationId: string) =>
  aiPost('conversation/share', { conversation_id: conversationId }, conversationShared);

/** A shared conversation, read without an account. */
export const sharedConversation = (shareCode: string): Promise<ConversationPreview> =>
  aiGet('conversation/share/preview', { share_code: shareCode }, conversationPreview);

export const notesOf = async (fileId: string): Promise<AiNote[]> => (await aiGet('note/list', { file_id: fileId }, noteList)).notes;

export const addNote = (fileId: string, page: number, text: string): Promise<AiNote> =>
  aiPost('note/add', { file_id: fileId, page, text }, aiNote);

export async function deleteNote(noteId: string): Promise<void> {
  await readEnvelope(await send(aiUrl('note/delete', { note_id: noteId }), { method: 'DELETE' }), noData);
}
