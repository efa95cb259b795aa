// The bytes a visitor or account, or every owner seen at one address, holds on the data volume
// until retention deletes them: uploaded files, uploads under way, and finished tasks' outputs.
import { sql } from 'kysely';
import type { Db } from './connect.js';
import { outputsOf } from './tasksRepo.js';

/** Records that `ownerId` added bytes from the address `addressKey` names, now. */
export async function noteOwnerAddress(db: Db, addressKey: string, ownerId: string, now: number): Promise<void> {
  await db
    .insertInto('owner_addresses')
    .values({ address_key: addressKey, owner_id: ownerId, seen_at: now })
    .onConflict((oc) => oc.columns(['address_key', 'owner_id']).doUpdateSet({ seen_at: now }))
    .execute();
}

/** Forgets owners last seen at an address before `before`: what they added then is deleted by now. */
export async function forgetOwnerAddressesBefore(db: Db, before: number): Promise<void> {
  await db.deleteFrom('owner_addresses').where('seen_at', '<', before).execute();
}

/** One owner, or every owner seen at an address. */
export type Holder = { ownerId: string } | { addressKey: string };

/** Bytes the holder's files, uploads under way and tasks' outputs take. */
export async function heldBytes(db: Db, holder: Holder): Promise<number> {
  const owners =
    'ownerId' in holder
      ? [holder.ownerId]
      : db.selectFrom('owner_addresses').select('owner_id').where('address_key', '=', holder.addressKey);
  const sizes = async (table: 'files' | 'uploads') => {
    const { bytes } = await db
      .selectFrom(table)
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('size'), sql<number>`0`).as('bytes'))
      .where('owner_id', 'in', owners)
      .executeTakeFirstOrThrow();
    return Number(bytes);
  };
  // Outputs are a JSON list per task: summed here (an owner has few tasks within retention).
  const tasks = await db.selectFrom('tasks').select('outputs').where('owner_id', 'in', owners).where('state', '=', 'done').execute();
  const outputs = tasks.reduce((sum, t) => sum + outputsOf(t).reduce((s, o) => s + o.size, 0), 0);
  return (await sizes('files')) + (await sizes('uploads')) + outputs;
}
