// The accounts table, the sessions signed in to them and the single-use tokens of mailed links.
import type { Db } from './connect.js';
import type { AccountTable, AccountTokenPurpose, AccountTokenTable, SessionTable } from './schema.js';

/** Inserts the account unless its address is taken; false when it is. */
export async function insertAccount(db: Db, row: AccountTable): Promise<boolean> {
  const inserted = await db
    .insertInto('accounts')
    .values(row)
    .onConflict((oc) => oc.column('email').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

export function findAccount(db: Db, id: string): Promise<AccountTable | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findAccountByEmail(db: Db, email: string): Promise<AccountTable | undefined> {
  return db.selectFrom('accounts').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function updateAccount(
  db: Db,
  id: string,
  change: Partial<Pick<AccountTable, 'password_hash' | 'email_verified' | 'plan' | 'role' | 'last_seen_at' | 'career'>>,
): Promise<boolean> {
  const updated = await db.updateTable('accounts').set(change).where('id', '=', id).executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** Moves the account to `email` unless another account has it; false when one does. */
export async function changeAccountEmail(db: Db, id: string, email: string): Promise<boolean> {
  const taken = await findAccountByEmail(db, email);
  if (taken) return taken.id === id;
  // Should another account take it in between, the unique index refuses the update.
  await db.updateTable('accounts').set({ email, email_verified: 1 }).where('id', '=', id).execute();
  return true;
}

/** Ends everything that acts for the account without its password: sessions, mailed links, API keys. */
async function deleteCredentials(db: Db, id: string): Promise<void> {
  await db.deleteFrom('sessions').where('account_id', '=', id).execute();
  await db.deleteFrom('account_tokens').where('account_id', '=', id).execute();
  await db.deleteFrom('api_keys').where('account_id', '=', id).execute();
}

/** A new password: every session, mailed link and API key of the account ends with the old one. */
export async function replacePasswordHash(db: Db, id: string, passwordHash: string, verified: boolean): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx
      .updateTable('accounts')
      .set({ password_hash: passwordHash, ...(verified && { email_verified: 1 }) })
      .where('id', '=', id)
      .execute();
    await deleteCredentials(tx, id);
  });
}

/** The account and what signed it in goes; its files and tasks are the caller's to remove first. */
export async function deleteAccount(db: Db, id: string): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await deleteCredentials(tx, id);
    await tx.deleteFrom('sso_identities').where('account_id', '=', id).execute();
    await tx.deleteFrom('accounts').where('id', '=', id).execute();
  });
}

export async function insertSession(db: Db, row: SessionTable): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

/** The account a live session belongs to, with the session's public id and last use. */
export async function findSessionAccount(
  db: Db,
  sessionId: string,
  now: number,
): Promise<{ account: AccountTable; publicId: string; lastUsedAt: number } | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('accounts', 'accounts.id', 'sessions.account_id')
    .selectAll('accounts')
    .select(['sessions.public_id as session_public_id', 'sessions.last_used_at as session_last_used_at'])
    .where('sessions.id', '=', sessionId)
    .where('sessions.expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return undefined;
  const { session_public_id, session_last_used_at, ...account } = row;
  return { account, publicId: session_public_id, lastUsedAt: session_last_used_at };
}

/** The account's live sessions, the most recently used first. */
export function sessionsOf(db: Db, accountId: string, now: number): Promise<SessionTable[]> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('expires_at', '>', now)
    .orderBy('last_used_at', 'desc')
    .orderBy('public_id')
    .execute();
}

/** Records a use unless one at `since` or later is recorded: of requests racing past the same minute, one writes. */
export async function touchSession(db: Db, sessionId: string, now: number, since: number): Promise<void> {
  await db.updateTable('sessions').set({ last_used_at: now }).where('id', '=', sessionId).where('last_used_at', '<', since).execute();
}

/** Ends the account's session of that public id; false if it has none such. */
export async function deleteSessionOf(db: Db, accountId: string, publicId: string): Promise<boolean> {
  const deleted = await db.deleteFrom('sessions').where('public_id', '=', publicId).where('account_id', '=', accountId).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** Ends every session of the account but the one of `keepPublicId`. */
export async function deleteOtherSessions(db: Db, accountId: string, keepPublicId: string): Promise<void> {
  await db.deleteFrom('sessions').where('account_id', '=', accountId).where('public_id', '!=', keepPublicId).execute();
}

export async function extendSession(db: Db, sessionId: string, expiresAt: number): Promise<void> {
  await db.updateTable('sessions').set({ expires_at: expiresAt }).where('id', '=', sessionId).execute();
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

export async function deleteSessionsOf(db: Db, accountId: string): Promise<void> {
  await db.deleteFrom('sessions').where('account_id', '=', accountId).execute();
}

/** Ends the account's links of `purpose`. */
export async function deleteAccountTokens(db: Db, accountId: string, purpose: AccountTokenPurpose): Promise<void> {
  await db.deleteFrom('account_tokens').where('account_id', '=', accountId).where('purpose', '=', purpose).execute();
}

/** Stores a link's token beside the account's others. */
export async function insertAccountToken(db: Db, row: AccountTokenTable): Promise<void> {
  await db.insertInto('account_tokens').values(row).execute();
}

/** Stores a link's token, ending the links of the same purpose sent to the account before. */
export async function replaceAccountToken(db: Db, row: AccountTokenTable): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await deleteAccountTokens(tx, row.account_id, row.purpose);
    await insertAccountToken(tx, row);
  });
}

/** Uses up a token: of requests racing with the same one, one gets it; undefined if unknown, used or expired. */
export async function takeAccountToken(
  db: Db,
  tokenId: string,
  purpose: AccountTokenPurpose,
  now: number,
): Promise<AccountTokenTable | undefined> {
  const row = await db
    .deleteFrom('account_tokens')
    .where('id', '=', tokenId)
    .where('purpose', '=', purpose)
    .returningAll()
    .executeTakeFirst();
  return row && row.expires_at > now ? row : undefined;
}

/** Sessions, link tokens and unfinished single sign-ons past their time. */
export async function deleteExpiredSignIns(db: Db, now: number): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<', now).execute();
  await db.deleteFrom('account_tokens').where('expires_at', '<', now).execute();
  await db.deleteFrom('sso_logins').where('expires_at', '<', now).execute();
}
