// Plan limits through the API, for every kind of user: a visitor, and accounts on the free, premium
// and ai plans (made with the operator's function, signed in through the API). Each limit is tried
// just under and just over; a refusal carries the upgrade dialog and the limit, and nothing of a
// refused upload is stored.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultLimits, ErrorCode, errorMessages, type LimitRole, MB, ocrTooLargeMessage, plans, UPLOAD_PART_SIZE } from '@quire/contracts';
import { readLimits } from '../src/config.js';
import { inEnglish } from '../src/texts/words.js';
import { setPlan } from '../src/services/accounts.js';
import { type Client, fileForm, quireForTests, signedIn, startQuire } from './harness.js';
import { makePdf } from './fixtures.js';

// The shipped limits, visitors' among them (the harness gives visitors Premium's for tests of tools).
const served = quireForTests('limits', { limits: defaultLimits });
const { dir } = served;
const clients = {} as Record<LimitRole, Client>;

beforeAll(async () => {
  clients.anonymous = served.client;
  for (const plan of plans) clients[plan] = await signedIn(served.quire.url, served.quire.ctx, `${plan}@example.org`, plan);
}, 60_000);

const roles = ['anonymous', ...plans] as const;
const paid = (role: LimitRole) => role !== 'anonymous' && role !== 'free';
const sizeDialog = (role: LimitRole) => (paid(role) ? 'sizeVip' : 'sizeUpgrade');

/**
 * A one-page PDF of exactly `bytes`: its content stream padded with blanks. Readers find its
 * objects by the offsets its xref gives, so every byte is where it says.
 */
function pdfOfSize(bytes: number): Buffer {
  const parts = (pad: number) => {
    const content = '0 0 1 rg 72 72 200 200 re f\n';
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
    ];
    let head = '%PDF-1.7\n';
    const offsets: number[] = [];
    objects.forEach((body, i) => {
      offsets.push(head.length);
      head += `${i + 1} 0 obj\n${body}\nendobj\n`;
    });
    offsets.push(head.length);
    head += `4 0 obj\n<< /Length ${content.length + pad} >>\nstream\n${content}`;
    const xrefAt = head.length + pad + '\nendstream\nendobj\n'.length;
    const tail =
      `\nendstream\nendobj\nxref\n0 5\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}` +
      `trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
    return { head, tail, length: head.length + pad + tail.length };
  };
  let pad = bytes - parts(0).length;
  // The stream's /Length and the xref's offset grow by a digit now and then: settle on the pad that fits.
  while (parts(pad).length !== bytes) pad += bytes - parts(pad).length;
  const { head, tail } = parts(pad);
  return Buffer.concat([Buffer.from(head), Buffer.alloc(pad, 0x20), Buffer.from(tail)]);
}

/** A PDF of `pages` blank pages (nothing drawn: only the count matters). */
async function blankPdf(name: string, pages: number): Promise<string> {
  const doc = await PDFDocument.create();
  for (let n = 0; n < pages; n++) doc.addPage([200, 200]);
  const file = path.join(dir, name);
  fs.writeFileSync(file, await doc.save());
  return file;
}

/** Uploads `bytes` in one request, answering whatever the server says. */
function uploadBytes(client: Client, bytes: Buffer, name: string) {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return client.answer('file/stream', { method: 'POST', body: fileForm(file) });
}

const policy = (client: Client, fileSize: number) =>
  client.answer('file/upload-policy', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ filename: 'big.pdf', file_size: fileSize, md5_code: 'f'.repeat(32) }),
  });

/** Uploaded files kept in storage: a refused upload adds none. */
function storedFiles(): number {
  const files = path.join(served.quire.ctx.config.dataDir, 'storage', 'files');
  return fs.existsSync(files) ? fs.readdirSync(files).length : 0;
}

describe('the config call', () => {
  it("answers each caller's plan and its limits", async () => {
    for (const role of roles) {
      const { data } = await clients[role].call('config');
      const plan = defaultLimits[role];
      expect(data).toMatchObject({
        plan: role,
        max_file_size: plan.maxFileMb * MB,
        max_pages: plan.maxPages,
        max_files_per_task: plan.maxFilesPerTask,
        ocr: { allowed: plan.ocr.allowed, max_file_size: plan.ocr.maxFileMb * MB, max_pages: plan.ocr.maxPages },
      });
    }
    expect((await clients.free.call('config')).data).toMatchObject({ max_file_size: 20 * MB, max_pages: 100, max_files_per_task: 5 });
    expect((await clients.premium.call('config')).data.ocr).toEqual({ allowed: true, max_file_size: 50 * MB, max_pages: 2000 });
  });

  it('gives a visitor no more than a free account: the same size, pages, files per task and no OCR', async () => {
    const { plan: _visitor, ...visitor } = (await clients.anonymous.call('config')).data;
    const { plan: _free, ...free } = (await clients.free.call('config')).data;
    expect(visitor).toMatchObject({ max_file_size: 20 * MB, max_pages: 100, max_files_per_task: 5, ocr: { allowed: false } });
    for (const limit of ['max_file_size', 'max_pages', 'max_files_per_task', 'ocr'] as const)
      expect(visitor[limit], limit).toEqual(free[limit]);
  });
});

describe('file size', () => {
  it('takes a declared size up to the plan and refuses one byte more before any is sent (chunked upload)', async () => {
    for (const role of roles) {
      const max = defaultLimits[role].maxFileMb * MB;
      const under = await policy(clients[role], max);
      expect(under.body?.code, role).toBe(0);
      const over = await policy(clients[role], max + 1);
      expect(over.status).toBe(413);
      expect(over.body).toEqual({
        code: ErrorCode.TooLarge,
        msg: errorMessages[ErrorCode.TooLarge],
        data: { upgrade: sizeDialog(role), limit: max / MB },
      });
    }
  });

  it('stores a free upload of exactly 20 MB and refuses 20 MB and a byte, storing nothing of it (one-request upload)', async () => {
    const before = storedFiles();
    const over = await uploadBytes(clients.free, pdfOfSize(20 * MB + 1), 'over.pdf');
    expect(over.body).toMatchObject({ code: ErrorCode.TooLarge, data: { upgrade: 'sizeUpgrade', limit: 20 } });
    expect(storedFiles()).toBe(before);
    const under = await uploadBytes(clients.free, pdfOfSize(20 * MB), 'under.pdf');
    expect(under.body?.code, under.text).toBe(0);
    expect(under.body?.data.file_size).toBe(20 * MB);
    expect(storedFiles()).toBe(before + 1);
  }, 60_000);

  it('refuses a premium upload over 100 MB with the upgraded-size dialog', async () => {
    const over = await uploadBytes(clients.premium, pdfOfSize(100 * MB + 1), 'over.pdf');
    expect(over.body).toMatchObject({ code: ErrorCode.TooLarge, data: { upgrade: 'sizeVip', limit: 100 } });
  }, 60_000);
});

describe('pages', () => {
  let pdf100: string;
  let pdf101: string;
  let pdf2000: string;
  let pdf2001: string;
  beforeAll(async () => {
    [pdf100, pdf101, pdf2000, pdf2001] = await Promise.all([
      blankPdf('p100.pdf', 100),
      blankPdf('p101.pdf', 101),
      blankPdf('p2000.pdf', 2000),
      blankPdf('p2001.pdf', 2001),
    ]);
  }, 60_000);

  it('takes a PDF of the plan’s pages and refuses one page more, naming the limit', async () => {
    for (const role of roles) {
      const max = defaultLimits[role].maxPages;
      const [under, over] = max === 100 ? [pdf100, pdf101] : [pdf2000, pdf2001];
      expect((await clients[role].upload(under)).code, role).toBe(0);
      const refused = await clients[role].upload(over);
      expect(refused).toEqual({
        code: ErrorCode.TooManyPages,
        msg: inEnglish({ key: 'error.limit.pages', params: { max } }),
        data: { upgrade: 'normalPageLimit', limit: max },
      });
    }
  }, 120_000);

  it('holds a chunked upload to the pages of the plan when it completes', async () => {
    const body = fs.readFileSync(pdf101);
    const md5 = crypto.createHash('md5').update(body).digest('hex');
    const started = await clients.free.post('file/upload-policy', { filename: 'p101.pdf', file_size: body.length, md5_code: md5 });
    expect(started.code).toBe(0);
    for (let n = 1; n <= started.data.total_parts; n++) {
      const part = body.subarray((n - 1) * UPLOAD_PART_SIZE, n * UPLOAD_PART_SIZE);
      const sent = await clients.free.call(`file/upload-part?upload_id=${started.data.upload_id}&part_number=${n}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream' },
        body: part,
      });
      expect(sent.code).toBe(0);
    }
    const done = await clients.free.post('file/upload-complete', { upload_id: started.data.upload_id });
    expect(done).toMatchObject({ code: ErrorCode.TooManyPages, data: { upgrade: 'normalPageLimit', limit: 100 } });
  });

  it('checks again when a task is made: a file uploaded on Premium is refused once the account is free', async () => {
    const client = await signedIn(served.quire.url, served.quire.ctx, 'downgraded@example.org', 'premium');
    const id = await client.uploadId(pdf101);
    await setPlan(served.quire.ctx, 'downgraded@example.org', 'free');
    const refused = await client.post('compress', { file_id: id });
    expect(refused).toEqual({
      code: ErrorCode.TooManyPages,
      msg: inEnglish({ key: 'error.limit.pages', params: { max: 100 } }),
      data: { upgrade: 'normalPageLimit', limit: 100 },
    });
  });
});

describe('files per task', () => {
  let ids: Record<LimitRole, string[]>;
  beforeAll(async () => {
    const pdf = await makePdf(path.join(dir, 'one.pdf'), 1, 'One');
    ids = {} as Record<LimitRole, string[]>;
    for (const role of roles) ids[role] = await Promise.all(Array.from({ length: 6 }, () => clients[role].uploadId(pdf)));
  }, 60_000);

  it('merges 5 files for a visitor and on the free plan and refuses 6 with 4014', async () => {
    for (const role of ['anonymous', 'free'] as const) {
      expect((await clients[role].post('merge', { file_ids: ids[role].slice(0, 5) })).code).toBe(0);
      expect(await clients[role].post('merge', { file_ids: ids[role] })).toEqual({
        code: ErrorCode.TooManyFiles,
        msg: inEnglish({ key: 'error.limit.files', params: { max: 5 } }),
        data: { upgrade: 'notBatchFuncFilesLimit', limit: 5 },
      });
    }
  });

  it('merges 6 files on the paid plans', async () => {
    for (const role of ['premium', 'ai'] as const) expect((await clients[role].post('merge', { file_ids: ids[role] })).code, role).toBe(0);
  });
});

describe('OCR', () => {
  /** Queues an OCR task and cancels it at once: only its acceptance is under test. */
  async function ocrAnswer(client: Client, call: 'image/images-ocr-merge-pdf' | 'converter', fileId: string) {
    const answer =
      call === 'converter'
        ? await client.post('converter', { file_id: fileId, output_format: 'pdf', using_ocr: true })
        : await client.post(call, { file_ids: [fileId] });
    if (answer.code === 0) await client.post('document/cancel-task', { task_id: answer.data.task_id });
    return answer;
  }

  it('is refused to a visitor and on the free plan with 4015, by the OCR tool and by a conversion that recognises text', async () => {
    const pdf = await makePdf(path.join(dir, 'scan.pdf'), 1, 'Scan');
    for (const role of ['anonymous', 'free'] as const) {
      const id = await clients[role].uploadId(pdf);
      for (const call of ['image/images-ocr-merge-pdf', 'converter'] as const) {
        expect(await ocrAnswer(clients[role], call, id), role).toEqual({
          code: ErrorCode.OcrNotInPlan,
          msg: errorMessages[ErrorCode.OcrNotInPlan],
          data: { upgrade: 'OCRLimit', limit: 0 },
        });
      }
    }
  });

  it('is taken on the paid plans', async () => {
    const pdf = await makePdf(path.join(dir, 'scan.pdf'), 1, 'Scan');
    for (const role of ['premium', 'ai'] as const) {
      const id = await clients[role].uploadId(pdf);
      for (const call of ['image/images-ocr-merge-pdf', 'converter'] as const)
        expect((await ocrAnswer(clients[role], call, id)).code).toBe(0);
    }
  });

  it('takes 50 MB on Premium and refuses a byte more, though the upload itself was within the plan', async () => {
    const file = path.join(dir, 'ocr50.pdf');
    fs.writeFileSync(file, pdfOfSize(50 * MB));
    expect((await ocrAnswer(clients.premium, 'image/images-ocr-merge-pdf', await clients.premium.uploadId(file))).code).toBe(0);
    fs.writeFileSync(file, pdfOfSize(50 * MB + 1));
    const over = await clients.premium.uploadId(file);
    for (const call of ['image/images-ocr-merge-pdf', 'converter'] as const) {
      expect(await ocrAnswer(clients.premium, call, over)).toEqual({
        code: ErrorCode.TooLarge,
        msg: ocrTooLargeMessage(50),
        data: { upgrade: 'sizeVip', limit: 50 },
      });
    }
  }, 60_000);
});

describe("the operator's limits file", () => {
  it('changes a limit, and a file that is not a valid table stops the start with why', async () => {
    const file = path.join(dir, 'limits.json');
    // Premium asks for more than the server's ceiling (QUIRE_MAX_FILE_MB, 100): the ceiling holds.
    fs.writeFileSync(file, JSON.stringify({ free: { maxFileMb: 1, ocr: { allowed: true } }, premium: { maxFileMb: 500 } }));
    const quire = await startQuire({ limitsFile: file }, false);
    try {
      const free = await signedIn(quire.url, quire.ctx, 'free@example.org', 'free');
      const config = await free.call('config');
      expect(config.data).toMatchObject({ plan: 'free', max_file_size: MB, max_pages: 100, ocr: { allowed: true } });
      expect((await policy(free, MB)).body?.code).toBe(0);
      expect((await policy(free, MB + 1)).body).toMatchObject({ code: ErrorCode.TooLarge, data: { upgrade: 'sizeUpgrade', limit: 1 } });
      const premium = await signedIn(quire.url, quire.ctx, 'premium@example.org', 'premium');
      expect((await premium.call('config')).data.max_file_size).toBe(100 * MB);
    } finally {
      await quire.stop();
    }

    fs.writeFileSync(file, JSON.stringify({ free: { maxFileMb: -3 }, gold: {} }));
    expect(() => readLimits(file)).toThrow(/^QUIRE_LIMITS_FILE .*limits\.json: .*free\.maxFileMb: .*(top level|gold)/);
    // A misspelt field is an error, not a value quietly ignored.
    fs.writeFileSync(file, JSON.stringify({ premium: { ocr: { maxFileMB: 80 } } }));
    expect(() => readLimits(file)).toThrow(/premium\.ocr: .*maxFileMB/);
    fs.writeFileSync(file, '{ free: ');
    expect(() => readLimits(file)).toThrow(/^QUIRE_LIMITS_FILE .*limits\.json: .*JSON/);
  }, 60_000);
});
