// Chunked, resumable upload (upload policy, parts, complete). Parts are kept as files named by their
// number, so the parts already received are simply the ones on disk, and 12 parallel PUTs never
// race on a shared record.
import fs from 'node:fs/promises';
import { createReadStream, createWriteStream } from 'node:fs';
import crypto from 'node:crypto';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ErrorCode, QuireError, UPLOAD_PART_SIZE, type FileInfo } from '@quire/contracts';
import type { AppContext } from '../context.js';
import type { UploadTable } from '../db/schema.js';
import { deleteUpload, findOwnedUpload, findResumableUpload, insertUpload } from '../db/uploadsRepo.js';
import { newId } from '../ids.js';
import { acceptUpload } from './files.js';
import { checkFile, type FileLimits } from './limits.js';

const partsDir = (ctx: AppContext, uploadId: string) => path.join(ctx.tmpDir, 'uploads', uploadId);

async function receivedParts(ctx: AppContext, upload: UploadTable): Promise<number[]> {
  const names = await fs.readdir(partsDir(ctx, upload.id)).catch(() => [] as string[]);
  return names
    .filter((n) => /^\d+$/.test(n))
    .map(Number)
    .sort((a, b) => a - b);
}

const expectedPartSize = (u: UploadTable, n: number) => (n < u.total_parts ? u.part_size : u.size - u.part_size * (u.total_parts - 1));

/** Starts (or resumes) an upload; a declared size over the plan's is refused before a byte is sent. */
export async function uploadPolicy(
  ctx: AppContext,
  ownerId: string,
  limits: FileLimits,
  req: { filename: string; file_size: number; md5_code: string },
) {
  checkFile(limits, req.file_size, 0);
  const md5 = req.md5_code.toLowerCase();
  // The same owner sending the same bytes again resumes the unfinished upload.
  let upload = await findResumableUpload(ctx.db, ownerId, md5, req.file_size, Date.now());
  if (!upload) {
    const now = Date.now();
    upload = {
      id: newId(),
      owner_id: ownerId,
      filename: req.filename,
      size: req.file_size,
      md5,
      part_size: UPLOAD_PART_SIZE,
      total_parts: Math.ceil(req.file_size / UPLOAD_PART_SIZE),
      created_at: now,
      expires_at: now + ctx.config.retentionHours * 3600_000,
    };
    await insertUpload(ctx.db, upload);
    await fs.mkdir(partsDir(ctx, upload.id), { recursive: true });
  }
  return {
    upload_id: upload.id,
    part_size: upload.part_size,
    total_parts: upload.total_parts,
    uploaded_parts: await receivedParts(ctx, upload),
  };
}

async function ownedUpload(ctx: AppContext, ownerId: string, uploadId: string): Promise<UploadTable> {
  const row = await findOwnedUpload(ctx.db, ownerId, uploadId);
  if (!row || row.expires_at < Date.now()) throw new QuireError(ErrorCode.NoData);
  return row;
}

/** Passes at most `maxBytes` on, and fails with 4012 at the first byte beyond. */
export function byteLimit(maxBytes: number): Transform {
  let passed = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      passed += chunk.length;
      done(passed > maxBytes ? new QuireError(ErrorCode.TooLarge) : null, chunk);
    },
  });
}

/**
 * Stores one part. A part is never bigger than the policy says: a larger declared length is
 * refused before any byte is read, a larger body as soon as it passes the size.
 */
export async function uploadPart(
  ctx: AppContext,
  ownerId: string,
  uploadId: string,
  partNumber: number,
  body: Readable,
  declaredLength: number | undefined,
) {
  const upload = await ownedUpload(ctx, ownerId, uploadId);
  if (partNumber > upload.total_parts) throw new QuireError(ErrorCode.InvalidParams, 'Part number out of range.');
  const partSize = expectedPartSize(upload, partNumber);
  if (declaredLength !== undefined && declaredLength > partSize) throw new QuireError(ErrorCode.TooLarge);
  const dir = partsDir(ctx, upload.id);
  await fs.mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `${partNumber}.${newId()}.tmp`);
  try {
    await pipeline(body, byteLimit(partSize), createWriteStream(tmp));
    const size = (await fs.stat(tmp)).size;
    if (size !== partSize) throw new QuireError(ErrorCode.UploadFailed, 'Upload part has the wrong size.');
    await fs.rename(tmp, path.join(dir, String(partNumber)));
  } finally {
    await fs.rm(tmp, { force: true });
  }
  return { part_number: partNumber, received: (await receivedParts(ctx, upload)).length };
}

export async function completeUpload(ctx: AppContext, ownerId: string, limits: FileLimits, uploadId: string): Promise<FileInfo> {
  const upload = await ownedUpload(ctx, ownerId, uploadId);
  const parts = await receivedParts(ctx, upload);
  if (parts.length !== upload.total_parts) throw new QuireError(ErrorCode.UploadFailed, 'Upload is incomplete.');
  const dir = partsDir(ctx, upload.id);
  const joined = path.join(ctx.tmpDir, `${upload.id}.joined`);
  const hash = crypto.createHash('md5');
  const out = createWriteStream(joined);
  try {
    for (let n = 1; n <= upload.total_parts; n++) {
      for await (const chunk of createReadStream(path.join(dir, String(n)))) {
        hash.update(chunk as Buffer);
        if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
      }
    }
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  } catch (e) {
    out.destroy();
    await fs.rm(joined, { force: true });
    throw e;
  }
  await discardUpload(ctx, upload.id);
  if (hash.digest('hex') !== upload.md5) {
    await fs.rm(joined, { force: true });
    throw new QuireError(ErrorCode.UploadFailed, 'Upload failed: the file did not arrive intact. Please try again.');
  }
  return acceptUpload(ctx, ownerId, limits, upload.filename, joined, { md5: upload.md5 });
}

export async function discardUpload(ctx: AppContext, uploadId: string) {
  await fs.rm(partsDir(ctx, uploadId), { recursive: true, force: true });
  await deleteUpload(ctx.db, uploadId);
}
