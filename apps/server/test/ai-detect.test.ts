// The AI detector's calls against a real server: scores for text and for the text of PDF, Word and
// text files (read independently with pdftotext), the 250-character minimum, the single-request
// limit, the character quota of each plan just under and over, a file over the plan's pages
// refused and deleted, and another account's file.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultLimits, ErrorCode, withOverride } from '@quire/contracts';
import { Client, quireForTests, signedIn, type Envelope } from './harness.js';
import { encryptPdf, makePdf } from './fixtures.js';

/** Small quotas for free and the AI plan, so that each is reached in a few calls; Premium keeps the product's 100,000. */
const limits = withOverride(defaultLimits, {
  free: { ai: { detectorChars: 1000, detectorMaxRequestChars: 600 } },
  ai: { ai: { detectorChars: 1000, detectorMaxRequestChars: 600 } },
});
const served = quireForTests('ai-detect', { limits });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-ai-detect-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const BASE = '/api/ai/v2/ai-detect/';
let emails = 0;
const account = (plan: 'free' | 'premium' | 'ai' = 'free') =>
  signedIn(served.quire.url, served.quire.ctx, `detect-${emails++}@example.org`, plan);

async function post(client: Client, call: string, body: unknown): Promise<Envelope> {
  const res = await client.raw(BASE + call, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Envelope;
}
const charCheck = async (client: Client) => ((await (await client.raw(`${BASE}char/check`)).json()) as Envelope).data;

/** Prose of exactly `n` characters, sentences of ordinary words. */
function prose(n: number): string {
  const sentence = 'The river rose in the night, and by morning the lower fields were under water again. ';
  return sentence
    .repeat(Math.ceil(n / sentence.length))
    .slice(0, n - 1)
    .concat('.');
}

describe('AI detector', () => {
  it('refuses visitors every call (3001)', async () => {
    const visitor = new Client(served.quire.url);
    expect((await post(visitor, 'predict/text', { text: prose(300) })).code).toBe(ErrorCode.NotLogin);
    expect((await post(visitor, 'predict/file', { file_id: 'x' })).code).toBe(ErrorCode.NotLogin);
    expect(((await (await visitor.raw(`${BASE}char/check`)).json()) as Envelope).code).toBe(ErrorCode.NotLogin);
  });

  it('scores text whole and per sentence, with the offsets of each sentence, at 250 characters and not at 249', async () => {
    const client = await account();
    const short = await post(client, 'predict/text', { text: prose(249) });
    expect(short.code).toBe(ErrorCode.TextTooShort);
    expect(await charCheck(client)).toEqual({ total: 1000, used: 0 });

    const text = `  ${prose(250)}\n`;
    const res = await post(client, 'predict/text', { text });
    expect(res.code).toBe(0);
    expect(res.data).toMatchObject({ total: 1000, remain: 750, per_chars: 250, method: 'statistical' });
    expect(res.data.score).toBeGreaterThanOrEqual(0);
    expect(res.data.score).toBeLessThanOrEqual(1);
    expect(res.data.sentences.length).toBe(3);
    for (const s of res.data.sentences) {
      expect(text.slice(s.start, s.end)).toBe(s.sentence);
      expect(s.score).toBeGreaterThanOrEqual(0);
      expect(s.score).toBeLessThanOrEqual(1);
    }
    expect(await charCheck(client)).toEqual({ total: 1000, used: 250 });
  });

  it('tells a licence from this project’s specification, which a language model wrote', async () => {
    const client = await account('premium');
    const gpl = fs.readFileSync('/usr/share/common-licenses/GPL-3', 'utf8').slice(2000, 4000);
    const adr = fs
      .readFileSync(path.resolve(import.meta.dirname, '../../../docs/adr/0022-engine-bounds-per-job.md'), 'utf8')
      .slice(0, 2000);
    const human = await post(client, 'predict/text', { text: gpl });
    const machine = await post(client, 'predict/text', { text: adr });
    expect(human.data.score).toBeLessThan(0.5);
    expect(machine.data.score).toBeGreaterThan(0.5);
  });

  for (const plan of ['free', 'ai'] as const) {
    it(`charges ${plan} characters up to its quota, and refuses one request over its single-request limit`, async () => {
      const client = await account(plan);
      expect((await post(client, 'predict/text', { text: prose(601) })).code).toBe(ErrorCode.DetectorRequestLimit);
      expect((await post(client, 'predict/text', { text: prose(600) })).data.remain).toBe(400);
      // Just over what is left: refused, nothing charged; exactly what is left: taken.
      const over = await post(client, 'predict/text', { text: prose(401) });
      expect(over.code).toBe(ErrorCode.DetectorCharsLimit);
      expect(over.data).toEqual(plan === 'free' ? { upgrade: 'detectorLimit', limit: 1000 } : null);
      expect(await charCheck(client)).toEqual({ total: 1000, used: 600 });
      expect((await post(client, 'predict/text', { text: prose(400) })).data.remain).toBe(0);
      expect((await post(client, 'predict/text', { text: prose(250) })).code).toBe(ErrorCode.DetectorCharsLimit);
    });
  }

  it('lets only one of two racing requests take characters that suffice for one', async () => {
    const client = await account();
    const answers = await Promise.all([
      post(client, 'predict/text', { text: prose(600) }),
      post(client, 'predict/text', { text: prose(600) }),
    ]);
    expect(answers.map((a) => a.code).sort()).toEqual([0, ErrorCode.DetectorCharsLimit]);
    expect(await charCheck(client)).toEqual({ total: 1000, used: 600 });
  });

  it("gives Premium 100,000 characters a month, 50,000 a request, and says 'Limit of 100,000 characters exceeded'", async () => {
    const client = await account('premium');
    expect((await post(client, 'predict/text', { text: prose(50_001) })).code).toBe(ErrorCode.DetectorRequestLimit);
    expect((await post(client, 'predict/text', { text: prose(50_000) })).data.remain).toBe(50_000);
    expect((await post(client, 'predict/text', { text: prose(49_999) })).data.remain).toBe(1);
    const over = await post(client, 'predict/text', { text: prose(250) });
    expect(over).toMatchObject({ code: ErrorCode.DetectorCharsLimit, msg: 'Limit of 100,000 characters exceeded' });
    // The next month's quota is whole again.
    const ctx = served.quire.ctx;
    const now = ctx.now;
    const nextMonth = new Date(now());
    nextMonth.setUTCMonth(nextMonth.getUTCMonth() + 1);
    ctx.now = () => nextMonth.getTime();
    try {
      expect(await charCheck(client)).toEqual({ total: 100_000, used: 0 });
    } finally {
      ctx.now = now;
    }
  });

  it('scores the text of a PDF as pdftotext reads it', async () => {
    const client = await account('premium');
    const pdf = path.resolve(import.meta.dirname, '../../../test-corpus/pdfjs/issue13201.pdf');
    const res = await post(client, 'predict/file', { file_id: await client.uploadId(pdf) });
    expect(res.code).toBe(0);
    // pdftotext's plain text joins a word hyphenated across lines; its layout keeps the hyphen.
    const squeeze = (s: string) => s.replace(/[\s-]+/g, '');
    const independent = squeeze(execFileSync('pdftotext', ['-enc', 'UTF-8', pdf, '-'], { encoding: 'utf8' }));
    // Every sentence is the PDF's text, and together they are nearly all of it.
    for (const s of res.data.sentences) expect(independent).toContain(squeeze(s.sentence));
    const covered = res.data.sentences.reduce((n: number, s: { sentence: string }) => n + squeeze(s.sentence).length, 0);
    expect(covered / independent.length).toBeGreaterThan(0.9);
  });

  it('scores Word and UTF-16 text files', async () => {
    const client = await account('premium');
    const text = prose(900);
    const txt = path.join(tmp, 'utf16.txt');
    fs.writeFileSync(txt, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const fromText = await post(client, 'predict/file', { file_id: await client.uploadId(txt) });
    expect(fromText.data.per_chars).toBe(900);
    expect(fromText.data.sentences[0].sentence).toBe(text.slice(0, text.indexOf('.') + 1));
    // A Word document made by LibreOffice from the same text.
    execFileSync('soffice', ['--headless', `-env:UserInstallation=file://${tmp}/lo`, '--convert-to', 'docx', '--outdir', tmp, txt], {
      stdio: 'ignore',
    });
    const fromWord = await post(client, 'predict/file', { file_id: await client.uploadId(path.join(tmp, 'utf16.docx')) });
    expect(fromWord.code).toBe(0);
    // LibreOffice breaks the lines of a text file's paragraph; the words are the same.
    const sentences = fromWord.data.sentences.map((s: { sentence: string }) => s.sentence.replace(/\s+/g, ' '));
    expect(sentences.join(' ')).toBe(text);
  });

  it('refuses a free account a PDF over 10 pages (11011), takes 10, and deletes each file once read', async () => {
    const client = await account();
    const label = 'Rivers rise and fall with the seasons';
    const ten = await client.uploadId(await makePdf(path.join(tmp, 'ten.pdf'), 10, label));
    expect((await post(client, 'predict/file', { file_id: ten })).code).toBe(0);
    expect((await client.answer(`file/download?file_id=${ten}`)).body?.code).toBe(ErrorCode.NoData);
    expect(fs.existsSync(path.join(served.quire.ctx.config.dataDir, 'storage', 'files', `${ten}.pdf`))).toBe(false);
    const eleven = await client.uploadId(await makePdf(path.join(tmp, 'eleven.pdf'), 11, label));
    const stored = path.join(served.quire.ctx.config.dataDir, 'storage', 'files', `${eleven}.pdf`);
    expect(fs.existsSync(stored)).toBe(true);
    const refused = await post(client, 'predict/file', { file_id: eleven });
    expect(refused).toMatchObject({ code: ErrorCode.DetectorFileLimit, data: { upgrade: 'detectorLimit', limit: 10 } });
    const download = await client.answer(`file/download?file_id=${eleven}`);
    expect(download.body?.code).toBe(ErrorCode.NoData);
    expect(fs.existsSync(stored)).toBe(false);
  });

  it('refuses a file with too little text (11005) or a password (3122), and charges nothing', async () => {
    const client = await account();
    const short = await client.uploadId(await makePdf(path.join(tmp, 'short.pdf'), 2, 'Short'));
    expect((await post(client, 'predict/file', { file_id: short })).code).toBe(ErrorCode.TextTooShort);
    const locked = encryptPdf(await makePdf(path.join(tmp, 'plain.pdf'), 1, prose(300)), path.join(tmp, 'locked.pdf'), 'secret-1');
    expect((await post(client, 'predict/file', { file_id: await client.uploadId(locked) })).code).toBe(ErrorCode.Encrypted);
    expect(await charCheck(client)).toEqual({ total: 1000, used: 0 });
  });

  it("answers 2405 for another account's file, and charges nothing", async () => {
    const owner = await account('premium');
    const other = await account('premium');
    const fileId = await owner.uploadId(await makePdf(path.join(tmp, 'owned.pdf'), 1, 'Owned'));
    expect((await post(other, 'predict/file', { file_id: fileId })).code).toBe(ErrorCode.NoData);
    expect(await charCheck(other)).toEqual({ total: 100_000, used: 0 });
  });
});
