// The worker: claims queued tasks from the tasks table and runs their tool. Any number of worker
// processes may share one database; a lease that is not renewed hands the task back.
import fs from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, QuireError, errorMessages } from '@quire/contracts';
import type { AppContext } from '../context.js';
import type { TaskTable } from '../db/schema.js';
import { toolById } from '../tools/registry.js';
import { workBudgetOf } from '../tools/budget.js';
import type { ToolInput } from '../tools/tool.js';
import type { StoredOutput } from '../services/tasks.js';

export const LEASE_MS = 30_000;
/** A task whose worker died is tried once more, then failed clearly. */
export const MAX_ATTEMPTS = 2;
const POLL_MS = 1000;

/**
 * The next task to run, fairly between visitors: among visitors below their limit of running
 * tasks, the one with the fewest running, then the one served longest ago, then its oldest task.
 * So one visitor with many queued tasks cannot hold the workers while another waits.
 */
async function nextFairTask(ctx: AppContext): Promise<Pick<TaskTable, 'id' | 'owner_id'> | undefined> {
  const waiting = ctx.db.selectFrom('tasks').select('owner_id').where('state', '=', 'queued');
  const owners = ctx.db
    .selectFrom('tasks')
    .select((eb) => [
      'owner_id',
      eb.fn.sum<number>(eb.case().when('state', '=', 'running').then(1).else(0).end()).as('running'),
      eb.fn.max('started_at').as('last_started'),
    ])
    .where('owner_id', 'in', waiting)
    .groupBy('owner_id')
    .as('o');
  return ctx.db
    .selectFrom('tasks as t')
    .innerJoin(owners, 'o.owner_id', 't.owner_id')
    .select(['t.id', 't.owner_id'])
    .where('t.state', '=', 'queued')
    .where('o.running', '<', ctx.config.maxRunningPerOwner)
    .orderBy('o.running')
    .orderBy('o.last_started')
    .orderBy('t.created_at')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Claims the next task (nextFairTask), or nothing. The conditional update makes it safe when
 * several workers race: a task is claimed once, and not while its visitor is at the running limit.
 */
export async function claimTask(ctx: AppContext): Promise<TaskTable | undefined> {
  for (let tries = 0; tries < 5; tries++) {
    const next = await nextFairTask(ctx);
    if (!next) return undefined;
    const now = Date.now();
    const claimed = await ctx.db
      .updateTable('tasks')
      .set((eb) => ({ state: 'running', started_at: now, lease_until: now + LEASE_MS, attempts: eb('attempts', '+', 1) }))
      .where('id', '=', next.id)
      .where('state', '=', 'queued')
      .where((eb) =>
        eb(
          eb
            .selectFrom('tasks as r')
            .select((r) => r.fn.countAll<number>().as('n'))
            .where('r.owner_id', '=', next.owner_id)
            .where('r.state', '=', 'running'),
          '<',
          ctx.config.maxRunningPerOwner,
        ),
      )
      .returningAll()
      .executeTakeFirst();
    if (claimed) return claimed;
  }
  return undefined;
}

/** Running tasks whose lease ran out: their worker stopped. Requeue or fail them. */
export async function recoverAbandoned(ctx: AppContext, now = Date.now()) {
  await ctx.db
    .updateTable('tasks')
    .set({ state: 'queued', lease_until: 0 })
    .where('state', '=', 'running')
    .where('lease_until', '<', now)
    .where('attempts', '<', MAX_ATTEMPTS)
    .execute();
  await ctx.db
    .updateTable('tasks')
    .set({
      state: 'failed',
      error_code: ErrorCode.TaskFailed,
      error_msg: 'The task was interrupted. Please try again.',
      finished_at: now,
      params: '{}',
    })
    .where('state', '=', 'running')
    .where('lease_until', '<', now)
    .execute();
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
  for (const claim of claims) {
    await ctx.db
      .updateTable('tasks')
      .set({ lease_until: 0 })
      .where('id', '=', claim.id)
      .where('attempts', '=', claim.attempts)
      .where('state', '=', 'running')
      .execute();
  }
  await recoverAbandoned(ctx);
}

function failureOf(e: unknown): { code: number; msg: string } {
  if (e instanceof QuireError) return { code: e.code, msg: e.message };
  return { code: ErrorCode.TaskFailed, msg: errorMessages[ErrorCode.TaskFailed] };
}

export async function runTask(ctx: AppContext, task: TaskTable): Promise<void> {
  const workDir = path.join(ctx.scratchDir, WORK_DIR, workFolderName(task));
  const outputPrefix = `outputs/${task.id}`;
  let lastWrite = 0;
  let lastProgress = 0;
  const heartbeat = setInterval(() => {
    void ctx.db
      .updateTable('tasks')
      .set({ lease_until: Date.now() + LEASE_MS })
      .where('id', '=', task.id)
      .execute()
      .catch(() => {});
  }, LEASE_MS / 3);
  try {
    const tool = toolById(task.tool);
    if (!tool) throw new QuireError(ErrorCode.TaskFailed, `Unknown tool ${task.tool}`);
    const params = tool.params.parse(JSON.parse(task.params));
    const inputs: ToolInput[] = [];
    for (const ref of tool.inputsOf(params as never)) {
      const file = await ctx.db
        .selectFrom('files')
        .selectAll()
        .where('id', '=', ref.fileId)
        .where('owner_id', '=', task.owner_id)
        .executeTakeFirst();
      if (!file) throw new QuireError(ErrorCode.NoData);
      inputs.push({ path: await ctx.storage.localPath(file.storage_key), name: file.name, password: ref.password, pages: file.total_page });
    }
    await fs.rm(workDir, { recursive: true, force: true });
    await fs.mkdir(workDir, { recursive: true });
    const progress = (percent: number) => {
      const p = Math.max(lastProgress, Math.min(99, Math.round(percent)));
      if (p === lastProgress || Date.now() - lastWrite < 300) return;
      lastProgress = p;
      lastWrite = Date.now();
      void ctx.db
        .updateTable('tasks')
        .set({ progress: p })
        .where('id', '=', task.id)
        .execute()
        .catch(() => {});
    };
    const limits = { ...ctx.toolLimits, signal: AbortSignal.timeout(ctx.config.taskTimeoutMs) };
    const budget = workBudgetOf(ctx.config);
    const produced = await tool.run({ inputs, workDir, limits, office: ctx.office, progress, budget }, params as never);
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
        ...(out.note !== undefined && { note: out.note }),
        ...(out.inputSize !== undefined && { input_size: out.inputSize }),
        ...(out.unchanged && { unchanged: true }),
      });
    }
    // Nothing of the task is left in its work folder once its owner sees it finished.
    await fs.rm(workDir, { recursive: true, force: true });
    const now = Date.now();
    await ctx.db
      .updateTable('tasks')
      .set({
        state: 'done',
        progress: 100,
        outputs: JSON.stringify(outputs),
        params: '{}',
        finished_at: now,
        expires_at: now + ctx.config.retentionHours * 3600_000,
      })
      .where('id', '=', task.id)
      .execute();
  } catch (e) {
    const { code, msg } = failureOf(e);
    if (!(e instanceof QuireError)) console.error(`task ${task.id} (${task.tool}) failed:`, e);
    await ctx.storage.deletePrefix(outputPrefix).catch(() => {});
    await fs.rm(workDir, { recursive: true, force: true }).catch(() => {});
    await ctx.db
      .updateTable('tasks')
      .set({ state: 'failed', error_code: code, error_msg: msg, params: '{}', finished_at: Date.now() })
      .where('id', '=', task.id)
      .execute();
  } finally {
    clearInterval(heartbeat);
  }
}

/** Runs up to `concurrency` tasks at a time until stopped. */
export class Worker {
  private running = false;
  private active = new Set<Promise<void>>();
  private wake: (() => void) | null = null;
  private readonly onQueued = () => this.wake?.();

  constructor(private readonly ctx: AppContext) {}

  async start() {
    await recoverAbandoned(this.ctx);
    this.running = true;
    this.ctx.events.on('queued', this.onQueued);
    void this.loop();
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
      // A finished task may let a visitor at its running limit have the next one at once.
      const run = runTask(this.ctx, task).finally(() => {
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
    this.wake?.();
    await Promise.allSettled([...this.active]);
  }
}
