// Single sign-on's calls: what the sign-in dialog offers, and the two legs of the browser's trip
// to the provider and back. Both legs answer with redirects, so a failure comes back as a code in
// the return path's query for the page to show, never as a JSON page in the browser.
import { SSO_CALLBACK_PAGE, signInOptions, ssoStartQuery } from '@quire/contracts';
import { finishSignIn, SSO_LOGIN_LIFETIME_S, ssoOption, startSignIn } from '../services/sso.js';
import { keepSession } from './account.js';
import type { Call } from './calls.js';
import { clearCookie, setCookie } from './cookies.js';

const base = '/api/account/v1/';
/** The state of this browser's sign-in under way: the callback must bring the same one back. */
const SSO_COOKIE = 'quire_sso';

export function ssoCalls(): Call[] {
  return [
    {
      method: 'GET',
      path: `${base}sign-in-options`,
      summary: 'What the sign-in dialog offers besides a password: the single sign-on provider, if configured',
      response: signInOptions,
      session: 'ignored',
      handler: async (_, c) => ({ sso: ssoOption(c.ctx) }),
    },
    {
      method: 'GET',
      path: `${base}oidc/start`,
      summary: `Single sign-on: redirect to the provider; afterwards back to \`return\` (a path of this site, default ${SSO_CALLBACK_PAGE}), with sso_error=<code> if it failed`,
      query: ssoStartQuery,
      session: 'ignored',
      rateLimit: 'account',
      redirects: true,
      handler: async ({ query }, c) => {
        const { location, state } = await startSignIn(c.ctx, query.return ?? SSO_CALLBACK_PAGE, query.invite);
        if (state) setCookie(c.req, c.reply, SSO_COOKIE, state, SSO_LOGIN_LIFETIME_S);
        return c.reply.redirect(location);
      },
    },
    {
      method: 'GET',
      path: `${base}oidc/callback`,
      summary: "Single sign-on: the provider's redirect URI; signs in (the session cookie) and redirects to the return path",
      session: 'ignored',
      redirects: true,
      handler: async (_, c) => {
        const answer = new URL(c.req.url, 'http://quire').searchParams;
        const { location, signed } = await finishSignIn(c.ctx, answer, c.req.cookies[SSO_COOKIE], {
          ip: c.req.ip,
          userAgent: c.req.headers['user-agent'],
        });
        clearCookie(c.req, c.reply, SSO_COOKIE);
        if (signed) keepSession(c, signed);
        return c.reply.redirect(location);
      },
    },
  ];
}
