// Tasks: made from a validated tool call, run by a worker, read back by their owner.
import path from 'node:path';
import { ErrorCode, QuireError, type TaskCreated, type TaskEntry } from '@quire/contracts';
import type { AppContext } from '../context.js';
import type { TaskTable } from '../db/schema.js';
import { countQueued, insertTask, outputsOf, ownedTasks } from '../db/tasksRepo.js';
import { newId } from '../ids.js';
import { toolById } from '../tools/registry.js';
import { unlockedFile } from './files.js';
import { checkInputTypes } from './inputTypes.js';

/** More queued tasks than this and new ones are refused with 3500 rather than waiting for ever. */
const MAX_QUEUED = 500;

export function firstIssue(error: { issues: { message: string; path: PropertyKey[] }[] }): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid parameters.';
  return issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}

export async function createTask(ctx: AppContext, ownerId: string, toolId: string, body: unknown): Promise<TaskCreated> {
  const tool = toolById(toolId);
  if (!tool) throw new QuireError(ErrorCode.NoData);
  const parsed = tool.params.safeParse(body);
  if (!parsed.success) throw new QuireError(ErrorCode.InvalidParams, firstIssue(parsed.error));
  const params = parsed.data;
  const files = [];
  for (const ref of tool.inputsOf(params as never)) files.push(await unlockedFile(ctx, ownerId, ref.fileId, ref.password));
  await checkInputTypes(ctx, typeof tool.accepts === 'function' ? tool.accepts(params as never) : tool.accepts, files);
  tool.check?.(
    params as never,
    files.map((f) => f.total_page),
  );

  if ((await countQueued(ctx.db)) >= MAX_QUEUED) throw new QuireError(ErrorCode.Busy);

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
    finished_at: 0,
    expires_at: now + ctx.config.retentionHours * 3600_000,
  };
  await insertTask(ctx.db, task);
  ctx.events.queued();
  return { task_id: task.id, multi_id: task.multi_id };
}

/** One output keeps its name; several are offered as one zip named after the first. */
export function downloadName(task: TaskTable): string {
  const outputs = outputsOf(task);
  if (outputs.length === 1) return outputs[0]!.name;
  const first = outputs[0]?.name ?? 'quire';
  return `${path.basename(first, path.extname(first)).replace(/-[\d-]+$/, '')}.zip`;
}

export function toTaskEntry(task: TaskTable): TaskEntry {
  const failed = task.state === 'failed';
  return {
    task_id: task.id,
    multi_id: task.multi_id,
    tool: task.tool,
    status: failed ? task.error_code || ErrorCode.TaskFailed : 0,
    msg: failed ? task.error_msg : 'success',
    progress: task.state === 'done' ? 100 : task.progress,
    is_done: task.state === 'done',
    output_file_name: task.state === 'done' ? downloadName(task) : '',
    outputs: outputsOf(task).map(({ key: _key, ...output }) => output),
  };
}

export async function taskResults(ctx: AppContext, ownerId: string, q: { task_id?: string; multi_id?: string }): Promise<TaskEntry[]> {
  const rows = await ownedTasks(ctx.db, ownerId, q, Date.now());
  if (rows.length === 0) throw new QuireError(ErrorCode.NoData);
  return rows.map(toTaskEntry);
}

export async function finishedTasks(ctx: AppContext, ownerId: string, q: { task_id?: string; multi_id?: string }): Promise<TaskTable[]> {
  const rows = await ownedTasks(ctx.db, ownerId, q, Date.now(), true);
  if (rows.length === 0) throw new QuireError(ErrorCode.NoData);
  return rows;
}
