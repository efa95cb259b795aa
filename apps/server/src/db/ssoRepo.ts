// Single sign-on's tables: provider identities linked to accounts, and the sign-ins under way.
import type { Db } from './connect.js';
import type { AccountTable, SsoIdentityTable, SsoLoginTable } from './schema.js';

/** The account the provider's (issuer, subject) is linked to. */
export function findLinkedAccount(db: Db, issuer: string, subject: string): Promise<AccountTable | undefined> {
  return db
    .selectFrom('sso_identities')
    .innerJoin('accounts', 'accounts.id', 'sso_identities.account_id')
    .selectAll('accounts')
    .where('sso_identities.issuer', '=', issuer)
    .where('sso_identities.subject', '=', subject)
    .executeTakeFirst();
}

/** Links an identity; of two sign-ins racing to link the same one, the first stays. */
export async function linkIdentity(db: Db, row: SsoIdentityTable): Promise<void> {
  await db
    .insertInto('sso_identities')
    .values(row)
    .onConflict((oc) => oc.columns(['issuer', 'subject']).doNothing())
    .execute();
}

export async function insertSsoLogin(db: Db, row: SsoLoginTable): Promise<void> {
  await db.insertInto('sso_logins').values(row).execute();
}

/** Uses up a sign-in under way: a replayed callback finds nothing; undefined if unknown, used or expired. */
export async function takeSsoLogin(db: Db, id: string, now: number): Promise<SsoLoginTable | undefined> {
  const row = await db.deleteFrom('sso_logins').where('id', '=', id).returningAll().executeTakeFirst();
  return row && row.expires_at > now ? row : undefined;
}
