// How many runs each anonymous client (by keyed hash) started on each UTC day.
import type { Db } from './connect.js';

/**
 * Counts one more run of `clientKey` on `day` unless it already has `max`: true if counted. One
 * conditional upsert, so API processes sharing the database cannot both take the last run.
 */
export async function takeRun(db: Db, clientKey: string, day: string, max: number): Promise<boolean> {
  const row = await db
    .insertInto('anonymous_runs')
    .values({ client_key: clientKey, day, runs: 1 })
    .onConflict((oc) =>
      oc
        .columns(['client_key', 'day'])
        .doUpdateSet((eb) => ({ runs: eb(eb.ref('anonymous_runs.runs'), '+', 1) }))
        .where('anonymous_runs.runs', '<', max),
    )
    .returning('runs')
    .executeTakeFirst();
  return row !== undefined;
}

/** Takes back a run counted by `takeRun` whose task was not made after all. */
export async function giveBackRun(db: Db, clientKey: string, day: string): Promise<void> {
  await db
    .updateTable('anonymous_runs')
    .set((eb) => ({ runs: eb('runs', '-', 1) }))
    .where('client_key', '=', clientKey)
    .where('day', '=', day)
    .execute();
}

/** Days before `day` no longer limit anyone. */
export async function deleteRunsBefore(db: Db, day: string): Promise<void> {
  await db.deleteFrom('anonymous_runs').where('day', '<', day).execute();
}
