// Decompression and structure bombs: each is refused (4012, 4013 or 3124) within 10 s, whether
// at upload or, for an encrypted one whose insides only the password opens, by every tool family
// the moment a call unlocks it; no engine meanwhile grows past 512 MB.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@quire/contracts';
import { EngineMemoryWatch } from './engineMemory.js';
import { Client, quireForTests } from './harness.js';
import { encryptPdf, makePdf } from './fixtures.js';
import { deepPageTree, docxBomb, epubBomb, flateBomb, manyPages, pixelBomb, xlsxManyRows } from './bombFixtures.js';

/** The requirement: a bomb is answered within this long. */
const ANSWER_WITHIN_MS = 10_000;
const ENGINE_MEMORY_BOUND_KB = 512 * 1024;

const served = quireForTests('bombs');
const { client, dir } = served;
const file = (name: string) => path.join(dir, name);

const bombs: { name: string; make: (f: string) => Promise<string>; refusal: ErrorCode }[] = [
  { name: 'flate bomb (a content stream of 4 GB)', make: (f) => flateBomb(f), refusal: ErrorCode.TooLarge },
  { name: 'pixel bomb (a 100000 x 100000 image)', make: (f) => pixelBomb(f), refusal: ErrorCode.TooLarge },
  { name: '100,000 pages', make: (f) => manyPages(f), refusal: ErrorCode.TooManyPages },
  { name: 'page tree 5000 levels deep', make: (f) => deepPageTree(f), refusal: ErrorCode.Damaged },
];

const watch = new EngineMemoryWatch();

afterAll(async () => {
  watch.stop();
});

/** The time an answer took, and the answer. */
async function timed<T>(call: () => Promise<T>): Promise<[T, number]> {
  const start = Date.now();
  const answer = await call();
  return [answer, Date.now() - start];
}

describe('bombs at upload', () => {
  it.each(bombs)('$name is refused within 10 s', async ({ name, make, refusal }) => {
    const bomb = await make(file(`${name.split(' ')[0]}.pdf`));
    const [answer, ms] = await timed(() => client.upload(bomb));
    expect(answer.code, answer.msg).toBe(refusal);
    expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
    if (refusal === ErrorCode.TooManyPages)
      expect(answer.msg).toContain(`limit of ${served.quire.ctx.config.maxPages.toLocaleString('en-US')} pages`);
  });
});

describe('package bombs at upload', () => {
  // Each ran for minutes at gigabytes in LibreOffice or MuPDF before they were refused at upload.
  const packages: { name: string; make: (f: string) => Promise<string>; refusal: ErrorCode }[] = [
    { name: 'a Word document of 1 GB of XML (4 MB zipped)', make: (f) => docxBomb(`${f}.docx`), refusal: ErrorCode.TooLarge },
    { name: 'a workbook of a million rows', make: (f) => xlsxManyRows(`${f}.xlsx`), refusal: ErrorCode.TooManyPages },
    { name: 'an EPUB of 1 GB of XHTML', make: (f) => epubBomb(`${f}.epub`), refusal: ErrorCode.TooLarge },
  ];

  /** The server still answers: a small PDF uploads. */
  async function stillServing() {
    const after = await client.upload(await makePdf(file('after.pdf'), 1));
    expect(after.code, after.msg).toBe(0);
  }

  it.each(packages)('$name is refused within 10 s, and the server stays up', async ({ name, make, refusal }) => {
    const bomb = await make(file(name.replace(/\W+/g, '-')));
    const [answer, ms] = await timed(() => client.upload(bomb));
    expect(answer.code, answer.msg).toBe(refusal);
    expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
    await stillServing();
  });
});

describe('page count at upload', () => {
  it('six uploads of 100,000 pages at once are all refused with 4013 within 10 s', async () => {
    const many = await manyPages(file('many-at-once.pdf'));
    const answers = await Promise.all(Array.from({ length: 6 }, () => timed(() => new Client(served.quire.url).upload(many))));
    for (const [answer, ms] of answers) {
      expect(answer.code, answer.msg).toBe(ErrorCode.TooManyPages);
      expect(ms).toBeLessThan(ANSWER_WITHIN_MS);
    }
  });
});

describe('encrypted bombs, opened by each tool family', () => {
  const password = 'bomb-pass';
  // Each call names the file and its password the way that tool takes them.
  const calls: { family: string; call: (id: string) => Promise<{ code: number; msg: string }> }[] = [
    { family: 'merge', call: (id) => client.post('merge', { file_ids: [id, id], passwds: [password, password] }) },
    { family: 'split', call: (id) => client.post('split', { file_id: id, mode: 'fixed', every: 1, passwd: password }) },
    { family: 'rotate', call: (id) => client.post('document/rotate', { file_id: id, angle: 90, pages: 'all', passwd: password }) },
    { family: 'compress', call: (id) => client.post('compress', { file_id: id, level: 'medium', passwd: password }) },
    { family: 'protect', call: (id) => client.post('encrypt', { file_id: id, passwd: password, password: 'another' }) },
    { family: 'unlock', call: (id) => client.post('decode', { file_id: id, passwd: password }) },
    {
      family: 'crop (MuPDF)',
      call: (id) => client.post('document/cut', { file_id: id, passwd: password, margins: { top: 9, right: 9, bottom: 9, left: 9 } }),
    },
    {
      family: 'redact (MuPDF)',
      call: (id) => client.post(`document/redaction/${id}/redaction`, { texts: [{ text: 'a' }], passwd: password }),
    },
    {
      family: 'replace text (MuPDF)',
      call: (id) => client.post('document/replacetext', { file_id: id, search: 'a', replace: 'b', passwd: password }),
    },
    {
      family: 'PDF to images',
      call: (id) => client.call(`converter?${new URLSearchParams({ file_id: id, output_format: 'png', passwd: password })}`),
    },
    {
      family: 'PDF to Word',
      call: (id) => client.call(`converter?${new URLSearchParams({ file_id: id, output_format: 'docx', passwd: password })}`),
    },
    {
      family: 'PDF to Excel',
      call: (id) => client.call(`converter?${new URLSearchParams({ file_id: id, output_format: 'xlsx', passwd: password })}`),
    },
    { family: 'OCR', call: (id) => client.post('image/images-ocr-merge-pdf', { file_ids: [id], passwd: password }) },
    { family: 'extract images', call: (id) => client.post('extract_images', { file_id: id, passwd: password }) },
  ];

  it.each(bombs)(
    '$name: every tool family answers its refusal within 10 s',
    async ({ name, make, refusal }) => {
      const plain = await make(file(`plain-${name.split(' ')[0]}.pdf`));
      const locked = encryptPdf(plain, file(`locked-${name.split(' ')[0]}.pdf`), password);
      const uploaded = await client.upload(locked);
      expect(uploaded.code, uploaded.msg).toBe(0);
      expect(uploaded.data.encrypted).toBe(true);
      for (const { family, call } of calls) {
        const [answer, ms] = await timed(() => call(uploaded.data.file_id));
        expect(answer.code, `${family}: ${answer.msg}`).toBe(refusal);
        expect(ms, family).toBeLessThan(ANSWER_WITHIN_MS);
      }
    },
    300_000,
  );
});

describe('engine memory', () => {
  it('no engine grew past 512 MB while the bombs were refused', () => {
    // The bombs above ran first (vitest keeps the file's order); the watch saw every engine they started.
    expect(watch.peakKb, `peak ${watch.peakKb} kB in ${watch.peakCommand}`).toBeGreaterThan(0);
    expect(watch.peakKb, `peak in ${watch.peakCommand}`).toBeLessThan(ENGINE_MEMORY_BOUND_KB);
  });
});
