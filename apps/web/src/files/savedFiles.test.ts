import { describe, expect, it } from 'vitest';
import { newFileItem, type FileItem } from './fileList';
import { loadFileList, saveFileList } from './savedFiles';

/** Storage in memory, as sessionStorage behaves. */
function memoryStorage(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (k) => map.get(k) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => void map.delete(k),
    setItem: (k, v) => void map.set(k, v),
  };
}

const info = (id: string) => ({
  file_id: id,
  file_name: `${id}.pdf`,
  file_size: 10,
  file_url: `/f/${id}`,
  page_w: 595,
  page_h: 842,
  total_page: 3,
  encrypted: false,
});
const item = (uid: string, patch: Partial<FileItem>): FileItem => ({ ...newFileItem(uid, new File(['%PDF'], `${uid}.pdf`)), ...patch });

describe('the file list kept in the session', () => {
  it('keeps ready, locked and damaged files, per tool page, and never a password', () => {
    const storage = memoryStorage();
    saveFileList(
      'merge-pdf',
      [
        item('ready', { state: 'ossSuccessful', info: info('a'), pageCount: 3 }),
        item('done', { state: 'download', info: info('b'), pageCount: 3 }),
        item('opened', { state: 'ossSuccessful', info: info('c'), pageCount: 2, password: 'secret99' }),
        item('locked', { state: 'encrypted', info: info('d') }),
        item('bad', { state: 'damaged', error: 'The file is empty.' }),
        item('sending', { state: 'ossUploading', uploadedBytes: 2 }),
        item('failed', { state: 'ossUploadFailed', error: 'Upload failed.' }),
      ],
      storage,
    );
    expect(storage.getItem('quire.files.merge-pdf')).not.toContain('secret99');
    const restored = loadFileList('merge-pdf', storage);
    expect(restored.map((i) => [i.uid, i.state, i.info?.file_id, i.pageCount, i.error])).toEqual([
      ['ready', 'ossSuccessful', 'a', 3, undefined],
      ['done', 'ossSuccessful', 'b', 3, undefined],
      ['opened', 'encrypted', 'c', undefined, undefined],
      ['locked', 'encrypted', 'd', undefined, undefined],
      ['bad', 'damaged', undefined, undefined, 'The file is empty.'],
    ]);
    expect(restored[0]).toMatchObject({ name: 'ready.pdf', size: 4 });
    expect(restored.every((i) => i.file === undefined && i.password === undefined)).toBe(true);
    expect(loadFileList('split-pdf', storage)).toEqual([]);
  });

  it('forgets the list once it is empty, and reads nothing from a damaged entry', () => {
    const storage = memoryStorage();
    saveFileList('merge-pdf', [item('ready', { state: 'ossSuccessful', info: info('a'), pageCount: 3 })], storage);
    saveFileList('merge-pdf', [], storage);
    expect(storage.length).toBe(0);
    storage.setItem('quire.files.merge-pdf', '{not json');
    expect(loadFileList('merge-pdf', storage)).toEqual([]);
    storage.setItem('quire.files.merge-pdf', JSON.stringify([{ uid: 1 }]));
    expect(loadFileList('merge-pdf', storage)).toEqual([]);
  });
});
