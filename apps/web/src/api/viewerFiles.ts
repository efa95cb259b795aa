// The bytes of a file to view, from any of its sources: a tool file, a task output, a cloud file or
// a share. Fetched once, as a whole: the viewer draws and downloads from the same copy, so a share's
// download is counted once however the pages are drawn.
import { ErrorCode, type sharedFile, type shareDownload } from '@quire/contracts';
import { dispositionName, looksLikePdf, shareCallUrl, sourceDownloadUrl, type ViewerSource } from '../preview/viewerSource';
import { ApiError, getJson, readEnvelope, send, type Answer } from './client';

export interface ViewedFile {
  name: string;
  size: number;
  bytes: Blob;
  isPdf: boolean;
  /** The share's end, epoch ms; null: permanent; undefined: not a share. */
  expiresAt?: number | null;
}

/** GETs `url`; a file answer becomes bytes with its name, an envelope answer its ApiError. */
async function fetchBytes(url: string, signal: AbortSignal): Promise<Omit<ViewedFile, 'expiresAt'>> {
  const res = await send(url, { signal });
  const disposition = res.headers.get('content-disposition');
  if (!disposition && res.headers.get('content-type')?.includes('application/json')) {
    await readEnvelope<unknown>(res);
    throw new ApiError(ErrorCode.Generic);
  }
  if (!res.ok) throw new ApiError(res.status === 404 ? ErrorCode.NoData : ErrorCode.Generic);
  const bytes = await res.blob();
  const name = dispositionName(disposition);
  const head = new Uint8Array(await bytes.slice(0, 1024).arrayBuffer());
  return { name, size: bytes.size, bytes, isPdf: looksLikePdf(head) };
}

/** The file a viewer source names, read as the signed-in caller (a share needs an account: 3001). */
export async function fetchViewedFile(source: ViewerSource, signal: AbortSignal): Promise<ViewedFile> {
  if (source.kind !== 'share') return fetchBytes(sourceDownloadUrl(source), signal);
  const shared = await getJson<Answer<typeof sharedFile>>(shareCallUrl('get-share-file', source.shareCode), signal);
  const { download_url } = await getJson<Answer<typeof shareDownload>>(shareCallUrl('download-share-file', source.shareCode), signal);
  const file = await fetchBytes(download_url, signal);
  return { ...file, name: shared.file_name || file.name, expiresAt: shared.expires_at };
}
