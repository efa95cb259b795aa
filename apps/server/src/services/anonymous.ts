// Anonymous visitors: a few runs a day, counted in the database per visitor and per address; and
// task/bind and file/bind, which move a visitor's work to the account it signs in to.
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { isIPv6 } from 'node:net';
import path from 'node:path';
import { ErrorCode, QuireError } from '@quire/contracts';
import type { AppContext } from '../context.js';
import { refusal } from '../texts/words.js';
import { giveBackRun, takeRun } from '../db/anonymousRunsRepo.js';
import { findOwnedFile, moveFiles } from '../db/filesRepo.js';
import type { FileTable, TaskTable } from '../db/schema.js';
import { moveTasks, ownedTasks } from '../db/tasksRepo.js';
import { newId } from '../ids.js';
import { toolById } from '../tools/registry.js';

/** A request of an anonymous visitor: its cookie's id and the address it came from. */
export interface AnonymousClient {
  visitorId: string;
  address: string;
}

/** A call naming a multi_id the visitor started this recently joins that run without counting… */
const RUN_JOIN_MS = 10 * 60_000;
/** …up to this many tasks (the web app sends one call per file of a batch). */
const MAX_TASKS_PER_RUN = 20;

export const utcDay = (now: number) => new Date(now).toISOString().slice(0, 10);

/**
 * The address a client is counted by. An IPv6 client by its /64: one subscriber's devices share
 * it, and a device can take a new address inside it at will.
 */
export function countedAddress(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (v4) return v4[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail] = ip.split('::');
  const before = head ? head.split(':') : [];
  const after = tail ? tail.split(':') : [];
  const groups = [...before, ...Array<string>(Math.max(0, 8 - before.length - after.length)).fill('0'), ...after];
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

const keys = new Map<string, Buffer>();

/**
 * The key of the client hashes: 32 random bytes in the data folder, made once (linked into place,
 * so processes starting together agree on one). Kept out of the database, so a copy of it alone
 * cannot test the 2^32 IPv4 addresses against its hashes.
 */
function hashKey(dataDir: string): Buffer {
  const known = keys.get(dataDir);
  if (known) return known;
  const file = path.join(dataDir, 'anonymous-runs.key');
  if (!fs.existsSync(file)) {
    const tmp = `${file}.${newId()}`;
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(tmp, randomBytes(32), { mode: 0o600 });
    try {
      fs.linkSync(tmp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    } finally {
      fs.rmSync(tmp, { force: true });
    }
  }
  const key = fs.readFileSync(file);
  keys.set(dataDir, key);
  return key;
}

const clientKey = (ctx: AppContext, client: string) => createHmac('sha256', hashKey(ctx.config.dataDir)).update(client).digest('hex');

/** The keyed hash an address (its /64 for IPv6) is kept under: the database never holds the address itself. */
export const addressKey = (ctx: AppContext, ip: string) => clientKey(ctx, `address:${countedAddress(ip)}`);

/**
 * Whether a task continues a session of its tool: a tool with sessions (the editor) run on files
 * that are outputs of its own earlier tasks. Output-as-file gives a file only to its task's owner,
 * so these are this visitor's own saves of one document; another tool's output still counts.
 */
const continuesSession = (toolId: string, inputs: readonly Pick<FileTable, 'source_tool'>[]) =>
  toolById(toolId)?.sessions === true && inputs.length > 0 && inputs.every((f) => f.source_tool === toolId);

/**
 * Lets an anonymous visitor start a task, or 4016 once its runs of the UTC day are used up, or
 * those of its address (several people behind one NAT: the allowance times QUIRE_RATE_IP_FACTOR).
 * A call that joins a run of several files (its multi_id, just started) is part of that run, and
 * an editor save on the file the visitor's previous save made is part of that editing session.
 */
export async function admitAnonymousTask(
  ctx: AppContext,
  client: AnonymousClient,
  task: Pick<TaskTable, 'tool' | 'multi_id' | 'created_at'>,
  inputs: readonly Pick<FileTable, 'source_tool'>[],
): Promise<void> {
  const limit = ctx.config.anonymousTasksPerDay;
  if (limit === 0 || continuesSession(task.tool, inputs)) return;
  const now = task.created_at;
  const run = await ownedTasks(ctx.db, client.visitorId, { multi_id: task.multi_id }, now);
  if (run.length > 0 && run.length < MAX_TASKS_PER_RUN && now - run[0]!.created_at < RUN_JOIN_MS) return;
  const day = utcDay(now);
  const words = limit === 1 ? 'error.limit.dailyTasks.one' : 'error.limit.dailyTasks.other';
  const refused = refusal(ErrorCode.DailyTaskLimit, words, { limit }, { upgrade: 'taskLimit', limit });
  const visitor = clientKey(ctx, `visitor:${client.visitorId}`);
  if (!(await takeRun(ctx.db, visitor, day, limit))) throw refused;
  if (!(await takeRun(ctx.db, addressKey(ctx, client.address), day, limit * ctx.config.ipRateFactor))) {
    await giveBackRun(ctx.db, visitor, day);
    throw refused;
  }
}

/** The files a task still reads: an unfinished one's inputs (a finished one's parameters are dropped). */
function inputsStillRead(task: TaskTable): string[] {
  const tool = toolById(task.tool);
  const params = tool?.params.safeParse(JSON.parse(task.params));
  if (!tool || !params?.success) return [];
  return tool.inputsOf(params.data as never).map((ref) => ref.fileId);
}

/**
 * Moves the visitor's task, or the tasks of a multi_id, to the account, with the files an
 * unfinished one still reads (in one transaction, so its worker finds them). Tasks the account
 * already has count as bound; 2405 when none is the visitor's or the account's.
 */
export async function bindTasks(
  ctx: AppContext,
  accountOwnerId: string,
  visitorId: string | undefined,
  q: { task_id?: string; multi_id?: string },
): Promise<{ task_ids: string[] }> {
  const now = Date.now();
  const visitors = visitorId ? await ownedTasks(ctx.db, visitorId, q, now) : [];
  const accounts = await ownedTasks(ctx.db, accountOwnerId, q, now);
  if (visitors.length + accounts.length === 0) throw new QuireError(ErrorCode.NoData);
  if (visitorId && visitors.length > 0) {
    await ctx.db.transaction().execute(async (trx) => {
      await moveFiles(trx, visitors.flatMap(inputsStillRead), visitorId, accountOwnerId);
      await moveTasks(
        trx,
        visitors.map((t) => t.id),
        visitorId,
        accountOwnerId,
      );
    });
  }
  return { task_ids: [...visitors, ...accounts].map((t) => t.id) };
}

/** Moves the visitor's uploaded files to the account; files it already has count as bound; 2405 if any is neither's. */
export async function bindFiles(
  ctx: AppContext,
  accountOwnerId: string,
  visitorId: string | undefined,
  fileIds: string[],
): Promise<{ file_ids: string[] }> {
  const now = Date.now();
  const owns = async (owner: string | undefined, fileId: string) => {
    const file = owner ? await findOwnedFile(ctx.db, owner, fileId) : undefined;
    return file !== undefined && file.expires_at > now;
  };
  const visitors: string[] = [];
  for (const id of fileIds) {
    if (await owns(visitorId, id)) visitors.push(id);
    else if (!(await owns(accountOwnerId, id))) throw new QuireError(ErrorCode.NoData);
  }
  if (visitorId) await moveFiles(ctx.db, visitors, visitorId, accountOwnerId);
  return { file_ids: fileIds };
}
