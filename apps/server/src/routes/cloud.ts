// The document cloud's calls, under their own prefix: every one needs a signed-in account (a session
// or an API key; 3001 for a visitor), and another account's folder or file ids answer 2405.
import { z } from 'zod';
import {
  addUploadRequest,
  cloudCapacity,
  cloudFile,
  cloudFileQuery,
  cloudFolder,
  cloudListing,
  cloudListRequest,
  createFolderRequest,
  deleteFolderRequest,
  deleteRequest,
  ErrorCode,
  fileIdsRequest,
  folderTree,
  moveRequest,
  multiDownloadRequest,
  QuireError,
  renameFileRequest,
  renameFolderRequest,
  saveTaskOutputRequest,
  starRequest,
  useAsInputAnswer,
  useAsInputRequest,
} from '@quire/contracts';
import {
  addUpload,
  capacity,
  createFolder,
  deleteItems,
  folderTree as listFolderTree,
  hideFromRecent,
  listCloud,
  moveItems,
  receiveFreeSpace,
  recentList,
  renameFile,
  renameFolder,
  saveTaskOutput,
  sendCloudFile,
  sendCloudZip,
  sendThumbnail,
  setStarred,
  starredList,
  useAsInput,
  type CloudAccount,
} from '../services/cloud.js';
import { limitsOf } from '../services/limits.js';
import type { Call, CallContext } from './calls.js';

const base = '/api/cloud/v1/';
const fileList = z.object({ files: z.array(cloudFile) });

/** The signed-in account of the call (its `session: 'account'` let no visitor through). */
function accountOf(c: CallContext): CloudAccount {
  if (!c.identity.account) throw new QuireError(ErrorCode.NotLogin);
  return { id: c.identity.account.id, limits: limitsOf(c.ctx, c.identity) };
}
const accountIdOf = (c: CallContext) => accountOf(c).id;

/** A cloud call: every one is an account's. */
const cloudCall = (call: Omit<Call, 'session'>): Call => ({
  ...call,
  path: base + call.path,
  session: 'account',
});

export function cloudCalls(): Call[] {
  return [
    cloudCall({
      method: 'POST',
      path: 'list',
      summary: "A folder's folders and files (the top when no folder_id), sorted; with search, matching names anywhere in the cloud",
      body: cloudListRequest,
      response: cloudListing,
      handler: ({ body }, c) => listCloud(c.ctx, accountIdOf(c), body),
    }),
    cloudCall({
      method: 'GET',
      path: 'directory/list',
      summary: 'Every folder of the account (the folder tree of a move)',
      response: folderTree,
      handler: (_, c) => listFolderTree(c.ctx, accountIdOf(c)),
    }),
    cloudCall({
      method: 'POST',
      path: 'directory/create',
      summary: 'Make a folder; 4102 if its parent holds a folder of that name (any case)',
      body: createFolderRequest,
      response: cloudFolder,
      handler: ({ body }, c) => createFolder(c.ctx, accountIdOf(c), body),
    }),
    cloudCall({
      method: 'POST',
      path: 'directory/rename',
      summary: 'Rename a folder; 4101 if its parent holds another folder of that name (any case)',
      body: renameFolderRequest,
      response: cloudFolder,
      handler: ({ body }, c) => renameFolder(c.ctx, accountIdOf(c), body.folder_id, body.name),
    }),
    cloudCall({
      method: 'POST',
      path: 'directory/delete',
      summary: 'Delete a folder with every folder and file in it; their space is free at once',
      body: deleteFolderRequest,
      handler: async ({ body }, c) => {
        await deleteItems(c.ctx, accountIdOf(c), { file_ids: [], folder_ids: [body.folder_id] });
        return null;
      },
    }),
    cloudCall({
      method: 'GET',
      path: 'star/list',
      summary: 'The starred files, last changed first',
      response: fileList,
      handler: (_, c) => starredList(c.ctx, accountIdOf(c)),
    }),
    ...([true, false] as const).map((starred) =>
      cloudCall({
        method: 'POST',
        path: starred ? 'star/mark' : 'star/unmark',
        summary: starred ? 'Star a file' : 'Unstar a file',
        body: starRequest,
        handler: async ({ body }, c) => {
          await setStarred(c.ctx, accountIdOf(c), body.file_id, starred);
          return null;
        },
      }),
    ),
    cloudCall({
      method: 'POST',
      path: 'file/rename',
      summary: 'Rename a file; 4101 if its folder holds another file of that name (any case)',
      body: renameFileRequest,
      response: cloudFile,
      handler: ({ body }, c) => renameFile(c.ctx, accountIdOf(c), body.file_id, body.name),
    }),
    cloudCall({
      method: 'POST',
      path: 'multi/move',
      summary: 'Move files and folders into a folder (the top when none); 4101 if a name is taken there, nothing moved',
      body: moveRequest,
      handler: async ({ body }, c) => {
        await moveItems(c.ctx, accountIdOf(c), body);
        return null;
      },
    }),
    cloudCall({
      method: 'POST',
      path: 'multi/delete',
      summary: 'Delete files, and folders with everything in them; their space is free at once',
      body: deleteRequest,
      handler: async ({ body }, c) => {
        await deleteItems(c.ctx, accountIdOf(c), body);
        return null;
      },
    }),
    cloudCall({
      method: 'GET',
      path: 'capacity',
      summary: "Bytes the cloud holds, its capacity (the plan's, or the free space received), and the page's offer",
      response: cloudCapacity,
      handler: (_, c) => capacity(c.ctx, accountOf(c)),
    }),
    cloudCall({
      method: 'POST',
      path: 'capacity/receive',
      summary: 'Receive the free space (the offer expand): a capacity under it becomes it, for good; any other changes nothing',
      response: cloudCapacity,
      handler: (_, c) => receiveFreeSpace(c.ctx, accountOf(c)),
    }),
    cloudCall({
      method: 'GET',
      path: 'recent/list',
      summary: 'The files opened last (download, tool input, preview), newest first, at most 50',
      response: fileList,
      handler: (_, c) => recentList(c.ctx, accountIdOf(c)),
    }),
    cloudCall({
      method: 'POST',
      path: 'recent/delete',
      summary: 'Take files off the recent list; the files stay in the cloud',
      body: fileIdsRequest,
      handler: async ({ body }, c) => {
        await hideFromRecent(c.ctx, accountIdOf(c), body.file_ids);
        return null;
      },
    }),
    cloudCall({
      method: 'PUT',
      path: 'file/create',
      summary:
        'Move an uploaded file (the upload calls of the tools API) into the cloud; 4101 for a name taken unless on_conflict says ' +
        'replace or rename; 41003 past the capacity, nothing stored',
      rateLimit: 'upload',
      body: addUploadRequest,
      response: cloudFile,
      handler: ({ body }, c) => addUpload(c.ctx, accountOf(c), body),
    }),
    cloudCall({
      method: 'POST',
      path: 'task-result',
      summary: "Save a finished task's output into the cloud (the only one, or the one at index); conflicts and capacity as file/create",
      rateLimit: 'upload',
      body: saveTaskOutputRequest,
      response: cloudFile,
      handler: ({ body }, c) => saveTaskOutput(c.ctx, accountOf(c), body),
    }),
    cloudCall({
      method: 'POST',
      path: 'file/use',
      summary: "A tool file of a cloud file, with an upload's checks and limits: its file_id is any tool call's input, no bytes sent",
      rateLimit: 'upload',
      body: useAsInputRequest,
      response: useAsInputAnswer,
      handler: ({ body }, c) => useAsInput(c.ctx, accountOf(c), body.file_id),
    }),
    cloudCall({
      method: 'GET',
      path: 'file/download',
      summary: 'A cloud file itself (in parts when a Range is asked); it counts as opened, for the recent list (the preview reads it so)',
      query: cloudFileQuery,
      sendsFile: true,
      handler: ({ query }, c) => sendCloudFile(c.ctx, c.reply, accountIdOf(c), query.file_id, c.req.headers.range),
    }),
    cloudCall({
      method: 'POST',
      path: 'multi-download',
      summary: 'A zip of files, and of folders with everything in them (their folders kept)',
      body: multiDownloadRequest,
      sendsFile: true,
      handler: ({ body }, c) => sendCloudZip(c.ctx, c.reply, accountIdOf(c), body),
    }),
    cloudCall({
      method: 'GET',
      path: 'file/thumbnail',
      summary: "A PNG of a PDF's first page for the grid view; 3103 for another type, 3122 for an encrypted PDF",
      query: cloudFileQuery,
      sendsFile: true,
      handler: ({ query }, c) => sendThumbnail(c.ctx, c.reply, accountIdOf(c), query.file_id),
    }),
  ];
}
