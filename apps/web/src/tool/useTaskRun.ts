// Runs a tool call (or one call per file, grouped by one multi_id) and follows its tasks to the end.
import { useEffect, useRef, useState } from 'react';
import { fetchTaskEntries, outputLinks, pollTask, startTask, type TaskOutputLink } from '../api/tasks';
import { ApiError } from '../api/client';
import { sleep } from '../api/sleep';

export type RunState =
  | { phase: 'idle' }
  | { phase: 'running'; progress: number }
  | { phase: 'done'; outputs: TaskOutputLink[]; multiId: string };

/** A task of the run failed: `callIndex` is the call (and so the file) it was made for. */
export class TaskRunError extends ApiError {
  constructor(
    cause: ApiError,
    readonly callIndex: number,
  ) {
    super(cause.code, cause.message, cause.taskId);
  }
}

export interface ToolCall {
  path: string;
  body: unknown;
}

export function useTaskRun() {
  const [state, setState] = useState<RunState>({ phase: 'idle' });
  // Stops polling when the page is left.
  const lifetime = useRef<AbortController>(undefined);
  useEffect(() => () => lifetime.current?.abort(), []);

  /**
   * Starts the calls, the later ones in the first one's multi_id, and polls that multi_id: progress
   * is the average of the tasks. Resolves when all are done, rejects with an ApiError when one failed.
   */
  const run = async (calls: readonly ToolCall[]): Promise<void> => {
    lifetime.current?.abort();
    const controller = new AbortController();
    lifetime.current = controller;
    setState({ phase: 'running', progress: 0 });
    const taskIds: string[] = [];
    try {
      const [first, ...rest] = calls;
      if (!first) throw new Error('no call to run');
      const { multi_id, task_id } = await startTask(first.path, first.body as object);
      taskIds.push(task_id);
      for (const call of rest) taskIds.push((await startTask(call.path, { ...(call.body as object), multi_id })).task_id);
      const entries = await pollTask(
        {
          fetchEntries: () => fetchTaskEntries({ multi_id }, controller.signal),
          sleep: (ms) => sleep(ms, controller.signal),
          now: () => Date.now(),
        },
        (progress) => setState({ phase: 'running', progress }),
      );
      setState({ phase: 'done', outputs: outputLinks(entries), multiId: multi_id });
    } catch (e) {
      if (!controller.signal.aborted) setState({ phase: 'idle' });
      const failed = e instanceof ApiError && e.taskId ? taskIds.indexOf(e.taskId) : -1;
      throw failed >= 0 ? new TaskRunError(e as ApiError, failed) : e;
    }
  };

  const reset = () => {
    lifetime.current?.abort();
    setState({ phase: 'idle' });
  };

  return { state, run, reset };
}
