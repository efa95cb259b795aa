import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectFileType } from './fileTypes.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-types-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const typeOf = (name: string, bytes: Buffer | string) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return detectFileType(file, name);
};
const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]);
const ZIP = Buffer.from('PK\x03\x04rest', 'latin1');

describe('file types', () => {
  it('goes by content first: a PDF or an image is one whatever its name', async () => {
    expect(await typeOf('report.docx', '%PDF-1.7\n...')).toBe('pdf');
    expect(await typeOf('photo.png', Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(await typeOf('x.bin', Buffer.from('GIF89a......'))).toBe('gif');
  });

  it('tells the documents of one container apart by name, and refuses other names', async () => {
    expect(await typeOf('a.doc', OLE2)).toBe('office');
    expect(await typeOf('locked.docx', OLE2)).toBe('office'); // encrypted OOXML
    expect(await typeOf('a.msi', OLE2)).toBeNull();
    expect(await typeOf('a.XLSX', ZIP)).toBe('office');
    expect(await typeOf('book.epub', ZIP)).toBe('epub');
    expect(await typeOf('archive.zip', ZIP)).toBeNull();
    expect(await typeOf('a.rtf', '{\\rtf1 hello}')).toBe('office');
  });

  it('takes text by its name, in any encoding, but not binary data named as text', async () => {
    expect(await typeOf('a.txt', Buffer.from('h\0i\0 \0t\0h\0e\0r\0e\0', 'latin1'))).toBe('text');
    expect(await typeOf('a.htm', '<html></html>')).toBe('html');
    expect(await typeOf('a.dxf', '0\nSECTION\n')).toBe('office');
    expect(await typeOf('a.txt', Buffer.alloc(64))).toBeNull();
    expect(await typeOf('note.pdf', 'just text')).toBeNull();
  });
});
