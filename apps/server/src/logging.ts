// What the server logs about a request. Secrets can arrive in a URL (the converter's and
// document/info's `passwd` query, redaction's last path segment, single sign-on's code, a product
// link's `token`), and a log is read by more people than the visitor who typed them: those parts
// are blanked before logging.
import type { FastifyServerOptions } from 'fastify';
import { readSetting } from './settings.js';

/**
 * Query parameters that carry passwords (merge's `passwds` may come as `passwds[]`), single
 * sign-on's authorization code and state, which the provider sends back in the callback's query,
 * the session token a product link hands the web app's page (`?token=`), which the page's own
 * request brings to the server, and a share's code (the API's `share_code`, the page's `share_id`),
 * which opens the shared file to anyone signed in.
 */
const secretQueryName = /^(passwd|password|passwds|code|state|token|share_code|share_id)(\[\d*\])?$/i;
/** Path parameters (`:name` in a call's path) that carry passwords. */
const secretParam = /^:(passwd|password)$/;
const HIDDEN = '***';

function queryName(pair: string): string {
  const raw = pair.split('=', 1)[0]!.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * Blanks the passwords of a URL, given the paths of every call (`:name` segments are parameters):
 * the values of password query parameters, and the segments a call's path names as a password.
 */
export function urlRedactor(callPaths: readonly string[]): (url: string) => string {
  const secretPaths = callPaths.map((p) => p.split('/')).filter((segments) => segments.some((s) => secretParam.test(s)));
  const matches = (pattern: string[], segments: string[]) =>
    pattern.length === segments.length && pattern.every((s, i) => s.startsWith(':') || s === segments[i]);

  return (url) => {
    const q = url.indexOf('?');
    let segments = (q < 0 ? url : url.slice(0, q)).split('/');
    const pattern = secretPaths.find((p) => matches(p, segments));
    if (pattern) segments = segments.map((s, i) => (secretParam.test(pattern[i]!) ? HIDDEN : s));
    const pathname = segments.join('/');
    if (q < 0) return pathname;
    const query = url
      .slice(q + 1)
      .split('&')
      .map((pair) => (secretQueryName.test(queryName(pair)) ? `${pair.split('=', 1)[0]}=${HIDDEN}` : pair));
    return `${pathname}?${query.join('&')}`;
  };
}

/**
 * Fastify's logger: off unless QUIRE_LOG=1 or a `stream` is given (tests read what is logged);
 * requests are logged as Fastify does, their URL redacted.
 */
export function loggerOptions(callPaths: readonly string[], stream?: NodeJS.WritableStream): FastifyServerOptions['logger'] {
  if (!stream && !readSetting('QUIRE_LOG', process.env).value) return false;
  const redact = urlRedactor(callPaths);
  return {
    ...(stream && { stream }),
    serializers: {
      req: (req: { method: string; url: string; host?: string; ip?: string }) => ({
        method: req.method,
        url: redact(req.url),
        host: req.host,
        remoteAddress: req.ip,
      }),
    },
  };
}
