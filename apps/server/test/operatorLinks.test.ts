// The links operators set (a banner's, a message's, the activity's event) are a page of the site
// or a web address: none a browser reads as another site's while it looks like a path.
import { ErrorCode } from '@quire/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/services/accounts.js';
import { Client, type Envelope, quireForTests } from './harness.js';

const t = quireForTests('operator-links');
const ADMIN = '/api/account/v1/admin/';
const now = () => Math.floor(Date.now() / 1000);

/** Paths a browser follows to evil.example: backslashes turn into slashes, tabs and newlines are dropped. */
const OFF_SITE = ['/\\evil.example', '\\\\evil.example', '/\t/evil.example', '/\n/evil.example', '//evil.example', '\\/evil.example'];

describe('operator links', () => {
  let operator: Client;
  const send = async (method: string, call: string, body: unknown): Promise<Envelope> =>
    (await (
      await operator.raw(ADMIN + call, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    ).json()) as Envelope;
  const banner = (jump_url: string) =>
    send('POST', 'banners', { title: 'Sale', jump_url, display_start_time: now(), display_end_time: now() + 60 });
  const message = (site_url: string) => send('POST', 'messages', { template_type: 1, audience: 'everyone', title: 'News', site_url });
  const activity = (adv_url: string) => send('PUT', 'activity', { reward_tokens: 0, invite_cap: 0, adv_popshow: 0, adv_url, adv_img: '' });

  beforeAll(async () => {
    await createAccount(t.quire.ctx, 'links@example.org', 'operator password', 'free', 'operator');
    operator = new Client(t.quire.url);
    await operator.raw('/api/account/v1/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'links@example.org', password: 'operator password' }),
    });
  });

  it('refuse, with 3100, paths a browser reads as another site', async () => {
    for (const link of OFF_SITE) {
      for (const answer of [await banner(link), await message(link), await activity(link)]) {
        expect(answer.code, JSON.stringify(link)).toBe(ErrorCode.InvalidParams);
      }
    }
  });

  it('take a path of the site and a web address', async () => {
    for (const link of ['/app/chat-pdf', '/pricing?from=banner#plans', 'https://status.example.org/a%20b']) {
      for (const answer of [await banner(link), await message(link), await activity(link)])
        expect(answer, `${link} ${answer.msg}`).toMatchObject({ code: 0 });
    }
  });
});
