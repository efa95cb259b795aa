// The query layer and the queue against both databases: embedded SQLite always, PostgreSQL
// (127.0.0.1:5432, database test) when it is reachable. Each PostgreSQL run gets its own schema.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type Migration } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import {
  countSignatures,
  countSigning,
  deleteOwnedSignature,
  findOwnedSignature,
  insertSignature,
  signaturesOf,
  signCountsOf,
} from '../src/db/signaturesRepo.js';
import { connectDb, type Db } from '../src/db/connect.js';
import { ErrorCode, errorMessages } from '@quire/contracts';
import { claimTask, recoverAbandoned } from '../src/queue/worker.js';
import { cancelUnfinished, failTask, finishTask, lostClaims } from '../src/db/tasksRepo.js';
import { loadConfig } from '../src/config.js';
import type { AppContext } from '../src/context.js';
import type { Database, TaskTable } from '../src/db/schema.js';
import { migrations } from '../src/db/migrations.js';
import { cloudFileRow } from './harness.js';
import {
  allMessages,
  deleteMessage,
  deleteMessagesOf,
  insertMessage,
  markRead,
  receivedPage,
  unreadByType,
} from '../src/db/messagesRepo.js';
import type { MessageTable } from '../src/db/schema.js';
import { TaskEvents } from '../src/queue/events.js';
import { deleteRunsBefore, giveBackRun, takeRun } from '../src/db/anonymousRunsRepo.js';
import {
  changeAccountEmail,
  deleteAccount,
  deleteExpiredSignIns,
  deleteOtherSessions,
  deleteSessionOf,
  findAccount,
  findAccountByEmail,
  findSessionAccount,
  insertAccount,
  insertSession,
  replaceAccountToken,
  sessionsOf,
  takeAccountToken,
  touchSession,
  updateAccount,
} from '../src/db/accountsRepo.js';
import { addTemplateUse, allTemplateUses } from '../src/db/templateUsesRepo.js';
import { findLinkedAccount, insertSsoLogin, linkIdentity, takeSsoLogin } from '../src/db/ssoRepo.js';
import { countApiKeys, deleteApiKey, findApiKeyAccount, insertApiKey, touchApiKey } from '../src/db/apiKeysRepo.js';
import { accountsPage, cloudUseOf, holdingsOf } from '../src/db/adminRepo.js';
import {
  cloudFilesIn,
  cloudFolderNamed,
  cloudReceivedAt,
  deleteCloudFiles,
  deleteCloudOf,
  fileNameKeysIn,
  filesInFolders,
  findCloudFolder,
  foldersOfAccount,
  insertCloudFile,
  insertCloudFolder,
  isNameTaken,
  markCloudReceived,
  nameKey,
  recentFiles,
  searchCloud,
  starredFiles,
  TOP_FOLDER,
  updateCloudFiles,
  updateCloudFolder,
  usedCloudBytes,
  writeWithinCapacity,
} from '../src/db/cloudRepo.js';
import { chargeUsage, refundUsage, usageOf } from '../src/db/aiUsageRepo.js';
import {
  chunksOf,
  conversationsOf,
  deleteAiOf,
  findAnalysis,
  findConversation,
  insertAnalysis,
  insertConversation,
  insertMessages,
  messagesOf,
  replaceChunks,
} from '../src/db/aiRepo.js';
import {
  countOpened,
  countSharesSince,
  deleteSharesEndedBefore,
  expiredCopies,
  findOwnedShare,
  findShareByCode,
  insertShare,
  markRevoked,
  sharesOf,
} from '../src/db/sharesRepo.js';

import {
  creditReferral,
  findAccountByInviteCode,
  insertReferral,
  inviterTotals,
  pendingReferral,
  setInviteCode,
} from '../src/db/referralsRepo.js';
import { saveSiteSettings, siteSettings } from '../src/db/siteSettingsRepo.js';
import { PG_URL, pgSchemaUrl } from './pgSchema.js';

const sqliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-db-'));
const pgTarget = await pgSchemaUrl();
if (!pgTarget) console.warn(`PostgreSQL at ${PG_URL} is not reachable: its database tests are skipped`);
afterAll(async () => {
  await pgTarget?.drop();
  fs.rmSync(sqliteDir, { recursive: true, force: true });
});

const targets: [string, string | null][] = [
  ['sqlite', `sqlite:${path.join(sqliteDir, 'q.db')}`],
  ['postgres', pgTarget?.url ?? null],
];

function account(id: string, email: string) {
  return {
    id,
    email,
    password_hash: 'scrypt$32768$8$3$salt$key',
    email_verified: 0,
    plan: 'free',
    first_name: 'Ada',
    last_name: 'Lovelace',
    avatar: '',
    career: '',
    created_at: Date.now(),
    role: 'user' as const,
    last_seen_at: 0,
    invite_code: null,
    bonus_tokens: 0,
  };
}

function task(id: string, createdAt: number, owner = 'o'): TaskTable {
  return {
    id,
    multi_id: 'm',
    owner_id: owner,
    tool: 'rotate',
    params: '{}',
    state: 'queued',
    progress: 0,
    error_code: 0,
    error_msg: '',
    attempts: 0,
    outputs: '[]',
    lease_until: 0,
    created_at: createdAt,
    started_at: 0,
    finished_at: 0,
    expires_at: createdAt + 3600_000,
    client_key: '',
    work: 1,
  };
}

describe.each(targets)('%s', (name, url) => {
  let db: Db;
  const ctx = () => ({ db, config: loadConfig({}, []), events: new TaskEvents() }) as unknown as AppContext;

  it.skipIf(!url)('migrates, and migrating again changes nothing', async () => {
    db = await connectDb(url!);
    const again = await connectDb(url!);
    await again.destroy();
    expect(await db.selectFrom('tasks').selectAll().execute()).toEqual([]);
  });

  it.skipIf(!url)('keeps saved signatures per account and adds up signing counts', async () => {
    const png = 'iVBORw0KGgo=';
    await insertSignature(db, { id: 's1', account_id: 'acc-1', kind: 'drawn', png, width: 3, height: 2, created_at: 1 });
    await insertSignature(db, { id: 's2', account_id: 'acc-1', kind: 'typed', png, width: 3, height: 2, created_at: 2 });
    expect((await signaturesOf(db, 'acc-1')).map((r) => r.id)).toEqual(['s2', 's1']);
    expect(await countSignatures(db, 'acc-1')).toBe(2);
    expect(await deleteOwnedSignature(db, 'acc-2', 's1')).toBe(false);
    expect(await deleteOwnedSignature(db, 'acc-1', 's1')).toBe(true);
    expect(await findOwnedSignature(db, 'acc-1', 's1')).toBeUndefined();
    expect(await signCountsOf(db, 'acc-1')).toEqual({ tasks: 0, marks: 0 });
    await countSigning(db, 'acc-1', 3);
    await countSigning(db, 'acc-1', 2);
    expect(await signCountsOf(db, 'acc-1')).toEqual({ tasks: 2, marks: 5 });
  });

  it.skipIf(!url)('stores and reads back files with large sizes and times', async () => {
    const now = Date.now();
    await db
      .insertInto('files')
      .values({
        id: 'f1',
        owner_id: 'o',
        name: 'ünïcødé.pdf',
        size: 5_000_000_000,
        md5: 'a'.repeat(32),
        storage_key: 'files/f1.pdf',
        total_page: 2000,
        page_w: 595.28,
        page_h: 841.89,
        encrypted: 1,
        repaired: 1,
        source_tool: 'edit',
        created_at: now,
        expires_at: now + 1,
      })
      .execute();
    const row = await db.selectFrom('files').selectAll().where('id', '=', 'f1').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: 'ünïcødé.pdf', size: 5_000_000_000, created_at: now, total_page: 2000, encrypted: 1, repaired: 1 });
    expect(row.page_w).toBeCloseTo(595.28, 2);
  });

  it.skipIf(!url)('hands each queued task to exactly one of many racing workers', async () => {
    const base = Date.now();
    await db
      .insertInto('tasks')
      .values(Array.from({ length: 20 }, (_, i) => task(`${name}-t${i}`, base + i, `o${i}`)))
      .execute();
    const claims = await Promise.all(Array.from({ length: 30 }, () => claimTask(ctx())));
    const ids = claims.filter(Boolean).map((t) => t!.id);
    expect(new Set(ids).size).toBe(ids.length);
    // Every task is claimed once: retry any racers that lost, until the queue is empty.
    for (let t = await claimTask(ctx()); t; t = await claimTask(ctx())) ids.push(t.id);
    expect(ids.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `${name}-t${i}`).sort());
    const rows = await db.selectFrom('tasks').select(['state', 'attempts']).execute();
    expect(rows.every((r) => r.state === 'running' && r.attempts === 1)).toBe(true);
  });

  it.skipIf(!url)('returns tasks with lapsed leases to the queue', async () => {
    await recoverAbandoned(ctx(), Date.now() + 3600_000);
    const states = await db.selectFrom('tasks').select('state').distinct().execute();
    expect(states).toEqual([{ state: 'queued' }]);
    await db.deleteFrom('tasks').execute();
  });

  it.skipIf(!url)("takes another visitor's task before the rest of one visitor's long queue", async () => {
    const base = Date.now();
    await db
      .insertInto('tasks')
      .values([
        ...Array.from({ length: 20 }, (_, i) => task(`${name}-flood${i}`, base + i, 'flood')),
        task(`${name}-other`, base + 100, 'other'),
      ])
      .execute();
    // The flood's first task starts; the other visitor has none running, so theirs goes next,
    // though it is the newest in the queue.
    expect((await claimTask(ctx()))!.id).toBe(`${name}-flood0`);
    expect((await claimTask(ctx()))!.id).toBe(`${name}-other`);
    // Both have one running: the visitor served longest ago goes first.
    await db
      .insertInto('tasks')
      .values(task(`${name}-other2`, base + 200, 'other'))
      .execute();
    expect((await claimTask(ctx()))!.id).toBe(`${name}-flood1`);
    expect((await claimTask(ctx()))!.id).toBe(`${name}-other2`);
    // Both are at the limit of 2 running: nothing more is taken until one finishes.
    expect(ctx().config.maxRunningPerOwner).toBe(2);
    expect(await claimTask(ctx())).toBeUndefined();
    await db.updateTable('tasks').set({ state: 'done' }).where('id', '=', `${name}-flood0`).execute();
    expect((await claimTask(ctx()))!.id).toBe(`${name}-flood2`);
    await db.deleteFrom('tasks').execute();
  });

  it.skipIf(!url)("takes another address's task before the queue of many accounts from one address", async () => {
    const base = Date.now();
    const at = (t: TaskTable, clientKey: string) => ({ ...t, client_key: clientKey });
    await db
      .insertInto('tasks')
      .values([
        ...Array.from({ length: 8 }, (_, i) => at(task(`${name}-many${i}`, base + i, `account${i % 4}`), 'flooding-address')),
        at(task(`${name}-solo`, base + 100, 'solo'), 'other-address'),
      ])
      .execute();
    expect((await claimTask(ctx()))!.id).toBe(`${name}-many0`);
    // Three accounts of the flooding address have nothing running, but the address has one task running.
    expect((await claimTask(ctx()))!.id).toBe(`${name}-solo`);
    // Each address has one running: the one served longest ago goes first.
    expect((await claimTask(ctx()))!.id).toBe(`${name}-many1`);
    await db.deleteFrom('tasks').execute();
  });

  it.skipIf(!url)("runs at most the address's limit of its tasks at once, and other addresses' tasks meanwhile", async () => {
    const base = Date.now();
    const at = (t: TaskTable, clientKey: string) => ({ ...t, client_key: clientKey });
    await db
      .insertInto('tasks')
      .values(Array.from({ length: 8 }, (_, i) => at(task(`${name}-many${i}`, base + i, `account${i}`), 'flooding-address')))
      .execute();
    expect(ctx().config.maxRunningPerAddress).toBe(2);
    expect((await claimTask(ctx()))!.id).toBe(`${name}-many0`);
    expect((await claimTask(ctx()))!.id).toBe(`${name}-many1`);
    // Six accounts of the address have nothing running, but the address is at its limit: its tasks wait.
    expect(await claimTask(ctx())).toBeUndefined();
    expect(await db.selectFrom('tasks').select('id').where('state', '=', 'queued').execute()).toHaveLength(6);
    await db
      .insertInto('tasks')
      .values(at(task(`${name}-solo`, base + 100, 'solo'), 'other-address'))
      .execute();
    expect((await claimTask(ctx()))!.id).toBe(`${name}-solo`);
    // One of the address's tasks ends: the next of its accounts' is taken.
    await db.updateTable('tasks').set({ state: 'done' }).where('id', '=', `${name}-many0`).execute();
    expect((await claimTask(ctx()))!.id).toBe(`${name}-many2`);
    expect(await claimTask(ctx())).toBeUndefined();
    await db.deleteFrom('tasks').execute();
  });

  it.skipIf(!url || name !== 'sqlite')(
    "never runs more of one visitor's tasks at once than the limit, however many workers race",
    async () => {
      // PostgreSQL checks each racing claim against its own snapshot, so there the limit can be passed by racing processes.
      const base = Date.now();
      await db
        .insertInto('tasks')
        .values(Array.from({ length: 20 }, (_, i) => task(`${name}-r${i}`, base + i, 'racer')))
        .execute();
      const claims = await Promise.all(Array.from({ length: 30 }, () => claimTask(ctx())));
      expect(claims.filter(Boolean).map((t) => t!.id)).toEqual([`${name}-r0`, `${name}-r1`]);
      await db.deleteFrom('tasks').execute();
    },
  );

  it.skipIf(!url)("keeps a cancelled task cancelled: no claim, and its worker's late finish or failure changes nothing", async () => {
    const base = Date.now();
    await db
      .insertInto('tasks')
      .values([task(`${name}-run`, base), task(`${name}-wait`, base + 1, 'o2'), task(`${name}-done`, base + 2, 'o3')])
      .execute();
    const running = (await claimTask(ctx()))!;
    expect(running.id).toBe(`${name}-run`);
    await db.updateTable('tasks').set({ state: 'done' }).where('id', '=', `${name}-done`).execute();
    expect(await lostClaims(db, [running])).toEqual([]);

    const cancelled = { code: ErrorCode.Cancelled, msg: errorMessages[ErrorCode.Cancelled] };
    await cancelUnfinished(db, [`${name}-run`, `${name}-wait`, `${name}-done`], cancelled, base);
    expect(await lostClaims(db, [running])).toEqual([running.id]);
    expect(await claimTask(ctx())).toBeUndefined();
    expect(await finishTask(db, running, [{ index: 0, name: 'late.pdf', size: 1, key: 'outputs/late' }], base, base + 1)).toBe(false);
    await failTask(db, running, { code: ErrorCode.TaskFailed, msg: 'late' }, base);
    const rows = await db.selectFrom('tasks').select(['id', 'state', 'error_code', 'attempts', 'outputs']).orderBy('created_at').execute();
    expect(rows).toEqual([
      { id: `${name}-run`, state: 'failed', error_code: ErrorCode.Cancelled, attempts: 1, outputs: '[]' },
      { id: `${name}-wait`, state: 'failed', error_code: ErrorCode.Cancelled, attempts: 0, outputs: '[]' },
      { id: `${name}-done`, state: 'done', error_code: 0, attempts: 0, outputs: '[]' },
    ]);
    await db.deleteFrom('tasks').execute();
  });

  it.skipIf(!url)('keeps one account per address, and moves an account only to a free address', async () => {
    expect(await insertAccount(db, account('a1', 'ada@example.org'))).toBe(true);
    expect(await insertAccount(db, account('a2', 'ada@example.org'))).toBe(false);
    expect(await insertAccount(db, account('a2', 'bob@example.org'))).toBe(true);
    expect((await findAccountByEmail(db, 'ada@example.org'))?.id).toBe('a1');
    expect(await changeAccountEmail(db, 'a2', 'ada@example.org')).toBe(false);
    expect(await changeAccountEmail(db, 'a2', 'robert@example.org')).toBe(true);
    expect(await findAccountByEmail(db, 'bob@example.org')).toBeUndefined();
  });

  it.skipIf(!url)("keeps the occupation survey's career, Other's 48 characters of text included", async () => {
    const career = `Other: ${'ü'.repeat(48)}`;
    expect(await updateAccount(db, 'a1', { career })).toBe(true);
    expect((await findAccount(db, 'a1'))?.career).toBe(career);
  });

  it.skipIf(!url)("keeps invite codes unique, credits a friend's invite once, and saves the operator's settings", async () => {
    // Accounts without a code yet are many NULLs, which the unique index allows.
    expect((await findAccount(db, 'a2'))?.invite_code).toBeNull();
    await setInviteCode(db, 'a1', 'CODE1');
    await setInviteCode(db, 'a1', 'CODE2');
    await setInviteCode(db, 'a2', 'CODE1').catch(() => undefined);
    expect((await findAccountByInviteCode(db, 'CODE1'))?.id).toBe('a1');
    expect((await findAccount(db, 'a2'))?.invite_code).toBeNull();

    await insertReferral(db, 'a2', 'a1', 10);
    await insertReferral(db, 'a2', 'other-inviter', 11);
    const pending = (await pendingReferral(db, 'a2'))!;
    expect(pending).toMatchObject({ inviter_id: 'a1', credited_at: 0 });
    expect(await creditReferral(db, pending, 'mailbox-2', 3_000_000_000, 7, 20)).toBe(true);
    expect(await creditReferral(db, pending, 'mailbox-2', 3_000_000_000, 7, 21)).toBe(false);
    expect(await pendingReferral(db, 'a2')).toBeUndefined();
    // Another account of a mailbox that earned a credit earns none: its invite stays pending.
    await insertReferral(db, 'a1', 'a2', 12);
    expect(await creditReferral(db, (await pendingReferral(db, 'a1'))!, 'mailbox-2', 5, 5, 22)).toBe(false);
    expect(await pendingReferral(db, 'a1')).toMatchObject({ credited_at: 0 });
    expect((await findAccount(db, 'a2'))?.bonus_tokens).toBe(3_000_000_000);
    expect((await findAccount(db, 'a1'))?.bonus_tokens).toBe(7);
    expect(await inviterTotals(db, 'a1')).toEqual({ friends: 1, tokens: 7 });
    expect(await inviterTotals(db, 'a2')).toEqual({ friends: 0, tokens: 0 });

    await saveSiteSettings(db, { 'activity.adv_url': 'https://example.org/a', 'activity.reward_tokens': '5' });
    await saveSiteSettings(db, { 'activity.adv_url': 'https://example.org/b' });
    expect(Object.fromEntries(await siteSettings(db, ['activity.adv_url', 'activity.reward_tokens', 'activity.adv_img']))).toEqual({
      'activity.adv_url': 'https://example.org/b',
      'activity.reward_tokens': '5',
    });
  });

  const session = (id: string, accountId: string, createdAt: number, expiresAt: number) => ({
    id,
    public_id: `pub-${id}`,
    account_id: accountId,
    device: 'Firefox · Linux',
    created_at: createdAt,
    expires_at: expiresAt,
    last_used_at: createdAt,
  });

  it.skipIf(!url)('opens an account by a live session only', async () => {
    const now = Date.now();
    await insertSession(db, session('live', 'a1', now, now + 60_000));
    await insertSession(db, session('old', 'a1', now - 120_000, now - 60_000));
    expect(await findSessionAccount(db, 'live', now)).toMatchObject({
      account: { email: 'ada@example.org' },
      publicId: 'pub-live',
      lastUsedAt: now,
    });
    expect(await findSessionAccount(db, 'old', now)).toBeUndefined();
    await deleteExpiredSignIns(db, now);
    expect(await db.selectFrom('sessions').select('id').execute()).toEqual([{ id: 'live' }]);
  });

  it.skipIf(!url)("lists an account's live sessions, records use once a minute, ends one or all others of that account only", async () => {
    const now = Date.now();
    await insertSession(db, session('s1', 'a2', now - 5_000, now + 60_000));
    await insertSession(db, session('s2', 'a2', now - 1_000, now + 60_000));
    await insertSession(db, session('s3', 'a2', now - 90_000, now + 60_000));
    await insertSession(db, session('gone', 'a2', now - 9_000, now - 1));
    await insertSession(db, session('b1', 'a1', now, now + 60_000));
    // The most recently used first; the expired one is not listed.
    expect((await sessionsOf(db, 'a2', now)).map((s) => s.public_id)).toEqual(['pub-s2', 'pub-s1', 'pub-s3']);
    // Of racing requests in one minute, one writes; a use within the minute of the last is not written.
    await Promise.all([now, now + 1, now + 2].map((t) => touchSession(db, 's3', t, t - 60_000)));
    const touched = (await findSessionAccount(db, 's3', now))!.lastUsedAt;
    expect([now, now + 1, now + 2]).toContain(touched);
    await touchSession(db, 's3', touched + 30_000, touched + 30_000 - 60_000);
    expect((await findSessionAccount(db, 's3', now))!.lastUsedAt).toBe(touched);
    expect((await sessionsOf(db, 'a2', now))[0]!.public_id).toBe('pub-s3');
    // Another account's public id, or the hash in place of the public id, ends nothing.
    expect(await deleteSessionOf(db, 'a2', 'pub-b1')).toBe(false);
    expect(await deleteSessionOf(db, 'a2', 's1')).toBe(false);
    expect(await deleteSessionOf(db, 'a2', 'pub-s1')).toBe(true);
    expect((await sessionsOf(db, 'a2', now)).map((s) => s.public_id)).toEqual(['pub-s3', 'pub-s2']);
    await deleteOtherSessions(db, 'a2', 'pub-s2');
    expect((await sessionsOf(db, 'a2', now)).map((s) => s.public_id)).toEqual(['pub-s2']);
    expect((await sessionsOf(db, 'a1', now)).map((s) => s.public_id)).toEqual(['pub-b1', 'pub-live']);
    await db.deleteFrom('sessions').where('account_id', '=', 'a2').execute();
  });

  it.skipIf(!url)("hands a link's token to one of many racing requests, once, and only before it expires", async () => {
    const now = Date.now();
    const row = {
      id: 'tok',
      account_id: 'a1',
      purpose: 'reset' as const,
      email: 'ada@example.org',
      created_at: now,
      expires_at: now + 60_000,
    };
    await replaceAccountToken(db, row);
    expect(await takeAccountToken(db, 'tok', 'verify', now)).toBeUndefined();
    const takes = await Promise.all(Array.from({ length: 10 }, () => takeAccountToken(db, 'tok', 'reset', now)));
    expect(takes.filter(Boolean)).toHaveLength(1);
    // A newer link of the same purpose ends the one before it.
    await replaceAccountToken(db, { ...row, id: 'first' });
    await replaceAccountToken(db, { ...row, id: 'second' });
    expect(await takeAccountToken(db, 'first', 'reset', now)).toBeUndefined();
    expect(await takeAccountToken(db, 'second', 'reset', now + 120_000)).toBeUndefined();
  });

  it.skipIf(!url)(
    'links a provider identity to one account, and hands a sign-in under way to one callback, once, before it expires',
    async () => {
      const now = Date.now();
      await linkIdentity(db, { issuer: 'https://id.example', subject: 's1', account_id: 'a1', created_at: now });
      // A racing second link of the same identity changes nothing.
      await linkIdentity(db, { issuer: 'https://id.example', subject: 's1', account_id: 'a2', created_at: now });
      expect((await findLinkedAccount(db, 'https://id.example', 's1'))?.id).toBe('a1');
      expect(await findLinkedAccount(db, 'https://other.example', 's1')).toBeUndefined();
      const login = { id: 'st', nonce: 'n', code_verifier: 'v', return_path: '/app/home', created_at: now, expires_at: now + 60_000 };
      await insertSsoLogin(db, login);
      const takes = await Promise.all(Array.from({ length: 10 }, () => takeSsoLogin(db, 'st', now)));
      expect(takes.filter(Boolean).map((t) => t!.return_path)).toEqual(['/app/home']);
      await insertSsoLogin(db, { ...login, id: 'late' });
      expect(await takeSsoLogin(db, 'late', now + 120_000)).toBeUndefined();
      await insertSsoLogin(db, { ...login, id: 'stale', expires_at: now - 1 });
      await deleteExpiredSignIns(db, now);
      expect(await db.selectFrom('sso_logins').selectAll().execute()).toEqual([]);
    },
  );

  it.skipIf(!url)("finds an API key's account by its hash, records a use once however many race, revokes only the owner's", async () => {
    const now = Date.now();
    const key = { id: 'k1', hash: 'h'.repeat(64), account_id: 'a1', name: 'ci', hint: 'qk_abcd', created_at: now, last_used_at: null };
    await insertApiKey(db, key);
    expect(await countApiKeys(db, 'a1')).toBe(1);
    expect(await findApiKeyAccount(db, 'x'.repeat(64))).toBeUndefined();
    const found = await findApiKeyAccount(db, key.hash);
    expect(found).toMatchObject({ keyId: 'k1', lastUsedAt: null, account: { id: 'a1', email: 'ada@example.org' } });
    // Ten requests arrive as the minute passes: the condition lets the first write, and only it.
    const times = Array.from({ length: 10 }, (_, i) => now + i);
    await Promise.all(times.map((t) => touchApiKey(db, 'k1', t, t - 60_000)));
    const lastUsed = (await findApiKeyAccount(db, key.hash))!.lastUsedAt!;
    expect(times).toContain(lastUsed);
    await touchApiKey(db, 'k1', lastUsed + 30_000, lastUsed + 30_000 - 60_000);
    expect((await findApiKeyAccount(db, key.hash))!.lastUsedAt).toBe(lastUsed);
    await touchApiKey(db, 'k1', lastUsed + 61_000, lastUsed + 1_000);
    expect((await findApiKeyAccount(db, key.hash))!.lastUsedAt).toBe(lastUsed + 61_000);
    expect(await deleteApiKey(db, 'a2', 'k1')).toBe(false);
    expect(await countApiKeys(db, 'a1')).toBe(1);
  });

  it.skipIf(!url)('deletes an account with its sessions, tokens, provider identities and API keys', async () => {
    const now = Date.now();
    await replaceAccountToken(db, { id: 'v', account_id: 'a1', purpose: 'verify', email: 'x', created_at: now, expires_at: now + 1 });
    await deleteAccount(db, 'a1');
    expect(await findAccountByEmail(db, 'ada@example.org')).toBeUndefined();
    expect(await db.selectFrom('sessions').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('account_tokens').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('sso_identities').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('api_keys').selectAll().execute()).toEqual([]);
    expect((await findAccountByEmail(db, 'robert@example.org'))?.id).toBe('a2');
  });

  it.skipIf(!url)(
    "counts an anonymous client's runs of a day up to the limit, of racing requests no more, and forgets past days",
    async () => {
      expect([await takeRun(db, 'k', '2026-11-25', 2), await takeRun(db, 'k', '2026-11-25', 2)]).toEqual([true, true]);
      expect(await takeRun(db, 'k', '2026-11-25', 2)).toBe(false);
      expect(await takeRun(db, 'k', '2026-11-26', 2)).toBe(true);
      await giveBackRun(db, 'k', '2026-11-25');
      expect(await takeRun(db, 'k', '2026-11-25', 2)).toBe(true);
      const racing = await Promise.all(Array.from({ length: 10 }, () => takeRun(db, 'race', '2026-11-25', 3)));
      expect(racing.filter(Boolean)).toHaveLength(3);
      await deleteRunsBefore(db, '2026-11-26');
      expect(await db.selectFrom('anonymous_runs').select(['client_key', 'day', 'runs']).execute()).toEqual([
        { client_key: 'k', day: '2026-11-26', runs: 1 },
      ]);
    },
  );

  it.skipIf(!url)("pages the operator's list by address, % and _ meaning themselves, with what each account holds", async () => {
    const now = Date.now();
    const made = (id: string, email: string, at: number) => insertAccount(db, { ...account(id, email), created_at: at });
    await made('u1', 'x_y@example.org', now + 1);
    await made('u2', 'xay@example.org', now + 2);
    await made('u3', 'bx_yc@example.org', now + 3);
    expect((await accountsPage(db, 'x_y', 0, 10)).accounts.map((a) => a.id)).toEqual(['u3', 'u1']);
    expect((await accountsPage(db, '%', 0, 10)).total).toBe(0);
    // Newest first, a page at a time, with the count of every match.
    const second = await accountsPage(db, 'example.org', 2, 2);
    expect(second.total).toBe(4);
    expect(second.accounts.map((a) => a.id)).toEqual(['u1', 'a2']);

    const file = {
      name: 'a.pdf',
      md5: 'a'.repeat(32),
      storage_key: 'k',
      total_page: 1,
      page_w: 1,
      page_h: 1,
      encrypted: 0,
      repaired: 0,
      source_tool: '',
    };
    await db
      .insertInto('files')
      .values([
        { ...file, id: 'h1', owner_id: 'account:u1', size: 5_000_000_000, created_at: now, expires_at: now + 1 },
        { ...file, id: 'h2', owner_id: 'account:u1', size: 7, created_at: now, expires_at: now + 1 },
      ])
      .execute();
    const outputs = JSON.stringify([
      { index: 0, name: 'o.pdf', size: 100, key: 'k0' },
      { index: 1, name: 'p.pdf', size: 20, key: 'k1' },
    ]);
    await db
      .insertInto('tasks')
      .values([{ ...task('t-u1', now + 5, 'account:u1'), outputs }, task('t-u1b', now + 9, 'account:u1')])
      .execute();
    const held = await holdingsOf(db, ['account:u1', 'account:u2']);
    expect(held.get('account:u1')).toEqual({ files: 2, tasks: 2, bytes: 5_000_000_127, lastTaskAt: now + 9 });
    expect(held.get('account:u2')).toEqual({ files: 0, tasks: 0, bytes: 0, lastTaskAt: 0 });
  });

  it.skipIf(!url)('keeps cloud names unique per folder in any case, searches with % and _ as themselves, and sums big sizes', async () => {
    const now = Date.now();
    const folder = { account_id: 'c1', parent_id: TOP_FOLDER, created_at: now, updated_at: now };
    await insertCloudFolder(db, { ...folder, id: 'cf1', name: 'Ünïcødé', name_key: nameKey('Ünïcødé') });
    expect(await cloudFolderNamed(db, 'c1', TOP_FOLDER, 'üNÏCØDÉ')).toMatchObject({ id: 'cf1' });
    expect(await cloudFolderNamed(db, 'c2', TOP_FOLDER, 'Ünïcødé')).toBeUndefined();
    const refused = await insertCloudFolder(db, { ...folder, id: 'cf2', name: 'ÜNÏCØDÉ', name_key: nameKey('ÜNÏCØDÉ') }).catch((e) => e);
    expect(isNameTaken(refused)).toBe(true);
    const file = (id: string, name: string, size: number, folderId = 'cf1') => cloudFileRow('c1', id, name, size, folderId);
    await insertCloudFile(db, file('x1', 'x_y 100%.pdf', 6_000_000_000));
    await insertCloudFile(db, file('x2', 'xay 1000.pdf', 7));
    await insertCloudFile(db, file('x3', 'X_Y 100%.pdf', 1, TOP_FOLDER));
    expect(isNameTaken(await insertCloudFile(db, file('x4', 'X_y 100%.PDF', 1)).catch((e) => e))).toBe(true);
    expect(isNameTaken(new Error('other'))).toBe(false);
    expect(await usedCloudBytes(db, 'c1')).toBe(6_000_000_008);
    expect(await usedCloudBytes(db, 'nobody')).toBe(0);
    expect((await searchCloud(db, 'c1', 'x_Y')).files.map((f) => f.id).sort()).toEqual(['x1', 'x3']);
    expect((await searchCloud(db, 'c1', '0%')).files.map((f) => f.id).sort()).toEqual(['x1', 'x3']);
    expect((await searchCloud(db, 'c1', 'ÏC')).folders.map((f) => f.id)).toEqual(['cf1']);
    await updateCloudFiles(db, 'c1', ['x1'], { opened_at: now + 1 });
    await updateCloudFiles(db, 'c1', ['x2'], { opened_at: now + 2 });
    await updateCloudFiles(db, 'c2', ['x3'], { opened_at: now + 3 });
    expect((await recentFiles(db, 'c1', 50)).map((f) => f.id)).toEqual(['x2', 'x1']);
    expect((await recentFiles(db, 'c1', 1)).map((f) => f.id)).toEqual(['x2']);
    await updateCloudFiles(db, 'c1', ['x2', 'x3'], { starred: 1 });
    expect((await starredFiles(db, 'c1')).map((f) => f.id).sort()).toEqual(['x2', 'x3']);
    expect([...(await fileNameKeysIn(db, 'c1', 'cf1'))].sort()).toEqual(['x_y 100%.pdf', 'xay 1000.pdf']);
    expect((await cloudFilesIn(db, 'c1', ['x1', 'x3', 'elsewhere'])).map((f) => f.id).sort()).toEqual(['x1', 'x3']);
    expect((await filesInFolders(db, 'c1', ['cf1'])).map((f) => f.id).sort()).toEqual(['x1', 'x2']);
    await updateCloudFolder(db, 'c1', 'cf1', { parent_id: 'cf0', updated_at: now + 4 });
    expect((await foldersOfAccount(db, 'c1')).map((f) => [f.id, f.parent_id, f.updated_at])).toEqual([['cf1', 'cf0', now + 4]]);
    await deleteCloudFiles(db, 'c1', ['x1']);
    expect(await usedCloudBytes(db, 'c1')).toBe(8);
    await deleteCloudOf(db, 'c1');
    expect(await usedCloudBytes(db, 'c1')).toBe(0);
    expect(await findCloudFolder(db, 'c1', 'cf1')).toBeUndefined();
  });

  it.skipIf(!url)("counts an owner's shares in 24 hours, their openings under races, and forgets ended ones", async () => {
    const now = Date.now();
    const share = (id: string, createdAt: number, days: number) => ({
      id,
      code: `code-${id}`,
      owner_id: 'account:s1',
      share_type: 2,
      file_name: 'ünïcødé.pdf',
      file_size: 5_000_000_000,
      storage_key: `shares/${id}/file`,
      cloud_file_id: '',
      recipients: '[]',
      days,
      lang: '',
      created_at: createdAt,
      expires_at: createdAt + days * 86_400_000,
      revoked_at: 0,
      opened: 0,
    });
    await insertShare(db, share('s-old', now - 2 * 86_400_000, 1));
    await insertShare(db, share('s-new', now - 1000, 7));
    await insertShare(db, share('s-gone', now - 500, 3650));
    await markRevoked(db, 's-gone', now - 100);
    // A revoked share still counts: it was made.
    expect(await countSharesSince(db, 'account:s1', now - 86_400_000)).toBe(2);
    expect(await countSharesSince(db, 'account:other', now - 86_400_000)).toBe(0);
    expect((await findShareByCode(db, 'code-s-new'))?.file_size).toBe(5_000_000_000);
    expect(await findOwnedShare(db, 'account:other', 's-new')).toBeUndefined();
    await Promise.all(Array.from({ length: 10 }, () => countOpened(db, 's-new')));
    expect((await findOwnedShare(db, 'account:s1', 's-new'))?.opened).toBe(10);
    expect((await sharesOf(db, 'account:s1')).map((s) => s.id)).toEqual(['s-gone', 's-new', 's-old']);
    expect((await expiredCopies(db, now)).map((s) => s.id)).toEqual(['s-old']);
    await deleteSharesEndedBefore(db, now - 50);
    expect((await sharesOf(db, 'account:s1')).map((s) => s.id)).toEqual(['s-new']);
  });

  it.skipIf(!url)("keeps an account's racing writes within its capacity together, and the free space received once", async () => {
    const now = Date.now();
    const file = (id: string, size: number) => cloudFileRow('r1', id, id, size);
    // Ten at once (on PostgreSQL over ten connections) where three fit.
    const written = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        writeWithinCapacity(db, 'r1', 100, { size: 30 }, (trx) => insertCloudFile(trx, file(`r${i}`, 30))),
      ),
    );
    expect(written.filter(Boolean)).toHaveLength(3);
    expect(await usedCloudBytes(db, 'r1')).toBe(90);
    const kept = `r${written.indexOf(true)}`;
    // A replace counts the replaced file's bytes as free; a write that fails writes nothing.
    const replace = (size: number) =>
      writeWithinCapacity(db, 'r1', 100, { size, replacingId: kept }, (trx) => updateCloudFiles(trx, 'r1', [kept], { size }));
    expect(await replace(41)).toBe(false);
    expect(await replace(40)).toBe(true);
    expect(await usedCloudBytes(db, 'r1', kept)).toBe(60);
    const clash = await writeWithinCapacity(db, 'r1', 1000, { size: 5 }, async (trx) => {
      await insertCloudFile(trx, file('extra', 5));
      await insertCloudFile(trx, file(kept!, 5));
    }).catch((e) => e);
    expect(isNameTaken(clash)).toBe(true);
    expect(await usedCloudBytes(db, 'r1')).toBe(100);
    expect(await cloudUseOf(db, ['r1', 'nobody'])).toEqual(
      new Map([
        ['r1', { files: 3, bytes: 100 }],
        ['nobody', { files: 0, bytes: 0 }],
      ]),
    );

    expect(await cloudReceivedAt(db, 'r1')).toBeNull();
    await markCloudReceived(db, 'r1', now);
    await markCloudReceived(db, 'r1', now + 5);
    await markCloudReceived(db, 'r2', 6_000_000_000_000);
    expect(await cloudReceivedAt(db, 'r1')).toBe(now);
    expect(await cloudReceivedAt(db, 'r2')).toBe(6_000_000_000_000);
    // Writing within the capacity keeps what was received.
    expect(await writeWithinCapacity(db, 'r2', 10, { size: 1 }, async () => {})).toBe(true);
    expect(await cloudReceivedAt(db, 'r2')).toBe(6_000_000_000_000);
    await deleteCloudOf(db, 'r1');
    expect(await cloudReceivedAt(db, 'r1')).toBeNull();
    expect(await cloudUseOf(db, ['r1'])).toEqual(new Map([['r1', { files: 0, bytes: 0 }]]));
  });

  it.skipIf(!url)('charges racing AI usage within its limit, per period, and refunds', async () => {
    const charges = await Promise.all(Array.from({ length: 20 }, () => chargeUsage(db, 'acc-ai', 'tokens', '2026-11', 7, 100)));
    expect(charges.filter(Boolean)).toHaveLength(14);
    expect(await usageOf(db, 'acc-ai', 'tokens', '2026-11')).toBe(98);
    expect(await usageOf(db, 'acc-ai', 'tokens', '2026-12')).toBe(0);
    expect(await chargeUsage(db, 'acc-ai', 'tokens', '2026-11', 2, 100)).toBe(true);
    expect(await chargeUsage(db, 'acc-ai', 'tokens', '2026-11', 1, 100)).toBe(false);
    await refundUsage(db, 'acc-ai', 'tokens', '2026-11', 10);
    expect(await usageOf(db, 'acc-ai', 'tokens', '2026-11')).toBe(90);
    await refundUsage(db, 'acc-ai', 'tokens', '2026-11', 1000);
    expect(await usageOf(db, 'acc-ai', 'tokens', '2026-11')).toBe(90);
  });

  it.skipIf(!url)(
    "keeps one analysis per account and file, its chunks, conversations and messages, and deletes an account's AI",
    async () => {
      const analysis = {
        id: 'an-1',
        account_id: 'acc-ai',
        file_id: 'file-1',
        file_name: 'paper.pdf',
        status: 'init' as const,
        error_code: 0,
        total_page: 3,
        pages: 0,
        text_chars: 0,
        summary: '',
        created_at: 1,
        updated_at: 1,
      };
      expect(await insertAnalysis(db, analysis)).toBe(true);
      expect(await insertAnalysis(db, { ...analysis, id: 'an-2' })).toBe(false);
      expect((await findAnalysis(db, 'acc-ai', 'file-1'))?.id).toBe('an-1');
      expect(await findAnalysis(db, 'acc-other', 'file-1')).toBeUndefined();
      const chunk = (seq: number) => ({ analysis_id: 'an-1', seq, page: 1 + (seq % 3), text: `ünïcødé ${seq}`, terms: '{}', length: 1 });
      await replaceChunks(
        db,
        'an-1',
        Array.from({ length: 250 }, (_, i) => chunk(i)),
      );
      await replaceChunks(
        db,
        'an-1',
        Array.from({ length: 120 }, (_, i) => chunk(i)),
      );
      expect((await chunksOf(db, 'an-1')).map((c) => c.seq)).toEqual(Array.from({ length: 120 }, (_, i) => i));
      const conversation = { account_id: 'acc-ai', analysis_id: 'an-1', title: 'T', share_code: null, created_at: 1 };
      await insertConversation(db, { ...conversation, id: 'c-1', top: 0, updated_at: 5 });
      await insertConversation(db, { ...conversation, id: 'c-2', top: 1, updated_at: 2 });
      await insertConversation(db, { ...conversation, id: 'c-3', top: 0, updated_at: 9 });
      expect((await conversationsOf(db, 'acc-ai')).map((c) => c.id)).toEqual(['c-2', 'c-3', 'c-1']);
      expect(await findConversation(db, 'acc-other', 'c-1')).toBeUndefined();
      const message = (id: string, role: 'user' | 'assistant', at: number) => ({
        id,
        conversation_id: 'c-1',
        role,
        content: id,
        citations: '[]',
        tokens: 0,
        created_at: at,
      });
      await insertMessages(db, [message('m-2', 'assistant', 11), message('m-1', 'user', 10), message('m-3', 'user', 12)]);
      expect((await messagesOf(db, 'c-1')).map((m) => m.id)).toEqual(['m-1', 'm-2', 'm-3']);
      expect((await messagesOf(db, 'c-1', 11)).map((m) => m.id)).toEqual(['m-3']);
      await deleteAiOf(db, 'acc-ai');
      expect(await findAnalysis(db, 'acc-ai', 'file-1')).toBeUndefined();
      expect(await chunksOf(db, 'an-1')).toEqual([]);
      expect(await messagesOf(db, 'c-1')).toEqual([]);
      expect(await usageOf(db, 'acc-ai', 'tokens', '2026-11')).toBe(0);
    },
  );

  it.skipIf(!url)('counts template uses, racing ones too', async () => {
    expect(await allTemplateUses(db)).toEqual(new Map());
    const counts = await Promise.all(Array.from({ length: 10 }, () => addTemplateUse(db, 'weekly-planner')));
    expect(counts.sort((a, b) => a - b).at(-1)).toBe(10);
    await addTemplateUse(db, 'custom-menu');
    expect(await allTemplateUses(db)).toEqual(
      new Map([
        ['weekly-planner', 10],
        ['custom-menu', 1],
      ]),
    );
  });

  it.skipIf(!url)('keeps messages for everyone, a plan or one account, and who read each', async () => {
    const message = (id: string, at: number, audience: Partial<MessageTable> = {}): MessageTable => ({
      id,
      template_type: 1,
      title: id,
      remark: '',
      icon_url: '',
      site_url: '',
      site_img: '',
      audience: 'everyone',
      audience_plan: '',
      audience_account: '',
      sender_id: '',
      created_at: at,
      ...audience,
    });
    await insertMessage(db, message('m-all', 1_000));
    await insertMessage(db, message('m-plan', 2_000, { audience: 'plan', audience_plan: 'premium', template_type: 2 }));
    await insertMessage(db, message('m-ada', 3_000, { audience: 'account', audience_account: 'acc-ada' }));
    const ada = { recipient: 'account:acc-ada', account: { id: 'acc-ada', plan: 'premium' } };
    const visitor = { recipient: 'sign:0123456789abcdef' };
    const titles = async (to: typeof visitor, filter = {}) => (await receivedPage(db, to, filter, 0, 999)).messages.map((m) => m.id);
    expect(await titles(ada)).toEqual(['m-ada', 'm-plan', 'm-all']);
    expect(await titles(visitor)).toEqual(['m-all']);
    expect(await unreadByType(db, ada)).toEqual(
      new Map([
        [1, 2],
        [2, 1],
      ]),
    );
    // Twice, and racing: one mark.
    await Promise.all([markRead(db, ada.recipient, ['m-all', 'm-plan'], 5), markRead(db, ada.recipient, ['m-all'], 6)]);
    expect(await titles(ada, { read: false })).toEqual(['m-ada']);
    expect(await titles(ada, { read: true, templateType: 2 })).toEqual(['m-plan']);
    expect((await receivedPage(db, ada, {}, 1, 1)).total).toBe(3);
    await markRead(db, visitor.recipient, ['m-all'], 7);
    expect((await allMessages(db)).map((m) => [m.id, m.read_count, m.created_at])).toEqual([
      ['m-ada', 0, 3_000],
      ['m-plan', 1, 2_000],
      ['m-all', 2, 1_000],
    ]);
    await deleteMessagesOf(db, 'acc-ada', ada.recipient);
    expect((await allMessages(db)).map((m) => [m.id, m.read_count])).toEqual([
      ['m-plan', 0],
      ['m-all', 1],
    ]);
    expect(await deleteMessage(db, 'm-all')).toBe(true);
    expect(await deleteMessage(db, 'm-all')).toBe(false);
    expect(await titles(visitor)).toEqual([]);
  });

  it.skipIf(!url)('closes the database', async () => {
    await db.destroy();
  });
});

describe('009_session_ids', () => {
  it('gives each session signed in before it an id of its own, and its start as its last use', async () => {
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(path.join(sqliteDir, 'before-009.db')) }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations as Record<string, Migration> } });
    expect((await migrator.migrateTo('008_operators')).error).toBeUndefined();
    const old = db as unknown as Kysely<{ sessions: { id: string; account_id: string; created_at: number; expires_at: number } }>;
    await old
      .insertInto('sessions')
      .values([
        { id: 'hash-1', account_id: 'a1', created_at: 1000, expires_at: 9000 },
        { id: 'hash-2', account_id: 'a1', created_at: 2000, expires_at: 9000 },
      ])
      .execute();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const rows = await db
      .selectFrom('sessions')
      .select(['id', 'public_id', 'device', 'created_at', 'last_used_at'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: 'hash-1', public_id: expect.stringMatching(/^[0-9a-f]{32}$/), device: '', created_at: 1000, last_used_at: 1000 },
      { id: 'hash-2', public_id: expect.stringMatching(/^[0-9a-f]{32}$/), device: '', created_at: 2000, last_used_at: 2000 },
    ]);
    expect(rows[0]!.public_id).not.toBe(rows[1]!.public_id);
    await db.destroy();
  });
});
