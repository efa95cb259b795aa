// The message centre's rows: operators' messages, and the marks of the recipients who read them.
import type { ExpressionBuilder } from 'kysely';
import type { Db } from './connect.js';
import type { Database, MessageTable } from './schema.js';

/**
 * Who reads: `recipient` keys the read marks (account:<id> or sign:<signature>); an account also gets
 * the messages of its plan, as it is now, and those sent to it alone. A visitor gets those to everyone.
 */
export interface Addressee {
  recipient: string;
  account?: { id: string; plan: string };
}

export interface MessageFilter {
  templateType?: number;
  /** true: read only; false: unread only. */
  read?: boolean;
}

export type ReceivedMessage = MessageTable & { read: boolean };

/** The messages addressed to `to`, with its read mark joined as `read_at`. */
function addressedTo(db: Db, to: Addressee) {
  return db
    .selectFrom('messages')
    .leftJoin('message_reads', (join) =>
      join.onRef('message_reads.message_id', '=', 'messages.id').on('message_reads.recipient', '=', to.recipient),
    )
    .where((eb: ExpressionBuilder<Database, 'messages'>) => {
      const { account } = to;
      if (!account) return eb('messages.audience', '=', 'everyone');
      return eb.or([
        eb('messages.audience', '=', 'everyone'),
        eb.and([eb('messages.audience', '=', 'plan'), eb('messages.audience_plan', '=', account.plan)]),
        eb.and([eb('messages.audience', '=', 'account'), eb('messages.audience_account', '=', account.id)]),
      ]);
    });
}

/** One page of the messages addressed to `to`, newest first, and how many match in all. */
export async function receivedPage(
  db: Db,
  to: Addressee,
  filter: MessageFilter,
  offset: number,
  limit: number,
): Promise<{ total: number; messages: ReceivedMessage[] }> {
  const matching = addressedTo(db, to)
    .$if(filter.templateType !== undefined, (q) => q.where('messages.template_type', '=', filter.templateType!))
    .$if(filter.read === true, (q) => q.where('message_reads.read_at', 'is not', null))
    .$if(filter.read === false, (q) => q.where('message_reads.read_at', 'is', null));
  const [count, rows] = await Promise.all([
    matching.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    matching
      .selectAll('messages')
      .select('message_reads.read_at')
      .orderBy('messages.created_at', 'desc')
      .orderBy('messages.id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute(),
  ]);
  return {
    total: Number(count.n),
    messages: rows.map(({ read_at, ...m }) => ({ ...m, created_at: Number(m.created_at), read: read_at !== null })),
  };
}

/** How many messages addressed to `to` are unread, by template type. */
export async function unreadByType(db: Db, to: Addressee): Promise<Map<number, number>> {
  const rows = await addressedTo(db, to)
    .where('message_reads.read_at', 'is', null)
    .select((eb) => ['messages.template_type', eb.fn.countAll<number>().as('n')])
    .groupBy('messages.template_type')
    .execute();
  return new Map(rows.map((r) => [Number(r.template_type), Number(r.n)]));
}

/** Of `ids`, those of messages addressed to `to`. */
export async function addressedAmong(db: Db, to: Addressee, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await addressedTo(db, to).where('messages.id', 'in', ids).select('messages.id').execute();
  return new Set(rows.map((r) => r.id));
}

/** The ids of every unread message addressed to `to`. */
export async function unreadIds(db: Db, to: Addressee): Promise<string[]> {
  const rows = await addressedTo(db, to).where('message_reads.read_at', 'is', null).select('messages.id').execute();
  return rows.map((r) => r.id);
}

/** Marks the messages read by `recipient`; those read before keep their first mark. */
export async function markRead(db: Db, recipient: string, messageIds: string[], now: number): Promise<void> {
  if (messageIds.length === 0) return;
  await db
    .insertInto('message_reads')
    .values(messageIds.map((id) => ({ message_id: id, recipient, read_at: now })))
    .onConflict((oc) => oc.columns(['message_id', 'recipient']).doNothing())
    .execute();
}

export async function insertMessage(db: Db, message: MessageTable): Promise<void> {
  await db.insertInto('messages').values(message).execute();
}

/** Every message, newest first, with how many recipients have read it. */
export async function allMessages(db: Db): Promise<(MessageTable & { read_count: number })[]> {
  const rows = await db
    .selectFrom('messages')
    .leftJoin('message_reads', 'message_reads.message_id', 'messages.id')
    .selectAll('messages')
    .select((eb) => eb.fn.count<number>('message_reads.recipient').as('read_count'))
    .groupBy('messages.id')
    .orderBy('messages.created_at', 'desc')
    .orderBy('messages.id', 'desc')
    .execute();
  return rows.map((r) => ({ ...r, created_at: Number(r.created_at), read_count: Number(r.read_count) }));
}

/** The message and its read marks go; true when there was such a message. */
export async function deleteMessage(db: Db, id: string): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    await tx.deleteFrom('message_reads').where('message_id', '=', id).execute();
    const result = await tx.deleteFrom('messages').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}

/** An account's read marks and the messages sent to it alone (its deletion). */
export async function deleteMessagesOf(db: Db, accountId: string, recipient: string): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const own = tx.selectFrom('messages').select('id').where('audience', '=', 'account').where('audience_account', '=', accountId);
    await tx
      .deleteFrom('message_reads')
      .where((eb) => eb.or([eb('recipient', '=', recipient), eb('message_id', 'in', own)]))
      .execute();
    await tx.deleteFrom('messages').where('audience', '=', 'account').where('audience_account', '=', accountId).execute();
  });
}
