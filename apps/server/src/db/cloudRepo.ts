// The document cloud's folders and files. Every query names the account: another account's ids
// find nothing.
import { sql } from 'kysely';
import type { Db } from './connect.js';
import type { CloudFileTable, CloudFolderTable } from './schema.js';
import { accountOwner } from '../ids.js';

/** The top of the cloud, as the tables hold it (null in the API). */
export const TOP_FOLDER = '';

/** Names are unique in their folder whatever their case. */
export const nameKey = (name: string) => name.toLowerCase();

/** Whether a write failed on a unique index (SQLite's or PostgreSQL's code): a name a racing request took first. */
export function isNameTaken(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}

export async function insertCloudFolder(db: Db, row: CloudFolderTable): Promise<void> {
  await db.insertInto('cloud_folders').values(row).execute();
}

export async function insertCloudFile(db: Db, row: CloudFileTable): Promise<void> {
  await db.insertInto('cloud_files').values(row).execute();
}

export function findCloudFolder(db: Db, accountId: string, id: string): Promise<CloudFolderTable | undefined> {
  return db.selectFrom('cloud_folders').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

export function findCloudFile(db: Db, accountId: string, id: string): Promise<CloudFileTable | undefined> {
  return db.selectFrom('cloud_files').selectAll().where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

/** The folders of `ids` that the account owns (fewer than asked: some are not its). */
export function cloudFoldersIn(db: Db, accountId: string, ids: string[]): Promise<CloudFolderTable[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('cloud_folders').selectAll().where('account_id', '=', accountId).where('id', 'in', ids).execute();
}

/** The files of `ids` that the account owns (fewer than asked: some are not its). */
export function cloudFilesIn(db: Db, accountId: string, ids: string[]): Promise<CloudFileTable[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('cloud_files').selectAll().where('account_id', '=', accountId).where('id', 'in', ids).execute();
}

export function foldersOfAccount(db: Db, accountId: string): Promise<CloudFolderTable[]> {
  return db.selectFrom('cloud_folders').selectAll().where('account_id', '=', accountId).orderBy('name_key').orderBy('id').execute();
}

export function filesInFolders(db: Db, accountId: string, folderIds: string[]): Promise<CloudFileTable[]> {
  if (folderIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('cloud_files').selectAll().where('account_id', '=', accountId).where('folder_id', 'in', folderIds).execute();
}

/** `%`, `_` and the escape itself match only themselves in a LIKE pattern. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Files and folders whose names contain `search` (any case), anywhere in the account's cloud. */
export async function searchCloud(db: Db, accountId: string, search: string) {
  const pattern = `%${likeLiteral(nameKey(search))}%`;
  const matches = sql<boolean>`name_key like ${pattern} escape '\\'`;
  const [folders, files] = await Promise.all([
    db.selectFrom('cloud_folders').selectAll().where('account_id', '=', accountId).where(matches).execute(),
    db.selectFrom('cloud_files').selectAll().where('account_id', '=', accountId).where(matches).execute(),
  ]);
  return { folders, files };
}

/** The file named so (any case) in the folder, if there is one. */
export function cloudFileNamed(db: Db, accountId: string, folderId: string, name: string): Promise<CloudFileTable | undefined> {
  return db
    .selectFrom('cloud_files')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('folder_id', '=', folderId)
    .where('name_key', '=', nameKey(name))
    .executeTakeFirst();
}

/** The folder named so (any case) in the parent, if there is one. */
export function cloudFolderNamed(db: Db, accountId: string, parentId: string, name: string): Promise<CloudFolderTable | undefined> {
  return db
    .selectFrom('cloud_folders')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('parent_id', '=', parentId)
    .where('name_key', '=', nameKey(name))
    .executeTakeFirst();
}

/** The lower-case names of the folder's files: the taken ones a new "name (n)" must avoid. */
export async function fileNameKeysIn(db: Db, accountId: string, folderId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('cloud_files')
    .select('name_key')
    .where('account_id', '=', accountId)
    .where('folder_id', '=', folderId)
    .execute();
  return new Set(rows.map((r) => r.name_key));
}

/**
 * Bytes the account's cloud holds (leaving out the file `exceptId`, one about to be replaced), with
 * the copies its shares keep until they end: a share of a tool file or task output is stored as long
 * as a cloud file (a share of a cloud file is its file's bytes, counted once).
 */
export async function usedCloudBytes(db: Db, accountId: string, exceptId?: string): Promise<number> {
  const { used } = await db
    .selectFrom('cloud_files')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), sql<number>`0`).as('used'))
    .where('account_id', '=', accountId)
    .$if(exceptId !== undefined, (q) => q.where('id', '!=', exceptId!))
    .executeTakeFirstOrThrow();
  const { copies } = await db
    .selectFrom('shares')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('file_size'), sql<number>`0`).as('copies'))
    .where('owner_id', '=', accountOwner(accountId))
    .where('storage_key', '!=', '')
    .executeTakeFirstOrThrow();
  return Number(used) + Number(copies);
}

/**
 * Runs `work` in a transaction in which the account's writes take turns: its first statement writes
 * the account's cloud_accounts row, which PostgreSQL then keeps locked and SQLite keeps under its one
 * write lock until the commit. What `work` counts stays true until it writes, in one API process or
 * many sharing the database.
 */
export function inAccountTurn<T>(db: Db, accountId: string, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('cloud_accounts')
      .values({ account_id: accountId, received_at: null })
      // A write that changes nothing, for its lock (a conflict left alone would lock nothing).
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ account_id: accountId }))
      .execute();
    return work(trx);
  });
}

/**
 * Runs `write` (given the transaction) if the account's files and share copies, leaving out the
 * file `replacingId` names, and `size` bytes more fit in `capacity`: true if written, false
 * (nothing written) if not. Adds of one account take turns (`inAccountTurn`) from their sum to their write.
 */
export function writeWithinCapacity(
  db: Db,
  accountId: string,
  capacity: number,
  add: { size: number; replacingId?: string },
  write: (trx: Db) => Promise<void>,
): Promise<boolean> {
  return inAccountTurn(db, accountId, async (trx) => {
    if ((await usedCloudBytes(trx, accountId, add.replacingId)) + add.size > capacity) return false;
    await write(trx);
    return true;
  });
}

/** When the account received the free space (capacity/receive); null if it has not. */
export async function cloudReceivedAt(db: Db, accountId: string): Promise<number | null> {
  const row = await db.selectFrom('cloud_accounts').select('received_at').where('account_id', '=', accountId).executeTakeFirst();
  return row?.received_at ?? null;
}

/** Records that the account received the free space; receiving again keeps the first time. */
export async function markCloudReceived(db: Db, accountId: string, at: number): Promise<void> {
  await db
    .insertInto('cloud_accounts')
    .values({ account_id: accountId, received_at: at })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ received_at: at }).where('cloud_accounts.received_at', 'is', null))
    .execute();
}

type FileChange = Partial<Omit<CloudFileTable, 'id' | 'account_id'>>;

export async function updateCloudFiles(db: Db, accountId: string, ids: string[], change: FileChange): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('cloud_files').set(change).where('account_id', '=', accountId).where('id', 'in', ids).execute();
}

export async function updateCloudFolder(
  db: Db,
  accountId: string,
  id: string,
  change: Partial<Pick<CloudFolderTable, 'name' | 'name_key' | 'parent_id' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable('cloud_folders').set(change).where('account_id', '=', accountId).where('id', '=', id).execute();
}

export async function deleteCloudFiles(db: Db, accountId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('cloud_files').where('account_id', '=', accountId).where('id', 'in', ids).execute();
}

export async function deleteCloudFolders(db: Db, accountId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('cloud_folders').where('account_id', '=', accountId).where('id', 'in', ids).execute();
}

/** Every folder and file of the account, and what it received, gone. */
export async function deleteCloudOf(db: Db, accountId: string): Promise<void> {
  await db.deleteFrom('cloud_files').where('account_id', '=', accountId).execute();
  await db.deleteFrom('cloud_folders').where('account_id', '=', accountId).execute();
  await db.deleteFrom('cloud_accounts').where('account_id', '=', accountId).execute();
}

export function starredFiles(db: Db, accountId: string): Promise<CloudFileTable[]> {
  return db
    .selectFrom('cloud_files')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('starred', '=', 1)
    .orderBy('updated_at', 'desc')
    .orderBy('id')
    .execute();
}

/** The files opened last, newest first, leaving out those removed from the list. */
export function recentFiles(db: Db, accountId: string, limit: number): Promise<CloudFileTable[]> {
  return db
    .selectFrom('cloud_files')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('opened_at', 'is not', null)
    .where('hidden_from_recent', '=', 0)
    .orderBy('opened_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}
