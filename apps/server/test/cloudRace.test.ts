// Racing adds of one name to the document cloud, and racing shares with few left in the day, on
// SQLite and on PostgreSQL (127.0.0.1:5432, database test, a schema of its own, when reachable):
// each add is numbered, none refused; exactly the shares left are made.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultLimits, ErrorCode } from '@quire/contracts';
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
/** Premium's shares a day in the share race, of which all but SHARES_LEFT are made first. */
const SHARES_PER_DAY = 5;
const SHARES_LEFT = 3;
const SHARE_RACERS = 20;

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

  it.skipIf(overrides === null)(
    `${SHARE_RACERS} shares at once with ${SHARES_LEFT} left in the day: exactly ${SHARES_LEFT} are made`,
    async () => {
      const limits = { ...defaultLimits, premium: { ...defaultLimits.premium, sharesPerDay: SHARES_PER_DAY } };
      const quire: Running = await startQuire({ ...overrides, limits }, false);
      try {
        const client = await signedIn(quire.url, quire.ctx, 'sharer@example.org', 'premium');
        const uploadId = await client.uploadId(await makePdf(path.join(quire.ctx.config.dataDir, 'shared.pdf'), 1));
        const added = await client.raw('/api/cloud/v1/file/create', {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ upload_file_id: uploadId }),
        });
        const cloudFileId = ((await added.json()) as { data: { file_id: string } }).data.file_id;
        const share = () => client.post('share/share-file', { share_key: cloudFileId, share_type: 2, file_type: 1, share_days: 7 });
        for (let i = 0; i < SHARES_PER_DAY - SHARES_LEFT; i++) expect((await share()).code).toBe(0);
        const answers = await Promise.all(Array.from({ length: SHARE_RACERS }, share));
        expect(answers.filter((a) => a.code === 0)).toHaveLength(SHARES_LEFT);
        expect(answers.filter((a) => a.code === ErrorCode.ShareLimit)).toHaveLength(SHARE_RACERS - SHARES_LEFT);
        const listed = await client.call('share/list');
        expect(listed.data?.shares).toHaveLength(SHARES_PER_DAY);
      } finally {
        await quire.stop();
      }
    },
    300_000,
  );
});
