// One query layer over SQLite (embedded default) or PostgreSQL, chosen by the database URL.
import fs from 'node:fs';
import path from 'node:path';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Database } from './schema.js';
import { migrations } from './migrations.js';

export type Db = Kysely<Database>;

// int8 columns come back from pg as strings; our numbers fit in a double.
pg.types.setTypeParser(20, (v) => Number(v));

/**
 * PostgreSQL's codes for a server that went away or is not there yet: shut down by the operator
 * (57P01) or by a crash (57P02), or not accepting connections while it starts or stops (57P03).
 */
const SERVER_GONE = /^57P0[1-3]$/;
/** Node's codes for a socket that could not be opened, or was cut. */
const SOCKET_GONE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** pg's own words for a connection lost, or a pool that gave up waiting for one. */
const CONNECTION_LOST = /Connection terminated|not queryable|timeout exceeded when trying to connect|Connection ended/i;

/**
 * Whether a query failed because the database server cannot be reached right now (restarted,
 * stopped, starting): a state that passes, unlike a failure of the query itself.
 */
export function isDatabaseUnavailable(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && (SERVER_GONE.test(code) || SOCKET_GONE.has(code))) return true;
  if (e instanceof AggregateError) return e.errors.some(isDatabaseUnavailable);
  return CONNECTION_LOST.test(e.message);
}

/**
 * A pool that outlives its server. A connection the server ends emits 'error' on its client, and
 * on the pool when it was idle there: unheard, either event ends the process. Heard, the client is
 * dropped (pg-pool does not take back one that is no longer queryable) and the next query opens a
 * new connection, or fails with isDatabaseUnavailable while the server is away.
 */
function resilientPool(url: string): pg.Pool {
  // A connection not made in this time is a server away: the request is answered, not held.
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
  pool.on('error', (e) => console.error(`PostgreSQL connection lost: ${e.message}`));
  // A client in use: the query it runs, or its next one, fails with the error and is answered so.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

export async function connectDb(url: string): Promise<Db> {
  let db: Db;
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: resilientPool(url) }) });
  } else {
    const file = url.replace(/^sqlite:/, '');
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('busy_timeout = 5000');
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  }
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations as Record<string, Migration> },
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
  return db;
}

/** Whether the database answers a query now: false while its server is away (isDatabaseUnavailable). */
export async function databaseAnswers(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch (e) {
    if (isDatabaseUnavailable(e)) return false;
    throw e;
  }
}
