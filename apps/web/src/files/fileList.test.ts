import { describe, expect, it } from 'vitest';
import { fileListReducer, isReady, moveItem, newFileItem, type FileItem } from './fileList';

const file = (name: string) => new File(['%PDF'], name);
const list = (...names: string[]) => names.map((n) => newFileItem(n, file(`${n}.pdf`)));

describe('fileListReducer', () => {
  it('adds files in localAdded, appending or replacing', () => {
    const two = fileListReducer(list('a'), { type: 'add', items: list('b'), replace: false });
    expect(two.map((i) => [i.uid, i.state])).toEqual([
      ['a', 'localAdded'],
      ['b', 'localAdded'],
    ]);
    expect(fileListReducer(two, { type: 'add', items: list('c'), replace: true }).map((i) => i.uid)).toEqual(['c']);
  });

  it('keeps a picked file to send again, and nothing to send for a cloud file known by name and size', () => {
    const picked = file('a.pdf');
    expect(newFileItem('a', picked).file).toBe(picked);
    const fromCloud = newFileItem('c', { name: 'c.pdf', size: 5 });
    expect(fromCloud).toEqual({ uid: 'c', name: 'c.pdf', size: 5, state: 'localAdded', uploadedBytes: 0 });
  });

  it('applies allowed transitions with their patch and ignores refused ones', () => {
    let items: FileItem[] = list('a', 'b');
    items = fileListReducer(items, { type: 'fire', uids: ['a'], action: { type: 'upload' } });
    expect(items[0]!.state).toBe('ossUploading');
    items = fileListReducer(items, { type: 'fire', uids: ['a', 'b'], action: { type: 'damage' }, patch: { error: 'broken' } });
    expect(items.map((i) => [i.state, i.error])).toEqual([
      ['damaged', 'broken'],
      ['damaged', 'broken'],
    ]);
    const refused = fileListReducer(items, { type: 'fire', uids: ['a'], action: { type: 'task' }, patch: { error: 'x' } });
    expect(refused[0]).toBe(items[0]);
  });

  it('reorders', () => {
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a', 'b'], 0, 5)).toEqual(['a', 'b']);
  });
});

describe('isReady', () => {
  const info = { file_id: 'f', file_name: 'a.pdf', file_size: 1, file_url: '/f', page_w: 1, page_h: 1, total_page: 3, encrypted: false };
  const item = { ...newFileItem('a', file('a.pdf')), info, pageCount: 3 };

  it('holds once the file is opened, also during and after a task', () => {
    for (const state of ['ossSuccessful', 'tasking', 'taskingFailed', 'download'] as const) expect(isReady({ ...item, state })).toBe(true);
  });

  it('does not hold while uploading, locked or damaged', () => {
    for (const state of ['localAdded', 'ossUploading', 'encrypted', 'damaged', 'ossUploadFailed'] as const)
      expect(isReady({ ...item, state })).toBe(false);
    expect(isReady({ ...item, pageCount: undefined })).toBe(false);
  });
});
