// OCR asked of a server that has no OCR: Tesseract is there but has no language to read, as an
// empty TESSDATA_PREFIX makes it (what a server without the engine's data sees). The spec's
// NEED_OCR is its own catalogue code, 4018 with its message, in the caller's language, never 3999.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, errorHttpStatus, errorMessages } from '@quire/contracts';
import { catalogueTexts } from '@quire/contracts/catalogueFiles';
import { type Client, quireForTests, signedIn } from './harness.js';
import { makePdf } from './fixtures.js';

// Before the server first asks Tesseract for its languages (the answer is kept).
const noLanguages = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-no-tessdata-'));
process.env.TESSDATA_PREFIX = noLanguages;

const server = quireForTests('no-ocr');
const { client, dir } = server;
let premium: Client;
let fileId: string;

beforeAll(async () => {
  premium = await signedIn(client.base, server.quire.ctx, 'scans@example.org', 'premium');
  fileId = await premium.uploadId(await makePdf(path.join(dir, 'letter.pdf'), 1, 'Letter'));
  return () => fs.rmSync(noLanguages, { recursive: true, force: true });
}, 60_000);

describe('NEED_OCR', () => {
  it('is 4018, a refusal of the request (422), with the spec message', () => {
    expect(ErrorCode.NeedOcr).toBe(4018);
    expect(errorHttpStatus[ErrorCode.NeedOcr]).toBe(422);
    expect(errorMessages[ErrorCode.NeedOcr]).toBe('OCR files are temporarily not supported');
  });

  it('fails an OCR task on a server without OCR languages, in the caller’s words', async () => {
    expect((await premium.call('config')).data.ocr_languages).toEqual([]);
    const created = await premium.post('image/images-ocr-merge-pdf', { file_ids: [fileId], languages: 'eng' });
    expect(created.code, created.msg).toBe(0);
    const entry = await premium.waitTask(created.data.task_id);
    expect([entry.status, entry.msg]).toEqual([ErrorCode.NeedOcr, 'OCR files are temporarily not supported']);
    expect(entry.is_done).toBe(true);

    const german = await premium.call(`get-task-result?task_id=${created.data.task_id}`, { headers: { 'accept-language': 'de' } });
    expect(german.data[0].msg).toBe(catalogueTexts('de-de')[ErrorCode.NeedOcr]);
  });

  it('fails a conversion asked to recognise its text first the same way', async () => {
    const created = await premium.call(`converter?${new URLSearchParams({ file_id: fileId, output_format: 'docx', using_ocr: '1' })}`);
    expect(created.code, created.msg).toBe(0);
    const entry = await premium.waitTask(created.data.task_id);
    expect(entry.status).toBe(ErrorCode.NeedOcr);
  });
});
