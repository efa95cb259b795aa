// Personal API keys of accounts, kept as hashes.
import type { Db } from './connect.js';
import type { AccountTable, ApiKeyTable } from './schema.js';

export async function insertApiKey(db: Db, row: ApiKeyTable): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

export function apiKeysOf(db: Db, accountId: string): Promise<ApiKeyTable[]> {
  return db.selectFrom('api_keys').selectAll().where('account_id', '=', accountId).orderBy('created_at').orderBy('id').execute();
}

export async function countApiKeys(db: Db, accountId: string): Promise<number> {
  const { n } = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** The account of the key of that hash, with the key's id and last use. */
export async function findApiKeyAccount(
  db: Db,
  hash: string,
): Promise<{ account: AccountTable; keyId: string; lastUsedAt: number | null } | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .selectAll('accounts')
    .select(['api_keys.id as key_id', 'api_keys.last_used_at as key_last_used_at'])
    .where('api_keys.hash', '=', hash)
    .executeTakeFirst();
  if (!row) return undefined;
  const { key_id, key_last_used_at, ...account } = row;
  return { account, keyId: key_id, lastUsedAt: key_last_used_at };
}

/** Records a use unless one at `since` or later is recorded: of requests racing past the same minute, one writes. */
export async function touchApiKey(db: Db, id: string, now: number, since: number): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', since)]))
    .execute();
}

/** Deletes the account's key of that id; false if it has none such. */
export async function deleteApiKey(db: Db, accountId: string, id: string): Promise<boolean> {
  const deleted = await db.deleteFrom('api_keys').where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}
