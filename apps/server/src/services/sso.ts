// Single sign-on with an OpenID Connect provider: the authorization code flow with PKCE, state
// and nonce, checked by openid-client (the answer, the token exchange, the ID token's signature,
// issuer, audience, expiry and nonce); then the account of the provider's identity is signed in
// exactly as a password sign-in is.
import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';
import { ErrorCode, QuireError, SSO_CALLBACK_PAGE, SSO_ERROR_PARAM, type SignedIn } from '@quire/contracts';
import type { OidcConfig } from '../config.js';
import type { AppContext } from '../context.js';
import { findAccountByEmail, insertAccount, updateAccount } from '../db/accountsRepo.js';
import type { AccountTable } from '../db/schema.js';
import { findLinkedAccount, insertSsoLogin, linkIdentity, takeSsoLogin } from '../db/ssoRepo.js';
import { countSignUp, newAccount, openSession } from './accounts.js';
import { creditInvite, recordInvite } from './referrals.js';

/** Where the provider sends the browser back, under QUIRE_PUBLIC_URL: the redirect URI to register. */
export const SSO_CALLBACK_PATH = '/api/account/v1/oidc/callback';
/** How long a sign-in at the provider may take, login and consent included. */
export const SSO_LOGIN_LIFETIME_S = 600;
/** The names the account takes from the provider fit its columns. */
const MAX_NAME_LENGTH = 64;

const stateId = (state: string) => createHash('sha256').update(state).digest('hex');
const redirectUri = (ctx: AppContext) => `${ctx.config.publicUrl}${SSO_CALLBACK_PATH}`;

/** The return path with a failure's code, for the page to show it. */
function withError(path: string, code: ErrorCode): string {
  const url = new URL(path, 'http://quire');
  url.searchParams.set(SSO_ERROR_PARAM, String(code));
  return url.pathname + url.search;
}

/** The provider's metadata, read at first use; a failed discovery is tried again by the next sign-in. */
const discovered = new WeakMap<OidcConfig, Promise<oidc.Configuration>>();

function providerOf(ctx: AppContext): Promise<oidc.Configuration> {
  const settings = ctx.config.oidc;
  if (!settings) return Promise.reject(new QuireError(ErrorCode.SsoUnavailable));
  let provider = discovered.get(settings);
  if (!provider) {
    provider = discover(settings);
    discovered.set(settings, provider);
    provider.catch(() => discovered.delete(settings));
  }
  return provider;
}

async function discover(settings: OidcConfig): Promise<oidc.Configuration> {
  const issuer = new URL(settings.issuer);
  // Plain HTTP only to a provider on this machine (a developer's, a test's): elsewhere codes and tokens would cross the network in clear.
  const local = issuer.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(issuer.hostname);
  try {
    return await oidc.discovery(issuer, settings.clientId, undefined, oidc.ClientSecretBasic(settings.clientSecret), {
      // Seconds; the same bound then applies to the token and user info requests.
      timeout: settings.timeoutMs / 1000,
      ...(local && { execute: [oidc.allowInsecureRequests] }),
    });
  } catch (e) {
    console.error(`Single sign-on: ${settings.issuer} could not be discovered: ${(e as Error).message}`);
    throw new QuireError(ErrorCode.SsoUnavailable);
  }
}

/** The name the sign-in dialog shows on its button; null when single sign-on is not configured. */
export const ssoOption = (ctx: AppContext) => (ctx.config.oidc ? { name: ctx.config.oidc.name } : null);

/**
 * Starts a sign-in at the provider: where to send the browser, and the state it keeps in a cookie
 * (the callback must bring both). A provider that cannot be reached sends it back with 3006.
 */
export async function startSignIn(ctx: AppContext, returnPath: string, invite?: string): Promise<{ location: string; state?: string }> {
  let provider: oidc.Configuration;
  try {
    provider = await providerOf(ctx);
  } catch (e) {
    if (e instanceof QuireError) return { location: withError(returnPath, e.code) };
    throw e;
  }
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const now = Date.now();
  await insertSsoLogin(ctx.db, {
    id: stateId(state),
    nonce,
    code_verifier: codeVerifier,
    return_path: returnPath,
    invite: invite ?? null,
    created_at: now,
    expires_at: now + SSO_LOGIN_LIFETIME_S * 1000,
  });
  const url = oidc.buildAuthorizationUrl(provider, {
    redirect_uri: redirectUri(ctx),
    scope: ctx.config.oidc!.scopes,
    state,
    nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  return { location: url.href, state };
}

/**
 * The provider's answer: the session of the account it names and where to go, or where to go with
 * the failure's code. The state must be the one this browser's cookie holds, and is used up.
 */
export async function finishSignIn(
  ctx: AppContext,
  answer: URLSearchParams,
  cookieState: string | undefined,
  client: { ip: string; userAgent: string | undefined },
): Promise<{ location: string; signed?: SignedIn }> {
  const state = answer.get('state');
  const login = state && state === cookieState ? await takeSsoLogin(ctx.db, stateId(state), Date.now()) : undefined;
  if (!state || !login) return { location: withError(SSO_CALLBACK_PAGE, ErrorCode.SsoFailed) };
  try {
    const provider = await providerOf(ctx);
    const current = new URL(redirectUri(ctx));
    current.search = answer.toString();
    const tokens = await oidc
      .authorizationCodeGrant(provider, current, {
        expectedState: state,
        expectedNonce: login.nonce,
        pkceCodeVerifier: login.code_verifier,
        idTokenExpected: true,
      })
      .catch(refusal);
    const idToken = tokens.claims()!;
    // Providers that follow the standard strictly give the email only from the user info endpoint.
    const claims =
      idToken.email === undefined ? await oidc.fetchUserInfo(provider, tokens.access_token, idToken.sub).catch(refusal) : idToken;
    const account = await accountOf(ctx, idToken.iss, idToken.sub, claims, login.invite ?? undefined, client.ip);
    return { location: login.return_path, signed: await openSession(ctx, account, client.userAgent) };
  } catch (e) {
    if (e instanceof QuireError) return { location: withError(login.return_path, e.code) };
    throw e;
  }
}

/** What the provider's refusal or failure means to the user; the cause goes to the log, never a token. */
function refusal(e: unknown): never {
  if (e instanceof oidc.AuthorizationResponseError && e.error === 'access_denied') throw new QuireError(ErrorCode.SsoCancelled);
  const reached = e instanceof oidc.AuthorizationResponseError || e instanceof oidc.ResponseBodyError || e instanceof oidc.ClientError;
  console.error(`Single sign-on refused: ${(e as Error).message}`);
  throw new QuireError(reached ? ErrorCode.SsoFailed : ErrorCode.SsoUnavailable);
}

const text = (value: unknown, max: number) => (typeof value === 'string' ? value.trim().slice(0, max) : '');

/**
 * The account linked to the provider's identity; else the account of the same address, linked now;
 * else a new one, the friend of the invite it came with, counted in the sign-ups of the client's
 * address as a mailed sign-up is (3500 past them). Either needs an address the provider vouches for
 * (3009 otherwise), which confirms it: an invite waiting for that is credited.
 */
async function accountOf(
  ctx: AppContext,
  issuer: string,
  subject: string,
  claims: oidc.UserInfoResponse,
  invite: string | undefined,
  ip: string,
): Promise<AccountTable> {
  const linked = await findLinkedAccount(ctx.db, issuer, subject);
  if (linked) return linked;
  const email = text(claims.email, 320).toLowerCase();
  // Some providers send the flag as a string.
  const vouched = String(claims.email_verified) === 'true';
  if (!email || !vouched) throw new QuireError(ErrorCode.SsoEmailUnconfirmed);
  const known = await findAccountByEmail(ctx.db, email);
  if (!known) await countSignUp(ctx, ip);
  const fresh = newAccount(
    email,
    '',
    { first_name: text(claims.given_name, MAX_NAME_LENGTH), last_name: text(claims.family_name, MAX_NAME_LENGTH) },
    'free',
    true,
  );
  const made = !known && (await insertAccount(ctx.db, fresh));
  // An account of the address made by a sign-in racing this one is the one linked.
  const account = made ? fresh : (known ?? (await findAccountByEmail(ctx.db, email))!);
  if (made) await recordInvite(ctx, account, invite);
  // Signed up with this address but never confirmed: whoever chose that password did not prove the
  // mailbox the provider just vouched for, so the password goes (the owner can set one by reset).
  if (!account.email_verified) await updateAccount(ctx.db, account.id, { password_hash: '', email_verified: 1 });
  await creditInvite(ctx, account.id);
  await linkIdentity(ctx.db, { issuer, subject, account_id: account.id, created_at: Date.now() });
  // The identity's account as stored: a sign-in racing this one may have linked it first.
  return (await findLinkedAccount(ctx.db, issuer, subject))!;
}
