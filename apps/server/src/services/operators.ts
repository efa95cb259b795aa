// The operator's page: every account with what it holds now, and plans changed on the spot. Only
// accounts the operator's command made operators get past `operatorOf`.
import { ADMIN_PAGE_SIZE, ErrorCode, QuireError, type AdminUser, type AdminUsersPage, type Plan } from '@quire/contracts';
import type { AppContext } from '../context.js';
import { accountsPage, cloudUseOf, holdingsOf } from '../db/adminRepo.js';
import { findAccount, updateAccount } from '../db/accountsRepo.js';
import type { AccountTable } from '../db/schema.js';
import { accountOwner, type Session } from './accounts.js';

/** The session's account if it is an operator's; 3015 otherwise. */
export function operatorOf(session: Session): AccountTable {
  if (session.account.role !== 'operator') throw new QuireError(ErrorCode.NotPermitted);
  return session.account;
}

/** One page of the accounts whose address contains `search`, newest first, with what each holds and keeps in its cloud. */
export async function listAccounts(ctx: AppContext, session: Session, search: string, page: number): Promise<AdminUsersPage> {
  operatorOf(session);
  const { total, accounts } = await accountsPage(ctx.db, search, (page - 1) * ADMIN_PAGE_SIZE, ADMIN_PAGE_SIZE);
  const [held, cloud] = await Promise.all([
    holdingsOf(
      ctx.db,
      accounts.map((a) => accountOwner(a.id)),
    ),
    cloudUseOf(
      ctx.db,
      accounts.map((a) => a.id),
    ),
  ]);
  return {
    total,
    page,
    page_size: ADMIN_PAGE_SIZE,
    users: accounts.map((a) => {
      const { files, tasks, bytes, lastTaskAt } = held.get(accountOwner(a.id))!;
      const inCloud = cloud.get(a.id)!;
      return adminView(a, {
        files,
        tasks,
        bytes,
        cloud_files: inCloud.files,
        cloud_bytes: inCloud.bytes,
        last_active_at: Math.max(a.last_seen_at, lastTaskAt),
      });
    }),
  };
}

function adminView(
  a: AccountTable,
  usage: Pick<AdminUser, 'files' | 'tasks' | 'bytes' | 'cloud_files' | 'cloud_bytes' | 'last_active_at'>,
): AdminUser {
  return {
    user_id: a.id,
    email: a.email,
    first_name: a.first_name,
    last_name: a.last_name,
    plan: a.plan as Plan,
    operator: a.role === 'operator',
    verified: a.email_verified === 1,
    created_at: a.created_at,
    ...usage,
  };
}

/**
 * Puts the account on `plan` at once: its sessions read the account afresh on every call. The
 * change is logged with who made it; 2405 for an unknown account.
 */
export async function changePlan(
  ctx: AppContext,
  session: Session,
  accountId: string,
  plan: Plan,
): Promise<{ user_id: string; plan: Plan }> {
  const operator = operatorOf(session);
  const account = await findAccount(ctx.db, accountId);
  if (!account) throw new QuireError(ErrorCode.NoData);
  await updateAccount(ctx.db, account.id, { plan });
  console.info(
    `Operator ${operator.email} (${operator.id}) moved ${account.email} (${account.id}) from the ${account.plan} plan to ${plan}.`,
  );
  return { user_id: account.id, plan };
}
