// Sends stored files: an upload, one task output, or a zip of many.
import path from 'node:path';
import yazl from 'yazl';
import type { FastifyReply } from 'fastify';
import { ErrorCode, QuireError } from '@quire/contracts';
import type { AppContext } from '../context.js';
import { outputsOf, type StoredOutput } from '../db/tasksRepo.js';
import { finishedTasks, downloadName } from './tasks.js';
import { unlockedFile } from './files.js';

function disposition(name: string) {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const contentType = (name: string) =>
  path.extname(name).toLowerCase() === '.pdf'
    ? 'application/pdf'
    : path.extname(name).toLowerCase() === '.zip'
      ? 'application/zip'
      : 'application/octet-stream';

async function sendStored(ctx: AppContext, reply: FastifyReply, key: string, name: string) {
  const size = await ctx.storage.size(key);
  return reply
    .header('content-type', contentType(name))
    .header('content-length', size)
    .header('content-disposition', disposition(name))
    .send(ctx.storage.read(key));
}

/** Zips outputs; names repeated across tasks get " (2)", " (3)"… so nothing is overwritten. */
async function sendZip(ctx: AppContext, reply: FastifyReply, outputs: StoredOutput[], name: string) {
  const zip = new yazl.ZipFile();
  const used = new Map<string, number>();
  for (const out of outputs) {
    const n = (used.get(out.name) ?? 0) + 1;
    used.set(out.name, n);
    const ext = path.extname(out.name);
    const entry = n === 1 ? out.name : `${path.basename(out.name, ext)} (${n})${ext}`;
    zip.addReadStream(ctx.storage.read(out.key), entry, { compress: false });
  }
  zip.end();
  return reply.header('content-type', 'application/zip').header('content-disposition', disposition(name)).send(zip.outputStream);
}

export async function sendUpload(ctx: AppContext, reply: FastifyReply, ownerId: string, fileId: string, password?: string) {
  const row = await unlockedFile(ctx, ownerId, fileId, password);
  return sendStored(ctx, reply, row.storage_key, row.name);
}

export async function sendTaskOutput(ctx: AppContext, reply: FastifyReply, ownerId: string, taskId: string, index?: number) {
  const [task] = await finishedTasks(ctx, ownerId, { task_id: taskId });
  const outputs = outputsOf(task!);
  if (index !== undefined) {
    const one = outputs.find((o) => o.index === index);
    if (!one) throw new QuireError(ErrorCode.NoData);
    return sendStored(ctx, reply, one.key, one.name);
  }
  if (outputs.length === 1) return sendStored(ctx, reply, outputs[0]!.key, outputs[0]!.name);
  return sendZip(ctx, reply, outputs, downloadName(task!));
}

export async function sendBulk(ctx: AppContext, reply: FastifyReply, ownerId: string, multiId: string) {
  const tasks = await finishedTasks(ctx, ownerId, { multi_id: multiId });
  return sendZip(ctx, reply, tasks.flatMap(outputsOf), 'quire-files.zip');
}
