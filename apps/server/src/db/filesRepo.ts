// The files table: uploaded files and what inspecting them found.
import type { Db } from './connect.js';
import type { FileTable } from './schema.js';

export async function insertFile(db: Db, row: FileTable): Promise<void> {
  await db.insertInto('files').values(row).execute();
}

/** The file if `ownerId` owns it, expired or not. */
export function findOwnedFile(db: Db, ownerId: string, fileId: string): Promise<FileTable | undefined> {
  return db.selectFrom('files').selectAll().where('id', '=', fileId).where('owner_id', '=', ownerId).executeTakeFirst();
}

/** Remembers a page count and first page size learnt once the password was given. */
export async function setPageInfo(db: Db, fileId: string, info: Pick<FileTable, 'total_page' | 'page_w' | 'page_h'>): Promise<void> {
  await db.updateTable('files').set(info).where('id', '=', fileId).execute();
}

export function expiredFiles(db: Db, now: number): Promise<Pick<FileTable, 'id' | 'storage_key'>[]> {
  return db.selectFrom('files').select(['id', 'storage_key']).where('expires_at', '<', now).execute();
}

export async function deleteFile(db: Db, fileId: string): Promise<void> {
  await db.deleteFrom('files').where('id', '=', fileId).execute();
}

export function filesOf(db: Db, ownerId: string): Promise<Pick<FileTable, 'id' | 'storage_key'>[]> {
  return db.selectFrom('files').select(['id', 'storage_key']).where('owner_id', '=', ownerId).execute();
}

/** Gives the files of `ids` that `from` owns to `to`. */
export async function moveFiles(db: Db, ids: string[], from: string, to: string): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('files').set({ owner_id: to }).where('id', 'in', ids).where('owner_id', '=', from).execute();
}
