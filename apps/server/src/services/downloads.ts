// Sends stored files: an upload, one task output, or a zip of many.
import path from 'node:path';
import yazl from 'yazl';
import type { FastifyReply } from 'fastify';
import { ErrorCode, QuireError, type FileInfo } from '@quire/contracts';
import type { AppContext } from '../context.js';
import type { ByteRange } from '../storage/storage.js';
import { outputsOf, type StoredOutput } from '../db/tasksRepo.js';
import type { TaskTable } from '../db/schema.js';
import { outputName } from '../tools/tool.js';
import { discardTask, finishedTasks, downloadName } from './tasks.js';
import { acceptStored, ownedFile } from './files.js';
import { isAccountOwner } from './accounts.js';
import type { FileLimits } from './limits.js';
import { attachmentDisposition, safeFileName } from './fileNames.js';

const CONTENT_TYPES: Record<string, string> = { '.pdf': 'application/pdf', '.zip': 'application/zip', '.png': 'image/png' };
const contentType = (name: string) => CONTENT_TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream';

/**
 * The one range of a `Range: bytes=…` header ("a-b", "a-", "-n") within a file of `size` bytes, or
 * null: no header, several ranges, or none that fits, and the whole file is sent (as HTTP allows).
 */
function byteRange(header: string | undefined, size: number): ByteRange | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!m || (!m[1] && !m[2])) return null;
  const range = m[1]
    ? { start: Number(m[1]), end: m[2] ? Math.min(Number(m[2]), size - 1) : size - 1 }
    : { start: Math.max(0, size - Number(m[2])), end: size - 1 };
  return range.start <= range.end && range.start < size ? range : null;
}

/** Stored bytes sent as a download named `name`, one range of them when the request asks. */
export async function sendStored(ctx: AppContext, reply: FastifyReply, key: string, name: string, rangeHeader?: string) {
  const size = await ctx.storage.size(key);
  const range = byteRange(rangeHeader, size);
  reply.header('content-type', contentType(name)).header('content-disposition', attachmentDisposition(name));
  if (!range) return reply.header('content-length', size).send(ctx.storage.read(key));
  return reply
    .code(206)
    .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
    .header('content-length', range.end - range.start + 1)
    .send(ctx.storage.read(key, range));
}

/** A name not yet in `used` (compared as unzip on a case-insensitive disk would): "a.pdf", "a (2).pdf"… */
function uniqueEntry(name: string, used: Set<string>): string {
  const ext = path.extname(name);
  let entry = name;
  for (let n = 2; used.has(entry.toLowerCase()); n++) entry = `${path.basename(name, ext)} (${n})${ext}`;
  used.add(entry.toLowerCase());
  return entry;
}

/** A stored file in a zip: `path` is its name there, with its folders ("a/b/c.pdf"); a folder's ends with "/" and has no key. */
export interface ZipEntry {
  key?: string;
  path: string;
}

/** Sends a zip of the entries; a path repeated gets " (2)", " (3)"… so nothing is overwritten. */
export async function sendZip(ctx: AppContext, reply: FastifyReply, entries: ZipEntry[], name: string) {
  const zip = new yazl.ZipFile();
  const used = new Set<string>();
  for (const entry of entries) {
    if (entry.key) zip.addReadStream(ctx.storage.read(entry.key), uniqueEntry(entry.path, used), { compress: false });
    else zip.addEmptyDirectory(entry.path);
  }
  zip.end();
  return reply.header('content-type', 'application/zip').header('content-disposition', attachmentDisposition(name)).send(zip.outputStream);
}

/**
 * An upload as it was uploaded, in parts when asked: pdf.js then fetches only what the pages it
 * draws need (the cross-reference table, a page's objects), not all of a large file first.
 */
export async function sendUpload(ctx: AppContext, reply: FastifyReply, ownerId: string, fileId: string, rangeHeader: string | undefined) {
  const row = await ownedFile(ctx, ownerId, fileId);
  reply.header('accept-ranges', 'bytes');
  return sendStored(ctx, reply, row.storage_key, row.name, rangeHeader);
}

/** The output at `index`, or the only one when no index is given; null when there is none such. */
export function oneOutput(outputs: StoredOutput[], index: number | undefined): StoredOutput | null {
  if (index !== undefined) return outputs.find((o) => o.index === index) ?? null;
  return outputs.length === 1 ? outputs[0]! : null;
}

/**
 * Finished tasks whose outputs may leave the server: an anonymous visitor's only once signed in
 * and bound to the account (3001), unless the operator lets visitors download (QUIRE_ANON_DOWNLOADS).
 */
async function releasedTasks(ctx: AppContext, ownerId: string, q: { task_id?: string; multi_id?: string }): Promise<TaskTable[]> {
  const tasks = await finishedTasks(ctx, ownerId, q);
  if (!ctx.config.anonymousDownloads && !isAccountOwner(ownerId)) throw new QuireError(ErrorCode.NotLogin);
  return tasks;
}

export async function sendTaskOutput(ctx: AppContext, reply: FastifyReply, ownerId: string, taskId: string, index?: number) {
  const [task] = await releasedTasks(ctx, ownerId, { task_id: taskId });
  const outputs = outputsOf(task!);
  const one = oneOutput(outputs, index);
  if (one) return sendStored(ctx, reply, one.key, one.name);
  if (index !== undefined) throw new QuireError(ErrorCode.NoData);
  return sendZip(ctx, reply, outputEntries(outputs), downloadName(task!));
}

const outputEntries = (outputs: StoredOutput[]): ZipEntry[] => outputs.map((o) => ({ key: o.key, path: safeFileName(o.name) }));

/** The zip of a whole run is named after its first file and the tool: "report-compress.zip". */
function bulkName(tasks: TaskTable[]): string {
  const first = outputsOf(tasks[0]!)[0];
  return first ? outputName(first.source ?? first.name, tasks[0]!.tool.replace(/_/g, '-'), '.zip') : 'quire-files.zip';
}

export async function sendBulk(ctx: AppContext, reply: FastifyReply, ownerId: string, multiId: string) {
  const tasks = await releasedTasks(ctx, ownerId, { multi_id: multiId });
  return sendZip(ctx, reply, outputEntries(tasks.flatMap(outputsOf)), bulkName(tasks));
}

/** Deletes the outputs of every finished task of a run at once, rather than at the end of their retention. */
export async function deleteOutputs(ctx: AppContext, ownerId: string, multiId: string) {
  const tasks = await finishedTasks(ctx, ownerId, { multi_id: multiId });
  for (const task of tasks) await discardTask(ctx, task.id);
  return { deleted: tasks.length };
}

/** One output of a finished task that may leave the server (the only one when no index is given), and its task; 2405 if there is none such. */
export async function releasedOutput(
  ctx: AppContext,
  ownerId: string,
  taskId: string,
  index?: number,
): Promise<{ task: TaskTable; output: StoredOutput }> {
  const [task] = await releasedTasks(ctx, ownerId, { task_id: taskId });
  const output = oneOutput(outputsOf(task!), index);
  if (!output) throw new QuireError(ErrorCode.NoData);
  return { task: task!, output };
}

/**
 * An output taken as a new upload (with an upload's checks), so another tool can start on it
 * without the visitor downloading it and sending it back.
 */
export async function outputAsFile(
  ctx: AppContext,
  ownerId: string,
  limits: FileLimits,
  taskId: string,
  index?: number,
): Promise<FileInfo> {
  const { task, output } = await releasedOutput(ctx, ownerId, taskId, index);
  // The file remembers its tool: the editor's next save on it continues the visitor's session.
  return acceptStored(ctx, ownerId, limits, output.key, output.name, task.tool);
}
