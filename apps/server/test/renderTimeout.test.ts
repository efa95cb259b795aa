// A PDF-to-images render that runs out of time says so, and what to try (fewer pages, a lower
// resolution), in the caller's language, instead of "Task failed". A pdftoppm that never answers
// is a wrapper first on PATH (a named stand-in for a render too large for the time allowed).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ErrorCode } from '@quire/contracts';
import { quireForTests } from './harness.js';
import { makePdf } from './fixtures.js';

const shims = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-render-shims-'));
const originalPath = process.env.PATH;

beforeAll(() => {
  fs.writeFileSync(path.join(shims, 'pdftoppm'), '#!/bin/sh\nexec sleep 3598\n', { mode: 0o755 });
  process.env.PATH = `${shims}:${originalPath}`;
});
afterAll(() => {
  process.env.PATH = originalPath;
  fs.rmSync(shims, { recursive: true, force: true });
});
// The whole task's time runs out long before the render's own bound (45 s and more).
const { client, dir } = quireForTests('render-timeout', { taskTimeoutMs: 8_000 });

it('a render out of time fails with 3125 saying it took too long and to choose fewer pages or a lower resolution', async () => {
  const id = await client.uploadId(await makePdf(path.join(dir, 'three.pdf'), 3));
  const created = await client.call(`converter?${new URLSearchParams({ file_id: id, output_format: 'png' })}`, {
    headers: { 'accept-language': 'de-DE' },
  });
  expect(created.code, created.msg).toBe(0);
  const entry = await client.waitTask(created.data.task_id, 120_000);
  expect(entry.status).toBe(ErrorCode.TaskFailed);
  expect(entry.msg).toBe('Rendering the pages took too long and was stopped. Please choose fewer pages or a lower resolution.');
  const german = await client.call(`get-task-result?task_id=${created.data.task_id}`, { headers: { 'accept-language': 'de-DE' } });
  expect(german.data[0].msg).toMatch(/weniger Seiten oder eine niedrigere Auflösung/);
  // No hung render is left behind.
  expect(execFileSync('ps', ['-eo', 'args']).toString()).not.toMatch(/^sleep 3598$/m);
}, 180_000);
