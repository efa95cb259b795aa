// What each account spent of its AI quotas, per kind and period. A charge is one conditional
// UPDATE, so requests racing for the last tokens cannot together spend more than the limit.
import type { Db } from './connect.js';
import type { AiUsageTable } from './schema.js';

type Kind = AiUsageTable['kind'];

export async function usageOf(db: Db, accountId: string, kind: Kind, period: string): Promise<number> {
  const row = await db
    .selectFrom('ai_usage')
    .select('used')
    .where('account_id', '=', accountId)
    .where('kind', '=', kind)
    .where('period', '=', period)
    .executeTakeFirst();
  return Number(row?.used ?? 0);
}

/** Adds `amount` to what was spent if the total stays within `limit`; false (nothing added) otherwise. */
export async function chargeUsage(db: Db, accountId: string, kind: Kind, period: string, amount: number, limit: number): Promise<boolean> {
  await db
    .insertInto('ai_usage')
    .values({ account_id: accountId, kind, period, used: 0 })
    .onConflict((oc) => oc.columns(['account_id', 'kind', 'period']).doNothing())
    .execute();
  const res = await db
    .updateTable('ai_usage')
    .set((eb) => ({ used: eb('used', '+', amount) }))
    .where('account_id', '=', accountId)
    .where('kind', '=', kind)
    .where('period', '=', period)
    .where((eb) => eb(eb('used', '+', amount), '<=', limit))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Gives back what a charge reserved and was not spent (never below nothing). */
export async function refundUsage(db: Db, accountId: string, kind: Kind, period: string, amount: number): Promise<void> {
  await db
    .updateTable('ai_usage')
    .set((eb) => ({ used: eb('used', '-', amount) }))
    .where('account_id', '=', accountId)
    .where('kind', '=', kind)
    .where('period', '=', period)
    .where('used', '>=', amount)
    .execute();
}
