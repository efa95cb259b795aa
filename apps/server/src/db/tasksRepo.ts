// The tasks table, which is also the queue: workers claim queued rows with a conditional update.
import type { ExpressionBuilder } from 'kysely';
import type { Db } from './connect.js';
import type { Database, TaskTable } from './schema.js';

/** One output of a finished task, as the outputs column holds it (JSON). */
export interface StoredOutput {
  index: number;
  name: string;
  size: number;
  key: string;
  /** Its note in English (logs, older rows) */
  note?: string;
  /** Its note's words ({key, params} of texts/words.ts), said in the reader's language */
  note_said?: object;
  input_size?: number;
  unchanged?: boolean;
  /** The name of the input it came from: a zip of several outputs is named after it. */
  source?: string;
}

export const outputsOf = (task: Pick<TaskTable, 'outputs'>): StoredOutput[] => JSON.parse(task.outputs) as StoredOutput[];

/** Queued tasks of the whole service, and of one visitor among them. */
export async function countQueued(db: Db, ownerId: string): Promise<{ all: number; owners: number }> {
  const queued = await db
    .selectFrom('tasks')
    .select((eb) => [
      eb.fn.countAll<number>().as('all'),
      eb.fn.sum<number>(eb.case().when('owner_id', '=', ownerId).then(1).else(0).end()).as('owners'),
    ])
    .where('state', '=', 'queued')
    .executeTakeFirstOrThrow();
  return { all: Number(queued.all), owners: Number(queued.owners) };
}

/** The work of the queued and running tasks asked from one address (its keyed hash). */
export async function unfinishedWork(db: Db, clientKey: string): Promise<number> {
  const row = await db
    .selectFrom('tasks')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('work'), eb.lit(0)).as('work'))
    .where('client_key', '=', clientKey)
    .where('state', 'in', ['queued', 'running'])
    .executeTakeFirstOrThrow();
  return Number(row.work);
}

export async function insertTask(db: Db, task: TaskTable): Promise<void> {
  await db.insertInto('tasks').values(task).execute();
}

/** An owner's unexpired tasks, by id or by the call that made several, oldest first; `doneOnly` leaves out unfinished and failed ones. */
export function ownedTasks(
  db: Db,
  ownerId: string,
  q: { task_id?: string; multi_id?: string },
  now: number,
  doneOnly = false,
): Promise<TaskTable[]> {
  let query = db.selectFrom('tasks').selectAll().where('owner_id', '=', ownerId).where('expires_at', '>', now);
  if (doneOnly) query = query.where('state', '=', 'done');
  query = q.task_id ? query.where('id', '=', q.task_id) : query.where('multi_id', '=', q.multi_id!);
  return query.orderBy('created_at').execute();
}

/** Tasks running at once: of one visitor or account, and of one address (all its owners together). */
export interface RunningLimits {
  perOwner: number;
  perAddress: number;
}

/** A task's address is unknown ('', tasks made before addresses were kept): it is held by no address's limit. */
const NO_ADDRESS = '';

/**
 * The next task to run, fairly between addresses, then between visitors: among addresses below
 * their limit of running tasks, the one with the fewest running, then the one served longest ago;
 * among its visitors below their limit, the one with the fewest running, then the one served
 * longest ago; then its oldest task. So neither one visitor's many tasks nor many accounts' tasks
 * from one address hold the workers while another waits.
 */
export function nextFairTask(db: Db, limits: RunningLimits): Promise<Pick<TaskTable, 'id' | 'owner_id' | 'client_key'> | undefined> {
  // How many of its tasks run, and when it was last served: of each owner, and of each address.
  const turns = (eb: ExpressionBuilder<Database, 'tasks'>) => [
    eb.fn.sum<number>(eb.case().when('state', '=', 'running').then(1).else(0).end()).as('running'),
    eb.fn.max('started_at').as('last_started'),
  ];
  const queued = db.selectFrom('tasks').where('state', '=', 'queued');
  const owners = db
    .selectFrom('tasks')
    .select((eb) => ['owner_id', ...turns(eb)])
    .where('owner_id', 'in', queued.select('owner_id'))
    .groupBy('owner_id')
    .as('o');
  const addresses = db
    .selectFrom('tasks')
    .select((eb) => ['client_key', ...turns(eb)])
    .where('client_key', 'in', queued.select('client_key'))
    .groupBy('client_key')
    .as('a');
  return db
    .selectFrom('tasks as t')
    .innerJoin(owners, 'o.owner_id', 't.owner_id')
    .innerJoin(addresses, 'a.client_key', 't.client_key')
    .select(['t.id', 't.owner_id', 't.client_key'])
    .where('t.state', '=', 'queued')
    .where('o.running', '<', limits.perOwner)
    .where((eb) => eb.or([eb('a.client_key', '=', NO_ADDRESS), eb('a.running', '<', limits.perAddress)]))
    .orderBy('a.running')
    .orderBy('a.last_started')
    .orderBy('o.running')
    .orderBy('o.last_started')
    .orderBy('t.created_at')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Marks the task running under a lease, if it is still queued and its visitor and its address are
 * below their running limits: of workers racing for it, one gets it, and never while either is at its limit.
 */
export function claimQueued(
  db: Db,
  next: Pick<TaskTable, 'id' | 'owner_id' | 'client_key'>,
  now: number,
  leaseUntil: number,
  limits: RunningLimits,
): Promise<TaskTable | undefined> {
  const running = (column: 'owner_id' | 'client_key', value: string) =>
    db
      .selectFrom('tasks as r')
      .select((r) => r.fn.countAll<number>().as('n'))
      .where(`r.${column}`, '=', value)
      .where('r.state', '=', 'running');
  return db
    .updateTable('tasks')
    .set((eb) => ({ state: 'running', started_at: now, lease_until: leaseUntil, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', next.id)
    .where('state', '=', 'queued')
    .where((eb) => eb(running('owner_id', next.owner_id), '<', limits.perOwner))
    .$if(next.client_key !== NO_ADDRESS, (q) => q.where((eb) => eb(running('client_key', next.client_key), '<', limits.perAddress)))
    .returningAll()
    .executeTakeFirst();
}

/** One claim of a task by a worker: a task taken again after its lease lapsed is another claim. */
export type Claim = Pick<TaskTable, 'id' | 'attempts'>;

/** The row of `claim` while a worker still holds it; a cancelled or lapsed one is no longer running under it. */
const whileHeld = (db: Db, claim: Claim) =>
  db.updateTable('tasks').where('id', '=', claim.id).where('attempts', '=', claim.attempts).where('state', '=', 'running');

/** Ends the lease of one claim (task and attempt) at once, so the recovery treats it as lapsed. */
export async function expireClaim(db: Db, claim: Claim): Promise<void> {
  await whileHeld(db, claim).set({ lease_until: 0 }).execute();
}

export async function renewLease(db: Db, taskId: string, leaseUntil: number): Promise<void> {
  await db.updateTable('tasks').set({ lease_until: leaseUntil }).where('id', '=', taskId).execute();
}

export async function setProgress(db: Db, taskId: string, progress: number): Promise<void> {
  await db.updateTable('tasks').set({ progress }).where('id', '=', taskId).execute();
}

/** Running tasks whose lease ran out before `now`: those tried fewer than `maxAttempts` times are queued again, the rest fail. */
export async function recoverLapsed(db: Db, now: number, maxAttempts: number, failure: { code: number; msg: string }): Promise<void> {
  await db
    .updateTable('tasks')
    .set({ state: 'queued', lease_until: 0 })
    .where('state', '=', 'running')
    .where('lease_until', '<', now)
    .where('attempts', '<', maxAttempts)
    .execute();
  await db
    .updateTable('tasks')
    .set({ state: 'failed', error_code: failure.code, error_msg: failure.msg, finished_at: now, params: '{}' })
    .where('state', '=', 'running')
    .where('lease_until', '<', now)
    .execute();
}

/**
 * Marks the claim's task done, unless it was cancelled (or its claim lost) meanwhile: false then.
 * The call's parameters are dropped when a task ends: they may hold passwords.
 */
export async function finishTask(db: Db, claim: Claim, outputs: StoredOutput[], now: number, expiresAt: number): Promise<boolean> {
  const result = await whileHeld(db, claim)
    .set({ state: 'done', progress: 100, outputs: JSON.stringify(outputs), params: '{}', finished_at: now, expires_at: expiresAt })
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** How a task failed: its code, its English message, and its words as texts/words.ts says them (JSON-able). */
export interface TaskFailure {
  code: number;
  msg: string;
  said?: object;
}

/** Fails the claim's task, unless it was cancelled (or its claim lost) meanwhile, which keeps its own state. */
export async function failTask(db: Db, claim: Claim, failure: TaskFailure, now: number): Promise<void> {
  const said = failure.said ? JSON.stringify(failure.said) : null;
  await whileHeld(db, claim)
    .set({ state: 'failed', error_code: failure.code, error_msg: failure.msg, error_said: said, params: '{}', finished_at: now })
    .execute();
}

/** Of `claims`, the task ids no longer running under that claim: cancelled, or taken from a worker whose lease lapsed. */
export async function lostClaims(db: Db, claims: Claim[]): Promise<string[]> {
  if (claims.length === 0) return [];
  const rows = await db
    .selectFrom('tasks')
    .select(['id', 'attempts'])
    .where(
      'id',
      'in',
      claims.map((c) => c.id),
    )
    .where('state', '=', 'running')
    .execute();
  return claims.filter((c) => !rows.some((r) => r.id === c.id && r.attempts === c.attempts)).map((c) => c.id);
}

/** Ends the tasks of `ids` still queued or running as failed with `failure`; finished ones keep their state. */
export async function cancelUnfinished(db: Db, ids: string[], failure: { code: number; msg: string }, now: number): Promise<void> {
  await db
    .updateTable('tasks')
    .set({ state: 'failed', error_code: failure.code, error_msg: failure.msg, params: '{}', finished_at: now })
    .where('id', 'in', ids)
    .where('state', 'in', ['queued', 'running'])
    .execute();
}

/** Finished tasks past their retention. */
export function expiredTasks(db: Db, now: number): Promise<Pick<TaskTable, 'id'>[]> {
  return db.selectFrom('tasks').select('id').where('expires_at', '<', now).where('state', 'in', ['done', 'failed']).execute();
}

export async function deleteTask(db: Db, taskId: string): Promise<void> {
  await db.deleteFrom('tasks').where('id', '=', taskId).execute();
}

/** Every task of an owner, finished or not. */
export function tasksOf(db: Db, ownerId: string): Promise<Pick<TaskTable, 'id'>[]> {
  return db.selectFrom('tasks').select('id').where('owner_id', '=', ownerId).execute();
}

/** Gives the tasks of `ids` that `from` owns to `to`. */
export async function moveTasks(db: Db, ids: string[], from: string, to: string): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('tasks').set({ owner_id: to }).where('id', 'in', ids).where('owner_id', '=', from).execute();
}
