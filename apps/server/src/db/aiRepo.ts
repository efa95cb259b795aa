// The AI layer's analyses (with their chunks), conversations (with their messages) and notes,
// each found through the account that owns it: another account's id finds nothing.
import type { Db } from './connect.js';
import type { AiAnalysisTable, AiChunkTable, AiConversationTable, AiMessageTable, AiNoteTable } from './schema.js';

export function findAnalysis(db: Db, accountId: string, fileId: string): Promise<AiAnalysisTable | undefined> {
  return db.selectFrom('ai_analyses').selectAll().where('account_id', '=', accountId).where('file_id', '=', fileId).executeTakeFirst();
}

export function findAnalysisById(db: Db, accountId: string, id: string): Promise<AiAnalysisTable | undefined> {
  return db.selectFrom('ai_analyses').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

export function analysesIn(db: Db, accountId: string, ids: string[]): Promise<AiAnalysisTable[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('ai_analyses').selectAll().where('account_id', '=', accountId).where('id', 'in', ids).execute();
}

/** Inserts the analysis unless one of the account's for the file is there (a racing call made it): false then. */
export async function insertAnalysis(db: Db, row: AiAnalysisTable): Promise<boolean> {
  const res = await db
    .insertInto('ai_analyses')
    .values(row)
    .onConflict((oc) => oc.columns(['account_id', 'file_id']).doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function updateAnalysis(db: Db, id: string, change: Partial<Omit<AiAnalysisTable, 'id' | 'account_id'>>): Promise<void> {
  await db.updateTable('ai_analyses').set(change).where('id', '=', id).execute();
}

/** The analysis's chunks written anew (a retried analysis replaces those of the failed one). */
export async function replaceChunks(db: Db, analysisId: string, chunks: AiChunkTable[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('ai_chunks').where('analysis_id', '=', analysisId).execute();
    // Batches keep each statement within SQLite's bound parameters.
    for (let i = 0; i < chunks.length; i += 100)
      await trx
        .insertInto('ai_chunks')
        .values(chunks.slice(i, i + 100))
        .execute();
  });
}

export function chunksOf(db: Db, analysisId: string): Promise<AiChunkTable[]> {
  return db.selectFrom('ai_chunks').selectAll().where('analysis_id', '=', analysisId).orderBy('seq').execute();
}

export async function insertConversation(db: Db, row: AiConversationTable): Promise<void> {
  await db.insertInto('ai_conversations').values(row).execute();
}

export function findConversation(db: Db, accountId: string, id: string): Promise<AiConversationTable | undefined> {
  return db.selectFrom('ai_conversations').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

export function findSharedConversation(db: Db, code: string): Promise<AiConversationTable | undefined> {
  return db.selectFrom('ai_conversations').selectAll().where('share_code', '=', code).executeTakeFirst();
}

/** The account's conversations (of one analysis when given), pinned first, then the latest. */
export function conversationsOf(db: Db, accountId: string, analysisId?: string): Promise<AiConversationTable[]> {
  let q = db.selectFrom('ai_conversations').selectAll().where('account_id', '=', accountId);
  if (analysisId) q = q.where('analysis_id', '=', analysisId);
  return q.orderBy('top', 'desc').orderBy('updated_at', 'desc').orderBy('id').execute();
}

export async function updateConversation(
  db: Db,
  accountId: string,
  id: string,
  change: Partial<Pick<AiConversationTable, 'title' | 'top' | 'share_code' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable('ai_conversations').set(change).where('account_id', '=', accountId).where('id', '=', id).execute();
}

export async function deleteConversation(db: Db, accountId: string, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const gone = await trx.deleteFrom('ai_conversations').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
    if (Number(gone.numDeletedRows) > 0) await trx.deleteFrom('ai_messages').where('conversation_id', '=', id).execute();
  });
}

export async function insertMessages(db: Db, rows: AiMessageTable[]): Promise<void> {
  await db.insertInto('ai_messages').values(rows).execute();
}

/** A conversation's messages written after `after` (ms), oldest first. */
export function messagesOf(db: Db, conversationId: string, after = -1): Promise<AiMessageTable[]> {
  return db
    .selectFrom('ai_messages')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .where('created_at', '>', after)
    .orderBy('created_at')
    .orderBy('role', 'desc')
    .execute();
}

export async function insertNote(db: Db, row: AiNoteTable): Promise<void> {
  await db.insertInto('ai_notes').values(row).execute();
}

export function notesOf(db: Db, accountId: string, analysisId: string): Promise<AiNoteTable[]> {
  return db
    .selectFrom('ai_notes')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('analysis_id', '=', analysisId)
    .orderBy('page')
    .orderBy('created_at')
    .execute();
}

/** Deletes the account's note; false when it has none of that id. */
export async function deleteNote(db: Db, accountId: string, id: string): Promise<boolean> {
  const res = await db.deleteFrom('ai_notes').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** Everything of the account's AI: analyses, chunks, conversations, messages, notes and quotas spent. */
export async function deleteAiOf(db: Db, accountId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const analyses = trx.selectFrom('ai_analyses').select('id').where('account_id', '=', accountId);
    await trx.deleteFrom('ai_chunks').where('analysis_id', 'in', analyses).execute();
    const conversations = trx.selectFrom('ai_conversations').select('id').where('account_id', '=', accountId);
    await trx.deleteFrom('ai_messages').where('conversation_id', 'in', conversations).execute();
    for (const table of ['ai_conversations', 'ai_notes', 'ai_analyses', 'ai_usage'] as const)
      await trx.deleteFrom(table).where('account_id', '=', accountId).execute();
  });
}
