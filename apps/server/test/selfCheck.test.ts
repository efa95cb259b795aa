// The operator's self-check (/app/automated-test) against the real engines: every check passes on
// this machine and leaves nothing behind; a broken engine (a named stand-in: a `tesseract` first on
// PATH that fails) fails its own check with its reason while the others pass; only operators run it.
import fs from 'node:fs';
import path from 'node:path';
import { ErrorCode, selfCheckIds, type SelfCheckResult } from '@quire/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/services/accounts.js';
import { Client, type Envelope, quireForTests, signedIn } from './harness.js';

const PASSWORD = 'operator password';

async function operatorClient(url: string, ctx: Parameters<typeof createAccount>[0], email: string): Promise<Client> {
  await createAccount(ctx, email, PASSWORD, 'free', 'operator');
  const client = new Client(url);
  await client.raw('/api/account/v1/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  return client;
}

async function runCheck(client: Client, check: string): Promise<Envelope<SelfCheckResult>> {
  const res = await client.raw('/api/account/v1/admin/self-check', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ check }),
  });
  return (await res.json()) as Envelope<SelfCheckResult>;
}

describe('the self-check on a working instance', () => {
  const t = quireForTests('selfcheck');
  let operator: Client;
  beforeAll(async () => {
    operator = await operatorClient(t.quire.url, t.quire.ctx, 'olga@example.org');
  });

  it('passes every check, each with what it verified and its times, and keeps nothing it made', async () => {
    for (const check of selfCheckIds) {
      const answer = await runCheck(operator, check);
      expect(answer.code, check).toBe(0);
      expect(answer.data, `${check}: ${answer.data.detail}`).toMatchObject({ check, ok: true });
      expect(answer.data.run_ms, check).toBeGreaterThan(0);
      expect(answer.data.detail.length, check).toBeGreaterThan(10);
    }
    const { db } = t.quire.ctx;
    expect(await db.selectFrom('tasks').select('id').execute()).toEqual([]);
    expect(await db.selectFrom('files').select('id').execute()).toEqual([]);
  });

  it('refuses an account that is not an operator, and a visitor', async () => {
    const user = await signedIn(t.quire.url, t.quire.ctx, 'una@example.org', 'premium');
    expect((await runCheck(user, 'merge')).code).toBe(ErrorCode.NotPermitted);
    expect((await runCheck(new Client(t.quire.url), 'merge')).code).toBe(ErrorCode.NotLogin);
    expect((await runCheck(operator, 'no-such-check')).code).toBe(ErrorCode.InvalidParams);
  });
});

describe('the self-check with a broken engine', () => {
  const originalPath = process.env.PATH;
  const brokenDir = fs.mkdtempSync(path.join('/tmp', 'quire-broken-tesseract-'));
  // On PATH before the server starts, off it once the server has stopped.
  beforeAll(() => {
    fs.writeFileSync(path.join(brokenDir, 'tesseract'), '#!/bin/sh\necho "tesseract: broken on purpose" >&2\nexit 1\n', { mode: 0o755 });
    process.env.PATH = `${brokenDir}:${originalPath}`;
  });
  const t = quireForTests('selfcheck-broken');
  afterAll(() => {
    process.env.PATH = originalPath;
    fs.rmSync(brokenDir, { recursive: true, force: true });
  });

  it('fails the OCR check with its reason, and still passes the others', async () => {
    const operator = await operatorClient(t.quire.url, t.quire.ctx, 'otto@example.org');
    const ocr = await runCheck(operator, 'ocr');
    expect(ocr.code).toBe(0);
    expect(ocr.data.ok).toBe(false);
    expect(ocr.data.detail).not.toBe('');
    const merge = await runCheck(operator, 'merge');
    expect(merge.data).toMatchObject({ check: 'merge', ok: true });
    expect(await t.quire.ctx.db.selectFrom('files').select('id').execute()).toEqual([]);
  });
});
