// What happens across restarts and with time: queued tasks resume, abandoned ones are retried
// once then failed, and expired uploads and outputs are deleted from disk.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@quire/contracts';
import { Client, startQuire } from './harness.js';
import { makePdf, rotations } from './fixtures.js';
import { sweep } from '../src/services/sweeper.js';
import { MAX_ATTEMPTS } from '../src/queue/worker.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-life-'));
const file = (name: string) => path.join(dir, name);

beforeAll(async () => {
  await makePdf(file('a.pdf'), 2, 'A');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('restart', () => {
  it('a task queued before a restart runs after it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-restart-'));
    const apiOnly = await startQuire({ dataDir }, false);
    const client = new Client(apiOnly.url);
    const id = await client.uploadId(file('a.pdf'));
    const created = await client.post('document/rotate', { file_id: id, angle: 180, pages: 'all' });
    expect((await client.call(`get-task-result?task_id=${created.data.task_id}`)).data[0]).toMatchObject({
      is_done: false,
      status: 0,
      progress: 0,
    });
    await apiOnly.stop(true);

    const restarted = await startQuire({ dataDir });
    try {
      const again = new Client(restarted.url);
      again.cookie = client.cookie; // the same visitor comes back
      const entry = await again.waitTask(created.data.task_id);
      expect(entry).toMatchObject({ status: 0, is_done: true });
      const res = await again.raw(`/api/tools/v1/document/download-doc?task_id=${entry.task_id}`);
      fs.writeFileSync(file('after-restart.pdf'), Buffer.from(await res.arrayBuffer()));
      expect(rotations(file('after-restart.pdf'))).toEqual([180, 180]);
    } finally {
      await restarted.stop();
    }
  });

  it('a task whose worker died is retried, and failed clearly after the last attempt', async () => {
    const quire = await startQuire({}, false);
    try {
      const client = new Client(quire.url);
      const id = await client.uploadId(file('a.pdf'));
      const retry = (await client.post('document/rotate', { file_id: id, angle: 90, pages: 'all' })).data.task_id;
      const give_up = (await client.post('document/rotate', { file_id: id, angle: 90, pages: 'all' })).data.task_id;
      // Both were "running" on a worker that stopped renewing its lease.
      const past = Date.now() - 1;
      await quire.ctx.db.updateTable('tasks').set({ state: 'running', lease_until: past, attempts: 1 }).where('id', '=', retry).execute();
      await quire.ctx.db
        .updateTable('tasks')
        .set({ state: 'running', lease_until: past, attempts: MAX_ATTEMPTS })
        .where('id', '=', give_up)
        .execute();
      await sweep(quire.ctx);
      const states = await quire.ctx.db.selectFrom('tasks').select(['id', 'state', 'error_code']).execute();
      expect(states.find((t) => t.id === retry)).toMatchObject({ state: 'queued' });
      expect(states.find((t) => t.id === give_up)).toMatchObject({ state: 'failed', error_code: ErrorCode.TaskFailed });
      const failed = (await client.call(`get-task-result?task_id=${give_up}`)).data[0];
      expect(failed).toMatchObject({ status: ErrorCode.TaskFailed, is_done: true });
    } finally {
      await quire.stop();
    }
  });
});

describe('expiry', () => {
  it('deletes uploads, outputs and unfinished upload parts once their time is up', async () => {
    const quire = await startQuire({ retentionHours: 1 });
    try {
      const client = new Client(quire.url);
      const id = await client.uploadId(file('a.pdf'));
      const task = await client.runTool('document/rotate', { file_id: id, angle: 90, pages: 'all' }, file('r.pdf'));
      await client.post('file/upload-policy', { filename: 'half.pdf', file_size: 600_000, md5_code: 'b'.repeat(32) });
      const storage = path.join(quire.ctx.config.dataDir, 'storage');
      expect(fs.readdirSync(path.join(storage, 'files'))).toHaveLength(1);
      expect(fs.readdirSync(path.join(storage, 'outputs'))).toEqual([task.task_id]);

      expect(await sweep(quire.ctx, Date.now() + 30 * 60_000)).toEqual({ files: 0, tasks: 0, uploads: 0 });
      expect(await sweep(quire.ctx, Date.now() + 61 * 60_000)).toEqual({ files: 1, tasks: 1, uploads: 1 });
      expect(fs.readdirSync(path.join(storage, 'files'))).toEqual([]);
      expect(fs.readdirSync(path.join(storage, 'outputs'))).toEqual([]);
      expect(fs.readdirSync(path.join(quire.ctx.tmpDir, 'uploads'))).toEqual([]);
      expect((await client.call(`document/info?file_id=${id}`)).code).toBe(ErrorCode.NoData);
    } finally {
      await quire.stop();
    }
  });
});
