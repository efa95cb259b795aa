// Each kind of engine job is stopped at its own bound, not at the configured one: an inspection
// that hangs holds a worker for seconds, not for the two minutes a whole-document rewrite may take.
// A qpdf that never answers is a wrapper first on PATH (a named stand-in for a hung engine) that
// sleeps when asked for the page count, and runs the real qpdf otherwise.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorCode } from '@quire/contracts';
import { JOB_BOUNDS } from '../src/engines/run.js';
import { quireForTests } from './harness.js';
import { makePdf } from './fixtures.js';

const shims = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bounds-shims-'));
const originalPath = process.env.PATH;

/** A qpdf that hangs on --show-npages (the rotate tool's first, inspecting call). */
function hangingQpdf(): string {
  const real = execFileSync('sh', ['-c', 'command -v qpdf']).toString().trim();
  const script = `#!/bin/sh\ncase " $* " in *" --show-npages "*) exec sleep 3599 ;; esac\nexec '${real}' "$@"\n`;
  fs.writeFileSync(path.join(shims, 'qpdf'), script, { mode: 0o755 });
  return shims;
}

// On PATH before the server starts, off it once the server has stopped.
beforeAll(() => {
  process.env.PATH = `${hangingQpdf()}:${originalPath}`;
});
afterAll(() => {
  process.env.PATH = originalPath;
  fs.rmSync(shims, { recursive: true, force: true });
});
// The configured limit is the default two minutes, as a deployment has it.
const { client, dir } = quireForTests('bounds', { engineTimeoutMs: 120_000 });

it('a hung inspection inside a task is stopped at the inspect bound with 3125, not at the configured limit', async () => {
  const id = await client.uploadId(await makePdf(path.join(dir, 'three.pdf'), 3));
  const started = Date.now();
  const created = await client.post('document/rotate', { file_id: id, angle: 90, pages: 'all' });
  expect(created.code, created.msg).toBe(0);
  const entry = await client.waitTask(created.data.task_id, 300_000);
  const took = Date.now() - started;
  expect(entry.status).toBe(ErrorCode.TaskFailed);
  expect(entry.msg).toBe('Processing took too long and was stopped.');
  expect(took).toBeGreaterThanOrEqual(JOB_BOUNDS.inspect.baseMs);
  // Well before the configured two minutes, with room for a loaded machine.
  expect(took).toBeLessThan(JOB_BOUNDS.inspect.baseMs + 30_000);
  // No hung engine is left behind.
  expect(execFileSync('ps', ['-eo', 'args']).toString()).not.toMatch(/^sleep 3599$/m);
}, 300_000);
