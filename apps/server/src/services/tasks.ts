// Tasks: made from a validated tool call, run by a worker, read back by their owner.
import { ErrorCode, QuireError, errorMessages, type TaskCreated, type TaskEntry } from '@quire/contracts';
import type { AppContext } from '../context.js';
import type { Said, Words } from '../texts/words.js';
import type { FileTable, TaskTable } from '../db/schema.js';
import { cancelUnfinished, countQueued, deleteTask, insertTask, outputsOf, ownedTasks, unfinishedWork } from '../db/tasksRepo.js';
import { newId } from '../ids.js';
import { toolById } from '../tools/registry.js';
import { simpleWork, workBudgetOf } from '../tools/budget.js';
import { zipName } from '../tools/tool.js';
import { unlockedFile } from './files.js';
import { checkInputTypes } from './inputTypes.js';
import { admitAnonymousTask, type AnonymousClient } from './anonymous.js';
import { addressKey } from './clientKeys.js';
import { checkTaskLimits, type Limits } from './limits.js';
import { RateLimited } from './rateLimits.js';

/**
 * Counting queued tasks and adding one happen one call at a time in this process, so two calls
 * cannot both take the last place. (API processes sharing a database may each take one.)
 */
let admissions: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(admit: () => Promise<T>): Promise<T> {
  const result = admissions.then(admit);
  admissions = result.catch(() => {});
  return result;
}

/** Seconds an address over its queued work is asked to wait: about what a heavy task takes. */
const BUSY_ADDRESS_RETRY_S = 60;

/**
 * Queues `task` unless the service's or its visitor's queue is full (3500: try again later), or
 * its address's unfinished work would pass its bound (3500, HTTP 429: one address's many accounts
 * cannot fill the queue; an address with nothing unfinished may always ask one task), or an
 * anonymous visitor's runs of the day are used up (4016).
 */
async function enqueue(ctx: AppContext, task: TaskTable, inputs: FileTable[], anonymous: AnonymousClient | undefined): Promise<void> {
  await oneAtATime(async () => {
    const queued = await countQueued(ctx.db, task.owner_id);
    if (queued.all >= ctx.config.maxQueued || queued.owners >= ctx.config.maxQueuedPerOwner) throw new QuireError(ErrorCode.Busy);
    const maxWork = ctx.config.maxQueuedWorkPerAddress;
    // The instance's own tasks (the self-check) come from no address.
    const addressWork = maxWork > 0 && task.client_key ? await unfinishedWork(ctx.db, task.client_key) : 0;
    if (addressWork > 0 && addressWork + task.work > maxWork) throw new RateLimited(BUSY_ADDRESS_RETRY_S);
    if (anonymous) await admitAnonymousTask(ctx, anonymous, task, inputs);
    await insertTask(ctx.db, task);
  });
  ctx.events.queued();
}

export function firstIssue(error: { issues: { message: string; path: PropertyKey[] }[] }): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid parameters.';
  // The message alone: the catalogue's messages are shown to the visitor as they are.
  return issue.message;
}

/** Who asked for a task: the client's address, and whether it has no account (its tasks a day are limited). */
export interface TaskClient {
  address: string;
  anonymous: boolean;
}

/** `client`: the request's; none for the instance's own tasks (the self-check). */
export async function createTask(
  ctx: AppContext,
  ownerId: string,
  limits: Limits,
  toolId: string,
  body: unknown,
  client?: TaskClient,
): Promise<TaskCreated> {
  const tool = toolById(toolId);
  if (!tool) throw new QuireError(ErrorCode.NoData);
  const parsed = tool.params.safeParse(body);
  if (!parsed.success) throw new QuireError(ErrorCode.InvalidParams, firstIssue(parsed.error));
  const params = parsed.data;
  const files = [];
  for (const ref of tool.inputsOf(params as never)) files.push(await unlockedFile(ctx, ownerId, ref.fileId, ref.password));
  await checkInputTypes(ctx, typeof tool.accepts === 'function' ? tool.accepts(params as never) : tool.accepts, files);
  checkTaskLimits(
    limits,
    files.map((f) => ({ size: f.size, pages: f.total_page })),
    tool.usesOcr?.(params as never) ?? false,
  );
  tool.check?.(
    params as never,
    files.map((f) => f.total_page),
    limits.maxPages,
  );
  const facts = files.map((f) => ({ pages: f.total_page, pageWidth: f.page_w, pageHeight: f.page_h }));
  const work = tool.work ? tool.work(params as never, facts, workBudgetOf(ctx.config)) : simpleWork(facts);

  const now = Date.now();
  const task: TaskTable = {
    id: newId(),
    multi_id: (params as { multi_id?: string }).multi_id ?? newId(),
    owner_id: ownerId,
    tool: tool.id,
    params: JSON.stringify(params),
    state: 'queued',
    progress: 0,
    error_code: 0,
    error_msg: '',
    attempts: 0,
    outputs: '[]',
    lease_until: 0,
    created_at: now,
    started_at: 0,
    finished_at: 0,
    expires_at: now + ctx.config.retentionHours * 3600_000,
    client_key: client ? addressKey(ctx, client.address) : '',
    work,
  };
  await enqueue(ctx, task, files, client?.anonymous ? { visitorId: ownerId, address: client.address } : undefined);
  const named = tool.downloadName?.(
    params as never,
    files.map((f) => ({ name: f.name, pages: f.total_page })),
  );
  return { task_id: task.id, multi_id: task.multi_id, ...(named !== undefined && { output_file_name: named }) };
}

/**
 * One output keeps its name; several are offered as one zip named after the input they came
 * from ("160F-2019.pdf" split gives "160F-2019.zip"). Output names cannot tell where the input's
 * own name ends and the page label begins, so the input's is recorded with them.
 */
export function downloadName(task: TaskTable): string {
  const outputs = outputsOf(task);
  if (outputs.length === 1) return outputs[0]!.name;
  return zipName(outputs[0]?.source ?? outputs[0]?.name ?? 'quire');
}

/** The task as get-task-result answers it, a failure's message in `words`' language. */
export function toTaskEntry(task: TaskTable, words: Words): TaskEntry {
  const failed = task.state === 'failed';
  return {
    task_id: task.id,
    multi_id: task.multi_id,
    tool: task.tool,
    status: failed ? task.error_code || ErrorCode.TaskFailed : 0,
    msg: failed ? failureMessage(task, words) : 'success',
    progress: task.state === 'done' ? 100 : task.progress,
    // A failed task is finished too: a client polling is_done alone stops, and reads why in status.
    is_done: failed || task.state === 'done',
    output_file_name: task.state === 'done' ? downloadName(task) : '',
    outputs: outputsOf(task).map(({ key: _key, source: _source, note_said, ...output }) => ({
      ...output,
      ...(note_said && { note: words.t((note_said as Said).key, (note_said as Said).params) }),
    })),
  };
}

function failureMessage(task: TaskTable, words: Words): string {
  const said = task.error_said ? (JSON.parse(task.error_said) as Said) : undefined;
  return words.message({ code: task.error_code, message: task.error_msg, ...(said && { said }) });
}

export async function taskResults(
  ctx: AppContext,
  ownerId: string,
  q: { task_id?: string; multi_id?: string },
  words: Words,
): Promise<TaskEntry[]> {
  const rows = await ownedTasks(ctx.db, ownerId, q, Date.now());
  if (rows.length === 0) throw new QuireError(ErrorCode.NoData);
  return rows.map((task) => toTaskEntry(task, words));
}

/**
 * Cancels the owner's task, or every task of a multi_id, that has not finished: a queued one never
 * runs; a running one fails at once with 3127 and its worker, in this process or another, kills
 * its engines and removes what it made within about a second. Finished tasks keep their state.
 */
export async function cancelTasks(ctx: AppContext, ownerId: string, q: { task_id?: string; multi_id?: string }): Promise<void> {
  const rows = await ownedTasks(ctx.db, ownerId, q, Date.now());
  if (rows.length === 0) throw new QuireError(ErrorCode.NoData);
  const ids = rows.map((t) => t.id);
  await cancelUnfinished(ctx.db, ids, { code: ErrorCode.Cancelled, msg: errorMessages[ErrorCode.Cancelled] }, Date.now());
  ctx.events.cancelled(ids);
}

/** A task and its outputs, gone: on request, or when its time is up. */
export async function discardTask(ctx: AppContext, taskId: string): Promise<void> {
  await ctx.storage.deletePrefix(`outputs/${taskId}`);
  await deleteTask(ctx.db, taskId);
}

export async function finishedTasks(ctx: AppContext, ownerId: string, q: { task_id?: string; multi_id?: string }): Promise<TaskTable[]> {
  const rows = await ownedTasks(ctx.db, ownerId, q, Date.now(), true);
  if (rows.length === 0) throw new QuireError(ErrorCode.NoData);
  return rows;
}
