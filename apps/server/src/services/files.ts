// Uploaded files: checked on arrival (type, size, pages, password, damage) and owned by a visitor.
import fs from 'node:fs/promises';
import crypto from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import os from 'node:os';
import path from 'node:path';
import { ErrorCode, IMAGE_MAX_BYTES, IMAGE_MAX_PIXELS, QuireError, type FileInfo } from '@quire/contracts';
import type { AppContext } from '../context.js';
import { tooManyPagesError } from '../texts/refusals.js';
import { deleteFile, findOwnedFile, insertFile, setPageInfo } from '../db/filesRepo.js';
import type { FileTable } from '../db/schema.js';
import { asUploadedKey } from '../storage/storage.js';
import { declaredPageCount, firstPageSize, inspectPdf, type PdfFacts } from '../engines/qpdf.js';
import { declaredPages, rewritePages } from '../engines/poppler.js';
import { largestFrame, readImageHeader, type ImageHeader } from '../engines/imageHeader.js';
import { isDamagedOffice, isEncryptedOffice } from '../engines/officeEncryption.js';
import { detectFileType, extensionOf, processableImageTypes } from '../engines/fileTypes.js';
import { checkImageDecodes } from '../engines/sharp.js';
import { replaceStreams, undecodableStreams } from '../engines/undecodableStreams.js';
import { safeFileName } from './fileNames.js';
import { concurrencyLimit } from './concurrencyLimit.js';
import { checkDeclaredSizes } from './declaredSizes.js';
import { checkPackageSizes } from './packageSizes.js';
import { newId } from '../ids.js';
import { checkFile, type FileLimits } from './limits.js';

export function fileUrl(fileId: string) {
  return `/api/tools/v1/file/download?file_id=${fileId}`;
}

export function toFileInfo(row: FileTable): FileInfo {
  return {
    file_id: row.id,
    file_name: row.name,
    file_size: row.size,
    file_url: fileUrl(row.id),
    page_w: row.page_w,
    page_h: row.page_h,
    total_page: row.total_page,
    encrypted: row.encrypted === 1,
    ...(row.repaired === 1 && { repaired: true }),
  };
}

export async function md5OfFile(file: string): Promise<string> {
  const hash = crypto.createHash('md5');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The page-tree walk and the size checks, which read the whole file, run at most one per core. */
const wholeFileChecks = concurrencyLimit(os.availableParallelism());

/** Time a whole-file check may take besides its base, per MB of the file: one dumps every stream to disk, which takes seconds for 100 MB on a busy machine. */
const CHECK_MS_PER_MB = 300;

/** The upload checks' limits for `file`: their time grows with its size. */
async function checkLimits(ctx: AppContext, file: string) {
  const mb = Math.ceil((await fs.stat(file)).size / (1024 * 1024));
  return { ...ctx.inspectLimits, timeoutMs: ctx.inspectLimits.timeoutMs + mb * CHECK_MS_PER_MB };
}

type CheckedPdf = PdfFacts & { pageSize: { w: number; h: number }; repaired: boolean };

/**
 * A PDF's page count, encryption and first page size, once it is known to be safe to hand to the
 * engines: its page count within `maxPages` (the declared count first, which costs nothing, so a
 * file declaring 100,000 pages is refused at once) and no stream or image a bomb. `repair`: the
 * file is repaired in place when qpdf cannot read it, or `first` (its header is not where readers look).
 */
async function checkPdf(
  ctx: AppContext,
  file: string,
  password: string | undefined,
  maxPages: number,
  repair?: 'when-unreadable' | 'first',
): Promise<CheckedPdf> {
  const declared = password ? await declaredPageCount(file, password, ctx.inspectLimits) : await declaredPages(file, ctx.inspectLimits);
  if (declared !== null && declared > maxPages) throw tooManyPagesError(maxPages);
  return wholeFileChecks(async () => {
    const limits = await checkLimits(ctx, file);
    let repaired = repair === 'first';
    const facts = repaired
      ? await repairInPlace(ctx, file)
      : await inspectPdf(file, password, ctx.inspectLimits).catch((e: unknown) => {
          if (!repair || !(e instanceof QuireError && e.code === ErrorCode.Damaged)) throw e;
          repaired = true;
          return repairInPlace(ctx, file);
        });
    if (facts.pages > maxPages) throw tooManyPagesError(maxPages);
    await checkDeclaredSizes(file, password, ctx.tmpDir, limits);
    if (repair && !facts.encrypted && (await withDecodableStreams(ctx, file, facts.pages))) repaired = true;
    return { ...facts, pageSize: await firstPageSize(file, password, ctx.inspectLimits), repaired };
  });
}

/** How far into a file a PDF header is looked for past leading junk (mail headers, a scanner's banner). */
const HEADER_SEARCH_BYTES = 64 * 1024;

/**
 * The file from its PDF header on: junk written before it shifts every offset its xref gives, which
 * dropping it puts right again. False when there is no header to find, or nothing before it.
 */
async function withoutLeadingJunk(input: string, output: string): Promise<boolean> {
  const handle = await fs.open(input, 'r');
  let start: number;
  try {
    const head = Buffer.alloc(HEADER_SEARCH_BYTES);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    start = head.subarray(0, bytesRead).indexOf('%PDF-');
  } finally {
    await handle.close();
  }
  if (start <= 0) return false;
  await pipeline(createReadStream(input, { start }), createWriteStream(output));
  return true;
}

/** Where repairInPlace leaves the bytes of `file` as they were. */
const asUploaded = (file: string) => `${file}.as-uploaded`;

/**
 * Repairs tried in turn on a PDF qpdf cannot read or other readers would not find, least changing
 * first: junk before its header dropped; its pages as poppler finds them given a new page tree (a
 * tree that loops). The first whose result qpdf reads replaces `file`; 3124 when none does.
 */
async function repairInPlace(ctx: AppContext, file: string): Promise<PdfFacts> {
  const out = `${file}.repaired`;
  const repairs = [(input: string, output: string) => withoutLeadingJunk(input, output), rewritePages];
  for (const repair of repairs) {
    try {
      if (!(await repair(file, out, ctx.inspectLimits))) continue;
      const facts = await inspectPdf(out, undefined, ctx.inspectLimits);
      // The bytes as uploaded stay beside it: a tool that cannot improve on them gives them back.
      await fs.rename(file, asUploaded(file));
      await fs.rename(out, file);
      return facts;
    } catch (e) {
      if (!(e instanceof QuireError && e.code === ErrorCode.Damaged)) throw e;
    } finally {
      await fs.rm(out, { force: true });
    }
  }
  throw new QuireError(ErrorCode.Damaged);
}

/**
 * The check decodes every stream, JPEGs too: seconds for a file of scans this size on a busy
 * machine, which larger uploads are spared (their broken streams stay as they are).
 */
const STREAM_CHECK_MAX_BYTES = 20 * 1024 * 1024;

/**
 * Replaces in place the streams of `file` that do not decode, which every output would otherwise
 * carry; true when there were any. The bytes as uploaded stay beside it, as after any repair.
 */
async function withDecodableStreams(ctx: AppContext, file: string, pages: number): Promise<boolean> {
  if ((await fs.stat(file)).size > STREAM_CHECK_MAX_BYTES) return false;
  // A check its time bound cut short leaves the file as it is: the tools' own checks remain.
  const broken = await undecodableStreams(file, pages, ctx.inspectLimits).catch(() => []);
  if (broken.length === 0) return false;
  const out = `${file}.decodable`;
  try {
    await replaceStreams(file, broken, out, ctx.tmpDir, ctx.inspectLimits);
    // After an earlier repair the bytes as uploaded are kept already.
    const kept = await fs.access(asUploaded(file)).then(
      () => true,
      () => false,
    );
    if (!kept) await fs.rename(file, asUploaded(file));
    await fs.rename(out, file);
  } finally {
    await fs.rm(out, { force: true });
  }
  return true;
}

/**
 * An image the tools decode is decoded now (small), so a damaged one is refused at upload rather
 * than when a tool first runs on it. One over the image limits is not decoded: the tools refuse it.
 */
async function checkImageDecodesAtUpload(ctx: AppContext, file: string, header: ImageHeader | null, size: number): Promise<void> {
  if (!header || header.format === 'heif') throw new QuireError(ErrorCode.Unreadable);
  if (size > IMAGE_MAX_BYTES || largestFrame(header) > IMAGE_MAX_PIXELS) return;
  const format = header.format;
  await wholeFileChecks(() => checkImageDecodes(file, format, ctx.tmpDir, ctx.inspectLimits)).catch((e: unknown) => {
    // Only an image proved damaged is refused; a check its time or memory bound cut short leaves it to the tools.
    if (e instanceof QuireError && e.code === ErrorCode.Unreadable) throw e;
  });
}

/**
 * Takes a complete upload from a temporary path into storage, within the size and pages of the
 * uploader's plan. The temporary file is always consumed: stored on success, deleted on any
 * failure, so nothing half-checked is kept. `known`: the bytes' md5 when already computed, and the
 * tool whose output they are.
 */
export async function acceptUpload(
  ctx: AppContext,
  ownerId: string,
  limits: FileLimits,
  clientName: string,
  tmpPath: string,
  known: { md5?: string; sourceTool?: string } = {},
): Promise<FileInfo> {
  const name = safeFileName(clientName);
  try {
    const size = (await fs.stat(tmpPath)).size;
    checkFile(limits, size, 0);
    if (size === 0) throw new QuireError(ErrorCode.Empty);
    // Any type some tool takes is kept; each tool refuses the types it does not take (fileTypes.ts).
    const detected = await detectFileType(tmpPath, name);
    // A file named .pdf whose header is not where readers look for it may still be one a repair recovers.
    const type = detected ?? (extensionOf(name) === 'pdf' ? 'pdf' : null);
    if (!type) throw new QuireError(ErrorCode.UnsupportedType);
    let pages = 0;
    let encrypted = false;
    let repaired = false;
    let pageSize = { w: 0, h: 0 };
    if (type === 'pdf') {
      try {
        ({ pages, encrypted, pageSize, repaired } = await checkPdf(
          ctx,
          tmpPath,
          undefined,
          limits.maxPages,
          detected ? 'when-unreadable' : 'first',
        ));
      } catch (e) {
        if (e instanceof QuireError && e.code === ErrorCode.Damaged && !detected) throw new QuireError(ErrorCode.NotPdf);
        if (!(e instanceof QuireError && e.code === ErrorCode.Encrypted)) throw e;
        encrypted = true;
      }
    } else if (type === 'office') {
      // Known now so the page asks for the password at once, and says it is damaged, not when a conversion fails.
      if (await isDamagedOffice(tmpPath)) throw new QuireError(ErrorCode.Unreadable);
      await checkPackageSizes(tmpPath, limits.maxPages);
      encrypted = await isEncryptedOffice(tmpPath);
    } else if (type === 'epub') {
      await checkPackageSizes(tmpPath, limits.maxPages);
    } else {
      // An image's pixel size as its header states it; other documents have no pages until converted.
      const header = await readImageHeader(tmpPath);
      if (processableImageTypes.includes(type)) await checkImageDecodesAtUpload(ctx, tmpPath, header, size);
      if (header) [pages, pageSize] = [header.frames.length, { w: header.frames[0]!.width, h: header.frames[0]!.height }];
    }
    checkFile(limits, size, pages);
    const id = newId();
    const now = Date.now();
    const row: FileTable = {
      id,
      owner_id: ownerId,
      name,
      size: repaired ? (await fs.stat(tmpPath)).size : size,
      md5: known.md5 ?? (await md5OfFile(tmpPath)),
      storage_key: `files/${id}.${type}`,
      total_page: pages,
      page_w: pageSize.w,
      page_h: pageSize.h,
      encrypted: encrypted ? 1 : 0,
      repaired: repaired ? 1 : 0,
      source_tool: known.sourceTool ?? '',
      created_at: now,
      expires_at: now + ctx.config.retentionHours * 3600_000,
    };
    await ctx.storage.putFile(row.storage_key, tmpPath);
    if (repaired) await ctx.storage.putFile(asUploadedKey(row.storage_key), asUploaded(tmpPath));
    await insertFile(ctx.db, row);
    return toFileInfo(row);
  } finally {
    await fs.rm(tmpPath, { force: true });
    await fs.rm(asUploaded(tmpPath), { force: true });
  }
}

/**
 * Stored bytes (a task's output, a cloud file) taken as a new upload of `ownerId`, with an upload's
 * checks and limits; `sourceTool`: the tool whose output they are.
 */
export async function acceptStored(
  ctx: AppContext,
  ownerId: string,
  limits: FileLimits,
  key: string,
  name: string,
  sourceTool?: string,
): Promise<FileInfo> {
  const copy = path.join(ctx.tmpDir, `${newId()}.stored`);
  await fs.mkdir(ctx.tmpDir, { recursive: true });
  await pipeline(ctx.storage.read(key), createWriteStream(copy));
  return acceptUpload(ctx, ownerId, limits, name, copy, { sourceTool });
}

/** Deletes a file's bytes, then its record. */
export async function discardFile(ctx: AppContext, file: Pick<FileTable, 'id' | 'storage_key'>): Promise<void> {
  await ctx.storage.delete(file.storage_key);
  await ctx.storage.delete(asUploadedKey(file.storage_key));
  await deleteFile(ctx.db, file.id);
}

/** A file of this owner, or 2405 whether it is missing, expired or someone else's. */
export async function ownedFile(ctx: AppContext, ownerId: string, fileId: string): Promise<FileTable> {
  const row = await findOwnedFile(ctx.db, ownerId, fileId);
  if (!row || row.expires_at < Date.now()) throw new QuireError(ErrorCode.NoData);
  return row;
}

/**
 * Opens an owned file with the given password: 3122 if one is needed, 3123 if it is wrong.
 * The page count of an encrypted PDF becomes known here and is remembered. An office document's
 * password only LibreOffice can check, so any is taken here; its conversion answers 3123.
 */
export async function unlockedFile(ctx: AppContext, ownerId: string, fileId: string, password?: string): Promise<FileTable> {
  const row = await ownedFile(ctx, ownerId, fileId);
  if (row.encrypted !== 1) return row;
  const local = await ctx.storage.localPath(row.storage_key);
  if ((await detectFileType(local, row.name)) === 'office') {
    if (!password) throw new QuireError(ErrorCode.Encrypted);
    return row;
  }
  if (row.total_page > 0) {
    // Checked at its first unlocking; the password is proved again.
    await inspectPdf(local, password || undefined, ctx.inspectLimits);
    return row;
  }
  // Unlocked for the first time: the checks an unencrypted upload has on arrival.
  const { pages, pageSize } = await checkPdf(ctx, local, password || undefined, ctx.config.maxPages);
  await setPageInfo(ctx.db, row.id, { total_page: pages, page_w: pageSize.w, page_h: pageSize.h });
  return { ...row, total_page: pages, page_w: pageSize.w, page_h: pageSize.h };
}
