import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@quire/contracts';
import { decryptAgilePackage, isEncryptedOffice } from './officeEncryption.js';

const corpus = path.resolve(import.meta.dirname, '../../../../test-corpus');
const office = path.join(corpus, 'office');
/** The corpus's password-protected office files: those its passwords list names. */
const locked = fs
  .readFileSync(path.join(corpus, 'office-images-passwords.tsv'), 'utf8')
  .split('\n')
  .map((line) => line.split('\t')[0]!)
  .filter((file) => file.startsWith('office/'))
  .map((file) => file.slice('office/'.length));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-officeenc-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const write = (name: string, bytes: Buffer) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
};

/** A corpus file with the bytes at `at` replaced, located by a plain byte search (not by the parser under test). */
function patched(name: string, find: (bytes: Buffer) => number, replace: (bytes: Buffer, at: number) => void) {
  const bytes = fs.readFileSync(path.join(office, name));
  const at = find(bytes);
  expect(at).toBeGreaterThanOrEqual(0);
  replace(bytes, at);
  return write(`patched-${name}`, bytes);
}

/** An OLE2 header (512-byte sectors) with the given fields; the rest of the file as given. */
function ole2(fields: Record<number, number>, rest = Buffer.alloc(0)) {
  const header = Buffer.alloc(512, 0xff);
  Buffer.from('d0cf11e0a1b11ae1', 'hex').copy(header);
  header.fill(0, 8, 0x4c);
  header.writeUInt16LE(9, 0x1e);
  header.writeUInt16LE(6, 0x20);
  header.writeUInt32LE(4096, 0x38);
  for (const [offset, value] of Object.entries(fields)) header.writeUInt32LE(value, Number(offset));
  return Buffer.concat([header, rest]);
}

describe('office encryption', () => {
  it('finds the password of a locked workbook and of encrypted OOXML', async () => {
    for (const name of locked) expect(await isEncryptedOffice(path.join(office, name)), name).toBe(true);
  });

  it('finds nothing in every other corpus document, nor in PDFs and images', async () => {
    const others = fs
      .readdirSync(office)
      .filter((name) => !locked.includes(name))
      .map((name) => path.join(office, name));
    const pdfs = fs
      .readdirSync(path.join(corpus, 'pdfjs'))
      .filter((n) => n.endsWith('.pdf'))
      .slice(0, 5);
    const images = fs.readdirSync(path.join(corpus, 'images')).slice(0, 5);
    others.push(...pdfs.map((n) => path.join(corpus, 'pdfjs', n)), ...images.map((n) => path.join(corpus, 'images', n)));
    expect(others.length).toBeGreaterThan(50);
    for (const file of others) expect(await isEncryptedOffice(file), file).toBe(false);
  });

  it("reads the Word FIB's fEncrypted flag and PowerPoint's CurrentUser token", async () => {
    // two_images.doc's WordDocument stream starts a sector with the FIB's wIdent 0xA5EC.
    const doc = patched(
      'two_images.doc',
      (b) => [...Array(b.length >> 9).keys()].map((i) => i * 512).find((i) => b.readUInt16LE(i) === 0xa5ec) ?? -1,
      (b, at) => b.writeUInt16LE(b.readUInt16LE(at + 0x0a) | 0x0100, at + 0x0a),
    );
    expect(await isEncryptedOffice(doc)).toBe(true);
    const unencryptedToken = Buffer.from('5fc091e3', 'hex');
    const ppt = patched(
      'pictures.ppt',
      (b) => b.indexOf(unencryptedToken),
      (b, at) => b.writeUInt32LE(0xf3d1c4df, at),
    );
    expect(await isEncryptedOffice(ppt)).toBe(true);
  });

  it('reads an OpenDocument manifest that lists encryption data, deflated in the zip', async () => {
    const odt = path.join(dir, 'locked.odt');
    fs.mkdirSync(path.join(dir, 'odt', 'META-INF'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'odt', 'mimetype'), 'application/vnd.oasis.opendocument.text');
    const entry = '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml">';
    const encryption = '<manifest:encryption-data manifest:checksum-type="SHA1/1K"/></manifest:file-entry>';
    fs.writeFileSync(
      path.join(dir, 'odt', 'META-INF', 'manifest.xml'),
      `<manifest:manifest>${entry.repeat(50)}${encryption}</manifest:manifest>`,
    );
    fs.writeFileSync(path.join(dir, 'odt', 'content.xml'), 'x'.repeat(10000));
    execFileSync('zip', ['-q', '-X', '-0', odt, 'mimetype'], { cwd: path.join(dir, 'odt') });
    execFileSync('zip', ['-q', '-X', '-9', odt, 'content.xml', 'META-INF/manifest.xml'], { cwd: path.join(dir, 'odt') });
    expect(execFileSync('unzip', ['-v', odt]).toString()).toMatch(/Defl:X.*META-INF\/manifest\.xml/);
    expect(await isEncryptedOffice(odt)).toBe(true);
    // The same manifest in a zip that is not OpenDocument says nothing.
    fs.writeFileSync(path.join(dir, 'odt', 'mimetype'), 'application/zip');
    const zip = path.join(dir, 'other.odt');
    execFileSync('zip', ['-q', '-X', zip, 'mimetype', 'META-INF/manifest.xml'], { cwd: path.join(dir, 'odt') });
    expect(await isEncryptedOffice(zip)).toBe(false);
  });

  it('takes a damaged compound file as not encrypted, without throwing or looping', async () => {
    const xls = fs.readFileSync(path.join(office, 'password.xls'));
    const sector = (fill: number, words: Record<number, number> = {}) => {
      const s = Buffer.alloc(512, fill);
      for (const [i, v] of Object.entries(words)) s.writeUInt32LE(v, Number(i) * 4);
      return s;
    };
    const cases: Buffer[] = [
      xls.subarray(0, 8), // magic only
      xls.subarray(0, 700), // cut inside the first sector
      ole2({ 0x1e: 13 }), // a sector size the format does not have
      // A DIFAT chain pointing at itself, claiming a huge FAT.
      ole2({ 0x2c: 0xffffffff, 0x44: 0, 0x48: 5 }, sector(0, { 127: 0 })),
      // A FAT in which the directory chain loops: sector 0 is the FAT, 1 points to itself.
      ole2({ 0x2c: 1, 0x30: 1, 0x4c: 0 }, Buffer.concat([sector(0xff, { 0: 0xfffffffd, 1: 1 }), sector(0)])),
      // A root whose child tree loops back to the root, with streams pointing outside the file.
      (() => {
        const dir = sector(0);
        Buffer.from('Root Entry\0', 'utf16le').copy(dir);
        dir.writeUInt16LE(22, 0x40);
        dir[0x42] = 5;
        dir.writeUInt32LE(1, 0x4c);
        Buffer.from('Workbook\0', 'utf16le').copy(dir, 128);
        dir.writeUInt16LE(18, 128 + 0x40);
        dir[128 + 0x42] = 2;
        dir.writeUInt32LE(0, 128 + 0x44);
        dir.writeUInt32LE(1, 128 + 0x48);
        dir.writeUInt32LE(0x7fffffff, 128 + 0x74);
        dir.writeUInt32LE(100, 128 + 0x78);
        return ole2(
          { 0x2c: 1, 0x30: 1, 0x3c: 1, 0x40: 0xffffffff, 0x4c: 0 },
          Buffer.concat([sector(0xff, { 0: 0xfffffffd, 1: 0xfffffffe }), dir]),
        );
      })(),
    ];
    for (const [i, bytes] of cases.entries()) expect(await isEncryptedOffice(write(`bad${i}.xls`, bytes)), `case ${i}`).toBe(false);
  });
});

describe('decryptAgilePackage', () => {
  const docx = path.join(office, 'bug53475-password-is-pass.docx');

  it("decrypts the corpus's locked Word file with its password into a zip unzip reads", async () => {
    const out = path.join(dir, 'decrypted.docx');
    expect(await decryptAgilePackage(docx, 'pass', out)).toBe(true);
    execFileSync('unzip', ['-tq', out]);
    const body = execFileSync('unzip', ['-p', out, 'word/document.xml']).toString();
    expect(body).toContain('password protected document');
  });

  it('refuses a wrong password with 3123 and writes nothing', async () => {
    const out = path.join(dir, 'wrong.docx');
    await expect(decryptAgilePackage(docx, 'not-it', out)).rejects.toMatchObject({ code: ErrorCode.WrongPassword });
    expect(fs.existsSync(out)).toBe(false);
  });

  it('leaves what is no agile-encrypted package to LibreOffice', async () => {
    for (const name of ['password.xls', 'Word95.doc', 'hdr-header-footer.docx']) {
      const out = path.join(dir, `untouched-${name}`);
      expect(await decryptAgilePackage(path.join(office, name), 'pass', out)).toBe(false);
      expect(fs.existsSync(out)).toBe(false);
    }
  });
});
