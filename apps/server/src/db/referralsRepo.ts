// The referral programme's rows: accounts' invite codes and earned tokens, and the invited friends.
// A credit is one conditional UPDATE of the friend's row, so a friend is never credited twice, and
// a mailbox's keyed hash is remembered for good, so it earns a credit once whatever its accounts.
import type { Db } from './connect.js';
import type { AccountTable, ReferralTable } from './schema.js';

export function findAccountByInviteCode(db: Db, code: string): Promise<AccountTable | undefined> {
  return db.selectFrom('accounts').selectAll().where('invite_code', '=', code).executeTakeFirst();
}

/** Gives the account `code` unless it has one already (or another account has it: the unique index refuses). */
export async function setInviteCode(db: Db, accountId: string, code: string): Promise<void> {
  await db.updateTable('accounts').set({ invite_code: code }).where('id', '=', accountId).where('invite_code', 'is', null).execute();
}

/** Remembers that the friend's account came through the inviter's link; a friend keeps its first inviter. */
export async function insertReferral(db: Db, friendId: string, inviterId: string, now: number): Promise<void> {
  await db
    .insertInto('referrals')
    .values({ friend_id: friendId, inviter_id: inviterId, reward: 0, created_at: now, credited_at: 0 })
    .onConflict((oc) => oc.column('friend_id').doNothing())
    .execute();
}

export function pendingReferral(db: Db, friendId: string): Promise<ReferralTable | undefined> {
  return db.selectFrom('referrals').selectAll().where('friend_id', '=', friendId).where('credited_at', '=', 0).executeTakeFirst();
}

/** How many friends were credited to the inviter, and the tokens it earned for them. */
export async function inviterTotals(db: Db, inviterId: string): Promise<{ friends: number; tokens: number }> {
  const row = await db
    .selectFrom('referrals')
    .select((eb) => [eb.fn.countAll<number>().as('friends'), eb.fn.coalesce(eb.fn.sum<number>('reward'), eb.lit(0)).as('tokens')])
    .where('inviter_id', '=', inviterId)
    .where('credited_at', '>', 0)
    .executeTakeFirstOrThrow();
  return { friends: Number(row.friends), tokens: Number(row.tokens) };
}

/**
 * Credits the friend's pending invite: the friend earns `friendReward` tokens, the inviter
 * `inviterReward`; false (nothing earned) when it was credited already, or its mailbox (keyed
 * hash) earned a credit before, under this account or a deleted one (the invite stays pending).
 */
export async function creditReferral(
  db: Db,
  referral: ReferralTable,
  mailboxKey: string,
  friendReward: number,
  inviterReward: number,
  now: number,
): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const firstTime = await tx
      .insertInto('referred_addresses')
      .values({ address_key: mailboxKey, credited_at: now })
      .onConflict((oc) => oc.column('address_key').doNothing())
      .returning('address_key')
      .executeTakeFirst();
    if (!firstTime) return false;
    const marked = await tx
      .updateTable('referrals')
      .set({ credited_at: now, reward: inviterReward })
      .where('friend_id', '=', referral.friend_id)
      .where('credited_at', '=', 0)
      .executeTakeFirst();
    if (Number(marked.numUpdatedRows) === 0) return false;
    for (const [id, amount] of [
      [referral.friend_id, friendReward],
      [referral.inviter_id, inviterReward],
    ] as const) {
      if (amount > 0)
        await tx
          .updateTable('accounts')
          .set((eb) => ({ bonus_tokens: eb('bonus_tokens', '+', amount) }))
          .where('id', '=', id)
          .execute();
    }
    return true;
  });
}
