import { describe, expect, it } from 'vitest';
import type { TaskEntry } from '@quire/contracts';
import { ApiError } from './client';
import { outputLinks, pollTask, readTaskEntries, startCalls } from './tasks';

const entry = (over: Partial<TaskEntry> = {}): TaskEntry => ({
  task_id: 't1',
  multi_id: 'm1',
  tool: 'merge',
  status: 0,
  msg: '',
  progress: 0,
  is_done: false,
  output_file_name: 'out.pdf',
  outputs: [],
  ...over,
});

describe('readTaskEntries', () => {
  it('averages progress', () => {
    expect(readTaskEntries([entry({ progress: 40 }), entry({ progress: 80 })])).toEqual({ kind: 'running', progress: 60 });
  });

  it('is done only at 100 with every entry done', () => {
    expect(readTaskEntries([entry({ progress: 100, is_done: false })]).kind).toBe('running');
    expect(readTaskEntries([entry({ progress: 100, is_done: true })]).kind).toBe('done');
  });

  it('fails on any non-zero status with the catalogue message', () => {
    const s = readTaskEntries([entry({ progress: 100, is_done: true }), entry({ status: 3124, msg: 'x' })]);
    expect(s.kind).toBe('failed');
    expect(s.kind === 'failed' && s.error.message).toBe('The PDF file is corrupted and cannot be processed.');
  });

  it("says why a task failed (3125) in the server's words", () => {
    const s = readTaskEntries([entry({ status: 3125, msg: 'Processing took too long and was stopped.' })]);
    expect(s.kind === 'failed' && s.error.message).toBe('Processing took too long and was stopped.');
  });
});

describe('pollTask', () => {
  it('polls every interval until done, reporting progress', async () => {
    const answers = [[entry({ progress: 10 })], [entry({ progress: 70 })], [entry({ progress: 100, is_done: true })]];
    let t = 0;
    const waits: number[] = [];
    const seen: number[] = [];
    const entries = await pollTask(
      {
        fetchEntries: async () => answers.shift()!,
        sleep: async (ms) => {
          waits.push(ms);
          t += ms;
        },
        now: () => t,
      },
      (p) => seen.push(p),
    );
    expect(entries[0]!.is_done).toBe(true);
    expect(seen).toEqual([10, 70, 100]);
    expect(waits).toEqual([2000, 2000]);
  });

  it('keeps polling past 120 s while the progress advances, and times out 120 s after it stops', async () => {
    let t = 0;
    let polls = 0;
    const run = pollTask(
      {
        fetchEntries: async () => {
          polls++;
          // One percent every 10 s up to 50 %, then nothing more.
          return [entry({ progress: Math.min(50, Math.floor(t / 10_000)) })];
        },
        sleep: async (ms) => {
          t += ms;
        },
        now: () => t,
      },
      () => {},
    );
    await expect(run).rejects.toBeInstanceOf(ApiError);
    // 50 % is first seen at 500 s; the last poll is 120 s later.
    expect(t).toBe(620_000);
    expect(polls).toBe(311);
  });

  it('times out after 120 s without progress', async () => {
    let t = 0;
    let polls = 0;
    const run = pollTask(
      {
        fetchEntries: async () => {
          polls++;
          return [entry({ progress: 5 })];
        },
        sleep: async (ms) => {
          t += ms;
        },
        now: () => t,
      },
      () => {},
    );
    await expect(run).rejects.toBeInstanceOf(ApiError);
    expect(polls).toBe(61);
    expect(t).toBe(120_000);
  });
});

describe('outputLinks', () => {
  it('adds an index only when a task has several outputs', () => {
    const one = entry({ task_id: 'a', outputs: [{ index: 0, name: 'x.pdf', size: 1 }] });
    const many = entry({
      task_id: 'b',
      outputs: [
        { index: 0, name: 'p1.pdf', size: 1 },
        { index: 1, name: 'p2.pdf', size: 2 },
      ],
    });
    expect(outputLinks([one, many]).map((l) => l.url)).toEqual([
      '/api/tools/v1/document/download-doc?task_id=a',
      '/api/tools/v1/document/download-doc?task_id=b&index=0',
      '/api/tools/v1/document/download-doc?task_id=b&index=1',
    ]);
  });
});

describe('startCalls', () => {
  const calls = ['a', 'b', 'c'].map((file_id) => ({ path: 'compress', body: { file_id } }));

  it("makes the later calls in the first one's multi_id", async () => {
    const made: object[] = [];
    const start = async (_path: string, body: object) => {
      made.push(body);
      return { task_id: `t${made.length}`, multi_id: 'm1' };
    };
    expect(await startCalls(calls, new AbortController().signal, start)).toEqual({ multiId: 'm1', taskIds: ['t1', 't2', 't3'] });
    expect(made).toEqual([{ file_id: 'a' }, { file_id: 'b', multi_id: 'm1' }, { file_id: 'c', multi_id: 'm1' }]);
  });

  it('makes no further call once the run is cancelled, and still names the multi_id to cancel', async () => {
    const cancel = new AbortController();
    const made: object[] = [];
    const start = async (_path: string, body: object) => {
      made.push(body);
      cancel.abort();
      return { task_id: `t${made.length}`, multi_id: 'm1' };
    };
    expect(await startCalls(calls, cancel.signal, start)).toEqual({ multiId: 'm1', taskIds: ['t1'] });
    expect(made).toEqual([{ file_id: 'a' }]);
  });
});
