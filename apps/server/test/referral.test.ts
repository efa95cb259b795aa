// The referral programme and the activity event through the API: a friend who signs up through an
// account's invite link and confirms the address earns both accounts exactly the operator's AI
// tokens (seen in the AI token check); no credit without the programme, for an unknown code, for an
// address that already has an account (its own link too), or twice; the operator's cap; the event
// (get-ad-list) follows /admin's settings, which only operators may read or change.
import { ErrorCode } from '@quire/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, setRole } from '../src/services/accounts.js';
import { chargeTokens, checkTokens, refundTokens, reserveTokens, tokenCheck } from '../src/services/aiQuota.js';
import { Client, type Envelope, quireForTests, signedIn } from './harness.js';
import { Mailbox } from './mailbox.js';

const mailbox = await Mailbox.start();
afterAll(() => mailbox.close());
const PUBLIC_URL = 'https://quire.example.org';
const t = quireForTests('referral', { smtpUrl: mailbox.url, publicUrl: PUBLIC_URL, accountRate: { perSecond: 100, burst: 100 } });

const ACTIVITY = '/api/account/v1/admin/activity';
const REFERRAL = '/api/account/v1/referral';
const TOKENS = '/api/ai/v2/chat/gpt-token/check';
const PASSWORD = 'friend-password-1';

async function json(client: Client, pathname: string, init: RequestInit = {}): Promise<Envelope> {
  return (await (await client.raw(pathname, init)).json()) as Envelope;
}
const send = (client: Client, method: string, pathname: string, body: unknown) =>
  json(client, pathname, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

const EVENT_OFF = { adv_popshow: 0, adv_url: '', adv_img: '' };
let operator: Client;
const setReward = async (reward_tokens: number, invite_cap = 0) => {
  const answer = await send(operator, 'PUT', ACTIVITY, { reward_tokens, invite_cap, ...EVENT_OFF });
  expect(answer.code).toBe(0);
};

const totalTokens = async (client: Client) => (await json(client, TOKENS)).data.total_tokens as number;
const referral = async (client: Client) => (await json(client, REFERRAL)).data;

/** Signs up through the page with `invite`, confirms the address by the mailed link, signs in. */
async function signUp(email: string, invite?: string): Promise<Client> {
  const client = new Client(t.quire.url);
  expect((await send(client, 'POST', '/api/account/v1/register', { email, password: PASSWORD, invite })).code).toBe(0);
  const link = new URL((await mailbox.take(email)).links[0]!);
  const token = new URLSearchParams(link.hash.slice(1)).get('token');
  expect((await send(client, 'POST', '/api/account/v1/verify-email', { token })).code).toBe(0);
  expect((await send(client, 'POST', '/api/account/v1/login', { email, password: PASSWORD })).code).toBe(0);
  return client;
}

describe('referral programme', () => {
  let inviter: Client;
  let code: string;
  let planTokens: number;
  beforeAll(async () => {
    await createAccount(t.quire.ctx, 'operator@example.org', 'operator-password-1', 'free');
    await setRole(t.quire.ctx, 'operator@example.org', 'operator');
    operator = new Client(t.quire.url);
    expect(
      (await send(operator, 'POST', '/api/account/v1/login', { email: 'operator@example.org', password: 'operator-password-1' })).code,
    ).toBe(0);
    inviter = await signedIn(t.quire.url, t.quire.ctx, 'inviter@example.org', 'free');
    planTokens = await totalTokens(inviter);
    code = (await referral(inviter)).invite_code;
  });

  it('gives each account one invite link, the same ever after, on the public address', async () => {
    const info = await referral(inviter);
    expect(info.invite_code).toMatch(/^[A-Z2-9]{10}$/);
    expect(info.invite_link).toBe(`${PUBLIC_URL}/?invite=${info.invite_code}`);
    expect(await referral(inviter)).toEqual(info);
    expect(info).toMatchObject({ friends_joined: 0, tokens_earned: 0, reward_tokens: 0 });
    const other = await signedIn(t.quire.url, t.quire.ctx, 'other@example.org', 'free');
    expect((await referral(other)).invite_code).not.toBe(info.invite_code);
    expect((await json(new Client(t.quire.url), REFERRAL)).code).toBe(ErrorCode.NotLogin);
  });

  it('earns nothing while the reward is 0 (the programme is off)', async () => {
    const friend = await signUp('while-off@example.org', code);
    expect(await totalTokens(friend)).toBe(planTokens);
    expect(await totalTokens(inviter)).toBe(planTokens);
    expect((await referral(inviter)).friends_joined).toBe(0);
  });

  it("earns both the friend and the inviter exactly the operator's tokens, once the friend's address is confirmed", async () => {
    await setReward(5000);
    const client = new Client(t.quire.url);
    expect(
      (await send(client, 'POST', '/api/account/v1/register', { email: 'pending@example.org', password: PASSWORD, invite: code })).code,
    ).toBe(0);
    // Not confirmed: nothing yet.
    expect(await referral(inviter)).toMatchObject({ friends_joined: 0, tokens_earned: 0, reward_tokens: 5000 });
    await mailbox.take('pending@example.org');

    const friend = await signUp('friend@example.org', code);
    expect(await totalTokens(friend)).toBe(planTokens + 5000);
    expect(await totalTokens(inviter)).toBe(planTokens + 5000);
    expect(await referral(inviter)).toMatchObject({ friends_joined: 1, tokens_earned: 5000 });
  });

  it('credits nothing for an address that has an account already (its own link too), or an unknown code; sign-up still works', async () => {
    // The inviter signing up again with its own link: the address has an account, so no new one.
    expect(
      (
        await send(new Client(t.quire.url), 'POST', '/api/account/v1/register', {
          email: 'inviter@example.org',
          password: PASSWORD,
          invite: code,
        })
      ).code,
    ).toBe(0);
    expect((await mailbox.take('inviter@example.org')).subject).toBe('You already have a Quire account');
    const unknown = await signUp('unknown-code@example.org', 'NOSUCHCODE');
    expect(await totalTokens(unknown)).toBe(planTokens);
    const odd = await signUp('odd-code@example.org', ' ../?&x ');
    expect(await totalTokens(odd)).toBe(planTokens);
    expect(await totalTokens(inviter)).toBe(planTokens + 5000);
    expect((await referral(inviter)).friends_joined).toBe(1);
  });

  it('credits a friend once: confirming again earns nothing more', async () => {
    const client = new Client(t.quire.url);
    await send(client, 'POST', '/api/account/v1/register', { email: 'twice@example.org', password: PASSWORD, invite: code });
    const token = new URLSearchParams(new URL((await mailbox.take('twice@example.org')).links[0]!).hash.slice(1)).get('token');
    expect((await send(client, 'POST', '/api/account/v1/verify-email', { token })).code).toBe(0);
    expect((await send(client, 'POST', '/api/account/v1/verify-email', { token })).code).toBe(ErrorCode.LinkExpired);
    expect((await send(client, 'POST', '/api/account/v1/login', { email: 'twice@example.org', password: PASSWORD })).code).toBe(0);
    expect(await totalTokens(client)).toBe(planTokens + 5000);
    expect(await referral(inviter)).toMatchObject({ friends_joined: 2, tokens_earned: 10_000 });
  });

  it("stops rewarding an inviter past the operator's cap; its friends still earn theirs", async () => {
    await setReward(300, 2);
    const friend = await signUp('past-cap@example.org', code);
    expect(await totalTokens(friend)).toBe(planTokens + 300);
    expect(await totalTokens(inviter)).toBe(planTokens + 10_000);
    expect(await referral(inviter)).toMatchObject({ friends_joined: 3, tokens_earned: 10_000, reward_tokens: 300 });
  });

  it('credits a mailbox once ever: deleting the account and signing up again, as written or as Gmail reads it, earns nothing more', async () => {
    await setReward(700);
    const host = await signedIn(t.quire.url, t.quire.ctx, 'host@example.org', 'free');
    const hostCode = (await referral(host)).invite_code;
    const first = await signUp('farmer@gmail.com', hostCode);
    expect(await totalTokens(first)).toBe(planTokens + 700);
    expect((await send(first, 'POST', '/api/account/v1/delete', { password: PASSWORD })).code).toBe(0);

    for (const again of ['farmer@gmail.com', 'far.mer@googlemail.com']) {
      const friend = await signUp(again, hostCode);
      expect(await totalTokens(friend), again).toBe(planTokens);
      expect((await send(friend, 'POST', '/api/account/v1/delete', { password: PASSWORD })).code).toBe(0);
    }
    expect(await referral(host)).toMatchObject({ friends_joined: 1, tokens_earned: 700 });
    expect(await totalTokens(host)).toBe(planTokens + 700);
    // Another mailbox still earns it.
    expect(await totalTokens(await signUp('farmers-friend@gmail.com', hostCode))).toBe(planTokens + 700);
  });

  it('spends the tokens it earned once, after the plan’s, though the AI plan’s own renew each month', async () => {
    const { ctx } = t.quire;
    const id = (await createAccount(ctx, 'monthly@example.org', PASSWORD, 'ai')).id;
    const account = { id, role: 'ai' as const, limits: ctx.config.limits.ai.ai, bonusTokens: 1000 };
    const plan = account.limits.tokens;
    const now = ctx.now;
    try {
      ctx.now = () => Date.UTC(2026, 10, 15);
      expect(await chargeTokens(ctx, account, plan + 600)).toEqual({ plan, bonus: 600 });
      expect(await tokenCheck(ctx, account)).toEqual({ used_tokens: plan + 600, total_tokens: plan + 1000 });
      // A reservation's unspent tokens go back to the bonus first, as it was taken last.
      const reserved = await reserveTokens(ctx, account, 1000, 1);
      expect(reserved).toEqual({ plan: 0, bonus: 400 });
      await refundTokens(ctx, account, reserved, 150);
      expect((await tokenCheck(ctx, account)).used_tokens).toBe(plan + 850);

      // Next month the plan's tokens are back; the bonus spent stays spent.
      ctx.now = () => Date.UTC(2026, 11, 2);
      expect(await tokenCheck(ctx, account)).toEqual({ used_tokens: 850, total_tokens: plan + 1000 });
      await expect(chargeTokens(ctx, account, plan + 151)).rejects.toMatchObject({ code: ErrorCode.NotEnoughTokens });
      expect(await chargeTokens(ctx, account, plan + 150)).toEqual({ plan, bonus: 150 });
      await expect(checkTokens(ctx, account)).rejects.toMatchObject({ code: ErrorCode.NotEnoughTokens });
    } finally {
      ctx.now = now;
    }
  });
});

describe('activity event and its settings', () => {
  it('answers no event until the operator sets one, then what it set; no image means no pop-up', async () => {
    const visitor = new Client(t.quire.url);
    await setReward(0);
    expect((await visitor.call('get-ad-list')).data).toEqual(EVENT_OFF);
    const event = { reward_tokens: 0, invite_cap: 0, adv_popshow: 1, adv_url: 'https://example.org/sale', adv_img: '/media/sale.png' };
    expect((await send(operator, 'PUT', ACTIVITY, event)).data).toEqual(event);
    expect((await visitor.call('get-ad-list')).data).toEqual({
      adv_popshow: 1,
      adv_url: 'https://example.org/sale',
      adv_img: '/media/sale.png',
    });
    expect((await json(operator, ACTIVITY)).data).toEqual(event);
    await send(operator, 'PUT', ACTIVITY, { ...event, adv_img: '' });
    expect((await visitor.call('get-ad-list')).data.adv_popshow).toBe(0);
  });

  it('refuses a link that is not a path or http(s) address, and a negative reward (3100)', async () => {
    for (const wrong of [
      { reward_tokens: 1, invite_cap: 0, adv_popshow: 1, adv_url: 'javascript:alert(1)', adv_img: '' },
      { reward_tokens: 1, invite_cap: 0, adv_popshow: 1, adv_url: '', adv_img: 'data:image/png;base64,AA' },
      { reward_tokens: -1, invite_cap: 0, adv_popshow: 0, adv_url: '', adv_img: '' },
    ])
      expect((await send(operator, 'PUT', ACTIVITY, wrong)).code).toBe(ErrorCode.InvalidParams);
  });

  it('refuses the settings to a visitor (3001) and to an account that is not an operator (3015)', async () => {
    const visitor = new Client(t.quire.url);
    const user = await signedIn(t.quire.url, t.quire.ctx, 'not-operator@example.org', 'premium');
    const body = { reward_tokens: 99, invite_cap: 0, ...EVENT_OFF };
    expect((await json(visitor, ACTIVITY)).code).toBe(ErrorCode.NotLogin);
    expect((await send(visitor, 'PUT', ACTIVITY, body)).code).toBe(ErrorCode.NotLogin);
    expect((await json(user, ACTIVITY)).code).toBe(ErrorCode.NotPermitted);
    expect((await send(user, 'PUT', ACTIVITY, body)).code).toBe(ErrorCode.NotPermitted);
    expect((await json(operator, ACTIVITY)).data.reward_tokens).not.toBe(99);
  });
});
