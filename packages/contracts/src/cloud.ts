// The document cloud: an account's folders and files, kept until deleted. Calls under /api/cloud/v1/.
// Every id is the account's own: another account's id is answered with 2405.
import { z } from 'zod';
import { fileInfo } from './api.js';
import { CLOUD_EXPAND_BELOW_GB, CLOUD_NAME_MAX, CLOUD_PURCHASE_UP_TO_GB } from './cloudRules.js';

/** Control characters, lone surrogates and the bidi controls that show `exe.pdf` for `fdp.exe`. */
const INVISIBLE = /[\p{Cc}\p{Cs}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
/**
 * A file or folder name: trimmed, not empty, at most 240 characters, no path separators, no
 * invisible characters, not only dots (`.` and `..` name folders on every disk and in every zip).
 */
export const cloudName = z
  .string()
  .trim()
  .min(1, 'Please enter name')
  .max(CLOUD_NAME_MAX, `The name can be at most ${CLOUD_NAME_MAX} characters.`)
  .refine((n) => !/[/\\]/.test(n), 'The name cannot contain / or \\.')
  .refine((n) => !INVISIBLE.test(n), 'The name cannot contain control characters.')
  .refine((n) => !/^\.+$/.test(n), 'The name cannot be only dots.');

/** null or omitted: the top of the cloud. */
const folderRef = z.string().min(1).nullable().optional();

export const cloudFolder = z.object({
  folder_id: z.string(),
  name: z.string(),
  parent_id: z.string().nullable(),
  updated_at: z.number().int().describe('Epoch ms of the last change'),
});
export type CloudFolder = z.infer<typeof cloudFolder>;

export const cloudFile = z.object({
  file_id: z.string().describe('A cloud file id (not a tool file id)'),
  name: z.string(),
  folder_id: z.string().nullable(),
  size: z.number().int(),
  total_page: z.number().int().describe('0 when not a PDF or not known (encrypted)'),
  encrypted: z.boolean(),
  starred: z.boolean(),
  updated_at: z.number().int().describe('Epoch ms of the last change (upload, rename, move)'),
  opened_at: z
    .number()
    .int()
    .nullable()
    .describe('Epoch ms of the last use (added to the cloud, download, tool input, preview); null: never'),
});
export type CloudFile = z.infer<typeof cloudFile>;

export const cloudSort = z.enum(['name', 'updated', 'size']);
export const cloudListRequest = z.object({
  folder_id: folderRef,
  sort: cloudSort.default('updated'),
  order: z.enum(['asc', 'desc']).default('desc'),
  /** Case-insensitive containment, over the whole cloud (not only the folder) when given. */
  search: z.string().max(CLOUD_NAME_MAX).optional(),
});
export const cloudListing = z.object({
  folders: z.array(cloudFolder),
  files: z.array(cloudFile),
  /** From the top down to the folder listed; empty at the top. */
  path: z.array(cloudFolder.pick({ folder_id: true, name: true })),
});
export type CloudListing = z.infer<typeof cloudListing>;

export const folderTree = z.object({ folders: z.array(cloudFolder).describe('Every folder of the account') });
export const createFolderRequest = z.object({ name: cloudName, parent_id: folderRef });
export const renameFolderRequest = z.object({ folder_id: z.string().min(1), name: cloudName });
export const deleteFolderRequest = z.object({ folder_id: z.string().min(1) });

export const fileIdsRequest = z.object({ file_ids: z.array(z.string().min(1)).min(1).max(500) });
export const renameFileRequest = z.object({ file_id: z.string().min(1), name: cloudName });
export const moveRequest = z.object({
  file_ids: z.array(z.string().min(1)).max(500).default([]),
  folder_ids: z.array(z.string().min(1)).max(500).default([]),
  to_folder_id: folderRef,
});
export const deleteRequest = z.object({
  file_ids: z.array(z.string().min(1)).max(500).default([]),
  folder_ids: z.array(z.string().min(1)).max(500).default([]),
});
export const starRequest = z.object({ file_id: z.string().min(1) });
export const cloudFileQuery = z.object({ file_id: z.string().min(1) });

/**
 * What to do when the folder already holds a file of the name: `ask` refuses with 4101 (the page
 * then offers replace or rename), `replace` overwrites that file, `rename` keeps both ("a (1).pdf").
 */
export const onConflict = z.enum(['ask', 'replace', 'rename']).default('ask');

/** Puts an uploaded tool file (chunked upload → file_id) into the cloud; the tool file is used up. */
export const addUploadRequest = z.object({
  upload_file_id: z.string().min(1),
  folder_id: folderRef,
  name: cloudName.optional().describe('Defaults to the uploaded file name'),
  on_conflict: onConflict,
});
/** Saves a task's output (a tool result) into the cloud. */
export const saveTaskOutputRequest = z.object({
  task_id: z.string().min(1),
  index: z.number().int().min(0).optional(),
  folder_id: folderRef,
  name: cloudName.optional(),
  on_conflict: onConflict,
});
/** Makes a tool file (a file_id the tool calls take) of a cloud file, without sending its bytes again. */
export const useAsInputRequest = z.object({ file_id: z.string().min(1) });
export const useAsInputAnswer = fileInfo;

export const multiDownloadRequest = deleteRequest;

/** Bytes (the product's names), and the offer the page shows beside them. */
export const cloudCapacity = z.object({
  already_capacity: z.number().int(),
  total_capacity: z.number().int(),
  offer: z
    .enum(['expand', 'purchase'])
    .nullable()
    .describe(
      `expand: under ${CLOUD_EXPAND_BELOW_GB} GB and the free ${CLOUD_EXPAND_BELOW_GB} GB not yet received (capacity/receive); ` +
        `purchase: from ${CLOUD_EXPAND_BELOW_GB} GB to under ${CLOUD_PURCHASE_UP_TO_GB} GB; null: none`,
    ),
});
export type CloudCapacity = z.infer<typeof cloudCapacity>;
