// Deletes what has expired (retention: QUIRE_RETENTION_HOURS, 2 h by default) and hands back
// tasks whose worker died.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../context.js';
import { deleteFile, expiredFiles } from '../db/filesRepo.js';
import { deleteTask, expiredTasks } from '../db/tasksRepo.js';
import { expiredUploads } from '../db/uploadsRepo.js';
import { recoverAbandoned } from '../queue/worker.js';
import { discardUpload } from './uploads.js';

export async function sweep(ctx: AppContext, now = Date.now()) {
  await recoverAbandoned(ctx, now);
  const files = await expiredFiles(ctx.db, now);
  for (const f of files) {
    await ctx.storage.delete(f.storage_key);
    await deleteFile(ctx.db, f.id);
  }
  const tasks = await expiredTasks(ctx.db, now);
  for (const t of tasks) {
    await ctx.storage.deletePrefix(`outputs/${t.id}`);
    await deleteTask(ctx.db, t.id);
  }
  const uploads = await expiredUploads(ctx.db, now);
  for (const u of uploads) await discardUpload(ctx, u.id);
  // Joined uploads and stray temporaries older than a day are leftovers of a crash.
  const tmp = await fs.readdir(ctx.tmpDir).catch(() => [] as string[]);
  for (const name of tmp.filter((n) => n.endsWith('.joined'))) {
    const full = path.join(ctx.tmpDir, name);
    const stat = await fs.stat(full).catch(() => null);
    if (stat && now - stat.mtimeMs > 86_400_000) await fs.rm(full, { force: true });
  }
  return { files: files.length, tasks: tasks.length, uploads: uploads.length };
}

export function startSweeper(ctx: AppContext, everyMs = 60_000): () => void {
  const timer = setInterval(() => void sweep(ctx).catch((e) => console.error('sweep failed', e)), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
