// The document cloud's calls under /api/cloud/v1/, with the contracts' shapes.
import {
  ErrorCode,
  type cloudCapacity,
  type cloudFolder,
  type cloudListing,
  type folderTree,
  type useAsInputAnswer,
  type CloudCapacity,
  type CloudFile,
  type CloudFolder,
  type CloudListing,
  type FileInfo,
} from '@quire/contracts';
import { ApiError, getJson, postJson, readEnvelope, send, sendJson, urlWithQuery, type Query, type Answer } from './client';

const CLOUD_BASE = '/api/cloud/v1/';

export const cloudUrl = (path: string, query: Query = {}) => urlWithQuery(CLOUD_BASE, path, query);

/** A list of files, as star/list and recent/list answer. */
interface FileListAnswer {
  files: CloudFile[];
}

/** `null`: the top of the cloud. */
export type FolderId = string | null;
export type CloudSort = 'name' | 'updated' | 'size';
export type SortOrder = 'asc' | 'desc';
/** What to do when the folder holds a file of the name already: ask (4101), replace it, or keep both. */
export type OnConflict = 'ask' | 'replace' | 'rename';

export function listFolder(request: { folder_id: FolderId; sort: CloudSort; order: SortOrder; search?: string }): Promise<CloudListing> {
  return postJson<Answer<typeof cloudListing>>(cloudUrl('list'), request);
}

export async function listAllFolders(): Promise<CloudFolder[]> {
  return (await getJson<Answer<typeof folderTree>>(cloudUrl('directory/list'))).folders;
}

export function createFolder(name: string, parentId: FolderId): Promise<CloudFolder> {
  return postJson<Answer<typeof cloudFolder>>(cloudUrl('directory/create'), { name, parent_id: parentId });
}

export function renameFolder(folderId: string, name: string): Promise<CloudFolder> {
  return postJson<Answer<typeof cloudFolder>>(cloudUrl('directory/rename'), { folder_id: folderId, name });
}

export function renameFile(fileId: string, name: string): Promise<CloudFile> {
  return postJson<CloudFile>(cloudUrl('file/rename'), { file_id: fileId, name });
}

export interface CloudSelection {
  file_ids: string[];
  folder_ids: string[];
}

export function moveItems(selection: CloudSelection, toFolderId: FolderId): Promise<unknown> {
  return postJson<unknown>(cloudUrl('multi/move'), { ...selection, to_folder_id: toFolderId });
}

/** Deletes files and folders (a folder with everything in it), freeing their space. */
export function deleteItems(selection: CloudSelection): Promise<unknown> {
  return postJson<unknown>(cloudUrl('multi/delete'), selection);
}

export async function listStarred(): Promise<CloudFile[]> {
  return (await getJson<FileListAnswer>(cloudUrl('star/list'))).files;
}

export function setStarred(fileId: string, starred: boolean): Promise<unknown> {
  return postJson<unknown>(cloudUrl(starred ? 'star/mark' : 'star/unmark'), { file_id: fileId });
}

export async function listRecent(): Promise<CloudFile[]> {
  return (await getJson<FileListAnswer>(cloudUrl('recent/list'))).files;
}

/** Takes files off the recent list; the files stay. */
export function removeFromRecent(fileIds: string[]): Promise<unknown> {
  return postJson<unknown>(cloudUrl('recent/delete'), { file_ids: fileIds });
}

export function getCapacity(): Promise<CloudCapacity> {
  return getJson<Answer<typeof cloudCapacity>>(cloudUrl('capacity'));
}

/** Claims the free space offered to a cloud under 10 GB (the `expand` offer). */
export function receiveFreeSpace(): Promise<CloudCapacity> {
  return postJson<Answer<typeof cloudCapacity>>(cloudUrl('capacity/receive'), {});
}

/** Moves an upload (the tools' chunked upload's file id) into a cloud folder. */
export function addUpload(uploadFileId: string, folderId: FolderId, onConflict: OnConflict): Promise<CloudFile> {
  return sendJson<CloudFile>('PUT', cloudUrl('file/create'), {
    upload_file_id: uploadFileId,
    folder_id: folderId,
    on_conflict: onConflict,
  });
}

/** Saves a tool's output into a cloud folder, under `name` if given (else the output's). */
export function saveTaskOutput(
  output: { taskId: string; index?: number },
  folderId: FolderId,
  onConflict: OnConflict,
  name?: string,
): Promise<CloudFile> {
  return postJson<CloudFile>(cloudUrl('task-result'), {
    task_id: output.taskId,
    index: output.index,
    folder_id: folderId,
    on_conflict: onConflict,
    ...(name && { name }),
  });
}

/** A tool file id for a cloud file: a tool takes it as if it had been uploaded. */
export function cloudFileAsInput(fileId: string): Promise<FileInfo> {
  return postJson<Answer<typeof useAsInputAnswer>>(cloudUrl('file/use'), { file_id: fileId });
}

export const cloudDownloadUrl = (fileId: string) => cloudUrl('file/download', { file_id: fileId });
export const cloudThumbnailUrl = (fileId: string) => cloudUrl('file/thumbnail', { file_id: fileId });

/** A file's bytes from the server; a refusal comes as the JSON envelope, which throws its code's message. */
async function blobOf(res: Response): Promise<Blob> {
  if (res.headers.get('content-type')?.includes('application/json')) await readEnvelope<unknown>(res);
  if (!res.ok) throw new ApiError(ErrorCode.Generic);
  return res.blob();
}

/** The selection as one zip; a POST, so its answer is read as a blob rather than followed as a link. */
export async function downloadZip(selection: CloudSelection): Promise<Blob> {
  return blobOf(
    await send(cloudUrl('multi-download'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(selection),
    }),
  );
}

/** A cloud file's bytes, for the page itself to use (a signature's picture). */
export async function readCloudFile(fileId: string): Promise<Blob> {
  return blobOf(await send(cloudDownloadUrl(fileId)));
}
