// Personal API keys: an account's scripts call the tools API as the account, without its password.
// Like session tokens, a key is 32 random bytes of which only the SHA-256 is kept.
import { ErrorCode, MAX_API_KEYS, QuireError, type ApiKeyCreated, type ApiKeyEntry } from '@quire/contracts';
import type { AppContext } from '../context.js';
import { refusal } from '../texts/words.js';
import { apiKeysOf, countApiKeys, deleteApiKey, findApiKeyAccount, insertApiKey, touchApiKey } from '../db/apiKeysRepo.js';
import type { AccountTable, ApiKeyTable } from '../db/schema.js';
import { newId } from '../ids.js';
import { newToken, tokenId } from './accounts.js';

/** Tells a key from a session token at a glance (and lets secret scanners find leaked ones). */
const KEY_PREFIX = 'qk_';
const KEY_PATTERN = /^qk_[A-Za-z0-9_-]{43}$/;
/** What the list shows of a key: the prefix and four characters, 24 of its 256 random bits. */
const HINT_LENGTH = KEY_PREFIX.length + 4;
/** A key's last use is written at most this often, so a busy script costs no write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

export const isApiKey = (token: string) => token.startsWith(KEY_PREFIX);

const entryOf = (row: ApiKeyTable): ApiKeyEntry => ({
  key_id: row.id,
  name: row.name,
  hint: row.hint,
  created_at: row.created_at,
  last_used_at: row.last_used_at,
});

/** The account a live key acts for, its use recorded (to the minute). */
export async function apiKeyAccount(ctx: AppContext, key: string): Promise<{ account: AccountTable; keyId: string } | undefined> {
  if (!KEY_PATTERN.test(key)) return undefined;
  const found = await findApiKeyAccount(ctx.db, tokenId(key));
  if (!found) return undefined;
  const now = Date.now();
  if (found.lastUsedAt === null || found.lastUsedAt < now - LAST_USED_RESOLUTION_MS)
    await touchApiKey(ctx.db, found.keyId, now, now - LAST_USED_RESOLUTION_MS);
  return { account: found.account, keyId: found.keyId };
}

/** A new key; the answer is the only time the key itself is shown. */
export async function createApiKey(ctx: AppContext, account: AccountTable, name: string): Promise<ApiKeyCreated> {
  if ((await countApiKeys(ctx.db, account.id)) >= MAX_API_KEYS)
    throw refusal(ErrorCode.InvalidParams, 'error.limit.apiKeys', { max: MAX_API_KEYS });
  const key = KEY_PREFIX + newToken();
  const row: ApiKeyTable = {
    id: newId(),
    hash: tokenId(key),
    account_id: account.id,
    name,
    hint: key.slice(0, HINT_LENGTH),
    created_at: Date.now(),
    last_used_at: null,
  };
  await insertApiKey(ctx.db, row);
  return { ...entryOf(row), key };
}

export async function listApiKeys(ctx: AppContext, account: AccountTable): Promise<ApiKeyEntry[]> {
  return (await apiKeysOf(ctx.db, account.id)).map(entryOf);
}

/** Ends the key at once; 2405 for an id the account has no key of. */
export async function revokeApiKey(ctx: AppContext, account: AccountTable, keyId: string): Promise<void> {
  if (!(await deleteApiKey(ctx.db, account.id, keyId))) throw new QuireError(ErrorCode.NoData);
}
