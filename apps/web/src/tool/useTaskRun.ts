// Runs a tool call (or one call per file, grouped by one multi_id) and follows its tasks to the end.
import { useEffect, useRef, useState } from 'react';
import { cancelTasks, fetchTaskEntries, outputLinks, pollTask, startCalls, type TaskOutputLink, type ToolCall } from '../api/tasks';
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
    super(cause.code, cause.message, cause);
  }
}

export function useTaskRun() {
  const [state, setState] = useState<RunState>({ phase: 'idle' });
  // Stops polling when the page is left.
  const lifetime = useRef<AbortController>(undefined);
  useEffect(() => () => lifetime.current?.abort(), []);
  /** The run's multi_id once its calls are made; undefined if making them failed. */
  const started = useRef<Promise<string | undefined>>(undefined);

  /** Follows the run's tasks to their end, progress the average of the tasks; done shows the outputs. */
  const follow = async (multi_id: string, signal: AbortSignal): Promise<void> => {
    const entries = await pollTask(
      {
        fetchEntries: () => fetchTaskEntries({ multi_id }, signal),
        sleep: (ms) => sleep(ms, signal),
        now: () => Date.now(),
      },
      (progress) => setState({ phase: 'running', progress }),
    );
    setState({ phase: 'done', outputs: outputLinks(entries), multiId: multi_id });
  };

  const begin = () => {
    lifetime.current?.abort();
    const controller = new AbortController();
    lifetime.current = controller;
    return controller;
  };

  /**
   * Starts the calls, the later ones in the first one's multi_id, and polls that multi_id: progress
   * is the average of the tasks. Resolves when all are done, rejects with an ApiError when one failed.
   */
  const run = async (calls: readonly ToolCall[]): Promise<void> => {
    const controller = begin();
    setState({ phase: 'running', progress: 0 });
    const starting = startCalls(calls, controller.signal);
    started.current = starting.then(
      (s) => s.multiId,
      () => undefined,
    );
    let taskIds: string[] = [];
    try {
      const { multiId, taskIds: made } = await starting;
      taskIds = made;
      await follow(multiId, controller.signal);
    } catch (e) {
      // Stopped (cancelled, or the page left): whatever failed after that is no news.
      controller.signal.throwIfAborted();
      setState({ phase: 'idle' });
      const failed = e instanceof ApiError && e.taskId ? taskIds.indexOf(e.taskId) : -1;
      throw failed >= 0 ? new TaskRunError(e as ApiError, failed) : e;
    }
  };

  /**
   * Shows an earlier run again (a reload): followed to its end if still running. Rejects, the page
   * left idle, when the server no longer has it (2405 once its outputs expired) or it failed.
   */
  const resume = async (multiId: string): Promise<void> => {
    const controller = begin();
    started.current = Promise.resolve(multiId);
    try {
      await follow(multiId, controller.signal);
    } catch (e) {
      controller.signal.throwIfAborted();
      setState({ phase: 'idle' });
      throw e;
    }
  };

  const reset = () => {
    lifetime.current?.abort();
    setState({ phase: 'idle' });
  };

  /** Stops following the run at once and cancels its tasks on the server once they are made. */
  const cancel = async () => {
    reset();
    const multiId = await started.current;
    if (multiId) await cancelTasks(multiId);
  };

  return { state, run, resume, reset, cancel };
}
