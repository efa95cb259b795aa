// Accounts: sign-up with a confirmed address, sign-in to sessions, passwords forgotten and changed,
// addresses changed, accounts deleted with everything they own. Tokens (of sessions and of mailed
// links) are random; only their SHA-256 is stored, so the database alone signs nobody in.
import { createHash, randomBytes } from 'node:crypto';
import { ErrorCode, QuireError, type LinkLanguage, type Plan, type SessionEntry, type SignedIn, type UserInfo } from '@quire/contracts';
import type { AppContext } from '../context.js';
import {
  changeAccountEmail,
  deleteAccount as deleteAccountRows,
  deleteAccountTokens,
  deleteOtherSessions,
  deleteSession,
  deleteSessionOf,
  deleteSessionsOf,
  extendSession,
  findAccount,
  findAccountByEmail,
  findSessionAccount,
  insertAccount,
  insertAccountToken,
  insertSession,
  replaceAccountToken,
  replacePasswordHash,
  sessionsOf,
  takeAccountToken,
  touchSession,
  updateAccount,
} from '../db/accountsRepo.js';
import { filesOf } from '../db/filesRepo.js';
import type { AccountRole, AccountTable, AccountTokenPurpose, MailedLinkPurpose } from '../db/schema.js';
import { tasksOf } from '../db/tasksRepo.js';
import { takeRun } from '../db/anonymousRunsRepo.js';
import { uploadsOf } from '../db/uploadsRepo.js';
import { accountOwner, newId } from '../ids.js';
import type { Mail } from '../mail/mailer.js';
import { deviceOf } from './devices.js';
import { discardFile } from './files.js';
import { deleteCloudOfAccount } from './cloud.js';
import { deleteAiOf } from '../db/aiRepo.js';
import { deleteMessagesOf } from '../db/messagesRepo.js';
import { discardSharesOf } from './shares.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { utcDay } from './anonymous.js';
import { clientKey, countedAddress } from './clientKeys.js';
import { RateLimited } from './rateLimits.js';
import { creditInvite, recordInvite } from './referrals.js';
import { discardTask } from './tasks.js';
import { discardUpload } from './uploads.js';
import { wordsFor } from '../texts/words.js';

/** A signed-in client: its token, the account it opens and the session's public id. */
export interface Session {
  token: string;
  account: AccountTable;
  publicId: string;
}

/**
 * Who a request acts for, settled once when it arrives: the account of a live session or of an
 * API key, or else the anonymous visitor. `ended`: it brought a session token or key that no
 * longer opens one.
 */
export interface Identity {
  ownerId: string;
  /** The account, signed in by a session or by one of its API keys: its plan's limits apply. */
  account?: AccountTable;
  /** Only a session signed in with the password can manage the account. */
  session?: Session;
  /** The API key the request came with. */
  apiKeyId?: string;
  ended?: true;
}

/** 32 random bytes, base64url: what a session cookie, a bearer header or a link carries. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
export const newToken = () => randomBytes(32).toString('base64url');
/** What the database keeps of a token: a fast hash suffices for 256 random bits. */
export const tokenId = (token: string) => createHash('sha256').update(token).digest('hex');

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;
/** How long each kind of mailed link works. */
const LINK_LIFETIME_MS: Record<MailedLinkPurpose, number> = { verify: 48 * HOUR_MS, reset: HOUR_MS, email: 48 * HOUR_MS };
/** The web app's page for each link; the token rides in the fragment, which browsers never send to a server. */
const LINK_PAGE: Record<MailedLinkPurpose, string> = {
  verify: 'account/verify-email',
  reset: 'account/reset-password',
  email: 'account/confirm-email',
};

/** Defined beside the ids, as the cloud's repository needs it too (it counts an account's share copies). */
export { accountOwner };
/** Whether files and tasks of `ownerId` are an account's, not an anonymous visitor's. */
export const isAccountOwner = (ownerId: string) => ownerId.startsWith('account:');
/** The account whose files and tasks `ownerId` names, or undefined for an anonymous visitor's. */
export const accountIdOfOwner = (ownerId: string) => (isAccountOwner(ownerId) ? ownerId.slice('account:'.length) : undefined);

/** A session's last use is written at most this often, so a busy page costs no write per request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** The request a sign-in comes with: its address counts against brute force, its User-Agent names the device. */
export interface Client {
  ip: string;
  userAgent: string | undefined;
}

/** The session a token opens, if it is live, its use recorded (to the minute). */
export async function sessionOf(ctx: AppContext, token: string): Promise<Session | undefined> {
  if (!TOKEN_PATTERN.test(token)) return undefined;
  const now = Date.now();
  const found = await findSessionAccount(ctx.db, tokenId(token), now);
  if (!found) return undefined;
  if (found.lastUsedAt < now - LAST_USED_RESOLUTION_MS) await touchSession(ctx.db, tokenId(token), now, now - LAST_USED_RESOLUTION_MS);
  return { token, account: found.account, publicId: found.publicId };
}

/** What each plan pays for: Premium (the product's `pay`), the AI plan, or both. */
const PLAN_FLAGS: Record<Plan, { pay: boolean; ai: boolean }> = {
  free: { pay: false, ai: false },
  premium: { pay: true, ai: false },
  ai: { pay: false, ai: true },
  premium_ai: { pay: true, ai: true },
};

/** The product's tracking type of a signed-in user (a visitor is its `guest`). */
const USER_TYPE: Record<Plan, UserInfo['userType']> = { free: 'free', premium: 'pro', ai: 'AI purchase', premium_ai: 'AI and pro' };

export function userInfo({ token, account }: Pick<Session, 'token' | 'account'>): UserInfo {
  const plan = account.plan as Plan;
  const { pay, ai } = PLAN_FLAGS[plan];
  return {
    user_id: account.id,
    ws_id: account.id,
    ws_token: token,
    email: account.email,
    first_name: account.first_name,
    last_name: account.last_name,
    avatar: account.avatar,
    pay,
    have_permission: pay,
    ai,
    career: account.career,
    userType: USER_TYPE[plan],
    isVip: pay,
    isAiUser: ai,
    operator: account.role === 'operator',
  };
}

/** How long a session link works: time to open it, too little to pass it around. */
const SESSION_LINK_LIFETIME_MS = 2 * 60_000;

/**
 * A single-use token that signs one browser in to the caller's account (a product link's
 * `?token=`). Never a session's own token: a link must not hand out a session that outlives it,
 * nor let a page of another site put a session it holds into a victim's browser for long.
 */
export async function sessionLink(ctx: AppContext, session: Session): Promise<{ token: string; expires_in_s: number }> {
  const token = newToken();
  const now = Date.now();
  await insertAccountToken(ctx.db, {
    id: tokenId(token),
    account_id: session.account.id,
    purpose: 'session',
    email: session.account.email,
    created_at: now,
    expires_at: now + SESSION_LINK_LIFETIME_MS,
  });
  return { token, expires_in_s: SESSION_LINK_LIFETIME_MS / 1000 };
}

/** A new session for the browser that opened a session link; 3004 if the link is unknown, used or past its time. */
export async function sessionFromLink(ctx: AppContext, token: string, userAgent: string | undefined): Promise<SignedIn> {
  const { account } = await useLink(ctx, token, 'session');
  return openSession(ctx, account, userAgent);
}

const sessionLifetimeMs = (ctx: AppContext) => ctx.config.sessionDays * 24 * HOUR_MS;

/** A new session of the account, signed in from the client of `userAgent`: the token and the user info. */
export async function openSession(ctx: AppContext, account: AccountTable, userAgent: string | undefined): Promise<SignedIn> {
  const token = newToken();
  const now = Date.now();
  await insertSession(ctx.db, {
    id: tokenId(token),
    public_id: newId(),
    account_id: account.id,
    device: deviceOf(userAgent),
    created_at: now,
    expires_at: now + sessionLifetimeMs(ctx),
    last_used_at: now,
  });
  await updateAccount(ctx.db, account.id, { last_seen_at: now });
  return { token, ...userInfo({ token, account }) };
}

/**
 * Sent in the background: the answer takes as long whether or not an address has an account, and
 * a failure is the operator's to see in the log (the user can ask again).
 */
function deliver(ctx: AppContext, mail: Mail) {
  void ctx.mailer.send(mail).catch((e: Error) => console.error(`Mail "${mail.subject}" to ${mail.to} failed: ${e.message}`));
}

/**
 * Mails `email` a link of `purpose` for the account. A new reset or address link ends the earlier
 * ones of its purpose (only the newest request counts); confirmation links all stay valid until
 * used or expired, so a sign-in before confirming, which mails another, leaves the first working.
 * The link opens the page in the language (`lang`, a prefix of the web app) the request came in with.
 */
async function mailLink(ctx: AppContext, account: AccountTable, purpose: MailedLinkPurpose, email: string, lang: LinkLanguage | undefined) {
  const token = newToken();
  const now = Date.now();
  const row = { id: tokenId(token), account_id: account.id, purpose, email, created_at: now, expires_at: now + LINK_LIFETIME_MS[purpose] };
  await (purpose === 'verify' ? insertAccountToken(ctx.db, row) : replaceAccountToken(ctx.db, row));
  const link = `${ctx.config.publicUrl}/${lang ? `${lang}/` : ''}${LINK_PAGE[purpose]}#token=${token}`;
  const words = wordsFor(lang);
  const footer = words.t('mail.link.footer', { duration: words.hours(LINK_LIFETIME_MS[purpose] / HOUR_MS) });
  deliver(ctx, {
    to: email,
    subject: words.t(`mail.${purpose}.subject`),
    text: `${words.t(`mail.${purpose}.text`)}\n\n${link}\n\n${footer}\n`,
  });
}

/** A link's token, used up; 3004 if it is unknown, used or past its time. */
async function useLink(ctx: AppContext, token: string, purpose: AccountTokenPurpose) {
  const row = TOKEN_PATTERN.test(token) ? await takeAccountToken(ctx.db, tokenId(token), purpose, Date.now()) : undefined;
  const account = row && (await findAccount(ctx.db, row.account_id));
  if (!row || !account) throw new QuireError(ErrorCode.LinkExpired);
  return { account, email: row.email };
}

/** Checked against when an address has no account, so that the answer takes as long as a wrong password. */
let decoyHash: Promise<string> | undefined;

/** Counts the attempt against the address (or account) from the client's IP; false when the password is wrong. */
async function passwordMatches(ctx: AppContext, client: string, ip: string, password: string, account: AccountTable | undefined) {
  ctx.rateLimits.takePasswordCheck(client, ip);
  decoyHash ??= hashPassword(newToken());
  // An account of single sign-on only has no password ('') and is checked against the decoy too.
  const matches = await verifyPassword(password, account?.password_hash || (await decoyHash));
  return matches && account !== undefined;
}

/** A signed-in user proves the password again before a change; 3123 if it is wrong. */
async function confirmPassword(ctx: AppContext, session: Session, password: string, ip: string) {
  if (!(await passwordMatches(ctx, session.account.id, ip, password, session.account))) throw new QuireError(ErrorCode.WrongPassword);
}

/**
 * Counts a sign-up of the client's address on the UTC day (in the anonymous runs' table, by keyed
 * hash), or 3500 (429) until the next day once it asked its QUIRE_SIGNUPS_PER_ADDRESS_DAY: many
 * accounts from one address would multiply every per-account allowance. Single sign-on's new
 * accounts count here too.
 */
export async function countSignUp(ctx: AppContext, ip: string) {
  const max = ctx.config.signUpsPerAddressPerDay;
  const now = Date.now();
  if (max === 0 || (await takeRun(ctx.db, clientKey(ctx, `signup:${countedAddress(ip)}`), utcDay(now), max))) return;
  throw new RateLimited(Math.ceil((DAY_MS - (now % DAY_MS)) / 1000));
}

/**
 * A new account, not signed in until its address is confirmed by the mailed link. The answer is
 * the same when the address already has an account (which is mailed instead), so sign-up does not
 * tell who has one.
 */
export async function register(
  ctx: AppContext,
  req: {
    email: string;
    password: string;
    first_name?: string | undefined;
    last_name?: string | undefined;
    lang?: LinkLanguage | undefined;
    invite?: string | undefined;
  },
  ip: string,
): Promise<{ email: string }> {
  ctx.rateLimits.take('account', req.email, ip);
  await countSignUp(ctx, ip);
  const account = newAccount(req.email, await hashPassword(req.password), { first_name: req.first_name, last_name: req.last_name });
  if (await insertAccount(ctx.db, account)) {
    await recordInvite(ctx, account, req.invite);
    await mailLink(ctx, account, 'verify', account.email, req.lang);
  } else {
    const words = wordsFor(req.lang);
    deliver(ctx, { to: req.email, subject: words.t('mail.exists.subject'), text: `${words.t('mail.exists.text')}\n` });
  }
  return { email: req.email };
}

/** An account row, not yet stored; `passwordHash` '' for one that signs in through single sign-on only. */
export function newAccount(
  email: string,
  passwordHash: string,
  names: { first_name?: string | undefined; last_name?: string | undefined },
  plan: Plan = 'free',
  verified = false,
  role: AccountRole = 'user',
): AccountTable {
  return {
    id: newId(),
    email,
    password_hash: passwordHash,
    email_verified: verified ? 1 : 0,
    plan,
    first_name: names.first_name ?? '',
    last_name: names.last_name ?? '',
    avatar: '',
    career: '',
    created_at: Date.now(),
    role,
    last_seen_at: 0,
    invite_code: null,
    bonus_tokens: 0,
  };
}

/**
 * Confirms the address and signs the browser that opened the link in: the mailbox is proved, and
 * the user should not have to type the password again. A browser already signed in (to this
 * account or another) keeps its session: `signedInAlready`, so a link from someone else cannot
 * swap the account a browser works in. Only the first use of a link signs in.
 */
export async function verifyEmail(
  ctx: AppContext,
  token: string,
  client: { userAgent: string | undefined; signedInAlready: boolean },
): Promise<{ email: string; signed?: SignedIn }> {
  const { account, email } = await useLink(ctx, token, 'verify');
  if (account.email !== email) throw new QuireError(ErrorCode.LinkExpired);
  await updateAccount(ctx.db, account.id, { email_verified: 1 });
  // The other confirmation links mailed have nothing left to confirm, and must sign no one in.
  await deleteAccountTokens(ctx.db, account.id, 'verify');
  await creditInvite(ctx, account.id);
  if (client.signedInAlready) return { email };
  return { email, signed: await openSession(ctx, { ...account, email_verified: 1 }, client.userAgent) };
}

/**
 * A session for the right password; an unknown address and a wrong password answer alike (3002).
 * An address not yet confirmed answers 3003 and is mailed a new link.
 */
export async function signIn(
  ctx: AppContext,
  request: { email: string; password: string; lang?: LinkLanguage | undefined },
  client: Client,
): Promise<SignedIn> {
  const { email, password, lang } = request;
  const { ip, userAgent } = client;
  const account = await findAccountByEmail(ctx.db, email);
  if (!(await passwordMatches(ctx, email, ip, password, account)) || !account) throw new QuireError(ErrorCode.SignInFailed);
  if (!account.email_verified) {
    await mailLink(ctx, account, 'verify', account.email, lang);
    throw new QuireError(ErrorCode.EmailNotVerified);
  }
  return openSession(ctx, account, userAgent);
}

export async function signOut(ctx: AppContext, session: Session): Promise<void> {
  await deleteSession(ctx.db, tokenId(session.token));
}

/** The account's live sessions, the caller's first and marked current, then the most recently used; never a token or its hash. */
export async function listSessions(ctx: AppContext, session: Session): Promise<SessionEntry[]> {
  const entries = (await sessionsOf(ctx.db, session.account.id, Date.now())).map((row) => ({
    session_id: row.public_id,
    device: row.device,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
    current: row.public_id === session.publicId,
  }));
  return entries.sort((a, b) => Number(b.current) - Number(a.current));
}

/** Ends one of the account's sessions; 2405 for an id it has no session of. True when it was the caller's own. */
export async function revokeSession(ctx: AppContext, session: Session, publicId: string): Promise<boolean> {
  if (!(await deleteSessionOf(ctx.db, session.account.id, publicId))) throw new QuireError(ErrorCode.NoData);
  return publicId === session.publicId;
}

/** Ends every session of the account but the caller's. */
export async function revokeOtherSessions(ctx: AppContext, session: Session): Promise<void> {
  await deleteOtherSessions(ctx.db, session.account.id, session.publicId);
}

/** The session runs for its whole lifetime again from now; the user info as it is now. */
export async function refreshSession(ctx: AppContext, session: Session): Promise<UserInfo> {
  const now = Date.now();
  await extendSession(ctx.db, tokenId(session.token), now + sessionLifetimeMs(ctx));
  await updateAccount(ctx.db, session.account.id, { last_seen_at: now });
  return userInfo(session);
}

/**
 * Mails a new confirmation link if the address has an account not yet confirmed (the page of an
 * expired link offers it); the answer is the same either way.
 */
export async function resendConfirmation(ctx: AppContext, email: string, ip: string, lang?: LinkLanguage): Promise<{ email: string }> {
  ctx.rateLimits.take('account', email, ip);
  const account = await findAccountByEmail(ctx.db, email);
  if (account && !account.email_verified) await mailLink(ctx, account, 'verify', account.email, lang);
  return { email };
}

/** Mails a reset link if the address has an account; the answer is the same either way. */
export async function forgotPassword(ctx: AppContext, email: string, ip: string, lang?: LinkLanguage): Promise<{ email: string }> {
  ctx.rateLimits.take('account', email, ip);
  const account = await findAccountByEmail(ctx.db, email);
  if (account) await mailLink(ctx, account, 'reset', account.email, lang);
  return { email };
}

/**
 * A new password ends every session, mailed link (a reset link sent before) and API key of the
 * account: whoever had the old password may have left any of them behind.
 */
async function setPassword(ctx: AppContext, account: AccountTable, password: string, verified: boolean) {
  await replacePasswordHash(ctx.db, account.id, await hashPassword(password), verified);
}

/** The reset link proves the mailbox, so it confirms the address too. */
export async function resetPassword(ctx: AppContext, token: string, password: string): Promise<void> {
  const { account, email } = await useLink(ctx, token, 'reset');
  if (account.email !== email) throw new QuireError(ErrorCode.LinkExpired);
  await setPassword(ctx, account, password, true);
}

/** Ends every session, this one too, and signs this client in again. */
export async function changePassword(ctx: AppContext, session: Session, current: string, next: string, client: Client): Promise<SignedIn> {
  await confirmPassword(ctx, session, current, client.ip);
  await setPassword(ctx, session.account, next, false);
  return openSession(ctx, session.account, client.userAgent);
}

/** Mails the new address a link; the account moves to it when the link is opened. */
export async function changeEmail(ctx: AppContext, session: Session, password: string, email: string, ip: string, lang?: LinkLanguage) {
  await confirmPassword(ctx, session, password, ip);
  if (await findAccountByEmail(ctx.db, email)) throw new QuireError(ErrorCode.EmailInUse);
  await mailLink(ctx, session.account, 'email', email, lang);
  // Should someone else have signed in, the owner hears of it before losing the account.
  const words = wordsFor(lang);
  deliver(ctx, {
    to: session.account.email,
    subject: words.t('mail.emailChanging.subject'),
    text: `${words.t('mail.emailChanging.text', { email })}\n`,
  });
  return { email };
}

/**
 * Moves the account to the address of the link. Every other session ends: one left signed in by
 * whoever asked for the change (or the owner it was taken from) would outlive it. `caller`: the
 * session of the browser that opened the link, kept if it is the account's.
 */
export async function confirmEmail(ctx: AppContext, token: string, caller: Session | undefined): Promise<{ email: string }> {
  const { account, email } = await useLink(ctx, token, 'email');
  if (!(await changeAccountEmail(ctx.db, account.id, email))) throw new QuireError(ErrorCode.EmailInUse);
  if (caller?.account.id === account.id) await deleteOtherSessions(ctx.db, account.id, caller.publicId);
  else await deleteSessionsOf(ctx.db, account.id);
  return { email };
}

/** Removes the account with its files, tasks, unfinished uploads, cloud, shares, AI conversations and messages, their bytes first. */
export async function deleteAccount(ctx: AppContext, session: Session, password: string, ip: string): Promise<void> {
  await confirmPassword(ctx, session, password, ip);
  const owner = accountOwner(session.account.id);
  for (const f of await filesOf(ctx.db, owner)) await discardFile(ctx, f);
  for (const t of await tasksOf(ctx.db, owner)) await discardTask(ctx, t.id);
  for (const u of await uploadsOf(ctx.db, owner)) await discardUpload(ctx, u.id);
  await deleteCloudOfAccount(ctx, session.account.id);
  await discardSharesOf(ctx, owner);
  await deleteAiOf(ctx.db, session.account.id);
  await deleteMessagesOf(ctx.db, session.account.id, owner);
  await deleteAccountRows(ctx.db, session.account.id);
}

/** The operator's: an account whose address needs no confirming. */
export async function createAccount(
  ctx: AppContext,
  email: string,
  password: string,
  plan: Plan,
  role: AccountRole = 'user',
): Promise<AccountTable> {
  const account = newAccount(email, await hashPassword(password), {}, plan, true, role);
  if (!(await insertAccount(ctx.db, account))) throw new QuireError(ErrorCode.EmailInUse);
  return account;
}

async function accountByEmail(ctx: AppContext, email: string) {
  const account = await findAccountByEmail(ctx.db, email);
  if (!account) throw new QuireError(ErrorCode.NoData);
  return account;
}

/** The operator's: the plan the account pays for. */
export async function setPlan(ctx: AppContext, email: string, plan: Plan): Promise<void> {
  await updateAccount(ctx.db, (await accountByEmail(ctx, email)).id, { plan });
}

/** The operator's: whether the account may use the operator's page and calls. */
export async function setRole(ctx: AppContext, email: string, role: AccountRole): Promise<void> {
  await updateAccount(ctx.db, (await accountByEmail(ctx, email)).id, { role });
}

/** The operator's: a new password for a user who forgot theirs where no mail is sent; every session ends. */
export async function replacePassword(ctx: AppContext, email: string, password: string): Promise<void> {
  await setPassword(ctx, await accountByEmail(ctx, email), password, false);
}

/** The operator's: confirms an address by hand, for servers that send no mail. */
export async function markVerified(ctx: AppContext, email: string): Promise<void> {
  await updateAccount(ctx.db, (await accountByEmail(ctx, email)).id, { email_verified: 1 });
}
