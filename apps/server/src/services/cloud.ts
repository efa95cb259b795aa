// The document cloud: an account's folders and files, kept until the account deletes them (the
// sweeper never sees them: they are not in the files table). Bytes live in storage under
// cloud/<account>/<id>; adding a tool file or a task's output copies its stored bytes (a hard link
// on local disk), and using a cloud file in a tool makes a fresh tool file the same way.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import {
  CLOUD_EXPAND_BELOW_GB,
  CLOUD_NAME_MAX,
  CLOUD_PURCHASE_UP_TO_GB,
  ErrorCode,
  MB,
  QuireError,
  type addUploadRequest,
  type CloudCapacity,
  type CloudFile,
  type CloudFolder,
  type CloudListing,
  type cloudListRequest,
  type createFolderRequest,
  type deleteRequest,
  type FileInfo,
  type moveRequest,
  type saveTaskOutputRequest,
} from '@quire/contracts';
import type { AppContext } from '../context.js';
import {
  cloudFileNamed,
  cloudFilesIn,
  cloudFolderNamed,
  cloudFoldersIn,
  cloudReceivedAt,
  deleteCloudFiles,
  deleteCloudFolders,
  deleteCloudOf,
  fileNameKeysIn,
  filesInFolders,
  findCloudFile,
  findCloudFolder,
  foldersOfAccount,
  insertCloudFile,
  insertCloudFolder,
  isNameTaken,
  markCloudReceived,
  nameKey,
  recentFiles,
  searchCloud,
  starredFiles,
  TOP_FOLDER,
  updateCloudFiles,
  updateCloudFolder,
  usedCloudBytes,
  writeWithinCapacity,
} from '../db/cloudRepo.js';
import type { Db } from '../db/connect.js';
import type { CloudFileTable, CloudFolderTable } from '../db/schema.js';
import { detectFileType } from '../engines/fileTypes.js';
import { firstPageThumbnail } from '../engines/poppler.js';
import { inspectPdf } from '../engines/qpdf.js';
import { newId } from '../ids.js';
import { accountOwner } from './accounts.js';
import { releasedOutput, sendStored, sendZip, type ZipEntry } from './downloads.js';
import { acceptStored, discardFile, md5OfFile, ownedFile } from './files.js';
import { safeFileName } from './fileNames.js';
import type { Limits } from './limits.js';

/** The account a cloud call acts for, with its plan's limits (the capacity among them). */
export interface CloudAccount {
  id: string;
  limits: Limits;
}

/** Files the recent list shows at most. */
const RECENT_FILES_MAX = 50;
/** The grid view's thumbnails: the first page, its longer side this many pixels. */
const THUMBNAIL_PX = 320;

const fileKey = (accountId: string, id: string) => `cloud/${accountId}/${id}`;
const thumbnailKey = (accountId: string, id: string) => `cloud/${accountId}/thumbnails/${id}.png`;
const apiFolder = (id: string) => (id === TOP_FOLDER ? null : id);

function toCloudFile(row: CloudFileTable): CloudFile {
  return {
    file_id: row.id,
    name: row.name,
    folder_id: apiFolder(row.folder_id),
    size: row.size,
    total_page: row.total_page,
    encrypted: row.encrypted === 1,
    starred: row.starred === 1,
    updated_at: row.updated_at,
    opened_at: row.opened_at,
  };
}

function toCloudFolder(row: CloudFolderTable): CloudFolder {
  return { folder_id: row.id, name: row.name, parent_id: apiFolder(row.parent_id), updated_at: row.updated_at };
}

const notFound = () => new QuireError(ErrorCode.NoData);
const nameTaken = () => new QuireError(ErrorCode.CloudNameExists);

/**
 * A write that a unique name index may refuse: the names were checked first, so a refusal means a
 * request racing this one took the name in between, answered as if the check had seen it.
 */
async function withNameTaken<T>(write: Promise<T>, refusal: () => QuireError = nameTaken): Promise<T> {
  try {
    return await write;
  } catch (e) {
    throw isNameTaken(e) ? refusal() : e;
  }
}

/** The folder an id names (TOP_FOLDER for null or none), or 2405 if it is not one of the account's. */
async function ownedFolderId(ctx: AppContext, accountId: string, folderId: string | null | undefined): Promise<string> {
  if (!folderId) return TOP_FOLDER;
  if (!(await findCloudFolder(ctx.db, accountId, folderId))) throw notFound();
  return folderId;
}

async function ownedCloudFile(ctx: AppContext, accountId: string, fileId: string): Promise<CloudFileTable> {
  const row = await findCloudFile(ctx.db, accountId, fileId);
  if (!row) throw notFound();
  return row;
}

/** Every file and folder of the ids, or 2405 if one is not the account's. */
async function ownedItems(ctx: AppContext, accountId: string, req: { file_ids: string[]; folder_ids: string[] }) {
  const fileIds = [...new Set(req.file_ids)];
  const folderIds = [...new Set(req.folder_ids)];
  const [files, folders] = await Promise.all([cloudFilesIn(ctx.db, accountId, fileIds), cloudFoldersIn(ctx.db, accountId, folderIds)]);
  if (files.length !== fileIds.length || folders.length !== folderIds.length) throw notFound();
  return { files, folders };
}

/** The folders under each of `roots` at any depth, the roots included. */
function withDescendants(all: CloudFolderTable[], roots: CloudFolderTable[]): CloudFolderTable[] {
  const found = new Map(roots.map((f) => [f.id, f]));
  for (let added = true; added; ) {
    added = false;
    for (const f of all)
      if (!found.has(f.id) && found.has(f.parent_id)) {
        found.set(f.id, f);
        added = true;
      }
  }
  return [...found.values()];
}

/** From the top down to the folder. */
function pathTo(all: CloudFolderTable[], folderId: string): CloudFolderTable[] {
  const byId = new Map(all.map((f) => [f.id, f]));
  const trail: CloudFolderTable[] = [];
  for (let f = byId.get(folderId); f && trail.length <= all.length; f = byId.get(f.parent_id)) trail.unshift(f);
  return trail;
}

type Sort = z.infer<typeof cloudListRequest>['sort'];
// Numbers in names in their order ("2" before "10"), as a file manager lists them.
const byName = (a: { name_key: string; id: string }, b: { name_key: string; id: string }) =>
  a.name_key.localeCompare(b.name_key, 'en', { numeric: true }) || a.id.localeCompare(b.id);
const fileOrder: Record<Sort, (a: CloudFileTable, b: CloudFileTable) => number> = {
  name: byName,
  updated: (a, b) => a.updated_at - b.updated_at || byName(a, b),
  size: (a, b) => a.size - b.size || byName(a, b),
};
// Folders have no size of their own: sorted by size, they keep the order of their names.
const folderOrder: Record<Sort, (a: CloudFolderTable, b: CloudFolderTable) => number> = {
  name: byName,
  updated: (a, b) => a.updated_at - b.updated_at || byName(a, b),
  size: byName,
};

export async function listCloud(ctx: AppContext, accountId: string, req: z.infer<typeof cloudListRequest>): Promise<CloudListing> {
  const folderId = await ownedFolderId(ctx, accountId, req.folder_id);
  const all = await foldersOfAccount(ctx.db, accountId);
  const { folders, files } = req.search
    ? await searchCloud(ctx.db, accountId, req.search)
    : { folders: all.filter((f) => f.parent_id === folderId), files: await filesInFolders(ctx.db, accountId, [folderId]) };
  const direction = req.order === 'asc' ? 1 : -1;
  return {
    folders: folders.sort((a, b) => direction * folderOrder[req.sort](a, b)).map(toCloudFolder),
    files: files.sort((a, b) => direction * fileOrder[req.sort](a, b)).map(toCloudFile),
    path: pathTo(all, folderId).map((f) => ({ folder_id: f.id, name: f.name })),
  };
}

export async function folderTree(ctx: AppContext, accountId: string) {
  return { folders: (await foldersOfAccount(ctx.db, accountId)).map(toCloudFolder) };
}

export async function createFolder(ctx: AppContext, accountId: string, req: z.infer<typeof createFolderRequest>): Promise<CloudFolder> {
  const parentId = await ownedFolderId(ctx, accountId, req.parent_id);
  if (await cloudFolderNamed(ctx.db, accountId, parentId, req.name)) throw new QuireError(ErrorCode.FolderExists);
  const now = Date.now();
  const row: CloudFolderTable = {
    id: newId(),
    account_id: accountId,
    parent_id: parentId,
    name: req.name,
    name_key: nameKey(req.name),
    created_at: now,
    updated_at: now,
  };
  await withNameTaken(insertCloudFolder(ctx.db, row), () => new QuireError(ErrorCode.FolderExists));
  return toCloudFolder(row);
}

export async function renameFolder(ctx: AppContext, accountId: string, folderId: string, name: string): Promise<CloudFolder> {
  const row = await findCloudFolder(ctx.db, accountId, folderId);
  if (!row) throw notFound();
  const same = await cloudFolderNamed(ctx.db, accountId, row.parent_id, name);
  if (same && same.id !== row.id) throw nameTaken();
  const renamed = { ...row, name, name_key: nameKey(name), updated_at: Date.now() };
  await withNameTaken(updateCloudFolder(ctx.db, accountId, folderId, { name, name_key: renamed.name_key, updated_at: renamed.updated_at }));
  return toCloudFolder(renamed);
}

/** Removes files' bytes (and thumbnails), then their records: their space is free at once. */
async function discardCloudFiles(ctx: AppContext, accountId: string, files: CloudFileTable[]): Promise<void> {
  for (const f of files) {
    await ctx.storage.delete(f.storage_key);
    await ctx.storage.delete(thumbnailKey(accountId, f.id));
  }
  await deleteCloudFiles(
    ctx.db,
    accountId,
    files.map((f) => f.id),
  );
}

/** Deletes the files and the folders with everything in them. */
export async function deleteItems(ctx: AppContext, accountId: string, req: z.infer<typeof deleteRequest>): Promise<void> {
  const { files, folders } = await ownedItems(ctx, accountId, req);
  const doomed = withDescendants(await foldersOfAccount(ctx.db, accountId), folders);
  const doomedIds = doomed.map((f) => f.id);
  const inside = await filesInFolders(ctx.db, accountId, doomedIds);
  const unique = new Map([...files, ...inside].map((f) => [f.id, f]));
  await discardCloudFiles(ctx, accountId, [...unique.values()]);
  await deleteCloudFolders(ctx.db, accountId, doomedIds);
}

export async function moveItems(ctx: AppContext, accountId: string, req: z.infer<typeof moveRequest>): Promise<void> {
  const to = await ownedFolderId(ctx, accountId, req.to_folder_id);
  const { files, folders } = await ownedItems(ctx, accountId, req);
  if (to !== TOP_FOLDER) {
    const all = await foldersOfAccount(ctx.db, accountId);
    if (withDescendants(all, folders).some((f) => f.id === to))
      throw new QuireError(ErrorCode.InvalidParams, 'A folder cannot be moved into itself or a folder inside it.');
  }
  // Items already there stay; the others must bring names the folder (and each other) do not have.
  const movingFiles = files.filter((f) => f.folder_id !== to);
  const movingFolders = folders.filter((f) => f.parent_id !== to);
  const fileKeys = new Set<string>();
  for (const f of movingFiles) {
    if (fileKeys.has(f.name_key) || (await cloudFileNamed(ctx.db, accountId, to, f.name))) throw nameTaken();
    fileKeys.add(f.name_key);
  }
  const folderKeys = new Set<string>();
  for (const f of movingFolders) {
    if (folderKeys.has(f.name_key) || (await cloudFolderNamed(ctx.db, accountId, to, f.name))) throw nameTaken();
    folderKeys.add(f.name_key);
  }
  const now = Date.now();
  await withNameTaken(
    updateCloudFiles(
      ctx.db,
      accountId,
      movingFiles.map((f) => f.id),
      { folder_id: to, updated_at: now },
    ),
  );
  for (const f of movingFolders) await withNameTaken(updateCloudFolder(ctx.db, accountId, f.id, { parent_id: to, updated_at: now }));
}

/**
 * A rename never changes what a file is: a name without the file's extension gets it added
 * ("report" for report.pdf is "report.pdf", "notes.txt" is "notes.txt.pdf"), since the tools pick
 * a file by its extension and one renamed without it could be used by none.
 */
function keepingExtension(current: string, name: string): string {
  const ext = path.extname(current);
  if (!ext || path.extname(name).toLowerCase() === ext.toLowerCase()) return name;
  return name.slice(0, CLOUD_NAME_MAX - ext.length) + ext;
}

export async function renameFile(ctx: AppContext, accountId: string, fileId: string, asked: string): Promise<CloudFile> {
  const row = await ownedCloudFile(ctx, accountId, fileId);
  const name = keepingExtension(row.name, asked);
  const same = await cloudFileNamed(ctx.db, accountId, row.folder_id, name);
  if (same && same.id !== row.id) throw nameTaken();
  const renamed = { ...row, name, name_key: nameKey(name), updated_at: Date.now() };
  await withNameTaken(updateCloudFiles(ctx.db, accountId, [fileId], { name, name_key: renamed.name_key, updated_at: renamed.updated_at }));
  return toCloudFile(renamed);
}

export async function setStarred(ctx: AppContext, accountId: string, fileId: string, starred: boolean): Promise<void> {
  await ownedCloudFile(ctx, accountId, fileId);
  await updateCloudFiles(ctx.db, accountId, [fileId], { starred: starred ? 1 : 0 });
}

export async function starredList(ctx: AppContext, accountId: string) {
  return { files: (await starredFiles(ctx.db, accountId)).map(toCloudFile) };
}

export async function recentList(ctx: AppContext, accountId: string) {
  return { files: (await recentFiles(ctx.db, accountId, RECENT_FILES_MAX)).map(toCloudFile) };
}

/** Takes files off the recent list (until they are opened again); the files stay. */
export async function hideFromRecent(ctx: AppContext, accountId: string, fileIds: string[]): Promise<void> {
  const ids = [...new Set(fileIds)];
  if ((await cloudFilesIn(ctx.db, accountId, ids)).length !== ids.length) throw notFound();
  await updateCloudFiles(ctx.db, accountId, ids, { hidden_from_recent: 1 });
}

const markOpened = (ctx: AppContext, accountId: string, fileId: string) =>
  updateCloudFiles(ctx.db, accountId, [fileId], { opened_at: Date.now(), hidden_from_recent: 0 });

const GB = 1024 * MB;
/** The free space an account whose plan gives less may receive once. */
const FREE_SPACE_BYTES = CLOUD_EXPAND_BELOW_GB * GB;

/** The account's capacity: its plan's, or the free space if it received that and the plan gives less. */
async function totalCapacity(ctx: AppContext, account: CloudAccount): Promise<number> {
  const received = (await cloudReceivedAt(ctx.db, account.id)) !== null;
  return received ? Math.max(account.limits.cloudBytes, FREE_SPACE_BYTES) : account.limits.cloudBytes;
}

/** The page's offer at a capacity: under the free space, to expand (an account that received it has that much at least). */
function offerAt(total: number): CloudCapacity['offer'] {
  if (total < FREE_SPACE_BYTES) return 'expand';
  return total < CLOUD_PURCHASE_UP_TO_GB * GB ? 'purchase' : null;
}

export async function capacity(ctx: AppContext, account: CloudAccount): Promise<CloudCapacity> {
  const total = await totalCapacity(ctx, account);
  return { already_capacity: await usedCloudBytes(ctx.db, account.id), total_capacity: total, offer: offerAt(total) };
}

/**
 * Gives an account whose plan holds less than the free space that space, once and for good (a
 * bigger plan's capacity stays as it is, and so does every later plan's that is bigger).
 */
export async function receiveFreeSpace(ctx: AppContext, account: CloudAccount): Promise<CloudCapacity> {
  if (account.limits.cloudBytes < FREE_SPACE_BYTES) await markCloudReceived(ctx.db, account.id, Date.now());
  return capacity(ctx, account);
}

/**
 * Runs `write` (given the transaction) if `add.size` bytes more fit in the account's capacity, its
 * cloud files and share copies counted; 41003, nothing written, if not. Writes of one account take
 * turns (`writeWithinCapacity`), so racing ones cannot together pass the capacity.
 */
export async function storeWithinCapacity(
  ctx: AppContext,
  account: CloudAccount,
  add: { size: number; replacingId?: string },
  write: (trx: Db) => Promise<void>,
): Promise<void> {
  const capacityBytes = await totalCapacity(ctx, account);
  if (!(await writeWithinCapacity(ctx.db, account.id, capacityBytes, add, write))) throw new QuireError(ErrorCode.CloudFull);
}

/** "name (n).ext" for the first n from 1 whose name the folder does not hold, within the name's length. */
async function numberedName(db: Db, accountId: string, folderId: string, name: string): Promise<string> {
  const taken = await fileNameKeysIn(db, accountId, folderId);
  const ext = path.extname(name);
  const base = name.slice(0, name.length - ext.length);
  for (let n = 1; ; n++) {
    const suffix = ` (${n})${ext}`;
    const candidate = base.slice(0, CLOUD_NAME_MAX - suffix.length) + suffix;
    if (!taken.has(nameKey(candidate))) return candidate;
  }
}

/** Bytes in storage with what the cloud records of them. */
interface StoredBytes {
  key: string;
  name: string;
  size: number;
  md5: string;
  totalPage: number;
  encrypted: boolean;
}

type Placement = Pick<z.infer<typeof addUploadRequest>, 'folder_id' | 'name' | 'on_conflict'>;

/**
 * Copies stored bytes into the account's cloud, in the folder and under the name asked (else the
 * source's), after the folder's name conflict rule (4101 to ask, replace the file, or number the
 * name) and the capacity (41003, nothing stored): a replaced file's size is freed first. The bytes
 * get a key of their own, so a replace refused keeps the old ones; adds of one account take turns
 * (`writeWithinCapacity`), so racing adds cannot together pass the capacity.
 */
async function addToCloud(ctx: AppContext, account: CloudAccount, source: StoredBytes, place: Placement): Promise<CloudFile> {
  const folderId = await ownedFolderId(ctx, account.id, place.folder_id);
  const asked = place.name ?? source.name.slice(0, CLOUD_NAME_MAX);
  let name = asked;
  const existing = await cloudFileNamed(ctx.db, account.id, folderId, name);
  if (existing && place.on_conflict === 'ask') throw nameTaken();
  const replaced = place.on_conflict === 'replace' ? existing : undefined;
  if (existing && place.on_conflict === 'rename') name = await numberedName(ctx.db, account.id, folderId, name);
  const now = Date.now();
  // Putting a file into the cloud is using it: it heads the recent list (the personal centre's) at once.
  const content = {
    size: source.size,
    md5: source.md5,
    storage_key: fileKey(account.id, newId()),
    total_page: source.totalPage,
    encrypted: source.encrypted ? 1 : 0,
    updated_at: now,
    opened_at: now,
    hidden_from_recent: 0,
  };
  const row: CloudFileTable = replaced
    ? { ...replaced, ...content }
    : {
        id: newId(),
        account_id: account.id,
        folder_id: folderId,
        name,
        name_key: nameKey(name),
        ...content,
        starred: 0,
        created_at: now,
      };
  /** The bytes the replaced file had when the write took its turn (a racing replace may have changed them). */
  let replacedKey: string | undefined;
  await ctx.storage.copy(source.key, row.storage_key);
  try {
    await withNameTaken(
      storeWithinCapacity(ctx, account, { size: source.size, replacingId: replaced?.id }, async (trx) => {
        if (!replaced) {
          // Adds of one account take turns here: one that raced others to the same numbered name
          // numbers it again after theirs, instead of being refused by the name index.
          if (place.on_conflict === 'rename' && (await cloudFileNamed(trx, account.id, folderId, row.name))) {
            row.name = await numberedName(trx, account.id, folderId, asked);
            row.name_key = nameKey(row.name);
          }
          return insertCloudFile(trx, row);
        }
        // Deleted since it was found: nothing to replace, and these bytes must not stay unrecorded.
        const current = await findCloudFile(trx, account.id, replaced.id);
        if (!current) throw notFound();
        replacedKey = current.storage_key;
        await updateCloudFiles(trx, account.id, [replaced.id], content);
      }),
    );
  } catch (e) {
    await ctx.storage.delete(row.storage_key);
    throw e;
  }
  if (replacedKey) {
    await ctx.storage.delete(replacedKey);
    await ctx.storage.delete(thumbnailKey(account.id, row.id));
  }
  return toCloudFile(row);
}

/** Moves the account's uploaded tool file into its cloud: the tool file is used up (2405 if it is not the account's). */
export async function addUpload(ctx: AppContext, account: CloudAccount, req: z.infer<typeof addUploadRequest>): Promise<CloudFile> {
  const upload = await ownedFile(ctx, accountOwner(account.id), req.upload_file_id);
  const source = {
    key: upload.storage_key,
    name: upload.name,
    size: upload.size,
    md5: upload.md5,
    totalPage: upload.total_page,
    encrypted: upload.encrypted === 1,
  };
  const added = await addToCloud(ctx, account, source, req);
  await discardFile(ctx, upload);
  return added;
}

/** A task output's pages and encryption, as far as qpdf reads them without a password (0 pages when it cannot). */
async function describeOutput(ctx: AppContext, key: string, name: string) {
  const local = await ctx.storage.localPath(key);
  const md5 = await md5OfFile(local);
  if ((await detectFileType(local, name)) !== 'pdf') return { md5, totalPage: 0, encrypted: false };
  const facts = await inspectPdf(local, undefined, ctx.inspectLimits).catch((e: unknown) => {
    if (e instanceof QuireError) return { pages: 0, encrypted: e.code === ErrorCode.Encrypted };
    throw e;
  });
  return { md5, totalPage: facts.encrypted ? 0 : facts.pages, encrypted: facts.encrypted };
}

/** Saves a finished task's output (the account's task) into its cloud. */
export async function saveTaskOutput(
  ctx: AppContext,
  account: CloudAccount,
  req: z.infer<typeof saveTaskOutputRequest>,
): Promise<CloudFile> {
  const { output } = await releasedOutput(ctx, accountOwner(account.id), req.task_id, req.index);
  const described = await describeOutput(ctx, output.key, output.name);
  return addToCloud(ctx, account, { key: output.key, name: safeFileName(output.name), size: output.size, ...described }, req);
}

/**
 * A fresh tool file of a cloud file (the files table's retention, an upload's checks and the plan's
 * file limits), whose file_id every tool call takes: the client sends no bytes.
 */
export async function useAsInput(ctx: AppContext, account: CloudAccount, fileId: string): Promise<FileInfo> {
  const row = await ownedCloudFile(ctx, account.id, fileId);
  const info = await acceptStored(ctx, accountOwner(account.id), account.limits, row.storage_key, row.name);
  await markOpened(ctx, account.id, row.id);
  return info;
}

export async function sendCloudFile(ctx: AppContext, reply: FastifyReply, accountId: string, fileId: string, rangeHeader?: string) {
  const row = await ownedCloudFile(ctx, accountId, fileId);
  await markOpened(ctx, accountId, row.id);
  reply.header('accept-ranges', 'bytes');
  return sendStored(ctx, reply, row.storage_key, row.name, rangeHeader);
}

/**
 * A zip of files and folders: chosen files at its top, each chosen folder as a folder of the zip
 * with everything in it (empty folders too). Each name is made safe as a path segment, so a folder
 * named ".." cannot reach outside the folder the zip is unpacked in.
 */
export async function sendCloudZip(ctx: AppContext, reply: FastifyReply, accountId: string, req: z.infer<typeof deleteRequest>) {
  const { files, folders } = await ownedItems(ctx, accountId, req);
  if (files.length + folders.length === 0) throw new QuireError(ErrorCode.InvalidParams, 'Choose at least one file or folder.');
  const all = await foldersOfAccount(ctx.db, accountId);
  const byId = new Map(all.map((f) => [f.id, f]));
  const chosen = new Set(folders.map((f) => f.id));
  /** A folder's path in the zip: its names up to (and with) the chosen folder it is in. */
  const zipPath = (folder: CloudFolderTable): string => {
    const segments: string[] = [];
    for (let f: CloudFolderTable | undefined = folder; f; f = chosen.has(f.id) ? undefined : byId.get(f.parent_id))
      segments.unshift(safeFileName(f.name));
    return `${segments.join('/')}/`;
  };
  const inside = withDescendants(all, folders);
  const insideFiles = await filesInFolders(
    ctx.db,
    accountId,
    inside.map((f) => f.id),
  );
  const entries: ZipEntry[] = [
    ...files.map((f) => ({ key: f.storage_key, path: safeFileName(f.name) })),
    ...inside.map((f) => ({ path: zipPath(f) })),
    ...insideFiles.map((f) => ({ key: f.storage_key, path: zipPath(byId.get(f.folder_id)!) + safeFileName(f.name) })),
  ];
  const name = folders.length === 1 && files.length === 0 ? `${safeFileName(folders[0]!.name)}.zip` : 'quire-cloud.zip';
  return sendZip(ctx, reply, entries, name);
}

/** The first page of a cloud PDF as a small PNG, rendered once and kept: 3103 for another type, 3122 for an encrypted one. */
export async function sendThumbnail(ctx: AppContext, reply: FastifyReply, accountId: string, fileId: string) {
  const row = await ownedCloudFile(ctx, accountId, fileId);
  const key = thumbnailKey(accountId, row.id);
  const cached = await ctx.storage.size(key).catch(() => 0);
  if (!cached) {
    const local = await ctx.storage.localPath(row.storage_key);
    if ((await detectFileType(local, row.name)) !== 'pdf') throw new QuireError(ErrorCode.NotPdf);
    if (row.encrypted === 1) throw new QuireError(ErrorCode.Encrypted);
    await fs.mkdir(ctx.tmpDir, { recursive: true });
    const png = path.join(ctx.tmpDir, `${newId()}.png`);
    try {
      await firstPageThumbnail(local, png, THUMBNAIL_PX, ctx.inspectLimits);
      await ctx.storage.putFile(key, png);
    } finally {
      await fs.rm(png, { force: true });
    }
  }
  reply.header('cache-control', 'private, max-age=300');
  return sendStored(ctx, reply, key, `${path.parse(safeFileName(row.name)).name}.png`);
}

/** Every folder and file of an account, bytes first (its deletion). */
export async function deleteCloudOfAccount(ctx: AppContext, accountId: string): Promise<void> {
  await ctx.storage.deletePrefix(`cloud/${accountId}/`);
  await deleteCloudOf(ctx.db, accountId);
}
