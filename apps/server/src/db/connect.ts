// One query layer over SQLite (embedded default) or PostgreSQL, chosen by the database URL.
import fs from 'node:fs';
import path from 'node:path';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Migration } from 'kysely';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Database } from './schema.js';
import { migrations } from './migrations.js';

export type Db = Kysely<Database>;

// int8 columns come back from pg as strings; our numbers fit in a double.
pg.types.setTypeParser(20, (v) => Number(v));

export async function connectDb(url: string): Promise<Db> {
  let db: Db;
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 10 }) }) });
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
