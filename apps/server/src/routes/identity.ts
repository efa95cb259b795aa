// Who a request acts for, settled once as it arrives: the account of a live session (a bearer
// token, else the session cookie) or of an API key (a bearer only), or else the anonymous visitor
// of the visitor cookie.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, QuireError } from '@quire/contracts';
import type { AppContext } from '../context.js';
import { accountOwner, sessionOf, type Identity, type Session } from '../services/accounts.js';
import { apiKeyAccount, isApiKey } from '../services/apiKeys.js';
import { newId } from '../ids.js';
import { clearCookie, SESSION_COOKIE, setCookie, VISITOR_COOKIE } from './cookies.js';

/** The visitor id of the cookie, if it holds one; it stays after sign-in, naming what task/bind may move. */
export function visitorOf(req: FastifyRequest): string | undefined {
  const cookie = req.cookies[VISITOR_COOKIE];
  return cookie && /^[0-9a-f]{32}$/.test(cookie) ? cookie : undefined;
}

/** Every visitor gets an unguessable id in a cookie; files and tasks belong to it. */
function visitorId(req: FastifyRequest, reply: FastifyReply): string {
  const known = visitorOf(req);
  if (known) return known;
  const id = newId();
  setCookie(req, reply, VISITOR_COOKIE, id, 365 * 86400);
  return id;
}

export async function identify(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): Promise<Identity> {
  const bearer = /^Bearer +(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (bearer && isApiKey(bearer)) {
    const found = await apiKeyAccount(ctx, bearer);
    if (found) return { ownerId: accountOwner(found.account.id), account: found.account, apiKeyId: found.keyId };
    return { ownerId: visitorId(req, reply), ended: true };
  }
  const token = bearer ?? req.cookies[SESSION_COOKIE];
  if (!token) return { ownerId: visitorId(req, reply) };
  const session = await sessionOf(ctx, token);
  if (session) return { ownerId: accountOwner(session.account.id), account: session.account, session };
  // An ended session's cookie goes with the answer, so the browser's next request is anonymous.
  if (!bearer) clearCookie(req, reply, SESSION_COOKIE);
  return { ownerId: visitorId(req, reply), ended: true };
}

/** Methods that change nothing, which another site's page may send with the user's cookies. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a browser sent the request from a page of another origin. SameSite=Lax keeps the
 * cookies from other sites' requests, but not from a page of the same site on another port or
 * subdomain. Sec-Fetch-Site is every current browser's word; an older one's Origin is compared
 * with this server's. A request with neither comes from no browser page (a script, curl).
 */
function fromAnotherOrigin(req: FastifyRequest): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  const origin = req.headers.origin;
  return origin !== undefined && origin !== `${req.protocol}://${req.host}`;
}

/**
 * Refuses (3015) a request that would change something with the cookies of a page of another
 * origin: signing the user out, ending sessions, deleting files. A bearer token or API key is
 * sent by its holder on purpose, so its requests pass.
 */
export function refuseCrossOriginWrite(req: FastifyRequest): void {
  if (SAFE_METHODS.has(req.method) || req.headers.authorization !== undefined) return;
  const byCookie = req.cookies[SESSION_COOKIE] !== undefined || req.cookies[VISITOR_COOKIE] !== undefined;
  if (byCookie && fromAnotherOrigin(req)) throw new QuireError(ErrorCode.NotPermitted);
}

/** The session signed in with the password: 3012 for an API key, 3001 for a visitor. */
export function requireSession(identity: Identity): Session {
  if (identity.session) return identity.session;
  throw new QuireError(identity.apiKeyId ? ErrorCode.SessionNeeded : ErrorCode.NotLogin);
}
