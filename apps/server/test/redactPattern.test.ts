// A redaction pattern that backtracks catastrophically is stopped by its time budget and answered
// with 3100 and a message saying why, instead of holding a core until the engine's time limit.
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { ErrorCode } from '@quire/contracts';
import { quireForTests } from './harness.js';
import { makePdf } from './fixtures.js';

const { client, dir } = quireForTests('pattern');

it('(a+)+$ over a long run of a’s answers 3100 once the search budget is spent', async () => {
  // 2^40 ways to split the run: without a budget this pattern would run for hours.
  const pdf = await makePdf(path.join(dir, 'aaa.pdf'), 1, 'a'.repeat(40), [1200, 842]);
  const id = await client.uploadId(pdf);
  const created = await client.post(`document/redaction/${id}/redaction`, { texts: [{ text: '(a+)+$', regex: true }] });
  expect(created.code, created.msg).toBe(0);
  const entry = await client.waitTask(created.data.task_id, 300_000);
  expect(entry.status).toBe(ErrorCode.InvalidParams);
  expect(entry.msg).toBe('The search pattern takes too long to match. Please make it simpler.');
}, 600_000);

it('an ordinary pattern on the same page still redacts', async () => {
  const pdf = await makePdf(path.join(dir, 'aaa2.pdf'), 1, 'a'.repeat(40), [1200, 842]);
  const id = await client.uploadId(pdf);
  const out = path.join(dir, 'redacted.pdf');
  const entry = await client.runTool(`document/redaction/${id}/redaction`, { texts: [{ text: 'Page \\d', regex: true }] }, out);
  expect(entry.status, entry.msg).toBe(0);
  const text = execFileSync('pdftotext', [out, '-']).toString();
  expect(text).toContain('aaaa');
  expect(text).not.toContain('Page 1');
}, 600_000);
