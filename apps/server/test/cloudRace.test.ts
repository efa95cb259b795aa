// Racing adds of one name to the document cloud, on SQLite and on PostgreSQL (127.0.0.1:5432,
// database test, a schema of its own, when reachable): each is numbered, none refused.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makePdf } from './fixtures.js';
import { signedIn, startQuire, type Running } from './harness.js';
import { PG_URL, pgSchemaUrl } from './pgSchema.js';

const pgTarget = await pgSchemaUrl();
const postgres = pgTarget?.url ?? null;
if (!postgres) console.warn(`PostgreSQL at ${PG_URL} is not reachable: its race is skipped`);
afterAll(async () => {
  await pgTarget?.drop();
});

/** Adds racing at once: enough that, numbered outside the turn they take, some met on one name. */
const RACERS = 60;

describe.each([
  ['sqlite', {}],
  ['postgres', postgres ? { databaseUrl: postgres } : null],
] as const)('on %s', (_, overrides) => {
  it.skipIf(overrides === null)(
    `${RACERS} adds of one name at once are all numbered, none refused`,
    async () => {
      const quire: Running = await startQuire(overrides ?? {}, false);
      try {
        const client = await signedIn(quire.url, quire.ctx, 'racer@example.org', 'premium');
        const pdf = await makePdf(path.join(quire.ctx.config.dataDir, 'race.pdf'), 1);
        const uploads: string[] = [];
        for (let i = 0; i < RACERS; i++) uploads.push(await client.uploadId(pdf));
        const answers = await Promise.all(
          uploads.map(async (upload_file_id) => {
            const res = await client.raw('/api/cloud/v1/file/create', {
              method: 'PUT',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ upload_file_id, name: 'same.pdf', on_conflict: 'rename' }),
            });
            return (await res.json()) as { code: number; msg: string; data: { name: string } };
          }),
        );
        expect(answers.filter((a) => a.code !== 0).map((a) => `${a.code} ${a.msg}`)).toEqual([]);
        const names = new Set(answers.map((a) => a.data.name));
        expect(names.size).toBe(RACERS);
        expect(names.has('same.pdf')).toBe(true);
      } finally {
        await quire.stop();
      }
    },
    300_000,
  );
});
