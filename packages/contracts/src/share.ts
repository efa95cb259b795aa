// Sharing a document by link, QR code or email. Calls under /api/tools/v1/share/.
import { z } from 'zod';

export const SHARE_DAYS = [1, 3, 7, 3650] as const;
export const DEFAULT_SHARE_DAYS = 7;
/** 3650 days: the product's "permanent", for paid plans only. */
export const PERMANENT_SHARE_DAYS = 3650;
export const MAX_SHARE_RECIPIENTS = 5;
export const ShareType = { Email: 1, Link: 2, QrCode: 3 } as const;
/** 1: share_key is a file (a cloud file id, or a tool file id); 2: a task (its output). */
export const ShareFileType = { File: 1, Task: 2 } as const;

/** The product's address pattern: letters, digits, dot, underscore, hyphen before @; 1 to 3 dots in the domain. */
export const SHARE_EMAIL_PATTERN = /^[A-Za-z0-9._-]+@[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+){1,3}$/;
export const shareEmailMessages = {
  tooMany: `Add up to ${MAX_SHARE_RECIPIENTS} email addresses.`,
  duplicate: 'Email already in use.',
} as const;

export const shareRequest = z.object({
  share_key: z.string().min(1).describe('A task id (file_type 2) or a file id (file_type 1)'),
  share_type: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  file_type: z.union([z.literal(1), z.literal(2)]),
  /** Which output of a task with several; omitted: the only output. */
  index: z.number().int().min(0).optional(),
  source_email: z.string().max(254).optional().describe("Not read: an email share is sent in the name of the account's confirmed address"),
  target_email: z.string().max(2000).optional().describe('Comma-joined recipients, for email shares (at most 5)'),
  message: z.string().max(2000).optional(),
  language: z.string().max(10).optional(),
  share_days: z.union([z.literal(1), z.literal(3), z.literal(7), z.literal(3650)]).default(DEFAULT_SHARE_DAYS),
  version: z.string().optional(),
  source_user_id: z.string().optional(),
});
export type ShareRequest = z.infer<typeof shareRequest>;

export const shareAnswer = z.object({
  share_url: z.string().describe('The link to open the shared file; empty for an email share'),
  qr_images: z.array(z.string()).describe('PNG data URLs of the link as a QR code (share-file-qrcode only)'),
});
export type ShareAnswer = z.infer<typeof shareAnswer>;

export const shareCodeQuery = z.object({ share_code: z.string().min(1).max(100), t: z.coerce.number().optional() });
export const sharedFile = z.object({
  file_name: z.string(),
  source_user_id: z.string(),
  file_size: z.number().int(),
  expires_at: z.number().int().nullable().describe('Epoch ms; null: permanent'),
});
export const shareDownload = z.object({
  download_url: z.string().describe('Same-origin URL that sends the bytes to the signed-in caller'),
});

export const shareEntry = z.object({
  share_id: z.string(),
  share_code: z.string(),
  share_url: z.string(),
  file_name: z.string(),
  share_type: z.number().int(),
  created_at: z.number().int(),
  expires_at: z.number().int().nullable(),
  recipients: z.array(z.string()),
  opened: z.number().int().describe('How many times the file was downloaded through the share'),
});
export type ShareEntry = z.infer<typeof shareEntry>;
export const shareList = z.object({ shares: z.array(shareEntry) });
export const revokeShareRequest = z.object({ share_id: z.string().min(1) });
