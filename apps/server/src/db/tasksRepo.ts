// The tasks table, which is also the queue: workers claim queued rows with a conditional update.
import type { Db } from './connect.js';
import type { TaskTable } from './schema.js';

/** One output of a finished task, as the outputs column holds it (JSON). */
export interface StoredOutput {
  index: number;
  name: string;
  size: number;
  key: string;
  note?: string;
  input_size?: number;
  unchanged?: boolean;
}

export const outputsOf = (task: Pick<TaskTable, 'outputs'>): StoredOutput[] => JSON.parse(task.outputs) as StoredOutput[];

export async function countQueued(db: Db): Promise<number> {
  const queued = await db
    .selectFrom('tasks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('state', '=', 'queued')
    .executeTakeFirstOrThrow();
  return Number(queued.n);
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

export async function oldestQueuedId(db: Db): Promise<string | undefined> {
  const next = await db.selectFrom('tasks').select('id').where('state', '=', 'queued').orderBy('created_at').limit(1).executeTakeFirst();
  return next?.id;
}

/** Marks the task running under a lease, if it is still queued: of workers racing for it, one gets it. */
export function claimQueued(db: Db, taskId: string, leaseUntil: number): Promise<TaskTable | undefined> {
  return db
    .updateTable('tasks')
    .set((eb) => ({ state: 'running', lease_until: leaseUntil, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', taskId)
    .where('state', '=', 'queued')
    .returningAll()
    .executeTakeFirst();
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

/** The call's parameters are dropped when a task ends: they may hold passwords. */
export async function finishTask(db: Db, taskId: string, outputs: StoredOutput[], now: number, expiresAt: number): Promise<void> {
  await db
    .updateTable('tasks')
    .set({ state: 'done', progress: 100, outputs: JSON.stringify(outputs), params: '{}', finished_at: now, expires_at: expiresAt })
    .where('id', '=', taskId)
    .execute();
}

export async function failTask(db: Db, taskId: string, failure: { code: number; msg: string }, now: number): Promise<void> {
  await db
    .updateTable('tasks')
    .set({ state: 'failed', error_code: failure.code, error_msg: failure.msg, params: '{}', finished_at: now })
    .where('id', '=', taskId)
    .execute();
}

/** Finished tasks past their retention. */
export function expiredTasks(db: Db, now: number): Promise<Pick<TaskTable, 'id'>[]> {
  return db.selectFrom('tasks').select('id').where('expires_at', '<', now).where('state', 'in', ['done', 'failed']).execute();
}

export async function deleteTask(db: Db, taskId: string): Promise<void> {
  await db.deleteFrom('tasks').where('id', '=', taskId).execute();
}
