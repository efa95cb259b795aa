// Tool tasks: start one, then poll get-task-result until it is done.
import {
  ErrorCode,
  TASK_POLL_INTERVAL_MS,
  TASK_POLL_TIMEOUT_MS,
  type boundTasks,
  type deletedOutputs,
  type fileInfo,
  type taskCreated,
  taskEntry,
  type FileInfo,
  type TaskCreated,
  type TaskEntry,
} from '@quire/contracts';
import { ApiError, apiUrl, getJson, postJson, type Answer } from './client';

export type TaskSnapshot =
  | { kind: 'running'; progress: number }
  | { kind: 'done'; entries: TaskEntry[] }
  | { kind: 'failed'; error: ApiError };

/** Reads one poll answer: any non-zero status fails; progress is the average; done at 100 with all done. */
export function readTaskEntries(entries: readonly TaskEntry[]): TaskSnapshot {
  const failed = entries.find((e) => e.status !== 0);
  if (failed) return { kind: 'failed', error: new ApiError(failed.status, failed.msg, { taskId: failed.task_id }) };
  if (entries.length === 0) return { kind: 'running', progress: 0 };
  const progress = Math.round(entries.reduce((sum, e) => sum + e.progress, 0) / entries.length);
  if (progress === 100 && entries.every((e) => e.is_done)) return { kind: 'done', entries: [...entries] };
  return { kind: 'running', progress };
}

export interface PollDeps {
  fetchEntries(): Promise<TaskEntry[]>;
  sleep(ms: number): Promise<void>;
  now(): number;
}

/**
 * Polls every 2 s until done; fails on a task error or when the task has made no progress for
 * 120 s (a long task that is still advancing is not stalled).
 */
export async function pollTask(
  deps: PollDeps,
  onProgress: (percent: number) => void,
  { intervalMs = TASK_POLL_INTERVAL_MS, timeoutMs = TASK_POLL_TIMEOUT_MS } = {},
): Promise<TaskEntry[]> {
  let deadline = deps.now() + timeoutMs;
  let last = -1;
  for (;;) {
    const snapshot = readTaskEntries(await deps.fetchEntries());
    if (snapshot.kind === 'failed') throw snapshot.error;
    if (snapshot.kind === 'done') {
      onProgress(100);
      return snapshot.entries;
    }
    onProgress(snapshot.progress);
    if (snapshot.progress > last) {
      last = snapshot.progress;
      deadline = deps.now() + timeoutMs;
    }
    if (deps.now() + intervalMs > deadline) throw new ApiError(ErrorCode.Busy);
    await deps.sleep(intervalMs);
  }
}

/**
 * Queues a task with a POST and a JSON body, the converter too (the spec's GET would put the
 * file's password in the URL, which browsers, proxies and server logs keep).
 */
export function startTask(apiPath: string, body: object): Promise<TaskCreated> {
  // A whole path is another API's task call (the AI translator's translate/file).
  return postJson<Answer<typeof taskCreated>>(apiPath.startsWith('/') ? apiPath : apiUrl(apiPath), body);
}

export interface ToolCall {
  path: string;
  body: object;
}

/**
 * Makes the calls of one run, the later ones in the first one's multi_id; once `signal` is aborted
 * (the run was cancelled) the calls not yet made are left out. The run's multi_id and task ids.
 */
export async function startCalls(
  calls: readonly ToolCall[],
  signal: AbortSignal,
  start: typeof startTask = startTask,
): Promise<{ multiId: string; taskIds: string[] }> {
  const [first, ...rest] = calls;
  if (!first) throw new Error('no call to run');
  const { multi_id, task_id } = await start(first.path, first.body);
  const taskIds = [task_id];
  for (const call of rest) {
    if (signal.aborted) break;
    taskIds.push((await start(call.path, { ...call.body, multi_id })).task_id);
  }
  return { multiId: multi_id, taskIds };
}

const taskEntries = taskEntry.array();

/** Cancels every task of a run that has not finished; the server answers their states. */
export function cancelTasks(multiId: string): Promise<TaskEntry[]> {
  return postJson<Answer<typeof taskEntries>>(apiUrl('document/cancel-task'), { multi_id: multiId });
}

/** The entries of one task, or of every task sharing a multi_id. */
export function fetchTaskEntries(query: { task_id: string } | { multi_id: string }, signal?: AbortSignal): Promise<TaskEntry[]> {
  return getJson<Answer<typeof taskEntries>>(apiUrl('get-task-result', query), signal);
}

export interface TaskOutputLink {
  taskId: string;
  /** Which output of its task, when the task has several. */
  index?: number;
  name: string;
  size: number;
  url: string;
  /** The input's size, where the tool reports it to compare (compress). */
  inputSize?: number;
  /** Nothing could be gained: the output is the input as it was. */
  unchanged?: boolean;
  /** What the tool reports about the output, e.g. "3 replacements." */
  note?: string;
}

/** Download links for each output: a task with one output is fetched without an index. */
export function outputLinks(entries: readonly TaskEntry[]): TaskOutputLink[] {
  return entries.flatMap((entry) =>
    entry.outputs.map((out) => ({
      taskId: entry.task_id,
      ...(entry.outputs.length > 1 && { index: out.index }),
      name: out.name,
      size: out.size,
      url: apiUrl('document/download-doc', { task_id: entry.task_id, index: entry.outputs.length > 1 ? out.index : undefined }),
      ...(out.input_size !== undefined && { inputSize: out.input_size }),
      ...(out.unchanged && { unchanged: true }),
      ...(out.note !== undefined && { note: out.note }),
    })),
  );
}

export function bulkDownloadUrl(multiId: string): string {
  return apiUrl('download-doc-bulk', { multi_id: multiId });
}

/** Deletes the outputs of a run from the server now. */
export function deleteOutputs(multiId: string): Promise<unknown> {
  return postJson<Answer<typeof deletedOutputs>>(apiUrl('document/delete-outputs'), { multi_id: multiId });
}

/** The output registered as an upload of this visitor, for another tool to start on. */
export function outputAsFile(output: TaskOutputLink): Promise<FileInfo> {
  return postJson<Answer<typeof fileInfo>>(apiUrl('document/output-as-file'), { task_id: output.taskId, index: output.index });
}

/** Moves a run the visitor made before signing in to the account, whose outputs it may then download. */
export function bindRun(multiId: string): Promise<unknown> {
  return postJson<Answer<typeof boundTasks>>(apiUrl('task/bind'), { multi_id: multiId });
}
