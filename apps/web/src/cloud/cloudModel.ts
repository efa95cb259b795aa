// The document cloud page's pure parts: names, order, search, selection and the capacity offer.
import { CLOUD_NAME_MAX, ErrorCode, type CloudFile, type CloudFolder } from '@quire/contracts';
import type { CloudSelection, CloudSort, FolderId, OnConflict, SortOrder } from '../api/cloud';
import { ApiError } from '../api/client';

export const GB = 1024 ** 3;

/** Why a typed name cannot be a file's or folder's, or null: the server's rules, checked before asking it. */
export function nameProblem(name: string): 'empty' | 'tooLong' | 'separator' | null {
  const trimmed = name.trim();
  if (!trimmed) return 'empty';
  if (trimmed.length > CLOUD_NAME_MAX) return 'tooLong';
  if (/[/\\]/.test(trimmed)) return 'separator';
  return null;
}

/** One row of a listing: a folder or a file. */
export type CloudEntry = { kind: 'folder'; folder: CloudFolder } | { kind: 'file'; file: CloudFile };

export const entryKey = (entry: CloudEntry) =>
  entry.kind === 'folder' ? `folder:${entry.folder.folder_id}` : `file:${entry.file.file_id}`;
export const entryName = (entry: CloudEntry) => (entry.kind === 'folder' ? entry.folder.name : entry.file.name);

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/**
 * Folders before files, as a file manager shows them; within each the chosen order. Folders have
 * no size: by size they keep the order of their names. Ties fall back to the name, so the order
 * never depends on the server's.
 */
export function sortEntries(entries: readonly CloudEntry[], sort: CloudSort, order: SortOrder): CloudEntry[] {
  const sign = order === 'asc' ? 1 : -1;
  const byName = (a: CloudEntry, b: CloudEntry) => collator.compare(entryName(a), entryName(b));
  const value = (e: CloudEntry) => {
    if (sort === 'updated') return e.kind === 'folder' ? e.folder.updated_at : e.file.updated_at;
    return e.kind === 'file' ? e.file.size : 0;
  };
  const compare = (a: CloudEntry, b: CloudEntry) => {
    if (a.kind !== b.kind) return a.kind === 'folder' ? -1 : 1;
    if (sort === 'name' || (sort === 'size' && a.kind === 'folder')) return sign * byName(a, b);
    return sign * (value(a) - value(b)) || byName(a, b);
  };
  return [...entries].sort(compare);
}

/** Case-insensitive containment, as the server searches. */
export function matchesSearch(name: string, search: string): boolean {
  const needle = search.trim().toLocaleLowerCase();
  return !needle || name.toLocaleLowerCase().includes(needle);
}

export function entriesOf(folders: readonly CloudFolder[], files: readonly CloudFile[]): CloudEntry[] {
  return [
    ...folders.map((folder): CloudEntry => ({ kind: 'folder', folder })),
    ...files.map((file): CloudEntry => ({ kind: 'file', file })),
  ];
}

/** The selected entries as the ids the multi calls take. */
export function selectionOf(entries: readonly CloudEntry[], selected: ReadonlySet<string>): CloudSelection {
  const chosen = entries.filter((e) => selected.has(entryKey(e)));
  return {
    file_ids: chosen.flatMap((e) => (e.kind === 'file' ? [e.file.file_id] : [])),
    folder_ids: chosen.flatMap((e) => (e.kind === 'folder' ? [e.folder.folder_id] : [])),
  };
}

/** Adds the key if absent, removes it if present. */
export function toggled(selected: ReadonlySet<string>, key: string): Set<string> {
  const next = new Set(selected);
  if (!next.delete(key)) next.add(key);
  return next;
}

/** The keys still listed: a selection never holds what the page no longer shows. */
export function keptSelection(selected: ReadonlySet<string>, entries: readonly CloudEntry[]): Set<string> {
  const listed = new Set(entries.map(entryKey));
  return new Set([...selected].filter((key) => listed.has(key)));
}

/** Used bytes as a percentage of the capacity, 0 to 100; a sliver shows as 1 %. */
export function usedPercent(used: number, total: number): number {
  if (total <= 0) return 100;
  if (used <= 0) return 0;
  return Math.min(100, Math.max(1, Math.round((used / total) * 100)));
}

/** The folders from `folderId` up to the top, for a picker's breadcrumb: top first. */
export function pathTo(folders: readonly CloudFolder[], folderId: string | null): CloudFolder[] {
  const byId = new Map(folders.map((f) => [f.folder_id, f]));
  const path: CloudFolder[] = [];
  for (let id = folderId; id !== null; ) {
    const folder = byId.get(id);
    // A cycle or a missing parent would loop or stop here; the path stops at what is known.
    if (!folder || path.includes(folder)) break;
    path.unshift(folder);
    id = folder.parent_id;
  }
  return path;
}

export type CloudView = 'files' | 'starred' | 'recent';

/** The cloud page's query: a view, and for My files a folder. */
export function cloudQuery(folderId: FolderId, view: CloudView = 'files'): URLSearchParams {
  const query = new URLSearchParams();
  if (view !== 'files') query.set('view', view);
  else if (folderId) query.set('folder', folderId);
  return query;
}

/** The cloud page's address. */
export function cloudPath(folderId: FolderId, view: CloudView = 'files'): string {
  const qs = cloudQuery(folderId, view).toString();
  return `/app/document-cloud${qs ? `?${qs}` : ''}`;
}

/**
 * Runs a call that may meet a name the folder already holds (4101): asks, then calls again with the
 * choice. Resolves with the answer, or undefined if the user cancelled.
 */
export async function withConflictChoice<T>(
  name: string,
  call: (onConflict: OnConflict) => Promise<T>,
  ask: (name: string) => Promise<OnConflict | null>,
): Promise<T | undefined> {
  try {
    return await call('ask');
  } catch (e) {
    if (!(e instanceof ApiError && e.code === ErrorCode.CloudNameExists)) throw e;
    const choice = await ask(name);
    return choice ? call(choice) : undefined;
  }
}
