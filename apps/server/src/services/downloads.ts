// Sends stored files: an upload, one task output, or a zip of many.
import path from 'node:path';
import yazl from 'yazl';
import type { FastifyReply } from 'fastify';
import { ErrorCode, QuireError } from '@quire/contracts';
import type { AppContext } from '../context.js';
import { outputsOf, type StoredOutput } from '../db/tasksRepo.js';
import { finishedTasks, downloadName } from './tasks.js';
import { ownedFile } from './files.js';
import { attachmentDisposition, safeFileName } from './fileNames.js';

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
    .header('content-disposition', attachmentDisposition(name))
    .send(ctx.storage.read(key));
}

/** A name not yet in `used` (compared as unzip on a case-insensitive disk would): "a.pdf", "a (2).pdf"… */
function uniqueEntry(name: string, used: Set<string>): string {
  const ext = path.extname(name);
  let entry = name;
  for (let n = 2; used.has(entry.toLowerCase()); n++) entry = `${path.basename(name, ext)} (${n})${ext}`;
  used.add(entry.toLowerCase());
  return entry;
}

/** Zips outputs; a name repeated across tasks gets " (2)", " (3)"… so nothing is overwritten. */
async function sendZip(ctx: AppContext, reply: FastifyReply, outputs: StoredOutput[], name: string) {
  const zip = new yazl.ZipFile();
  const used = new Set<string>();
  for (const out of outputs) zip.addReadStream(ctx.storage.read(out.key), uniqueEntry(safeFileName(out.name), used), { compress: false });
  zip.end();
  return reply.header('content-type', 'application/zip').header('content-disposition', attachmentDisposition(name)).send(zip.outputStream);
}

export async function sendUpload(ctx: AppContext, reply: FastifyReply, ownerId: string, fileId: string) {
  const row = await ownedFile(ctx, ownerId, fileId);
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
