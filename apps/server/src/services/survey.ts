// The occupation survey's answer, kept as the account's career (the user info's `career`), which
// the web app reads to stop asking.
import { ErrorCode, QuireError } from '@quire/contracts';
import type { AppContext } from '../context.js';
import { updateAccount } from '../db/accountsRepo.js';
import type { Identity } from './accounts.js';

/** Keeps the account's occupation as its career (a later answer replaces it); 3001 for a visitor. */
export async function collectOccupation(ctx: AppContext, identity: Identity, career: string): Promise<{ career: string }> {
  if (!identity.account) throw new QuireError(ErrorCode.NotLogin);
  await updateAccount(ctx.db, identity.account.id, { career });
  return { career };
}
