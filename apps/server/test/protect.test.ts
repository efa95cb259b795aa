// Protect and Unlock through the HTTP API against real qpdf; outputs checked with qpdf
// (--requires-password, --show-encryption, --check) and pdftotext.
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, errorMessages, protectPasswordMessage } from '@quire/contracts';
import { quireForTests } from './harness.js';
import { encryptPdf, makePdf, npages, pageLabels, requiresPassword } from './fixtures.js';

const served = quireForTests('protect');
const { client, dir } = served;
const file = (name: string) => path.join(dir, name);
let plain: string; // "P Page 1..4"

const showEncryption = (f: string, password: string) => execFileSync('qpdf', ['--show-encryption', `--password=${password}`, f]).toString();
const text = (f: string, password: string) => execFileSync('pdftotext', ['-upw', password, f, '-']).toString();

beforeAll(async () => {
  plain = await makePdf(file('plain.pdf'), 4, 'P');
});

describe('protect', () => {
  it('encrypts with AES-256 so that the file opens only with the password', async () => {
    const entry = await client.runTool(
      'encrypt',
      { file_id: await client.uploadId(plain), password: 'correct-horse' },
      file('protected.pdf'),
    );
    expect(entry).toMatchObject({ status: 0, output_file_name: 'plain-protected.pdf' });
    const out = file('protected.pdf');
    expect(requiresPassword(out)).toBe(0);
    expect(requiresPassword(out, 'wrong-horse')).toBe(0);
    expect(requiresPassword(out, 'correct-horse')).toBe(3);
    const enc = showEncryption(out, 'correct-horse');
    expect(enc).toContain('R = 6');
    expect(enc).toMatch(/stream encryption method: AESv3/);
    execFileSync('qpdf', ['--check', '--password=correct-horse', out]);
    expect(text(out, 'correct-horse')).toMatch(/P Page 1[\s\S]*P Page 4/);
  });

  it.each([
    ['too short', '12345'],
    ['too long', 'x'.repeat(21)],
    ['empty', ''],
  ])('refuses a password that is %s with code 3100 and the spec message', async (_, password) => {
    const res = await client.post('encrypt', { file_id: await client.uploadId(plain), password });
    expect(res).toMatchObject({ code: ErrorCode.InvalidParams, msg: protectPasswordMessage });
  });

  it('accepts 6 and 20 characters, and characters qpdf would read as options or argument files', async () => {
    const id = await client.uploadId(plain);
    for (const password of ['123456', 'abcdefghij0123456789', '@/etc/hostname', '--decrypt', 'pässwört ü']) {
      const entry = await client.runTool('encrypt', { file_id: id, password }, file('odd.pdf'));
      expect(entry.status, password).toBe(0);
      expect(requiresPassword(file('odd.pdf'), password), password).toBe(3);
      expect(requiresPassword(file('odd.pdf'))).toBe(0);
    }
  });

  it('re-protects an encrypted file: its password is needed (3122) and replaced by the new one', async () => {
    encryptPdf(plain, file('old.pdf'), 'old-secret');
    const id = await client.uploadId(file('old.pdf'));
    expect((await client.post('encrypt', { file_id: id, password: 'new-secret' })).code).toBe(ErrorCode.Encrypted);
    await client.runTool('encrypt', { file_id: id, passwd: 'old-secret', password: 'new-secret' }, file('renewed.pdf'));
    expect(requiresPassword(file('renewed.pdf'), 'old-secret')).toBe(0);
    expect(requiresPassword(file('renewed.pdf'), 'new-secret')).toBe(3);
  });

  it('leaves no job file with the password behind', async () => {
    await client.runTool('encrypt', { file_id: await client.uploadId(plain), password: 'not-on-disk' }, file('p2.pdf'));
    // grep exits 1 when it finds nothing; the database is left out (a task's params are cleared when it ends).
    const grep = () =>
      execFileSync('grep', ['-rl', 'not-on-disk', served.quire.ctx.config.dataDir, '--exclude=*.db*'], { encoding: 'utf8' });
    expect(grep).toThrow(expect.objectContaining({ status: 1 }));
  });
});

describe('unlock', () => {
  let locked: string;
  beforeAll(async () => {
    encryptPdf(plain, file('locked.pdf'), 'open-up');
    const up = await client.upload(file('locked.pdf'));
    expect(up.data.encrypted).toBe(true);
    locked = up.data.file_id;
  });

  it('needs the password (3122), tells a wrong one (3123)', async () => {
    expect((await client.post('decode', { file_id: locked })).code).toBe(ErrorCode.Encrypted);
    expect((await client.post('decode', { file_id: locked, passwd: 'nope' })).code).toBe(ErrorCode.WrongPassword);
  });

  it('removes the password given the right one', async () => {
    const entry = await client.runTool('decode', { file_id: locked, passwd: 'open-up' }, file('unlocked.pdf'));
    expect(entry).toMatchObject({ status: 0, output_file_name: 'locked-unlocked.pdf' });
    expect(requiresPassword(file('unlocked.pdf'))).toBe(2);
    execFileSync('qpdf', ['--check', file('unlocked.pdf')]);
    expect(pageLabels(file('unlocked.pdf'))).toEqual([1, 2, 3, 4].map((n) => `P Page ${n}`));
  });

  it('unlocks a file that has only an owner password (restrictions) without any password', async () => {
    execFileSync('qpdf', ['--encrypt', '', 'owner-only', '256', '--print=none', '--extract=n', '--', plain, file('restricted.pdf')]);
    expect(requiresPassword(file('restricted.pdf'))).toBe(3);
    const up = await client.upload(file('restricted.pdf'));
    expect(up.data).toMatchObject({ encrypted: true, total_page: 4 });
    expect((await client.call(`document/info?file_id=${up.data.file_id}`)).code).toBe(0);
    const entry = await client.runTool('decode', { file_id: up.data.file_id }, file('freed.pdf'));
    expect(entry.status).toBe(0);
    expect(requiresPassword(file('freed.pdf'))).toBe(2);
    expect(npages(file('freed.pdf'))).toBe(4);
  });

  it("answers a file that is not protected with 3126 and the spec's message", async () => {
    const entry = await client.runTool('decode', { file_id: await client.uploadId(plain) }, file('never.pdf'));
    expect(entry).toMatchObject({ status: ErrorCode.NotProtected, msg: 'not password protected, no need to unlock', is_done: true });
    expect(errorMessages[ErrorCode.NotProtected]).toBe('not password protected, no need to unlock');
    expect((await client.raw(`/api/tools/v1/document/download-doc?task_id=${entry.task_id}`)).status).toBe(404);
  });

  it('round trip: protect, then unlock the download with that password', async () => {
    await client.runTool('encrypt', { file_id: await client.uploadId(plain), password: 'round-trip' }, file('rt-locked.pdf'));
    const up = await client.upload(file('rt-locked.pdf'));
    expect((await client.call(`document/info?file_id=${up.data.file_id}`)).code).toBe(ErrorCode.Encrypted);
    await client.runTool('decode', { file_id: up.data.file_id, passwd: 'round-trip' }, file('rt-open.pdf'));
    expect(requiresPassword(file('rt-open.pdf'))).toBe(2);
    expect(pageLabels(file('rt-open.pdf'))).toEqual([1, 2, 3, 4].map((n) => `P Page ${n}`));
  });
});
