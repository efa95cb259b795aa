// Server limits and the document-info check made after each upload.
import {
  type boundFiles,
  defaultLimits,
  type documentInfo,
  MB,
  type serverConfig,
  UPLOAD_CHUNK_THRESHOLD,
  UPLOAD_PART_SIZE,
  type ServerConfig,
} from '@quire/contracts';
import { apiUrl, getJson, postJson, type Answer } from './client';

export type DocumentInfo = ReturnType<typeof documentInfo.parse>;

// Used until (or if never) the server answers: the upload still works with a visitor's default
// limits, and the server holds each file to the caller's own.
const visitor = defaultLimits.anonymous;
const fallbackConfig: ServerConfig = {
  sign_in_to_download: true,
  plan: 'anonymous',
  max_file_size: visitor.maxFileMb * MB,
  max_pages: visitor.maxPages,
  max_files_per_task: visitor.maxFilesPerTask,
  ocr: { allowed: visitor.ocr.allowed, max_file_size: visitor.ocr.maxFileMb * MB, max_pages: visitor.ocr.maxPages },
  retention_hours: 2,
  chunk_threshold: UPLOAD_CHUNK_THRESHOLD,
  part_size: UPLOAD_PART_SIZE,
  ocr_languages: ['eng'],
  operator_contact: '',
  signing_certificate: false,
  timestamp_authority: false,
};

let configPromise: Promise<ServerConfig> | undefined;

/** The server's limits for the caller's plan, fetched once per page load and again after signing in or out. */
export function getServerConfig(): Promise<ServerConfig> {
  configPromise ??= getJson<Answer<typeof serverConfig>>(apiUrl('config')).catch(() => fallbackConfig);
  return configPromise;
}

/** The plan changed (signed in or out): the next getServerConfig asks again. */
export function forgetServerConfig(): void {
  configPromise = undefined;
}

/** Page count and size; fails with 3122 when a password is needed, 3123 when it is wrong, 3124 when damaged. */
export function getDocumentInfo(fileId: string, password?: string): Promise<DocumentInfo> {
  // A POST: a password in a URL is kept by the browser's history, proxies and server logs.
  return postJson<Answer<typeof documentInfo>>(apiUrl('document/info'), { file_id: fileId, ...(password && { passwd: password }) });
}

/** The original upload as it was uploaded, for rendering previews in the browser (which opens an encrypted one with its password). */
export function fileDownloadUrl(fileId: string): string {
  return apiUrl('file/download', { file_id: fileId });
}

/** Moves files the visitor uploaded before signing in to the account. */
export function bindFiles(fileIds: string[]): Promise<unknown> {
  return postJson<Answer<typeof boundFiles>>(apiUrl('file/bind'), { file_ids: fileIds });
}
