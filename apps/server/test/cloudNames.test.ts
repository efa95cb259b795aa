// Names in the document cloud: none that hides what a file is (bidi and control characters), none
// that names a folder of every disk (. and ..), and a rename keeps the file's extension, so the
// tools still take it.
import path from 'node:path';
import { ErrorCode } from '@quire/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from './fixtures.js';
import { type Client, type Envelope, quireForTests, signedIn } from './harness.js';

const served = quireForTests('cloud-names');
let ada: Client;

async function cloud(pathname: string, body: unknown, method = 'POST'): Promise<Envelope> {
  const res = await ada.raw(`/api/cloud/v1/${pathname}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Envelope;
}

beforeAll(async () => {
  ada = await signedIn(served.quire.url, served.quire.ctx, 'names@example.org', 'premium');
});

/** Names the Explorer or a zip reader shows as something they are not, or cannot make. */
const BAD_NAMES = ['.', '..', '...', 'invoice\u202efdp.exe', 'a\u0000b', 'tab\there', 'line\nbreak', 'iso\u2066late', 'mark\u200f.pdf'];

describe('cloud names', () => {
  it('refuse control and bidi characters and names of only dots for folders and files, with 3100', async () => {
    const pdf = await makePdf(path.join(served.dir, 'names.pdf'), 1);
    const upload = await ada.upload(pdf);
    const file = (await cloud('file/create', { upload_file_id: upload.data.file_id }, 'PUT')).data;
    const folder = (await cloud('directory/create', { name: 'Plain' })).data;
    for (const name of BAD_NAMES) {
      for (const answer of [
        await cloud('directory/create', { name }),
        await cloud('directory/rename', { folder_id: folder.folder_id, name }),
        await cloud('file/rename', { file_id: file.file_id, name }),
      ]) {
        expect(answer.code, JSON.stringify(name)).toBe(ErrorCode.InvalidParams);
      }
    }
  });

  it('keep the extension through a rename that leaves it out or changes it', async () => {
    const pdf = await makePdf(path.join(served.dir, 'keep.pdf'), 1);
    const upload = await ada.upload(pdf, 'keep.pdf');
    const file = (await cloud('file/create', { upload_file_id: upload.data.file_id }, 'PUT')).data;
    expect((await cloud('file/rename', { file_id: file.file_id, name: 'Annual report' })).data.name).toBe('Annual report.pdf');
    expect((await cloud('file/rename', { file_id: file.file_id, name: 'notes.txt' })).data.name).toBe('notes.txt.pdf');
    expect((await cloud('file/rename', { file_id: file.file_id, name: 'Final.PDF' })).data.name).toBe('Final.PDF');
    // 240 characters asked: the extension still fits.
    const long = (await cloud('file/rename', { file_id: file.file_id, name: 'x'.repeat(240) })).data.name as string;
    expect(long).toBe(`${'x'.repeat(236)}.PDF`);
    // The renamed file is still a PDF input for the tools.
    const used = await cloud('file/use', { file_id: file.file_id });
    expect(used.code, used.msg).toBe(0);
    const rotated = await ada.post('document/rotate', { file_id: used.data.file_id, angle: 90, pages: 'all' });
    expect(rotated.code, rotated.msg).toBe(0);
  });
});
