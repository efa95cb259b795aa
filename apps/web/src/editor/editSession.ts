// The editor's session: the operations made on one file so far, with undo and redo, kept in
// storage after each change so a reload (or a crash) loses nothing. Pure TypeScript: the page
// draws it, the server applies it on save.

/** What the session needs of an operation: an id to change or remove it by. */
export interface Identified {
  id: string;
}

/** The part of Web Storage the session uses (localStorage in the browser, a Map in tests). */
export interface SessionStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Undo reaches back this many steps; older ones are dropped so storage stays small. */
export const MAX_UNDO_STEPS = 100;

interface Saved<Op> {
  ops: Op[];
  past: Op[][];
  future: Op[][];
}

/** The operations' shape: a session stored in another shape is not read back (text ops gained their style in 2). */
const SESSION_FORMAT = 2;

/** Where the session of a file is kept: the same file (by content) finds its session again. */
export function sessionKey(fileKey: string, md5: string): string {
  return `quire.editor.${SESSION_FORMAT}.${fileKey}.${md5}`;
}

export class EditSession<Op extends Identified> {
  private state: Saved<Op> = { ops: [], past: [], future: [] };
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly storage: SessionStorage,
    private readonly key: string,
  ) {
    const kept = storage.getItem(key);
    if (!kept) return;
    try {
      const saved = JSON.parse(kept) as Saved<Op>;
      if (Array.isArray(saved.ops) && Array.isArray(saved.past) && Array.isArray(saved.future)) this.state = saved;
    } catch {
      // A session written by another version or cut off: start afresh rather than fail to open the file.
      storage.removeItem(key);
    }
  }

  get ops(): readonly Op[] {
    return this.state.ops;
  }

  get canUndo(): boolean {
    return this.state.past.length > 0;
  }

  get canRedo(): boolean {
    return this.state.future.length > 0;
  }

  /** Called after every change, undo and redo. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  find(id: string): Op | undefined {
    return this.state.ops.find((op) => op.id === id);
  }

  add(op: Op): void {
    this.commit([...this.state.ops, op]);
  }

  /** Replaces the operation with `op`'s id; one undo step. */
  replace(op: Op): void {
    if (!this.find(op.id)) return;
    this.commit(this.state.ops.map((o) => (o.id === op.id ? op : o)));
  }

  /**
   * Replaces the operation with `op`'s id within the last undo step: the rest of one gesture (a
   * colour being dragged in its picker, a size being typed) after a `replace` that began it.
   */
  amend(op: Op): void {
    if (!this.find(op.id)) return;
    this.state = { ...this.state, ops: this.state.ops.map((o) => (o.id === op.id ? op : o)) };
    this.changed();
  }

  remove(id: string): void {
    if (!this.find(id)) return;
    this.commit(this.state.ops.filter((o) => o.id !== id));
  }

  undo(): void {
    const previous = this.state.past.at(-1);
    if (!previous) return;
    this.state = { ops: previous, past: this.state.past.slice(0, -1), future: [...this.state.future, this.state.ops] };
    this.changed();
  }

  redo(): void {
    const next = this.state.future.at(-1);
    if (!next) return;
    this.state = { ops: next, past: [...this.state.past, this.state.ops], future: this.state.future.slice(0, -1) };
    this.changed();
  }

  /** The edits were saved into a new file: this session is done and its storage freed. */
  discard(): void {
    this.state = { ops: [], past: [], future: [] };
    this.storage.removeItem(this.key);
    this.notify();
  }

  private commit(ops: Op[]): void {
    this.state = { ops, past: [...this.state.past, this.state.ops].slice(-MAX_UNDO_STEPS), future: [] };
    this.changed();
  }

  private changed(): void {
    try {
      this.storage.setItem(this.key, JSON.stringify(this.state));
    } catch {
      // Storage full or blocked (private mode): editing goes on, only a reload would lose it.
    }
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
