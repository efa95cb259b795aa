// The operator's view of the accounts: a page of them by address, what each holds now, and what
// each keeps in its document cloud.
import { sql } from 'kysely';
import type { Db } from './connect.js';
import type { AccountTable } from './schema.js';

/** What an owner holds now; `lastTaskAt` 0 when it holds no task. */
export interface Holdings {
  files: number;
  tasks: number;
  bytes: number;
  lastTaskAt: number;
}

/** `like` treats % and _ as wildcards: a search for them means the characters. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Accounts whose address contains `search`, newest first: one page of them and how many match in all. */
export async function accountsPage(
  db: Db,
  search: string,
  offset: number,
  limit: number,
): Promise<{ total: number; accounts: AccountTable[] }> {
  const matching = db
    .selectFrom('accounts')
    // SQLite knows no escape character unless told; PostgreSQL's is the backslash already.
    .$if(search !== '', (q) => q.where(sql<boolean>`email like ${`%${likeLiteral(search)}%`} escape '\\'`));
  const [count, accounts] = await Promise.all([
    matching.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    matching.selectAll().orderBy('created_at', 'desc').orderBy('id').offset(offset).limit(limit).execute(),
  ]);
  return { total: Number(count.n), accounts };
}

/** Files, tasks and stored bytes of each owner (task outputs' sizes are in their JSON list). */
export async function holdingsOf(db: Db, owners: string[]): Promise<Map<string, Holdings>> {
  const held = new Map<string, Holdings>(owners.map((o) => [o, { files: 0, tasks: 0, bytes: 0, lastTaskAt: 0 }]));
  if (owners.length === 0) return held;
  const [files, tasks] = await Promise.all([
    db
      .selectFrom('files')
      .select((eb) => ['owner_id', eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('size').as('bytes')])
      .where('owner_id', 'in', owners)
      .groupBy('owner_id')
      .execute(),
    db.selectFrom('tasks').select(['owner_id', 'outputs', 'created_at']).where('owner_id', 'in', owners).execute(),
  ]);
  for (const f of files) {
    const h = held.get(f.owner_id)!;
    h.files = Number(f.n);
    h.bytes += Number(f.bytes ?? 0);
  }
  for (const t of tasks) {
    const h = held.get(t.owner_id)!;
    h.tasks += 1;
    h.lastTaskAt = Math.max(h.lastTaskAt, t.created_at);
    for (const output of JSON.parse(t.outputs) as { size: number }[]) h.bytes += output.size;
  }
  return held;
}

/** What an account keeps in its document cloud. */
export interface CloudUse {
  files: number;
  bytes: number;
}

/** Cloud files and their bytes of each account (by account id, not owner). */
export async function cloudUseOf(db: Db, accountIds: string[]): Promise<Map<string, CloudUse>> {
  const use = new Map<string, CloudUse>(accountIds.map((id) => [id, { files: 0, bytes: 0 }]));
  if (accountIds.length === 0) return use;
  const rows = await db
    .selectFrom('cloud_files')
    .select((eb) => ['account_id', eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('size').as('bytes')])
    .where('account_id', 'in', accountIds)
    .groupBy('account_id')
    .execute();
  for (const r of rows) use.set(r.account_id, { files: Number(r.n), bytes: Number(r.bytes) });
  return use;
}
