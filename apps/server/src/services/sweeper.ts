// Deletes what has expired (retention: QUIRE_RETENTION_HOURS, 2 h by default) and hands back
// tasks whose worker died; at start, cleans up after processes that crashed.
import fs from 'node:fs/promises';
import path from 'node:path';
import os from 'node:os';
import { PROCESSES_DIR, processOfFolder, type AppContext } from '../context.js';
import { expiredFiles } from '../db/filesRepo.js';
import { deleteExpiredSignIns } from '../db/accountsRepo.js';
import { deleteRunsBefore } from '../db/anonymousRunsRepo.js';
import { expiredTasks } from '../db/tasksRepo.js';
import { expiredUploads } from '../db/uploadsRepo.js';
import { killRecordedEngines, processStartTime } from '../engines/processes.js';
import { claimOfWorkFolder, recoverAbandoned, releaseClaims, WORK_DIR } from '../queue/worker.js';
import { discardFile } from './files.js';
import { forgetOwnerAddressesBefore } from '../db/holdingsRepo.js';
import { discardTask } from './tasks.js';
import { discardUpload } from './uploads.js';
import { utcDay } from './anonymous.js';
import { sweepShares } from './shares.js';

export async function sweep(ctx: AppContext, now = ctx.now()) {
  await recoverAbandoned(ctx, now);
  const files = await expiredFiles(ctx.db, now);
  for (const f of files) await discardFile(ctx, f);
  const tasks = await expiredTasks(ctx.db, now);
  for (const t of tasks) await discardTask(ctx, t.id);
  const uploads = await expiredUploads(ctx.db, now);
  for (const u of uploads) await discardUpload(ctx, u.id);
  await sweepShares(ctx, now);
  await deleteExpiredSignIns(ctx.db, now);
  await deleteRunsBefore(ctx.db, utcDay(now));
  // What an owner added from an address is deleted by retention; a day more covers tasks that waited and ran long.
  await forgetOwnerAddressesBefore(ctx.db, now - ctx.config.retentionHours * 3600_000 - 86_400_000);
  // Joined uploads and stray temporaries older than a day are leftovers of a crash.
  const tmp = await fs.readdir(ctx.tmpDir).catch(() => [] as string[]);
  for (const name of tmp.filter((n) => n.endsWith('.joined'))) {
    const full = path.join(ctx.tmpDir, name);
    const stat = await fs.stat(full).catch(() => null);
    if (stat && now - stat.mtimeMs > 86_400_000) await fs.rm(full, { force: true });
  }
  return { files: files.length, tasks: tasks.length, uploads: uploads.length };
}

/** Where engine records are kept in a process's scratch folder (engines/processes.ts). */
export const ENGINES_DIR = 'engines';

/**
 * Run at start: for every process that used this data folder and is gone (a crash), kills the
 * engines it left running, hands back the tasks it was running, and removes its temporary files.
 * Folders of processes still running (other workers of a fleet, this one) or of other machines
 * sharing the folder are left alone.
 */
export async function cleanUpAfterCrashes(ctx: AppContext) {
  const root = path.join(ctx.tmpDir, PROCESSES_DIR);
  const folders = await fs.readdir(root).catch(() => [] as string[]);
  for (const name of folders) {
    const { host, pid, startTime } = processOfFolder(name);
    if (host !== os.hostname() || processStartTime(pid) === startTime) continue;
    const folder = path.join(root, name);
    killRecordedEngines(path.join(folder, ENGINES_DIR));
    const work = await fs.readdir(path.join(folder, WORK_DIR)).catch(() => [] as string[]);
    await releaseClaims(ctx, work.map(claimOfWorkFolder));
    await fs.rm(folder, { recursive: true, force: true });
  }
}

export function startSweeper(ctx: AppContext, everyMs = 60_000): () => void {
  const timer = setInterval(() => void sweep(ctx).catch((e) => console.error('sweep failed', e)), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
