// Saved signatures of accounts, and how many signatures each account applied.
import type { Db } from './connect.js';
import type { SignatureTable } from './schema.js';

export async function insertSignature(db: Db, row: SignatureTable): Promise<void> {
  await db.insertInto('signatures').values(row).execute();
}

/** The account's saved signatures, newest first. */
export function signaturesOf(db: Db, accountId: string): Promise<SignatureTable[]> {
  return db.selectFrom('signatures').selectAll().where('account_id', '=', accountId).orderBy('created_at', 'desc').execute();
}

export async function countSignatures(db: Db, accountId: string): Promise<number> {
  const row = await db
    .selectFrom('signatures')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The saved signature if it is the account's. */
export function findOwnedSignature(db: Db, accountId: string, id: string): Promise<SignatureTable | undefined> {
  return db.selectFrom('signatures').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
}

/** Deletes the account's signature; false when it has none of that id. */
export async function deleteOwnedSignature(db: Db, accountId: string, id: string): Promise<boolean> {
  const res = await db.deleteFrom('signatures').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** Counts a finished signing task of `marks` placements. */
export async function countSigning(db: Db, accountId: string, marks: number): Promise<void> {
  await db
    .insertInto('sign_counts')
    .values({ account_id: accountId, tasks: 1, marks })
    .onConflict((oc) =>
      oc.column('account_id').doUpdateSet((eb) => ({ tasks: eb('sign_counts.tasks', '+', 1), marks: eb('sign_counts.marks', '+', marks) })),
    )
    .execute();
}

export async function signCountsOf(db: Db, accountId: string): Promise<{ tasks: number; marks: number }> {
  const row = await db.selectFrom('sign_counts').select(['tasks', 'marks']).where('account_id', '=', accountId).executeTakeFirst();
  return { tasks: Number(row?.tasks ?? 0), marks: Number(row?.marks ?? 0) };
}
