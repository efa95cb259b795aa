// The top banners (spec §7.7): operators publish and withdraw them; anyone's page reads those not
// yet over for pid 4512 and key HiPDFTopMessageBar, and nothing for any other id or key.
import { ErrorCode } from '@quire/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../src/services/accounts.js';
import { Client, type Envelope, quireForTests, signedIn } from './harness.js';

const t = quireForTests('banners');
const ADMIN = '/api/account/v1/admin/banners';
const LIST = '/api/site/v1/operation/list?pid=4512&key=HiPDFTopMessageBar';
const now = () => Math.floor(Date.now() / 1000);

async function json(client: Client, pathname: string, init: RequestInit = {}): Promise<Envelope> {
  return (await (await client.raw(pathname, init)).json()) as Envelope;
}
const publish = (client: Client, body: unknown) =>
  json(client, ADMIN, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('top banners', () => {
  let operator: Client;
  beforeAll(async () => {
    await createAccount(t.quire.ctx, 'ops@example.org', 'operator password', 'free', 'operator');
    operator = new Client(t.quire.url);
    await operator.raw('/api/account/v1/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ops@example.org', password: 'operator password' }),
    });
  });

  it('lists the banners not yet over to anyone, soonest first, and none for another id or key', async () => {
    const current = await publish(operator, {
      title: 'New: chat with your PDFs',
      jump_url: '/app/chat-pdf',
      display_start_time: now() - 60,
      display_end_time: now() + 3600,
    });
    expect(current.code).toBe(0);
    const later = await publish(operator, {
      title: 'Maintenance on Sunday',
      jump_url: 'https://status.example.org/',
      display_start_time: now() + 600,
      display_end_time: now() + 7200,
    });
    const over = await publish(operator, {
      title: 'Last week',
      jump_url: '/pricing',
      display_start_time: now() - 7200,
      display_end_time: now() - 60,
    });
    expect([later.code, over.code]).toEqual([0, 0]);

    const visitor = new Client(t.quire.url);
    const list = await json(visitor, LIST);
    expect(list.code).toBe(0);
    expect(list.data.operation_list).toHaveLength(1);
    expect(list.data.operation_list[0].key).toBe('HiPDFTopMessageBar');
    expect(list.data.operation_list[0].resource_list.map((r: { title: string }) => r.title)).toEqual([
      'New: chat with your PDFs',
      'Maintenance on Sunday',
    ]);
    expect(list.data.operation_list[0].resource_list[0]).toEqual(current.data);
    expect((await json(visitor, '/api/site/v1/operation/list?pid=1&key=HiPDFTopMessageBar')).data.operation_list).toEqual([]);
    expect((await json(visitor, '/api/site/v1/operation/list?pid=4512&key=Other')).data.operation_list).toEqual([]);

    // Withdrawn at once; an unknown one is 2405.
    const withdrawn = await json(operator, `${ADMIN}?resource_id=${later.data.resource_id}`, { method: 'DELETE' });
    expect(withdrawn.code).toBe(0);
    expect((await json(visitor, LIST)).data.operation_list[0].resource_list).toHaveLength(1);
    expect((await json(operator, `${ADMIN}?resource_id=${later.data.resource_id}`, { method: 'DELETE' })).code).toBe(ErrorCode.NoData);
    // The operators' list keeps the one that is over.
    const all = await json(operator, ADMIN);
    expect(all.data.banners.map((b: { title: string }) => b.title).sort()).toEqual(['Last week', 'New: chat with your PDFs']);
  });

  it('refuses a window that ends before it starts, and a link that is neither a path nor http(s)', async () => {
    const start = now();
    expect((await publish(operator, { title: 'Backwards', jump_url: '/', display_start_time: start, display_end_time: start })).code).toBe(
      ErrorCode.InvalidParams,
    );
    expect(
      (
        await publish(operator, {
          title: 'Script',
          jump_url: 'javascript:alert(1)',
          display_start_time: start,
          display_end_time: start + 60,
        })
      ).code,
    ).toBe(ErrorCode.InvalidParams);
    expect(
      (
        await publish(operator, {
          title: 'Elsewhere',
          jump_url: '//evil.example/',
          display_start_time: start,
          display_end_time: start + 60,
        })
      ).code,
    ).toBe(ErrorCode.InvalidParams);
  });

  it('lets only operators publish, list and withdraw (3015; 3001 for a visitor)', async () => {
    const user = await signedIn(t.quire.url, t.quire.ctx, 'not-ops@example.org', 'premium');
    const body = { title: 'Mine', jump_url: '/', display_start_time: now(), display_end_time: now() + 60 };
    expect((await publish(user, body)).code).toBe(ErrorCode.NotPermitted);
    expect((await json(user, ADMIN)).code).toBe(ErrorCode.NotPermitted);
    expect((await json(user, `${ADMIN}?resource_id=x`, { method: 'DELETE' })).code).toBe(ErrorCode.NotPermitted);
    expect((await publish(new Client(t.quire.url), body)).code).toBe(ErrorCode.NotLogin);
  });
});
