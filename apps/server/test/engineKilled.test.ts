// An engine killed from outside while its task runs (an operator, the OOM killer) fails the task
// as one to try again (3125), never as a damaged file (3124) nor as a success missing a step.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ErrorCode } from '@quire/contracts';
import { quireForTests } from './harness.js';
import { makePdf } from './fixtures.js';

const { client, dir } = quireForTests('killed');

const read = (f: string) => {
  try {
    return fs.readFileSync(f, 'utf8');
  } catch {
    return '';
  }
};

/** Processes below this one (the server runs in it) whose command line names `needle`. */
function enginesNaming(needle: string, pid = process.pid): number[] {
  const tasks = fs.existsSync(`/proc/${pid}/task`) ? fs.readdirSync(`/proc/${pid}/task`) : [];
  const children = tasks.flatMap((t) => read(`/proc/${pid}/task/${t}/children`).trim().split(/\s+/).filter(Boolean).map(Number));
  return children.flatMap((child) => [
    ...(read(`/proc/${child}/cmdline`).includes(needle) ? [child] : []),
    ...enginesNaming(needle, child),
  ]);
}

it('an engine killed mid-task fails the task with 3125', async () => {
  const id = await client.uploadId(await makePdf(path.join(dir, 'long.pdf'), 400));
  const created = await client.post('compress', { file_id: id, level: 'high' });
  expect(created.code, created.msg).toBe(0);
  const taskId: string = created.data.task_id;
  // The first engine writing into the task's work folder is killed as soon as it is seen.
  let killed: number | undefined;
  while (killed === undefined) {
    [killed] = enginesNaming(path.join('work', taskId));
    await new Promise((r) => setTimeout(r, 5));
  }
  const command = read(`/proc/${killed}/cmdline`).split('\0')[0];
  process.kill(killed, 'SIGKILL');
  const entry = await client.waitTask(taskId, 300_000);
  expect(entry.status, `${command} killed: ${entry.msg}`).toBe(ErrorCode.TaskFailed);
}, 600_000);
