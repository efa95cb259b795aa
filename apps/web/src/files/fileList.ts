// The upload list of a tool page as a pure reducer; every state change goes through the machine.
import type { FileInfo } from '@quire/contracts';
import { nextFileState, type FileAction, type FileState } from './fileStateMachine';

export interface FileItem {
  uid: string;
  name: string;
  size: number;
  /** The picked file, for uploading it again; absent on a list restored after a reload. */
  file?: File;
  state: FileState;
  /** Bytes sent so far while uploading. */
  uploadedBytes: number;
  info?: FileInfo;
  pageCount?: number;
  /** The password that opened the file; sent with every task. */
  password?: string;
  /** Why the file is damaged or failed, shown on the item. */
  error?: string;
  passwordError?: string;
  checkingPassword?: boolean;
}

/** A file that has been opened: uploaded, unlocked if it needed it, its page count known. */
export type ReadyFile = FileItem & { info: FileInfo; pageCount: number };

// A file stays ready while its task runs and after it failed, so the options built on it stay too.
const readyStates: readonly FileState[] = ['ossSuccessful', 'tasking', 'taskingFailed', 'download'];

export function isReady(item: FileItem): item is ReadyFile {
  return readyStates.includes(item.state) && item.info !== undefined && item.pageCount !== undefined;
}

/** States in which the file is still on its way to being ready (or needs the user). */
export function isPending(item: FileItem): boolean {
  return item.state === 'localAdded' || item.state === 'ossUploading' || item.state === 'encrypted' || item.state === 'decrypted';
}

export type FileListAction =
  | { type: 'add'; items: FileItem[]; replace: boolean }
  | { type: 'remove'; uid: string }
  | { type: 'move'; from: number; to: number }
  | { type: 'fire'; uids: string[]; action: FileAction; patch?: Partial<FileItem> }
  | { type: 'patch'; uid: string; patch: Partial<FileItem> }
  | { type: 'clear' };

/** A new list item, moved from initial to localAdded: a picked file, or one known by name and size (a cloud file). */
export function newFileItem(uid: string, source: File | { name: string; size: number }): FileItem {
  return {
    uid,
    name: source.name,
    size: source.size,
    ...(source instanceof File && { file: source }),
    state: nextFileState('initial', { type: 'localAdd' })!,
    uploadedBytes: 0,
  };
}

/** Moves the element at `from` to index `to`. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || from >= list.length || to < 0 || to >= list.length) return [...list];
  const next = [...list];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved!);
  return next;
}

export function fileListReducer(items: FileItem[], action: FileListAction): FileItem[] {
  switch (action.type) {
    case 'add':
      return action.replace ? action.items : [...items, ...action.items];
    case 'remove':
      return items.filter((item) => item.uid !== action.uid);
    case 'move':
      return moveItem(items, action.from, action.to);
    case 'fire':
      return items.map((item) => {
        if (!action.uids.includes(item.uid)) return item;
        const state = nextFileState(item.state, action.action);
        // A refused transition leaves the item as it was (e.g. a late answer for a removed upload).
        return state ? { ...item, ...action.patch, state } : item;
      });
    case 'patch':
      return items.map((item) => (item.uid === action.uid ? { ...item, ...action.patch } : item));
    case 'clear':
      return [];
  }
}
