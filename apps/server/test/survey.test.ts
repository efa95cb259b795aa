// The occupation survey's call: a visitor is refused (3001); an account's answer is one of the
// choices, or Other with 1–48 characters of text (3100 otherwise); the career it keeps comes back
// in the user info (me) and survives a new sign-in. The column is the accounts table's own, on both
// databases (db.test.ts writes and reads it on SQLite and PostgreSQL).
import { ErrorCode, OCCUPATIONS } from '@quire/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { Client, type Envelope, quireForTests, signedIn } from './harness.js';

const t = quireForTests('survey');
const COLLECT = '/api/ai/v2/user-ext-info/collect';
const ME = '/api/account/v1/me';

async function collect(client: Client, occupation: unknown): Promise<Envelope> {
  const res = await client.raw(COLLECT, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ occupation }),
  });
  return (await res.json()) as Envelope;
}
const careerOf = async (client: Client) => ((await (await client.raw(ME)).json()) as Envelope).data.career as string;

describe('occupation survey', () => {
  let account: Client;
  beforeAll(async () => {
    account = await signedIn(t.quire.url, t.quire.ctx, 'surveyed@example.org', 'free');
  });

  it('refuses a visitor with 3001', async () => {
    const visitor = new Client(t.quire.url);
    expect((await collect(visitor, 'Student')).code).toBe(ErrorCode.NotLogin);
  });

  it('starts without a career', async () => {
    expect(await careerOf(account)).toBe('');
  });

  it('refuses a choice not listed, a bare Other, a blank or 49-character text, with 3100', async () => {
    for (const wrong of ['Astronaut', 'student', 'Other', 'Other: ', 'Other:    ', `Other: ${'x'.repeat(49)}`, '', 7, null]) {
      const answer = await collect(account, wrong);
      expect(answer.code, JSON.stringify(wrong)).toBe(ErrorCode.InvalidParams);
    }
    expect(await careerOf(account)).toBe('');
  });

  it('keeps each listed choice as the career, which me answers', async () => {
    for (const occupation of OCCUPATIONS.filter((o) => o !== 'Other')) {
      const answer = await collect(account, occupation);
      expect(answer.code).toBe(0);
      expect(answer.data.career).toBe(occupation);
      expect(await careerOf(account)).toBe(occupation);
    }
  });

  it('keeps Other with 48 characters of text, trimmed, and it comes back after a new sign-in', async () => {
    const text = 'Beekeeper and part-time lighthouse keeper, Skye'.padEnd(48, '!');
    expect(text).toHaveLength(48);
    const answer = await collect(account, `Other:   ${text}  `);
    expect(answer.code).toBe(0);
    expect(answer.data.career).toBe(`Other: ${text}`);
    expect(await careerOf(account)).toBe(`Other: ${text}`);

    const again = new Client(t.quire.url);
    const login = await again.raw('/api/account/v1/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'surveyed@example.org', password: 'test-password-1' }),
    });
    expect(((await login.json()) as Envelope).data.career).toBe(`Other: ${text}`);
  });

  it('refuses an unlisted choice without touching the kept career', async () => {
    expect((await collect(account, `Other: ${'y'.repeat(49)}`)).code).toBe(ErrorCode.InvalidParams);
    expect(await careerOf(account)).toMatch(/^Other: Beekeeper/);
  });
});
