// The referral programme (activity dialog, free kind): each account's invite link; a friend whose
// NEW account is created through it earns both accounts the operator's AI tokens once the friend's
// address is confirmed, so throwaway sign-ups earn nothing, and a mailbox earns it once ever. An
// unknown code is ignored.
import { randomBytes } from 'node:crypto';
import { INVITE_PARAM, type ReferralInfo } from '@quire/contracts';
import type { AppContext } from '../context.js';
import { findAccount } from '../db/accountsRepo.js';
import {
  creditReferral,
  findAccountByInviteCode,
  insertReferral,
  inviterTotals,
  pendingReferral,
  setInviteCode,
} from '../db/referralsRepo.js';
import type { AccountTable } from '../db/schema.js';
import { activitySettingsOf } from './activitySettings.js';
import { clientKey } from './clientKeys.js';

// Base 32 without look-alikes: 10 characters are 50 bits, not guessable.
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const newInviteCode = () => Array.from(randomBytes(10), (b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');

/** The account's invite code, given it the first time it is asked for and the same ever after. */
async function inviteCodeOf(ctx: AppContext, account: AccountTable): Promise<string> {
  if (account.invite_code) return account.invite_code;
  await setInviteCode(ctx.db, account.id, newInviteCode());
  // Re-read: a racing request may have given it a code first.
  return (await findAccount(ctx.db, account.id))?.invite_code ?? '';
}

export async function referralInfo(ctx: AppContext, account: AccountTable): Promise<ReferralInfo> {
  const code = await inviteCodeOf(ctx, account);
  const [{ friends, tokens }, { reward_tokens }] = await Promise.all([inviterTotals(ctx.db, account.id), activitySettingsOf(ctx)]);
  return {
    invite_code: code,
    invite_link: `${ctx.config.publicUrl}/?${INVITE_PARAM}=${code}`,
    friends_joined: friends,
    tokens_earned: tokens,
    reward_tokens,
  };
}

/** A new account created through an invite link: remembered for its inviter while the programme is on. */
export async function recordInvite(ctx: AppContext, friend: AccountTable, code: string | undefined): Promise<void> {
  if (!code) return;
  const inviter = await findAccountByInviteCode(ctx.db, code);
  if (!inviter || (await activitySettingsOf(ctx)).reward_tokens === 0) return;
  await insertReferral(ctx.db, friend.id, inviter.id, ctx.now());
}

/** Mail providers whose addresses ignore dots in the local part. */
const DOTLESS_DOMAINS: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * One mailbox however its address is written: lower case, without a +tag (an address from single
 * sign-on may carry one), and without the dots Gmail ignores. Deleting an account and signing up
 * again with a variant stays one friend.
 */
function mailboxOf(email: string): string {
  const at = email.lastIndexOf('@');
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase();
  let local = email.slice(0, at).trim().toLowerCase().replace(/\+.*$/, '');
  const canonical = DOTLESS_DOMAINS[domain];
  if (canonical) local = local.replaceAll('.', '');
  return `${local}@${canonical ?? domain}`;
}

/**
 * Once the friend's address is confirmed, credits its invite once: both earn the reward; an
 * inviter past the operator's cap earns nothing more. A mailbox earns it once ever: a friend who
 * deletes the account and signs up again through a link earns nothing the second time.
 */
export async function creditInvite(ctx: AppContext, friendId: string): Promise<void> {
  const referral = await pendingReferral(ctx.db, friendId);
  const friend = referral && (await findAccount(ctx.db, friendId));
  if (!referral || !friend) return;
  const { reward_tokens, invite_cap } = await activitySettingsOf(ctx);
  const capped = invite_cap > 0 && (await inviterTotals(ctx.db, referral.inviter_id)).friends >= invite_cap;
  const mailbox = clientKey(ctx, `mailbox:${mailboxOf(friend.email)}`);
  if (await creditReferral(ctx.db, referral, mailbox, reward_tokens, capped ? 0 : reward_tokens, ctx.now()))
    console.info(
      `The invite of account ${friendId} by ${referral.inviter_id} earned ${reward_tokens} AI tokens${capped ? ' (inviter past the cap)' : ''}.`,
    );
}
