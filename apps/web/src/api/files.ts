// Server limits and the document-info check made after each upload.
import { UPLOAD_CHUNK_THRESHOLD, UPLOAD_PART_SIZE, documentInfo, serverConfig, type ServerConfig } from '@quire/contracts';
import { apiUrl, getJson, postJson } from './client';

export type DocumentInfo = ReturnType<typeof documentInfo.parse>;

// Used until (or if never) the server answers: the upload still works with the default sizes.
const fallbackConfig: ServerConfig = {
  max_file_size: 100 * 1024 * 1024,
  max_pages: 2000,
  retention_hours: 2,
  chunk_threshold: UPLOAD_CHUNK_THRESHOLD,
  part_size: UPLOAD_PART_SIZE,
  ocr_languages: ['eng'],
  operator_contact: '',
};

let configPromise: Promise<ServerConfig> | undefined;

/** The server's limits, fetched once per page load. */
export function getServerConfig(): Promise<ServerConfig> {
  configPromise ??= getJson(apiUrl('config'), serverConfig).catch(() => fallbackConfig);
  return configPromise;
}

/** Page count and size; fails with 3122 when a password is needed, 3123 when it is wrong, 3124 when damaged. */
export function getDocumentInfo(fileId: string, password?: string): Promise<DocumentInfo> {
  // A POST: a password in a URL is kept by the browser's history, proxies and server logs.
  return postJson(apiUrl('document/info'), { file_id: fileId, ...(password && { passwd: password }) }, documentInfo);
}

/** The original upload as it was uploaded, for rendering previews in the browser (which opens an encrypted one with its password). */
export function fileDownloadUrl(fileId: string): string {
  return apiUrl('file/download', { file_id: fileId });
}
