// A tool page's file list kept in the tab's session storage, so it survives Back and a reload until
// the user clears it. The uploads are on the server: their ids, names and states are enough.
import { fileInfo, type FileInfo } from '@quire/contracts';
import { z } from 'zod';
import { isReady, type FileItem } from './fileList';

const savedFile = z.object({
  uid: z.string(),
  name: z.string(),
  size: z.number(),
  state: z.enum(['ossSuccessful', 'encrypted', 'damaged']),
  info: fileInfo.optional(),
  pageCount: z.number().optional(),
  error: z.string().optional(),
});
const savedList = z.array(savedFile);
type SavedFile = z.infer<typeof savedFile>;

const storageKey = (slug: string) => `quire.files.${slug}`;

/**
 * What of each file is kept. A file opened with its password asks for it again: a password is
 * never written to storage. Files still uploading, or whose upload failed, are left out: without
 * the picked file nothing can send them again.
 */
export function toSaved(items: readonly FileItem[]): SavedFile[] {
  return items.flatMap((item): SavedFile[] => {
    const kept = { uid: item.uid, name: item.name, size: item.size };
    if (isReady(item) && !item.password) return [{ ...kept, state: 'ossSuccessful', info: item.info, pageCount: item.pageCount }];
    if (item.info && (item.state === 'encrypted' || isReady(item))) return [{ ...kept, state: 'encrypted', info: item.info }];
    if (item.state === 'damaged') return [{ ...kept, state: 'damaged', ...(item.error && { error: item.error }) }];
    return [];
  });
}

export function fromSaved(saved: readonly SavedFile[]): FileItem[] {
  return saved.map((s) => ({ ...s, uploadedBytes: s.size }));
}

/** The list saved for this tool page, or an empty one (nothing saved, storage off, or unreadable). */
export function loadFileList(slug: string, storage: Storage | undefined = globalThis.sessionStorage): FileItem[] {
  try {
    const parsed = savedList.safeParse(JSON.parse(storage?.getItem(storageKey(slug)) ?? '[]'));
    return parsed.success ? fromSaved(parsed.data) : [];
  } catch {
    return [];
  }
}

function writeSaved(slug: string, saved: readonly SavedFile[], storage: Storage | undefined): void {
  try {
    if (saved.length) storage?.setItem(storageKey(slug), JSON.stringify(saved));
    else storage?.removeItem(storageKey(slug));
  } catch {
    // Storage full or switched off: the list still works, it only does not outlive the page.
  }
}

export function saveFileList(slug: string, items: readonly FileItem[], storage: Storage | undefined = globalThis.sessionStorage): void {
  writeSaved(slug, toSaved(items), storage);
}

/** Starts another tool page's list with one upload, as a reload of that page would find it. */
export function startListWith(slug: string, info: FileInfo, storage: Storage | undefined = globalThis.sessionStorage): void {
  const kept = { uid: crypto.randomUUID(), name: info.file_name, size: info.file_size, info };
  writeSaved(
    slug,
    [info.encrypted ? { ...kept, state: 'encrypted' } : { ...kept, state: 'ossSuccessful', pageCount: info.total_page }],
    storage,
  );
}
