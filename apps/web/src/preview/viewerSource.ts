// What /preview shows, read from its query, and where its bytes come from.
import { cloudDownloadUrl } from '../api/cloud';
import { API_BASE, apiUrl, urlWithQuery } from '../api/client';

/** The file a viewer address names: a tool file, a task's output, a cloud file or a share. */
export type ViewerSource =
  | { kind: 'file'; fileId: string }
  | { kind: 'task'; taskId: string; index?: number }
  | { kind: 'cloud'; fileId: string }
  | { kind: 'share'; shareCode: string };

/** The source of a /preview query, or null when it names none; a share wins, as its link carries nothing else. */
export function sourceFromQuery(search: string): ViewerSource | null {
  const query = new URLSearchParams(search);
  const value = (name: string) => query.get(name)?.trim() || undefined;
  const shareCode = value('share_id');
  if (shareCode) return { kind: 'share', shareCode };
  const cloudFileId = value('cloud_file_id');
  if (cloudFileId) return { kind: 'cloud', fileId: cloudFileId };
  const taskId = value('task_id');
  if (taskId) {
    const index = value('index');
    return /^\d+$/.test(index ?? '') ? { kind: 'task', taskId, index: Number(index) } : { kind: 'task', taskId };
  }
  const fileId = value('file_id');
  return fileId ? { kind: 'file', fileId } : null;
}

/** The /preview address (without language prefix) that opens a task's output. */
export function taskPreviewPath(taskId: string, index?: number): string {
  const query = new URLSearchParams({ task_id: taskId });
  if (index !== undefined) query.set('index', String(index));
  return `/preview?${query}`;
}

/** The same-origin address of a source's bytes; a share's is asked of the server first. */
export function sourceDownloadUrl(source: Exclude<ViewerSource, { kind: 'share' }>): string {
  switch (source.kind) {
    case 'file':
      return apiUrl('file/download', { file_id: source.fileId });
    case 'task':
      return apiUrl('document/download-doc', { task_id: source.taskId, index: source.index });
    case 'cloud':
      return cloudDownloadUrl(source.fileId);
  }
}

/** A share call's address: share calls live beside the tools API; `t` keeps caches from answering. */
export const shareCallUrl = (path: string, shareCode: string) =>
  urlWithQuery(`${API_BASE}share/`, path, { share_code: shareCode, t: Date.now() });

/**
 * The file name of a Content-Disposition header: the UTF-8 `filename*` when present (the server
 * sends both), else the plain `filename`; '' when there is none.
 */
export function dispositionName(header: string | null): string {
  if (!header) return '';
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]!.trim());
    } catch {
      // A malformed escape: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*"((?:[^"\\]|\\.)*)"|filename\s*=\s*([^;]+)/i.exec(header);
  return (plain?.[1] ?? plain?.[2] ?? '').replace(/\\(.)/g, '$1').trim();
}

/** PDF bytes start with %PDF- within the first kilobyte (readers allow leading junk). */
export function looksLikePdf(head: Uint8Array): boolean {
  const text = new TextDecoder('latin1').decode(head.subarray(0, 1024));
  return text.includes('%PDF-');
}
