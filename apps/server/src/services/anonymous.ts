// Anonymous visitors: a few runs a day, counted in the database per visitor and per address; and
// task/bind and file/bind, which move a visitor's work to the account it signs in to.
import { ErrorCode, QuireError } from '@quire/contracts';
import type { AppContext } from '../context.js';
import { refusal } from '../texts/words.js';
import { giveBackRun, takeRun } from '../db/anonymousRunsRepo.js';
import { findOwnedFile, moveFiles } from '../db/filesRepo.js';
import type { FileTable, TaskTable } from '../db/schema.js';
import { moveTasks, ownedTasks } from '../db/tasksRepo.js';
import { addressKey, clientKey } from './clientKeys.js';
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
  const day = utcDay(now);
  const run = await ownedTasks(ctx.db, client.visitorId, { multi_id: task.multi_id }, now);
  // The tasks a run made are counted, not those still kept: deleting outputs gives no place back.
  const joins = clientKey(ctx, `run:${client.visitorId}:${task.multi_id}`);
  if (run.length > 0 && now - run[0]!.created_at < RUN_JOIN_MS && (await takeRun(ctx.db, joins, day, MAX_TASKS_PER_RUN - 1))) return;
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
