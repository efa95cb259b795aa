// One visitor cannot starve the others: per-visitor queue and running limits, fair claiming,
// rate limits on uploads and task creation, and budgets on the work a task may ask for.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@quire/contracts';
import { PDFDocument } from 'pdf-lib';
import type { TaskTable } from '../src/db/schema.js';
import { makePdf } from './fixtures.js';
import { Client, fileForm, startQuire, type Running } from './harness.js';
import { Mailbox } from './mailbox.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-fair-'));
let pdf: string;

beforeAll(async () => {
  pdf = await makePdf(path.join(dir, 'forty.pdf'), 40);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const rotate = (client: Client, fileId: string) =>
  client.answer('document/rotate', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ file_id: fileId, angle: 90, pages: 'all' }),
  });

async function tasksOf(quire: Running, ownerCookie: string): Promise<TaskTable[]> {
  const owner = ownerCookie.split('=')[1]!;
  return quire.ctx.db.selectFrom('tasks').selectAll().where('owner_id', '=', owner).orderBy('created_at').execute();
}

/** The most tasks of `tasks` that ran at one moment, from their start and finish times. */
function mostAtOnce(tasks: TaskTable[]): number {
  return Math.max(...tasks.map((t) => tasks.filter((u) => u.started_at <= t.started_at && u.finished_at > t.started_at).length));
}

describe('a visitor flooding the queue', () => {
  let quire: Running;
  beforeAll(async () => {
    // Three task slots: the flooding visitor may hold two, so the third is free for others.
    quire = await startQuire({ workerConcurrency: 3 });
  });
  afterAll(() => quire.stop());

  it("is refused with 3500 past its limits, while another visitor's task is accepted and runs before the flood drains", async () => {
    const flooder = new Client(quire.url);
    const other = new Client(quire.url);
    const floodFile = await flooder.uploadId(pdf);
    const otherFile = await other.uploadId(pdf);

    const flood = await Promise.all(Array.from({ length: 60 }, () => rotate(flooder, floodFile)));
    const refused = flood.filter((a) => a.body?.code === ErrorCode.Busy);
    expect(refused.length).toBeGreaterThan(0);
    // Every answer is an acceptance or the busy envelope: 503 for a full queue, 429 past the rate limit.
    for (const a of flood) {
      if (a.body?.code === 0) expect(a.status).toBe(200);
      else {
        expect([503, 429]).toContain(a.status);
        expect(a.body).toEqual({ code: 3500, msg: 'The service is busy. Please try again later.', data: null });
      }
    }

    const created = await rotate(other, otherFile);
    expect(created.body?.code).toBe(0);
    const otherEntry = await other.waitTask(created.body!.data.task_id);
    expect(otherEntry.is_done).toBe(true);

    const accepted = flood.filter((a) => a.body?.code === 0).map((a) => a.body!.data.task_id as string);
    for (const id of accepted) expect((await flooder.waitTask(id)).is_done).toBe(true);

    const floodTasks = await tasksOf(quire, flooder.cookie);
    const [otherTask] = await tasksOf(quire, other.cookie);
    expect(floodTasks.length).toBe(accepted.length);
    // Never more queued at once than the visitor's limit: every accepted task beyond the first 20
    // was accepted only after an earlier one had left the queue.
    const limit = quire.ctx.config.maxQueuedPerOwner;
    for (const [i, t] of floodTasks.entries()) {
      if (i >= limit) expect(floodTasks[i - limit]!.started_at).toBeLessThanOrEqual(t.created_at);
    }
    // The flood had not drained when the other visitor's task was made...
    const startedAfterOther = floodTasks.filter((t) => t.started_at > otherTask!.created_at);
    expect(startedAfterOther.length).toBeGreaterThanOrEqual(5);
    // ...yet it started at once, before any of the flood's still queued tasks, and finished first.
    expect(startedAfterOther.filter((t) => t.started_at < otherTask!.started_at)).toEqual([]);
    expect(otherTask!.finished_at).toBeLessThan(Math.max(...floodTasks.map((t) => t.finished_at)));
    // And the flood never had more than its 2 tasks running at once, though 3 slots were free.
    expect(mostAtOnce(floodTasks)).toBeLessThanOrEqual(quire.ctx.config.maxRunningPerOwner);
  });
});

describe('many accounts from one address flooding the queue', () => {
  // Three sign-ups a day per address; an address's unfinished work at most 40 megapixels: three
  // of these 20-page conversions to PNG at 72 dpi (11 each), not four. Addresses come from
  // X-Forwarded-For, believed from the loopback.
  let quire: Running;
  let mailbox: Mailbox;
  let pages20: string;
  const FLOOD = '203.0.113.50';
  beforeAll(async () => {
    mailbox = await Mailbox.start();
    quire = await startQuire({
      workerConcurrency: 2,
      trustProxy: 'loopback',
      smtpUrl: mailbox.url,
      signUpsPerAddressPerDay: 3,
      maxQueuedWorkPerAddress: 40,
    });
    pages20 = await makePdf(path.join(dir, 'twenty.pdf'), 20);
  });
  afterAll(async () => {
    await quire.stop();
    await mailbox.close();
  });

  /** A browser at `address`, with cookies of its own. */
  function clientAt(address: string): Client {
    const client = new Client(quire.url);
    const raw = client.raw.bind(client);
    client.raw = (pathname, init = {}) => raw(pathname, { ...init, headers: { 'x-forwarded-for': address, ...(init.headers as object) } });
    return client;
  }
  const json = (client: Client, pathname: string, body: unknown) =>
    client.raw(pathname, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  /** Signs up at `address` through the page's calls, confirms by the mailed link, signs in. */
  async function signUp(address: string, email: string): Promise<Client> {
    const client = clientAt(address);
    expect(await (await json(client, '/api/account/v1/register', { email, password: 'flood-password-1' })).json()).toMatchObject({
      code: 0,
    });
    const token = new URLSearchParams(new URL((await mailbox.take(email)).links[0]!).hash.slice(1)).get('token');
    expect(await (await json(client, '/api/account/v1/verify-email', { token })).json()).toMatchObject({ code: 0 });
    expect(await (await json(client, '/api/account/v1/login', { email, password: 'flood-password-1' })).json()).toMatchObject({ code: 0 });
    return client;
  }
  const toPng = (client: Client, fileId: string) => client.answer(`converter?file_id=${fileId}&output_format=png&dpi=72`);

  it("refuses the address's sign-ups past its cap, and its tasks past its work (429, 3500); others' tasks are taken and run", async () => {
    const flooders = [];
    for (const n of [1, 2, 3]) flooders.push(await signUp(FLOOD, `flood${n}@example.org`));
    const fourth = await json(clientAt(FLOOD), '/api/account/v1/register', { email: 'flood4@example.org', password: 'flood-password-1' });
    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await fourth.json()).toEqual({ code: 3500, msg: 'The service is busy. Please try again later.', data: null });

    const files = await Promise.all(flooders.map((c) => c.uploadId(pages20)));
    const flood = await Promise.all(flooders.flatMap((c, i) => [0, 1, 2].map(() => toPng(c, files[i]!))));
    const accepted = flood.filter((a) => a.body?.code === 0);
    const refused = flood.filter((a) => a.body?.code !== 0);
    // Each account is far below its own queue limit: the address's work is what refuses.
    expect(accepted.length).toBeGreaterThanOrEqual(3);
    expect(refused.length).toBeGreaterThan(0);
    for (const a of refused)
      expect([a.status, a.body]).toEqual([429, { code: 3500, msg: 'The service is busy. Please try again later.', data: null }]);

    // An account and a visitor of other addresses are accepted while the flood's tasks wait, and finish.
    const solo = await signUp('198.51.100.70', 'solo@example.org');
    const visitor = clientAt('198.51.100.71');
    const others = [];
    for (const client of [solo, visitor]) {
      const created = await toPng(client, await client.uploadId(pages20));
      expect(created.body?.code).toBe(0);
      others.push({ client, taskId: created.body!.data.task_id as string });
    }
    for (const { client, taskId } of others) expect(await client.waitTask(taskId)).toMatchObject({ status: 0, is_done: true });
    for (const [i, a] of accepted.entries()) {
      const owner = flooders[Math.floor(flood.indexOf(a) / 3)]!;
      expect((await owner.waitTask(a.body!.data.task_id)).is_done, String(i)).toBe(true);
    }
    // No flood task queued before the others' was started ahead of them.
    const tasks = await quire.ctx.db.selectFrom('tasks').selectAll().execute();
    for (const { taskId } of others) {
      const mine = tasks.find((t) => t.id === taskId)!;
      const jumped = tasks.filter(
        (t) => t.client_key !== mine.client_key && t.started_at > mine.created_at && t.started_at < mine.started_at,
      );
      expect(jumped).toEqual([]);
    }
  });
});

describe('rate limits', () => {
  let quire: Running;
  beforeAll(async () => {
    quire = await startQuire({ taskRate: { perSecond: 0.2, burst: 3 }, uploadRate: { perSecond: 0.05, burst: 2 }, ipRateFactor: 2 });
  });
  afterAll(() => quire.stop());

  it('answers task creation past the burst with 429, the 3500 envelope and Retry-After, per visitor', async () => {
    const client = new Client(quire.url);
    const fileId = await client.uploadId(pdf);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await rotate(client, fileId));
    expect(answers.slice(0, 3).map((a) => a.body?.code)).toEqual([0, 0, 0]);
    expect([answers[3]!.status, answers[3]!.body]).toEqual([
      429,
      { code: 3500, msg: 'The service is busy. Please try again later.', data: null },
    ]);
    const retry = await client.raw('/api/tools/v1/document/rotate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ file_id: fileId, angle: 90, pages: 'all' }),
    });
    expect(retry.status).toBe(429);
    const retryAfter = Number(retry.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(await tasksOf(quire, client.cookie)).toHaveLength(3);

    // Another visitor from the same address still has its own allowance (the address has twice one).
    const second = new Client(quire.url);
    const secondFile = await second.uploadId(pdf);
    expect((await rotate(second, secondFile)).body?.code).toBe(0);

    // After Retry-After the first visitor may create a task again.
    await new Promise((r) => setTimeout(r, retryAfter * 1000));
    expect((await rotate(client, fileId)).body?.code).toBe(0);
  });

  it('answers uploads past the burst with 429 and keeps nothing of the refused one', async () => {
    const client = new Client(quire.url);
    expect((await client.upload(pdf)).code).toBe(0);
    expect((await client.upload(pdf)).code).toBe(0);
    const files = () => fs.readdirSync(path.join(quire.ctx.config.dataDir, 'storage', 'files')).length;
    const stored = files();
    const refused = await client.raw('/api/tools/v1/file/stream', { method: 'POST', body: fileForm(pdf) });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ code: 3500, msg: 'The service is busy. Please try again later.', data: null });
    expect(files()).toBe(stored);
  });

  it('bounds clients that drop their cookie by their address', async () => {
    // Each request without a cookie is a new visitor; the address's bucket (2 × 2 uploads) still empties.
    const fresh = () =>
      fetch(`${quire.url}/api/tools/v1/file/upload-policy`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ filename: 'a.pdf', file_size: 1_000_000, md5_code: 'a'.repeat(32) }),
      });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await fresh()).status);
    expect(statuses).toContain(429);
  });
});

describe('work budgets checked when a task is made', () => {
  let quire: Running;
  let client: Client;
  beforeAll(async () => {
    quire = await startQuire({ maxOcrPages: 30 });
    client = new Client(quire.url);
  });
  afterAll(() => quire.stop());

  it('refuses 1,999 pages to PNG at 600 dpi at once with 3100, saying how to get under the budget', async () => {
    const big = await makePdf(path.join(dir, 'many.pdf'), 1999);
    const fileId = await client.uploadId(big);
    const refused = await client.answer(`converter?file_id=${fileId}&output_format=png&dpi=600`);
    expect(refused.status).toBe(400);
    expect(refused.body?.code).toBe(ErrorCode.InvalidParams);
    expect(refused.body?.msg).toMatch(/^1,999 pages at 600 dpi would be about [\d,]+ million pixels, more than the 5,000 million/);
    expect(refused.body?.msg).toMatch(
      /lower resolution \(\d+ dpi or less for all 1,999 pages\) or fewer pages at a time \(\d+ or fewer at 600 dpi\)/,
    );
    expect(await tasksOf(quire, client.cookie)).toEqual([]);
    // The resolution it names is the highest within the budget for these A4 pages.
    const dpi = Number(refused.body!.msg.match(/\((\d+) dpi or less/)![1]);
    const pixels = (d: number) => 1999 * 595 * 842 * (d / 72) ** 2;
    expect(pixels(dpi)).toBeLessThanOrEqual(5e9);
    expect(pixels(dpi + 1)).toBeGreaterThan(5e9);
  });

  it('checks the budget again with every page size when the task runs: a small first page hides nothing', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([100, 100]);
    for (let i = 0; i < 3; i++) doc.addPage([3000, 3000]);
    const mixed = path.join(dir, 'mixed.pdf');
    fs.writeFileSync(mixed, await doc.save());
    const fileId = await client.uploadId(mixed);
    quire.ctx.config.maxRenderMegapixels = 50;
    try {
      const created = await client.answer(`converter?file_id=${fileId}&output_format=png`);
      expect(created.body?.code).toBe(0);
      expect(await client.waitTask(created.body!.data.task_id)).toMatchObject({
        status: 3100,
        msg: expect.stringMatching(
          /^4 pages at 150 dpi would be about 118 million pixels, more than the 50 million one conversion may make\. Please choose a lower resolution \(\d+ dpi or less for all 4 pages\) or fewer pages at a time \(1 or fewer at 150 dpi\)\.$/,
        ),
        outputs: [],
      });
    } finally {
      quire.ctx.config.maxRenderMegapixels = 5000;
    }
  });

  it('refuses OCR of more pages than one task may recognise', async () => {
    const fileId = await client.uploadId(pdf);
    const refused = await client.answer('image/images-ocr-merge-pdf', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ file_ids: [fileId] }),
    });
    expect(refused.body).toEqual({
      code: 3100,
      msg: 'OCR takes at most 30 pages at a time; this has 40. Please split the document and recognise it in parts.',
      data: null,
    });
  });
});
