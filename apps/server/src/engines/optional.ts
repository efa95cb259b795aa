// Engine calls a tool can do without: the call's own time limit running out means "no result",
// while the task's deadline passing still fails the task.
import type { EngineLimits } from './qpdf.js';
import { EngineTimeout, tookTooLong } from './run.js';

/** Runs `step`; `fallback` when one of its engine calls timed out, 3125 when the whole task did. */
export async function optionalStep<T>(limits: EngineLimits, step: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await step();
  } catch (e) {
    if (!(e instanceof EngineTimeout)) throw e;
    if (limits.signal?.aborted) throw tookTooLong();
    return fallback;
  }
}
