import { describe, expect, it } from 'vitest';
import { EditSession, MAX_UNDO_STEPS, sessionKey, type SessionStorage } from './editSession';

interface Note {
  id: string;
  text: string;
}

/** Web Storage over a Map, with the same string-only contract. */
function memoryStorage(): SessionStorage & { size(): number } {
  const items = new Map<string, string>();
  return {
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, String(v)),
    removeItem: (k) => void items.delete(k),
    size: () => items.size,
  };
}

const key = sessionKey('file-1', 'd41d8cd98f00b204e9800998ecf8427e');

describe('the edit session', () => {
  it('folds the rest of a gesture into the step that began it', () => {
    const s = new EditSession<Note>(memoryStorage(), key);
    s.add({ id: 'a', text: '#000000' });
    s.replace({ id: 'a', text: '#110000' });
    s.amend({ id: 'a', text: '#220000' });
    s.amend({ id: 'a', text: '#330000' });
    expect(s.ops).toEqual([{ id: 'a', text: '#330000' }]);
    s.undo();
    expect(s.ops).toEqual([{ id: 'a', text: '#000000' }]);
    s.redo();
    expect(s.ops).toEqual([{ id: 'a', text: '#330000' }]);
  });

  it('undoes and redoes adds, changes and removals in order', () => {
    const s = new EditSession<Note>(memoryStorage(), key);
    s.add({ id: 'a', text: 'one' });
    s.add({ id: 'b', text: 'two' });
    s.replace({ id: 'a', text: 'uno' });
    s.remove('b');
    expect(s.ops).toEqual([{ id: 'a', text: 'uno' }]);
    s.undo();
    expect(s.ops.map((o) => o.text)).toEqual(['uno', 'two']);
    s.undo();
    expect(s.ops.map((o) => o.text)).toEqual(['one', 'two']);
    s.redo();
    expect(s.ops.map((o) => o.text)).toEqual(['uno', 'two']);
    // A new change after undo drops what could have been redone.
    s.undo();
    s.add({ id: 'c', text: 'three' });
    expect(s.canRedo).toBe(false);
    expect(s.ops.map((o) => o.id)).toEqual(['a', 'b', 'c']);
  });

  it('makes no undo step for a change to an operation that is gone', () => {
    const s = new EditSession<Note>(memoryStorage(), key);
    s.replace({ id: 'x', text: 'nothing' });
    s.remove('x');
    expect(s.canUndo).toBe(false);
  });

  it('comes back after a reload with its operations and its undo history', () => {
    const storage = memoryStorage();
    const first = new EditSession<Note>(storage, key);
    first.add({ id: 'a', text: 'one' });
    first.add({ id: 'b', text: 'two' });
    const reloaded = new EditSession<Note>(storage, key);
    expect(reloaded.ops).toEqual(first.ops);
    reloaded.undo();
    expect(reloaded.ops).toEqual([{ id: 'a', text: 'one' }]);
    // Another file, or the same name with other content, has a session of its own.
    expect(new EditSession<Note>(storage, sessionKey('file-1', 'other')).ops).toEqual([]);
  });

  it('starts afresh on a damaged stored session, and frees storage once saved', () => {
    const storage = memoryStorage();
    storage.setItem(key, '{"ops": [');
    const s = new EditSession<Note>(storage, key);
    expect(s.ops).toEqual([]);
    s.add({ id: 'a', text: 'one' });
    expect(storage.size()).toBe(1);
    s.discard();
    expect(storage.size()).toBe(0);
    expect(s.canUndo).toBe(false);
  });

  it('keeps a bounded undo history and tells its listeners of each change', () => {
    const s = new EditSession<Note>(memoryStorage(), key);
    let calls = 0;
    s.subscribe(() => calls++);
    for (let i = 0; i < MAX_UNDO_STEPS + 20; i++) s.add({ id: `n${i}`, text: String(i) });
    let undone = 0;
    while (s.canUndo) {
      s.undo();
      undone++;
    }
    expect(undone).toBe(MAX_UNDO_STEPS);
    expect(s.ops).toHaveLength(20);
    expect(calls).toBe(2 * MAX_UNDO_STEPS + 20);
  });
});
