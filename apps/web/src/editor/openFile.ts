// Where the editor's file comes from: a tool file by id (the address keeps it across reloads),
// or a share or a template, each fetched and uploaded as a tool file first.
import { ErrorCode } from '@quire/contracts';
import { ApiError, apiUrl } from '../api/client';
import { fileDownloadUrl, getDocumentInfo, getServerConfig } from '../api/files';
import { templateFileUrl } from '../api/templates';
import { md5OfBlob, uploadFile } from '../api/upload';
import { dispositionName } from '../preview/viewerSource';

/** The file being edited, its bytes held in the page for pdf.js. */
export interface OpenedFile {
  fileId: string;
  name: string;
  md5: string;
  bytes: Uint8Array;
  password?: string;
}

/** The editor takes PDF files only. */
export const isPdfName = (name: string) => /\.pdf$/i.test(name);

/** Uploads a PDF as a tool file; its id. */
export async function uploadPdf(file: File): Promise<string> {
  if (!isPdfName(file.name)) throw new ApiError(ErrorCode.UnsupportedType);
  const config = await getServerConfig();
  return (await uploadFile(file, { chunkThreshold: config.chunk_threshold, onProgress: () => {} })).file_id;
}

/** The bytes at `url` and the file name its answer gives. */
async function fetchFile(url: string): Promise<{ blob: Blob; name: string | undefined }> {
  const res = await fetch(url, { credentials: 'same-origin' });
  if (!res.ok) throw new ApiError(res.status === 404 ? ErrorCode.NoData : ErrorCode.Busy);
  return { blob: await res.blob(), name: dispositionName(res.headers.get('content-disposition')) || undefined };
}

/** A share's file or a template, fetched and uploaded as a tool file of the caller; its id. */
export async function uploadFrom(source: { shareCode: string } | { templateId: string }): Promise<string> {
  const url = 'shareCode' in source ? apiUrl('share/file', { share_code: source.shareCode }) : templateFileUrl(source.templateId);
  const { blob, name } = await fetchFile(url);
  return uploadPdf(new File([blob], name && isPdfName(name) ? name : 'document.pdf', { type: 'application/pdf' }));
}

/**
 * Opens tool file `fileId`: fails with 3122 when it needs a password and 3123 when the one given
 * is wrong, before its bytes are fetched.
 */
export async function openToolFile(fileId: string, password?: string): Promise<OpenedFile> {
  await getDocumentInfo(fileId, password);
  const { blob, name } = await fetchFile(fileDownloadUrl(fileId));
  return {
    fileId,
    name: name ?? 'document.pdf',
    md5: await md5OfBlob(blob),
    bytes: new Uint8Array(await blob.arrayBuffer()),
    ...(password && { password }),
  };
}
