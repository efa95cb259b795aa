// The account service's calls: sign-up, sign-in and its session, passwords and addresses.
import {
  changeEmailRequest,
  changePasswordRequest,
  deleteAccountRequest,
  emailRequest,
  linkTokenRequest,
  loginRequest,
  mailSent,
  registerRequest,
  resetPasswordRequest,
  revokeSessionRequest,
  sessionList,
  sessionLinkAnswer,
  sessionTokenRequest,
  signedIn,
  userInfo,
  type LinkLanguage,
  type SignedIn,
} from '@quire/contracts';
import {
  changeEmail,
  changePassword,
  confirmEmail,
  deleteAccount,
  forgotPassword,
  refreshSession,
  register,
  sessionFromLink,
  sessionLink,
  listSessions,
  resendConfirmation,
  resetPassword,
  revokeOtherSessions,
  revokeSession,
  signIn,
  signOut,
  verifyEmail,
  userInfo as userInfoOf,
  type Client,
  type Session,
} from '../services/accounts.js';
import type { AppContext } from '../context.js';
import type { Call, CallContext } from './calls.js';
import { clearCookie, SESSION_COOKIE, setCookie } from './cookies.js';
import { requireSession } from './identity.js';

const base = '/api/account/v1/';

/** The signed-in session of a call declared `session: 'required'` (3001 for a visitor, 3012 for an API key). */
export const currentSession = (c: CallContext): Session => requireSession(c.identity);

/** Who signs in: the address for the brute-force buckets, the User-Agent for the list of sessions. */
const clientOf = (c: CallContext): Client => ({ ip: c.req.ip, userAgent: c.req.headers['user-agent'] });

/** The new session's token goes in the cookie too, for the web app. */
export function keepSession(c: CallContext, signed: SignedIn): SignedIn {
  setCookie(c.req, c.reply, SESSION_COOKIE, signed.token, c.ctx.config.sessionDays * 86400);
  return signed;
}

/** The spec's account/refresh, under the tools API. */
export const refreshCall = (toolsBase: string): Call => ({
  method: 'GET',
  path: `${toolsBase}account/refresh`,
  summary: 'The signed-in user info, the session extended to its full lifetime from now',
  response: userInfo,
  session: 'required',
  handler: (_, c) => refreshSession(c.ctx, currentSession(c)),
});

/**
 * A call that mails a link to the address asked, for anyone (no session): the answer is the same
 * whether or not a link went, so it tells nothing of who has an account.
 */
const mailedLinkCall = (
  name: string,
  summary: string,
  mail: (ctx: AppContext, email: string, ip: string, lang: LinkLanguage | undefined) => Promise<{ email: string }>,
): Call => ({
  method: 'POST',
  path: `${base}${name}`,
  summary,
  body: emailRequest,
  response: mailSent,
  session: 'ignored',
  handler: ({ body }, c) => mail(c.ctx, body.email, c.req.ip, body.lang),
});

export function accountCalls(): Call[] {
  return [
    {
      method: 'POST',
      path: `${base}register`,
      summary: 'Create an account; a link to confirm the address is mailed (the same answer if the address has an account)',
      body: registerRequest,
      response: mailSent,
      session: 'ignored',
      handler: ({ body }, c) => register(c.ctx, body, c.req.ip),
    },
    {
      method: 'POST',
      path: `${base}verify-email`,
      summary:
        "Confirm the address with the token of the mailed link (the link's #token); a browser signed in to no account is signed in to this one (the cookie)",
      body: linkTokenRequest,
      response: mailSent,
      session: 'ignored',
      handler: async ({ body }, c) => {
        const { email, signed } = await verifyEmail(c.ctx, body.token, {
          userAgent: c.req.headers['user-agent'],
          signedInAlready: c.identity.session !== undefined,
        });
        if (signed) keepSession(c, signed);
        return { email };
      },
    },
    mailedLinkCall(
      'resend-confirmation',
      'Mail a new link to confirm the address (the same answer whether or not the address has an account waiting for one)',
      resendConfirmation,
    ),
    {
      method: 'POST',
      path: `${base}login`,
      summary:
        'Sign in: the token (also set as an http-only cookie) and the user info; 3002 for an unknown address or a wrong password alike',
      body: loginRequest,
      response: signedIn,
      session: 'ignored',
      handler: async ({ body }, c) => keepSession(c, await signIn(c.ctx, body, clientOf(c))),
    },
    {
      method: 'POST',
      path: `${base}logout`,
      summary: 'End this session',
      session: 'required',
      handler: async (_, c) => {
        await signOut(c.ctx, currentSession(c));
        clearCookie(c.req, c.reply, SESSION_COOKIE);
        return null;
      },
    },
    {
      method: 'GET',
      path: `${base}sessions`,
      summary: "The account's live sessions: device, sign-in, last use (to the minute), and which is this one (never a token)",
      response: sessionList,
      session: 'required',
      handler: (_, c) => listSessions(c.ctx, currentSession(c)),
    },
    {
      method: 'POST',
      path: `${base}sessions/revoke`,
      summary: "End one of the account's sessions (this one signs this client out); 2405 for an id that is not one of your sessions",
      body: revokeSessionRequest,
      session: 'required',
      handler: async ({ body }, c) => {
        if (await revokeSession(c.ctx, currentSession(c), body.session_id)) clearCookie(c.req, c.reply, SESSION_COOKIE);
        return null;
      },
    },
    {
      method: 'POST',
      path: `${base}sessions/revoke-others`,
      summary: 'End every session of the account but this one',
      session: 'required',
      handler: async (_, c) => {
        await revokeOtherSessions(c.ctx, currentSession(c));
        return null;
      },
    },
    {
      method: 'GET',
      path: `${base}me`,
      summary: 'The signed-in user info',
      response: userInfo,
      session: 'required',
      handler: async (_, c) => userInfoOf(currentSession(c)),
    },
    {
      method: 'POST',
      path: `${base}session-link`,
      summary:
        "A token for a link that signs a browser in to this account (the web app's ?token=): single use, for two minutes; never a session's own token",
      response: sessionLinkAnswer,
      session: 'required',
      handler: (_, c) => sessionLink(c.ctx, currentSession(c)),
    },
    {
      method: 'POST',
      path: `${base}session`,
      summary:
        "Sign this browser in with a session link's token (the web app's ?token= in its address): a new session, its cookie set; 3004 if the token is unknown, used, past its time, or not a session link's",
      body: sessionTokenRequest,
      response: signedIn,
      session: 'ignored',
      handler: async ({ body }, c) => keepSession(c, await sessionFromLink(c.ctx, body.token, c.req.headers['user-agent'])),
    },
    mailedLinkCall(
      'forgot-password',
      'Mail a link to choose a new password (the same answer whether or not the address has an account)',
      forgotPassword,
    ),
    {
      method: 'POST',
      path: `${base}reset-password`,
      summary: 'Choose a new password with the token of the mailed link; every session, mailed link and API key of the account ends',
      body: resetPasswordRequest,
      session: 'ignored',
      handler: async ({ body }, c) => {
        await resetPassword(c.ctx, body.token, body.password);
        return null;
      },
    },
    {
      method: 'POST',
      path: `${base}change-password`,
      summary:
        'Change the password (the current one proves it is you); every session, mailed link and API key ends and this client is signed in anew',
      body: changePasswordRequest,
      response: signedIn,
      session: 'required',
      handler: async ({ body }, c) =>
        keepSession(c, await changePassword(c.ctx, currentSession(c), body.password, body.new_password, clientOf(c))),
    },
    {
      method: 'POST',
      path: `${base}change-email`,
      summary: 'Mail the new address a link; the account moves to it when the link is opened',
      body: changeEmailRequest,
      response: mailSent,
      session: 'required',
      handler: ({ body }, c) => changeEmail(c.ctx, currentSession(c), body.password, body.email, c.req.ip, body.lang),
    },
    {
      method: 'POST',
      path: `${base}confirm-email`,
      summary: "Move the account to its new address with the token of the mailed link; every session ends but this browser's",
      body: linkTokenRequest,
      response: mailSent,
      session: 'ignored',
      handler: ({ body }, c) => confirmEmail(c.ctx, body.token, c.identity.session),
    },
    {
      method: 'POST',
      path: `${base}delete`,
      summary: 'Delete the account with its files, tasks and shares (the password proves it is you)',
      body: deleteAccountRequest,
      session: 'required',
      handler: async ({ body }, c) => {
        await deleteAccount(c.ctx, currentSession(c), body.password, c.req.ip);
        clearCookie(c.req, c.reply, SESSION_COOKIE);
        return null;
      },
    },
  ];
}
