// Request and response shapes of the API under /api/tools/v1/.
import { z } from 'zod';
import { limitRole } from './limits.js';

export const envelope = <T extends z.ZodType>(data: T) => z.object({ code: z.number().int(), msg: z.string(), data });

export const fileInfo = z.object({
  file_id: z.string(),
  file_name: z.string(),
  file_size: z.number().int(),
  file_url: z.string(),
  page_w: z.number(),
  page_h: z.number(),
  total_page: z.number().int(),
  encrypted: z.boolean().describe('True when the file needs a password to open'),
  repaired: z.boolean().optional().describe('True when the upload was damaged and a repaired copy is kept in its place'),
});
export type FileInfo = z.infer<typeof fileInfo>;

export const documentInfoQuery = z.object({ file_id: z.string().min(1), passwd: z.string().max(128).optional() });
export const fileDownloadQuery = documentInfoQuery.pick({ file_id: true });
export const documentInfo = z.object({
  file_id: z.string(),
  file_size: z.number().int(),
  total_page: z.number().int(),
  page_w: z.number(),
  page_h: z.number(),
  repaired: fileInfo.shape.repaired,
});

export const uploadPolicyRequest = z.object({
  filename: z.string().min(1).max(255),
  file_size: z.number().int().min(1),
  md5_code: z.string().regex(/^[0-9a-f]{32}$/i),
  expired_type: z.number().int().optional(),
  auto_oss_upload: z.number().int().optional(),
});
export const uploadPolicy = z.object({
  upload_id: z.string(),
  part_size: z.number().int(),
  total_parts: z.number().int(),
  uploaded_parts: z.array(z.number().int()).describe('Part numbers (from 1) the server already holds'),
});
export const uploadPartQuery = z.object({
  upload_id: z.string().min(1),
  part_number: z.coerce.number().int().min(1),
});
export const uploadPartResult = z.object({ part_number: z.number().int(), received: z.number().int() });
export const uploadCompleteRequest = z.object({ upload_id: z.string().min(1) });

export const taskCreated = z.object({
  task_id: z.string(),
  multi_id: z.string(),
  output_file_name: z.string().optional().describe("The download's name, for the converter (known when the task is queued)"),
});
export type TaskCreated = z.infer<typeof taskCreated>;

export const taskOutput = z.object({
  index: z.number().int(),
  name: z.string(),
  size: z.number().int(),
  note: z.string().optional().describe('What the tool reports about this output, e.g. "3 replacements"'),
  input_size: z
    .number()
    .int()
    .optional()
    .describe('Size in bytes of the input this output was made from (compress: to show what was saved)'),
  unchanged: z
    .boolean()
    .optional()
    .describe('True when nothing could be gained and the output is the input as it was (compress: already optimised)'),
});
export const taskEntry = z.object({
  task_id: z.string(),
  multi_id: z.string(),
  tool: z.string(),
  status: z.number().int().describe('0 while running or done; a catalogue code once failed'),
  msg: z.string(),
  progress: z.number().int().min(0).max(100),
  is_done: z.boolean().describe('True once the task is finished: done (status 0) or failed (status its code)'),
  output_file_name: z.string(),
  outputs: z.array(taskOutput),
});
export type TaskEntry = z.infer<typeof taskEntry>;
export const taskResultQuery = z
  .object({ task_id: z.string().optional(), multi_id: z.string().optional() })
  .refine((q) => q.task_id || q.multi_id, { message: 'task_id or multi_id is required' });
/** The task, or every task of the multi_id, to cancel: the same choice as get-task-result's. */
export const cancelTaskRequest = taskResultQuery;

export const downloadQuery = z.object({
  task_id: z.string().min(1),
  index: z.coerce.number().int().min(0).optional().describe('One output of a task with several; omitted: the only output, or a zip of all'),
});
export const bulkDownloadQuery = z.object({ multi_id: z.string().min(1) });
export const deleteOutputsRequest = bulkDownloadQuery;
export const deletedOutputs = z.object({ deleted: z.number().int().describe('How many tasks had their outputs deleted') });
/** The visitor's task, or every task of the multi_id, to move to the signed-in account. */
export const bindTaskRequest = taskResultQuery;
export const boundTasks = z.object({ task_ids: z.array(z.string()).describe("Every task of the request, now the account's") });
export const bindFileRequest = z.object({ file_ids: z.array(z.string().min(1)).min(1).max(100) });
export const boundFiles = z.object({ file_ids: z.array(z.string()).describe("Every file of the request, now the account's") });
export const outputAsFileRequest = z.object({
  task_id: z.string().min(1),
  index: z.number().int().min(0).optional().describe('One output of a task with several; omitted: the only output'),
});

export const serverConfig = z.object({
  sign_in_to_download: z.boolean().describe("Whether an anonymous visitor's outputs are handed out only once signed in (task/bind)"),
  plan: limitRole.describe("The caller's kind of user, whose limits these are"),
  max_file_size: z.number().int().describe('Largest file, in bytes'),
  max_pages: z.number().int().describe('Most pages of one PDF'),
  max_files_per_task: z.number().int().nullable().describe('Most files one task takes; null: no limit'),
  ocr: z
    .object({ allowed: z.boolean(), max_file_size: z.number().int(), max_pages: z.number().int() })
    .describe('Whether the plan has OCR, and the largest file (bytes) and most pages it takes'),
  retention_hours: z.number(),
  chunk_threshold: z.number().int(),
  part_size: z.number().int(),
  ocr_languages: z.array(z.string()).describe("OCR languages installed, as Tesseract's codes"),
  signing_certificate: z
    .boolean()
    .describe('Whether the operator configured a certificate that signs digitally for anyone (QUIRE_SIGNING_P12)'),
  timestamp_authority: z
    .boolean()
    .describe("Whether digital signatures can have a trusted timestamp from the operator's timestamp authority (QUIRE_TSA_URL)"),
  operator_contact: z
    .string()
    .describe('How to reach the operator to buy a plan (QUIRE_OPERATOR_CONTACT: an address or a URL); empty: not given'),
});
export type ServerConfig = z.infer<typeof serverConfig>;
