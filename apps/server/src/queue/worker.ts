// The worker: claims queued tasks from the tasks table and runs their tool. Any number of worker
// processes may share one database; a lease that is not renewed hands the task back.
import fs from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, QuireError, errorMessages, type ToolParams } from '@quire/contracts';
import type { AppContext } from '../context.js';
import type { TaskTable } from '../db/schema.js';
import { isDatabaseUnavailable } from '../db/connect.js';
import { findOwnedFile } from '../db/filesRepo.js';
import { asUploadedKey } from '../storage/storage.js';
import { countSigning } from '../db/signaturesRepo.js';
import {
  claimQueued,
  failTask,
  finishTask,
  expireClaim,
  lostClaims,
  nextFairTask,
  recoverLapsed,
  renewLease,
  setProgress,
  type StoredOutput,
} from '../db/tasksRepo.js';
import { toolById } from '../tools/registry.js';
import { inEnglish, WordedError } from '../texts/words.js';
import type { TaskFailure } from '../db/tasksRepo.js';
import { workBudgetOf } from '../tools/budget.js';
import { runTool, type ToolInput } from '../tools/tool.js';

export const LEASE_MS = 30_000;
/** A task whose worker died is tried once more, then failed clearly. */
export const MAX_ATTEMPTS = 2;
const POLL_MS = 1000;
/** How often a worker asks the table whether the tasks it runs were cancelled by another process. */
const CANCEL_POLL_MS = 1000;

/**
 * Claims the next task fairly between addresses and visitors (nextFairTask), or nothing. The
 * conditional update makes it safe when several workers race: a task is claimed once, and not
 * while its visitor or its address is at its running limit.
 */
export async function claimTask(ctx: AppContext): Promise<TaskTable | undefined> {
  const limits = { perOwner: ctx.config.maxRunningPerOwner, perAddress: ctx.config.maxRunningPerAddress };
  for (let tries = 0; tries < 5; tries++) {
    const next = await nextFairTask(ctx.db, limits);
    if (!next) return undefined;
    const now = Date.now();
    const claimed = await claimQueued(ctx.db, next, now, now + LEASE_MS, limits);
    if (claimed) return claimed;
  }
  return undefined;
}

/** Running tasks whose lease ran out: their worker stopped. Requeue or fail them. */
export async function recoverAbandoned(ctx: AppContext, now = Date.now()) {
  await recoverLapsed(ctx.db, now, MAX_ATTEMPTS, { code: ErrorCode.TaskFailed, msg: 'The task was interrupted. Please try again.' });
}

/** In a process's scratch folder: one folder per task it runs. */
export const WORK_DIR = 'work';
/** The task and its attempt, so a crash's leftovers name exactly the claim that was lost. */
const workFolderName = (task: Pick<TaskTable, 'id' | 'attempts'>) => `${task.id}-${task.attempts}`;
export function claimOfWorkFolder(name: string): { id: string; attempts: number } {
  const dash = name.lastIndexOf('-');
  return { id: name.slice(0, dash), attempts: Number(name.slice(dash + 1)) };
}

/**
 * Hands back at once tasks a dead process was running (the claims its work folders name): they
 * are retried or failed as if their lease had run out.
 */
export async function releaseClaims(ctx: AppContext, claims: { id: string; attempts: number }[]) {
  for (const claim of claims) await expireClaim(ctx.db, claim);
  await recoverAbandoned(ctx);
}

/**
 * Hands the claimed task back as soon as the database answers again, trying each second for as long
 * as its lease would hold it; past that the sweeper hands it back as a lapsed one.
 */
async function handBackWhenAnswering(ctx: AppContext, task: TaskTable): Promise<void> {
  for (const end = Date.now() + LEASE_MS; ; ) {
    try {
      return await releaseClaims(ctx, [task]);
    } catch (e) {
      if (!isDatabaseUnavailable(e)) throw e;
      if (Date.now() > end) return;
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
}

function failureOf(e: unknown): TaskFailure {
  if (e instanceof WordedError) return { code: e.code, msg: e.message, said: e.said };
  if (e instanceof QuireError) return { code: e.code, msg: e.message };
  return { code: ErrorCode.TaskFailed, msg: errorMessages[ErrorCode.TaskFailed] };
}

/**
 * Runs the claimed `task`. `stopped` aborts when it is cancelled (or its claim lost): its engines
 * are killed, what it made is removed, and the row keeps the state the canceller gave it.
 */
export async function runTask(ctx: AppContext, task: TaskTable, stopped: AbortSignal): Promise<void> {
  const workDir = path.join(ctx.scratchDir, WORK_DIR, workFolderName(task));
  const outputPrefix = `outputs/${task.id}`;
  let lastWrite = 0;
  let lastProgress = 0;
  const heartbeat = setInterval(() => {
    void renewLease(ctx.db, task.id, Date.now() + LEASE_MS).catch(() => {});
  }, LEASE_MS / 3);
  const models = ctx.taskModels(task.owner_id);
  try {
    const tool = toolById(task.tool);
    if (!tool) throw new QuireError(ErrorCode.TaskFailed, `Unknown tool ${task.tool}`);
    const params = tool.params.parse(JSON.parse(task.params));
    const inputs: ToolInput[] = [];
    for (const ref of tool.inputsOf(params as never)) {
      const file = await findOwnedFile(ctx.db, task.owner_id, ref.fileId);
      if (!file) throw new QuireError(ErrorCode.NoData);
      const stored = await ctx.storage.localPath(file.storage_key);
      const asUploaded = file.repaired === 1 ? { asUploaded: await ctx.storage.localPath(asUploadedKey(file.storage_key)) } : {};
      inputs.push({ path: stored, name: file.name, password: ref.password, pages: file.total_page, ...asUploaded });
    }
    await fs.rm(workDir, { recursive: true, force: true });
    await fs.mkdir(workDir, { recursive: true });
    const progress = (percent: number) => {
      const p = Math.max(lastProgress, Math.min(99, Math.round(percent)));
      if (p === lastProgress || Date.now() - lastWrite < 300) return;
      lastProgress = p;
      lastWrite = Date.now();
      void setProgress(ctx.db, task.id, p).catch(() => {});
    };
    const limits = { ...ctx.toolLimits, signal: AbortSignal.any([AbortSignal.timeout(ctx.config.taskTimeoutMs), stopped]) };
    const budget = workBudgetOf(ctx.config);
    const produced = await runTool(
      tool,
      {
        inputs,
        workDir,
        limits,
        office: ctx.office,
        progress,
        budget,
        modelFor: models.modelFor,
        signingCertificate: ctx.config.signingCertificate,
        timestampAuthority: ctx.config.timestampAuthority,
      },
      params as never,
    );
    const outputs: StoredOutput[] = [];
    for (const [index, out] of produced.entries()) {
      const key = `${outputPrefix}/${index}${path.extname(out.name)}`;
      const size = (await fs.stat(out.path)).size;
      await ctx.storage.putFile(key, out.path);
      outputs.push({
        index,
        name: out.name,
        source: inputs[0]?.name,
        size,
        key,
        ...(out.note && { note: inEnglish(out.note), note_said: out.note }),
        ...(out.inputSize !== undefined && { input_size: out.inputSize }),
        ...(out.unchanged && { unchanged: true }),
      });
    }
    // Nothing of the task is left in its work folder once its owner sees it finished.
    await fs.rm(workDir, { recursive: true, force: true });
    const now = Date.now();
    // Cancelled while its outputs were being stored: they go with it.
    if (!(await finishTask(ctx.db, task, outputs, now, now + ctx.config.retentionHours * 3600_000)))
      await ctx.storage.deletePrefix(outputPrefix);
    // sign-times: how many signing tasks, and marks, an owner had done (kept past the tasks' retention).
    else if (task.tool === 'sign') await countSigning(ctx.db, task.owner_id, (params as ToolParams<'sign'>).placements.length);
  } catch (e) {
    if (!(e instanceof QuireError) && !stopped.aborted) console.error(`task ${task.id} (${task.tool}) failed:`, e);
    await ctx.storage.deletePrefix(outputPrefix).catch(() => {});
    await fs.rm(workDir, { recursive: true, force: true }).catch(() => {});
    // The database away is no fault of the task: it is handed back to run again once it answers.
    if (isDatabaseUnavailable(e)) {
      console.error(`task ${task.id} (${task.tool}) stopped: the database is unavailable`);
      void handBackWhenAnswering(ctx, task).catch((err: unknown) => console.error(`task ${task.id} not handed back:`, err));
    } else await failTask(ctx.db, task, failureOf(e), Date.now());
    // A failed task's owner has nothing of its model's answers; a cancelled one's pays what was computed before the stop.
    if (!stopped.aborted) await models.refund().catch((err: unknown) => console.error(`task ${task.id}: tokens not given back`, err));
  } finally {
    clearInterval(heartbeat);
  }
}

/** Runs up to `concurrency` tasks at a time until stopped. */
export class Worker {
  private running = false;
  private active = new Set<Promise<void>>();
  /** The tasks in hand, each with what stops it. */
  private readonly inHand = new Map<string, { claim: TaskTable; stop: AbortController }>();
  private wake: (() => void) | null = null;
  private watch: NodeJS.Timeout | undefined;
  private readonly onQueued = () => this.wake?.();
  private readonly onCancelled = (taskIds: string[]) => {
    for (const id of taskIds) this.inHand.get(id)?.stop.abort();
  };

  constructor(private readonly ctx: AppContext) {}

  async start() {
    await recoverAbandoned(this.ctx);
    this.running = true;
    this.ctx.events.on('queued', this.onQueued);
    this.ctx.events.on('cancelled', this.onCancelled);
    // A task cancelled through another process's API is found in the table.
    this.watch = setInterval(() => void this.stopLostClaims().catch((e) => console.error('cancel check failed', e)), CANCEL_POLL_MS);
    void this.loop();
  }

  private async stopLostClaims() {
    const lost = await lostClaims(
      this.ctx.db,
      [...this.inHand.values()].map((t) => t.claim),
    );
    this.onCancelled(lost);
  }

  private async loop() {
    while (this.running) {
      if (this.active.size >= this.ctx.config.workerConcurrency) {
        await Promise.race(this.active);
        continue;
      }
      const task = await claimTask(this.ctx).catch((e) => {
        console.error('claim failed', e);
        return undefined;
      });
      if (!task) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, POLL_MS);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = null;
        continue;
      }
      const stop = new AbortController();
      this.inHand.set(task.id, { claim: task, stop });
      // A finished task may let a visitor at its running limit have the next one at once.
      // A task that cannot even be recorded as failed (the database gone meanwhile) is handed back by its lease.
      const run = runTask(this.ctx, task, stop.signal)
        .catch((e: unknown) => console.error(`task ${task.id} not recorded:`, e))
        .finally(() => {
          this.inHand.delete(task.id);
          this.active.delete(run);
          this.wake?.();
        });
      this.active.add(run);
    }
  }

  /** Stops claiming and waits for the tasks in hand to finish. */
  async stop() {
    this.running = false;
    this.ctx.events.off('queued', this.onQueued);
    this.ctx.events.off('cancelled', this.onCancelled);
    clearInterval(this.watch);
    this.wake?.();
    await Promise.allSettled([...this.active]);
  }
}
