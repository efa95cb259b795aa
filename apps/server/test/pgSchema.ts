// A schema of its own on the machine's PostgreSQL (127.0.0.1:5432, database test) for one test
// file, dropped afterwards; null where no server answers, so the file's PostgreSQL part is skipped.
import pg from 'pg';

export const PG_URL = process.env.QUIRE_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function pgSchemaUrl(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const schema = `quire_test_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  await admin.query(`create schema ${schema}`);
  await admin.end();
  return {
    url: `${PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    async drop() {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`drop schema ${schema} cascade`);
      await c.end();
    },
  };
}
