// Sharing as users meet it, through HTTP: a premium account shares a task's output or an uploaded
// file by link, QR code or email; another signed-in account opens it. The mail goes through a real
// SMTP server, the QR code is read back by zbarimg, the bytes are checked with qpdf and pdfinfo,
// and days pass on the clock the server keeps time for shares by (AppContext.now).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, shareEmailMessages, shareLimitMessages, type Plan } from '@quire/contracts';
import { inEnglish } from '../src/texts/words.js';
import { Client, quireForTests, startQuire, type Envelope, type Running } from './harness.js';
import { makePdf } from './fixtures.js';
import { Mailbox } from './mailbox.js';
import { createAccount } from '../src/services/accounts.js';
import { sweep } from '../src/services/sweeper.js';

const mailbox = await Mailbox.start();
afterAll(() => mailbox.close());

const PUBLIC_URL = 'https://quire.example.org';
const DAY_MS = 86_400_000;
const PASSWORD = 'share-test-password';
// The AI plan shares twice a day and never permanently: the daily count and the permanent refusal, on one server.
// Premium and AI holds a cloud of 100 KB: share copies count against it.
const SMALL_CLOUD_BYTES = 100 * 1024;
const limitsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-share-limits-'));
const limitsFile = path.join(limitsDir, 'limits.json');
fs.writeFileSync(
  limitsFile,
  JSON.stringify({ ai: { sharesPerDay: 2, permanentShare: false }, premium_ai: { cloudGb: SMALL_CLOUD_BYTES / 1024 ** 3 } }),
);
afterAll(() => fs.rmSync(limitsDir, { recursive: true, force: true }));

const log = new PassThrough();
let logged = '';
log.on('data', (c: Buffer) => {
  logged += c.toString();
});
const served = quireForTests('share', { smtpUrl: mailbox.url, publicUrl: PUBLIC_URL, limitsFile }, log);

/** Days the server's clock is ahead of the real one; reset after each test. */
function advanceDays(days: number) {
  served.quire.ctx.now = () => Date.now() + days * DAY_MS;
}
afterEach(() => {
  if (served.quire) served.quire.ctx.now = Date.now;
});

interface Person {
  client: Client;
  userId: string;
  email: string;
}

/** Signs the person's client in (again): its user id. */
async function signInAgain(person: Person): Promise<string> {
  const login = await person.client.raw('/api/account/v1/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: person.email, password: PASSWORD }),
  });
  const body = (await login.json()) as Envelope;
  expect(body.code).toBe(0);
  return body.data.user_id;
}

let accounts = 0;
async function signedIn(plan: Plan, quire: Running = served.quire): Promise<Person> {
  const email = `${plan}-${++accounts}@example.org`;
  await createAccount(quire.ctx, email, PASSWORD, plan);
  const person = { client: new Client(quire.url), email, userId: '' };
  person.userId = await signInAgain(person);
  return person;
}

let pdf: string;
let owner: Person;
let reader: Person;
beforeAll(async () => {
  pdf = await makePdf(path.join(served.dir, 'report.pdf'), 3, 'Shared');
  [owner, reader] = await Promise.all([signedIn('premium'), signedIn('free')]);
}, 60_000);

/** A finished rotate task of `who`, and its output's bytes as its owner downloads them. */
async function finishedTask(who: Client): Promise<{ taskId: string; multiId: string; bytes: Buffer }> {
  const fileId = await who.uploadId(pdf);
  const created = await who.post('document/rotate', { file_id: fileId, angle: 90, pages: 'all' });
  expect(created.code).toBe(0);
  expect((await who.waitTask(created.data.task_id)).status).toBe(0);
  const res = await who.raw(`/api/tools/v1/document/download-doc?task_id=${created.data.task_id}`);
  return { taskId: created.data.task_id, multiId: created.data.multi_id, bytes: Buffer.from(await res.arrayBuffer()) };
}

const badAddress = (address: string) => inEnglish({ key: 'error.share.badAddress', params: { address } });
const share = (who: Client, body: Record<string, unknown>, call = 'share-file') => who.post(`share/${call}`, body);
const linkShare = (who: Client, key: string, extra: Record<string, unknown> = {}) =>
  share(who, { share_key: key, share_type: 2, file_type: 2, ...extra });
const codeOf = (url: string) => new URL(url).searchParams.get('share_id')!;

/** Opens a share as the page does: the file's details, then its download URL, then the bytes. */
async function open(who: Client, code: string): Promise<{ info: Envelope; download: Envelope; bytes?: Buffer; status?: number }> {
  const q = `share_code=${encodeURIComponent(code)}&t=${Date.now()}`;
  const info = await who.call(`share/get-share-file?${q}`);
  const download = await who.call(`share/download-share-file?${q}`);
  if (download.code !== 0) return { info, download };
  const res = await who.raw(download.data.download_url);
  return { info, download, status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

const shareList = async (who: Client) =>
  (await who.call('share/list')).data.shares as { share_id: string; share_code: string; opened: number }[];

function checkPdf(bytes: Buffer, name: string): string {
  const file = path.join(served.dir, name);
  fs.writeFileSync(file, bytes);
  execFileSync('qpdf', ['--check', file]);
  return execFileSync('pdfinfo', [file]).toString();
}

describe('a link share', () => {
  it("opens a task's output for another signed-in account, byte for byte, after the task's own outputs are gone", async () => {
    const { taskId, multiId, bytes } = await finishedTask(owner.client);
    const made = await linkShare(owner.client, taskId, { index: 0, share_days: 7 });
    expect(made.code).toBe(0);
    expect(made.data.qr_images).toEqual([]);
    expect(made.data.share_url).toMatch(new RegExp(`^${PUBLIC_URL}/preview\\?share_id=[A-Za-z0-9_-]{22}$`));
    const code = codeOf(made.data.share_url);
    // The share keeps its own copy: the task's outputs deleted, it still opens.
    expect((await owner.client.post('document/delete-outputs', { multi_id: multiId })).data.deleted).toBe(1);

    const opened = await open(reader.client, code);
    expect(opened.info.code).toBe(0);
    expect(opened.info.data).toMatchObject({ file_name: 'report-rotated.pdf', source_user_id: owner.userId, file_size: bytes.length });
    expect(opened.info.data.expires_at).toBeGreaterThan(Date.now() + 7 * DAY_MS - 60_000);
    expect(opened.info.data.expires_at).toBeLessThanOrEqual(Date.now() + 7 * DAY_MS);
    expect(opened.download.data.download_url).toMatch(/^\/api\/tools\/v1\/share\/file\?share_code=/);
    expect(opened.status).toBe(200);
    expect(opened.bytes!.equals(bytes)).toBe(true);
    expect(checkPdf(opened.bytes!, 'opened.pdf')).toMatch(/^Pages:\s+3$/m);

    // A part, as a viewer asks for one: not counted as an opening.
    const part = await reader.client.raw(opened.download.data.download_url, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(10, 20))).toBe(true);
    expect((await shareList(owner.client)).find((s) => s.share_code === code)!.opened).toBe(1);
    // The code never reaches the log, neither the API's share_code nor the page's share_id.
    expect(logged).toContain('share/get-share-file');
    expect(logged).not.toContain(code);
  }, 60_000);

  it('shares an uploaded file, in the language the request came in', async () => {
    const fileId = await owner.client.uploadId(pdf);
    const made = await share(owner.client, { share_key: fileId, share_type: 2, file_type: 1, language: 'de' });
    expect(made.data.share_url).toMatch(new RegExp(`^${PUBLIC_URL}/de/preview\\?share_id=`));
    const opened = await open(reader.client, codeOf(made.data.share_url));
    expect(opened.bytes!.equals(fs.readFileSync(pdf))).toBe(true);
  }, 60_000);

  it('shares a cloud file by reference: no copy, and deleting the file ends the share', async () => {
    const uploadId = await owner.client.uploadId(pdf);
    const cloud = (pathname: string, method: string, body: unknown) =>
      owner.client.raw(`/api/cloud/v1/${pathname}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const added = (await (await cloud('file/create', 'PUT', { upload_file_id: uploadId, name: 'kept.pdf' })).json()) as Envelope;
    expect(added.code).toBe(0);
    const made = await share(owner.client, { share_key: added.data.file_id, share_type: 2, file_type: 1 });
    expect(made.code).toBe(0);
    const code = codeOf(made.data.share_url);
    const opened = await open(reader.client, code);
    expect(opened.info.data.file_name).toBe('kept.pdf');
    expect(opened.bytes!.equals(fs.readFileSync(pdf))).toBe(true);
    const shareId = (await shareList(owner.client)).find((s) => s.share_code === code)!.share_id;
    expect(fs.existsSync(path.join(served.quire.ctx.config.dataDir, 'storage', 'shares', shareId))).toBe(false);
    // Another account cannot share it.
    expect((await share(reader.client, { share_key: added.data.file_id, share_type: 2, file_type: 1 })).code).toBe(ErrorCode.NoData);
    expect(((await (await cloud('multi/delete', 'POST', { file_ids: [added.data.file_id] })).json()) as Envelope).code).toBe(0);
    expect((await open(reader.client, code)).info.code).toBe(ErrorCode.ShareExpired);
  }, 60_000);

  it('shares one output of a task that made several, named by its index', async () => {
    const created = await owner.client.post('split', { file_id: await owner.client.uploadId(pdf), mode: 'fixed', every: 1 });
    expect((await owner.client.waitTask(created.data.task_id)).status).toBe(0);
    expect(await linkShare(owner.client, created.data.task_id)).toMatchObject({
      code: ErrorCode.InvalidParams,
      msg: 'The task made 3 files: name the one to share by its index.',
    });
    expect((await linkShare(owner.client, created.data.task_id, { index: 3 })).code).toBe(ErrorCode.NoData);
    const made = await linkShare(owner.client, created.data.task_id, { index: 1 });
    const own = await owner.client.raw(`/api/tools/v1/document/download-doc?task_id=${created.data.task_id}&index=1`);
    const opened = await open(reader.client, codeOf(made.data.share_url));
    expect(opened.bytes!.equals(Buffer.from(await own.arrayBuffer()))).toBe(true);
    expect(checkPdf(opened.bytes!, 'second.pdf')).toMatch(/^Pages:\s+1$/m);
    expect(execFileSync('pdftotext', [path.join(served.dir, 'second.pdf'), '-']).toString()).toContain('Shared Page 2');
  }, 60_000);

  it('asks a visitor to sign in before opening, and answers 2405 to an unknown code', async () => {
    const { taskId } = await finishedTask(owner.client);
    const code = codeOf((await linkShare(owner.client, taskId)).data.share_url);
    const visitor = new Client(served.quire.url);
    const opened = await open(visitor, code);
    expect(opened.info.code).toBe(ErrorCode.NotLogin);
    expect(opened.download.code).toBe(ErrorCode.NotLogin);
    expect((await visitor.answer(`share/file?share_code=${code}`)).body?.code).toBe(ErrorCode.NotLogin);
    expect((await open(reader.client, 'A'.repeat(22))).info.code).toBe(ErrorCode.NoData);
  }, 60_000);
});

describe('a QR code share', () => {
  it('answers the link as a PNG that zbarimg reads back exactly', async () => {
    const { taskId } = await finishedTask(owner.client);
    const made = await share(owner.client, { share_key: taskId, share_type: 3, file_type: 2 }, 'share-file-qrcode');
    expect(made.code).toBe(0);
    expect(made.data.qr_images).toHaveLength(1);
    const [header, base64] = (made.data.qr_images[0] as string).split(',');
    expect(header).toBe('data:image/png;base64');
    const png = path.join(served.dir, 'qr.png');
    fs.writeFileSync(png, Buffer.from(base64!, 'base64'));
    const decoded = execFileSync('zbarimg', ['--raw', '-q', png]).toString().trim();
    expect(decoded).toBe(made.data.share_url);
    expect((await open(reader.client, codeOf(decoded))).bytes?.length).toBeGreaterThan(0);
  }, 60_000);
});

describe('an email share', () => {
  it('mails each recipient the link, the sender, the message and the expiry; the link opens the file', async () => {
    const { taskId, bytes } = await finishedTask(owner.client);
    const recipients = ['ann@example.org', 'bob.smith@mail.example.co.uk'];
    const made = await share(owner.client, {
      share_key: taskId,
      share_type: 1,
      file_type: 2,
      source_email: owner.email,
      target_email: recipients.join(','),
      // An attempt at a header: it stays in the body.
      message: 'Here is the report.\r\nBcc: eve@example.org',
      share_days: 3,
    });
    expect(made).toMatchObject({ code: 0, data: { share_url: '', qr_images: [] } });
    const links = new Set<string>();
    for (const to of recipients) {
      const mail = await mailbox.take(to);
      expect(mail.to).toEqual([to]);
      expect(mail.replyTo).toBe(owner.email);
      expect(mail.subject).toBe(`${owner.email} shared "report-rotated.pdf" with you`);
      expect(mail.text).toContain('Here is the report.');
      const expiry = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(Date.now() + 3 * DAY_MS);
      expect(mail.text).toContain(`The link works until ${expiry} at`);
      expect(mail.links).toHaveLength(1);
      links.add(mail.links[0]!);
    }
    expect(links.size).toBe(1);
    const [link] = [...links];
    expect(link).toMatch(new RegExp(`^${PUBLIC_URL}/preview\\?share_id=[A-Za-z0-9_-]{22}$`));
    expect(mailbox.mails.filter((m) => m.to.includes('eve@example.org'))).toEqual([]);
    expect((await open(reader.client, codeOf(link!))).bytes!.equals(bytes)).toBe(true);
    const listed = (await owner.client.call('share/list')).data.shares.find((s: { share_code: string }) => s.share_code === codeOf(link!));
    expect(listed).toMatchObject({ share_type: 1, recipients, file_name: 'report-rotated.pdf' });
  }, 60_000);

  it('words the mail in the language of the page it was shared from', async () => {
    const { taskId } = await finishedTask(owner.client);
    const french = JSON.parse(fs.readFileSync(new URL('../src/texts/locales/fr-fr.json', import.meta.url), 'utf8'));
    const made = await share(owner.client, {
      share_key: taskId,
      share_type: 1,
      file_type: 2,
      source_email: owner.email,
      target_email: 'chloe@example.fr',
      share_days: 7,
      language: 'fr',
    });
    expect(made.code).toBe(0);
    const mail = await mailbox.take('chloe@example.fr');
    expect(mail.subject).toBe(french['mail.share.subject'].replace('{sender}', owner.email).replace('{file}', 'report-rotated.pdf'));
    expect(mail.text).toContain(french['mail.share.open']);
    // The date in French words: "le 6 décembre 2026".
    const expiry = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'long', timeZone: 'UTC' }).format(Date.now() + 7 * DAY_MS);
    expect(mail.text).toContain(expiry);
    expect(expiry).toMatch(/^\d{1,2} [a-zéû]+ \d{4}$/);
    expect(mail.links[0]).toContain('/fr/preview?share_id=');
  }, 60_000);

  it("refuses each address the dialog refuses, with the dialog's message, and sends nothing", async () => {
    const { taskId } = await finishedTask(owner.client);
    const before = (await shareList(owner.client)).length;
    const emailShare = (source_email: string | undefined, target_email: string) =>
      share(owner.client, { share_key: taskId, share_type: 1, file_type: 2, source_email, target_email });
    const six = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => `${n}@example.org`).join(',');
    const cases: [string | undefined, string, string][] = [
      [owner.email, ' , ', 'Add at least one email address.'],
      [owner.email, 'ann@example.org,ann@exa mple.org', badAddress('ann@exa mple.org')],
      [owner.email, 'ann@a.b.c.d.e', badAddress('ann@a.b.c.d.e')],
      [owner.email, 'ann+x@example.org', badAddress('ann+x@example.org')],
      [owner.email, six, shareEmailMessages.tooMany],
      [owner.email, 'Ann@Example.org,ann@example.org', shareEmailMessages.duplicate],
    ];
    for (const [source, targets, message] of cases)
      expect(await emailShare(source, targets)).toMatchObject({ code: ErrorCode.InvalidParams, msg: message });
    expect(await shareList(owner.client)).toHaveLength(before);
    expect(mailbox.mails).toEqual([]);
  }, 60_000);

  it("is sent in the name of the account's confirmed address only, whatever sender the request names", async () => {
    const { taskId } = await finishedTask(owner.client);
    const claimed = ['ceo@bank.example', 'me@example.org\r\nBcc: eve@example.org', undefined];
    for (const [n, source_email] of claimed.entries()) {
      const to = `victim-${n}@example.org`;
      const made = await share(owner.client, { share_key: taskId, share_type: 1, file_type: 2, source_email, target_email: to });
      expect(made.code).toBe(0);
      const mail = await mailbox.take(to);
      expect(mail.replyTo).toBe(owner.email);
      expect(mail.subject).toBe(`${owner.email} shared "report-rotated.pdf" with you`);
      expect(mail.text).not.toContain('bank.example');
    }
    expect(mailbox.mails.filter((m) => m.to.includes('eve@example.org'))).toEqual([]);
  }, 60_000);
});

describe('an email share the server cannot send', () => {
  it('is refused before it is made without mail, and undone when the SMTP server cannot be reached', async () => {
    const cases = [
      { smtpUrl: '', code: ErrorCode.InvalidParams, msg: 'This server does not send email: share a link instead.' },
      { smtpUrl: 'smtp://127.0.0.1:1', code: ErrorCode.Generic, msg: 'The email could not be sent. Please try again later.' },
    ];
    for (const { smtpUrl, code, msg } of cases) {
      const quire = await startQuire({ smtpUrl }, false);
      try {
        const sender = await signedIn('premium', quire);
        const fileId = await sender.client.uploadId(pdf);
        const body = { share_key: fileId, share_type: 1, file_type: 1, source_email: sender.email, target_email: 'ann@example.org' };
        expect(await share(sender.client, body)).toMatchObject({ code, msg });
        expect(await shareList(sender.client)).toEqual([]);
        const copies = path.join(quire.ctx.config.dataDir, 'storage', 'shares');
        expect(fs.existsSync(copies) ? fs.readdirSync(copies) : []).toEqual([]);
      } finally {
        await quire.stop();
      }
    }
  }, 60_000);
});

describe("a share's copy", () => {
  it("counts in the account's cloud capacity until it ends; one past the capacity is refused with 41003 and nothing kept", async () => {
    const sharer = await signedIn('premium_ai');
    const file = await makePdf(path.join(served.dir, 'sized.pdf'), 12, 'Sized');
    const fileId = await sharer.client.uploadId(file);
    const size = fs.statSync(file).size;
    const fits = Math.floor(SMALL_CLOUD_BYTES / size);
    expect(fits).toBeGreaterThanOrEqual(2);
    const used = async () => (await sharer.client.raw('/api/cloud/v1/capacity').then((r) => r.json())).data.already_capacity;
    const permanent = () => share(sharer.client, { share_key: fileId, share_type: 2, file_type: 1, share_days: 3650 });
    for (let n = 1; n <= fits; n++) {
      expect((await permanent()).code).toBe(0);
      expect(await used()).toBe(n * size);
    }
    expect(await permanent()).toMatchObject({ code: ErrorCode.CloudFull });
    const copies = path.join(served.quire.ctx.config.dataDir, 'storage', 'shares');
    const listed = await shareList(sharer.client);
    expect(listed).toHaveLength(fits);
    const kept = new Set(fs.readdirSync(copies));
    for (const s of listed) expect(kept.has(s.share_id)).toBe(true);
    // A cloud file does not fit beside the copies either.
    const added = await sharer.client.raw('/api/cloud/v1/file/create', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ upload_file_id: await sharer.client.uploadId(file) }),
    });
    expect(((await added.json()) as Envelope).code).toBe(ErrorCode.CloudFull);
    // Revoked, a share's copy is gone, and its bytes are free again.
    expect((await sharer.client.post('share/revoke', { share_id: listed[0]!.share_id })).code).toBe(0);
    expect(await used()).toBe((fits - 1) * size);
    expect((await permanent()).code).toBe(0);
  }, 60_000);
});

describe('the end of a share', () => {
  it('opens until 1, 3, 7 or 3650 days have passed, then answers 11016; the sweeper removes its copy and forgets it a month on', async () => {
    const { taskId } = await finishedTask(owner.client);
    const made: { days: number; code: string; shareId: string }[] = [];
    for (const days of [1, 3, 7, 3650]) {
      const answer = await linkShare(owner.client, taskId, { share_days: days });
      expect(answer.code).toBe(0);
      const code = codeOf(answer.data.share_url);
      made.push({ days, code, shareId: (await shareList(owner.client)).find((s) => s.share_code === code)!.share_id });
      expect((await open(reader.client, code)).info.data.expires_at).toEqual(days === 3650 ? null : expect.any(Number));
    }
    for (const { days, code, shareId } of made) {
      advanceDays(days - 0.01);
      expect((await open(reader.client, code)).status).toBe(200);
      advanceDays(days + 0.01);
      const ended = await open(reader.client, code);
      expect([ended.info.code, ended.download.code]).toEqual([ErrorCode.ShareExpired, ErrorCode.ShareExpired]);
      expect((await reader.client.answer(`share/file?share_code=${code}`)).body?.code).toBe(ErrorCode.ShareExpired);
      const copy = path.join(served.quire.ctx.config.dataDir, 'storage', 'shares', shareId);
      expect(fs.existsSync(copy)).toBe(true);
      // The whole sweep, on the moved clock: past 30 days it also ends the sessions, which sign in again.
      await sweep(served.quire.ctx);
      if (days > 30) await Promise.all([signInAgain(reader), signInAgain(owner)]);
      expect(fs.existsSync(copy)).toBe(false);
      expect((await open(reader.client, code)).info.code).toBe(ErrorCode.ShareExpired);
    }
    // The 1-day share ended over ten years ago: its record is gone, its link unknown.
    expect((await open(reader.client, made[0]!.code)).info.code).toBe(ErrorCode.NoData);
  }, 120_000);

  it('ends at once when its owner revokes it; another account cannot revoke it', async () => {
    const { taskId } = await finishedTask(owner.client);
    const code = codeOf((await linkShare(owner.client, taskId)).data.share_url);
    const share_id = (await shareList(owner.client)).find((s) => s.share_code === code)!.share_id;
    expect((await reader.client.post('share/revoke', { share_id })).code).toBe(ErrorCode.NoData);
    expect((await open(reader.client, code)).status).toBe(200);
    expect((await owner.client.post('share/revoke', { share_id })).code).toBe(0);
    const ended = await open(reader.client, code);
    expect([ended.info.code, ended.download.code]).toEqual([ErrorCode.ShareExpired, ErrorCode.ShareExpired]);
    expect(fs.existsSync(path.join(served.quire.ctx.config.dataDir, 'storage', 'shares', share_id))).toBe(false);
    expect((await shareList(owner.client)).some((s) => s.share_code === code)).toBe(false);
  }, 60_000);

  it("goes with its owner's account", async () => {
    const leaving = await signedIn('premium');
    const { taskId } = await finishedTask(leaving.client);
    const code = codeOf((await linkShare(leaving.client, taskId)).data.share_url);
    const share_id = (await shareList(leaving.client))[0]!.share_id;
    expect(
      (
        await leaving.client.raw('/api/account/v1/delete', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ password: PASSWORD }),
        })
      ).status,
    ).toBe(200);
    expect((await open(reader.client, code)).info.code).toBe(ErrorCode.NoData);
    expect(fs.existsSync(path.join(served.quire.ctx.config.dataDir, 'storage', 'shares', share_id))).toBe(false);
  }, 60_000);
});

describe("the plan's sharing rules", () => {
  it('asks a visitor to sign in, and offers a free account the upgrade', async () => {
    const visitor = served.client;
    const { taskId: visitorTask } = await finishedTask(visitor);
    expect(await linkShare(visitor, visitorTask)).toMatchObject({
      code: ErrorCode.ShareLimit,
      msg: shareLimitMessages.signedOut,
      data: null,
    });
    const { taskId } = await finishedTask(reader.client);
    for (const call of ['share-file', 'share-file-qrcode'])
      expect(await share(reader.client, { share_key: taskId, share_type: 2, file_type: 2 }, call)).toMatchObject({
        code: ErrorCode.ShareLimit,
        msg: shareLimitMessages.notInPlan,
        data: { upgrade: 'shareUpgrade', limit: 0 },
      });
    expect(await shareList(reader.client)).toEqual([]);
  }, 60_000);

  it('lets a plan share its count in a rolling 24 hours, permanently only where the plan says so', async () => {
    const ai = await signedIn('ai');
    const { taskId } = await finishedTask(ai.client);
    const permanent = await linkShare(ai.client, taskId, { share_days: 3650 });
    expect(permanent).toMatchObject({ code: ErrorCode.ShareLimit, data: { upgrade: 'shareUpgrade' } });
    expect(permanent.msg).toMatch(/^Permanent sharing is a Premium feature/);
    expect((await linkShare(ai.client, taskId)).code).toBe(0);
    expect((await linkShare(ai.client, taskId, { share_type: 1, source_email: ai.email, target_email: 'ann@example.org' })).code).toBe(0);
    await mailbox.take('ann@example.org');
    expect(await linkShare(ai.client, taskId)).toMatchObject({ code: ErrorCode.ShareLimit, msg: shareLimitMessages.signedIn, data: null });
    advanceDays(0.99);
    expect((await linkShare(ai.client, taskId)).code).toBe(ErrorCode.ShareLimit);
    advanceDays(1.01);
    expect((await linkShare(ai.client, taskId)).code).toBe(0);
    // Requests racing for the day's last share: at most one gets it (none, if each saw the others
    // stored before they withdrew: the share is then still to be had).
    const racing = await Promise.all(Array.from({ length: 6 }, () => linkShare(ai.client, taskId)));
    const won = racing.filter((r) => r.code === 0).length;
    expect(racing.filter((r) => r.code === ErrorCode.ShareLimit)).toHaveLength(6 - won);
    expect(won).toBeLessThanOrEqual(1);
    if (won === 0) expect((await linkShare(ai.client, taskId)).code).toBe(0);
    expect(await shareList(ai.client)).toHaveLength(4);
    expect((await linkShare(ai.client, taskId)).code).toBe(ErrorCode.ShareLimit);
  }, 60_000);

  it("answers 2405 for another owner's task or file, and an output that is not there; premium shares permanently", async () => {
    const { taskId } = await finishedTask(reader.client);
    const fileId = await reader.client.uploadId(pdf);
    expect((await linkShare(owner.client, taskId)).code).toBe(ErrorCode.NoData);
    expect((await share(owner.client, { share_key: fileId, share_type: 2, file_type: 1 })).code).toBe(ErrorCode.NoData);
    expect((await share(owner.client, { share_key: taskId, share_type: 2, file_type: 1 })).code).toBe(ErrorCode.NoData);
    const own = await finishedTask(owner.client);
    expect((await linkShare(owner.client, own.taskId, { index: 1 })).code).toBe(ErrorCode.NoData);
    expect((await linkShare(owner.client, own.taskId, { share_days: 3650 })).code).toBe(0);
  }, 60_000);
});
