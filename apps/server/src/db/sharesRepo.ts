// The shares table: files shared by link, QR code or email, and how often each was opened.
import type { Db } from './connect.js';
import type { ShareTable } from './schema.js';

export async function insertShare(db: Db, row: ShareTable): Promise<void> {
  await db.insertInto('shares').values(row).execute();
}

export function findShareByCode(db: Db, code: string): Promise<ShareTable | undefined> {
  return db.selectFrom('shares').selectAll().where('code', '=', code).executeTakeFirst();
}

/** The share if `ownerId` made it. */
export function findOwnedShare(db: Db, ownerId: string, shareId: string): Promise<ShareTable | undefined> {
  return db.selectFrom('shares').selectAll().where('id', '=', shareId).where('owner_id', '=', ownerId).executeTakeFirst();
}

/** The owner's shares, newest first. */
export function sharesOf(db: Db, ownerId: string): Promise<ShareTable[]> {
  return db.selectFrom('shares').selectAll().where('owner_id', '=', ownerId).orderBy('created_at', 'desc').execute();
}

/** Shares the owner made since `since`, revoked ones included: a revoked share was still made. */
export async function countSharesSince(db: Db, ownerId: string, since: number): Promise<number> {
  const row = await db
    .selectFrom('shares')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('owner_id', '=', ownerId)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function markRevoked(db: Db, shareId: string, now: number): Promise<void> {
  await db.updateTable('shares').set({ revoked_at: now, storage_key: '' }).where('id', '=', shareId).execute();
}

export async function countOpened(db: Db, shareId: string): Promise<void> {
  await db
    .updateTable('shares')
    .set((eb) => ({ opened: eb('opened', '+', 1) }))
    .where('id', '=', shareId)
    .execute();
}

/** Shares past their expiry that still hold a copy. */
export function expiredCopies(db: Db, now: number): Promise<Pick<ShareTable, 'id' | 'storage_key'>[]> {
  return db.selectFrom('shares').select(['id', 'storage_key']).where('expires_at', '<', now).where('storage_key', '!=', '').execute();
}

export async function clearCopy(db: Db, shareId: string): Promise<void> {
  await db.updateTable('shares').set({ storage_key: '' }).where('id', '=', shareId).execute();
}

/** Forgets shares that ended (expired or revoked) before `before`: their links answer 2405 from then on. */
export async function deleteSharesEndedBefore(db: Db, before: number): Promise<void> {
  await db
    .deleteFrom('shares')
    .where((eb) => eb.or([eb('expires_at', '<', before), eb.and([eb('revoked_at', '>', 0), eb('revoked_at', '<', before)])]))
    .execute();
}

export async function deleteShare(db: Db, shareId: string): Promise<void> {
  await db.deleteFrom('shares').where('id', '=', shareId).execute();
}

export async function deleteSharesOf(db: Db, ownerId: string): Promise<void> {
  await db.deleteFrom('shares').where('owner_id', '=', ownerId).execute();
}
