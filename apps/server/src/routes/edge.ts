// What every HTTP answer carries and how request bodies are kept bounded in time and size.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ACTIVITY_FREE_PATH, ErrorCode, QuireError } from '@quire/contracts';

/**
 * The web app's policy (`frameAncestors`: who may frame the page). pdf.js runs its worker from a same-origin module (a blob: URL when it
 * has to fall back) and never evaluates code (the app opens documents with isEvalSupported off,
 * and zod runs jitless); the upload's md5 is WebAssembly (hash-wasm), which compiling needs
 * 'wasm-unsafe-eval' for, an allowance that does not extend to JavaScript.
 */
const webAppPolicy = (frameAncestors: string) =>
  [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self' blob:",
    "style-src 'self'",
    // The activity dialog's event image may be the operator's, on another host (an image runs nothing).
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');

/** The referral page the activity dialog embeds, under any language prefix: framed by this site only. */
const EMBEDDED_PAGE = new RegExp(`^(/[a-z]{2})?${ACTIVITY_FREE_PATH}/?([?#]|$)`);

/** API answers, downloads included, are data: nothing in them may run or be framed, even if opened directly. */
const API_POLICY = "default-src 'none'; frame-ancestors 'none'; sandbox";

/** The headers of every answer; an answer the route writes itself (a stream of events) sets them too. */
export function securityHeaders(url: string) {
  const embedded = EMBEDDED_PAGE.test(url);
  return {
    'x-content-type-options': 'nosniff',
    'x-frame-options': embedded ? 'SAMEORIGIN' : 'DENY',
    'referrer-policy': 'no-referrer',
    'content-security-policy': url.startsWith('/api/') ? API_POLICY : webAppPolicy(embedded ? "'self'" : "'none'"),
  };
}

export function addSecurityHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (req, reply, payload) => {
    reply.headers(securityHeaders(req.url));
    return payload;
  });
}

/** Bytes a request body must bring within every body timeout to count as still arriving. */
const MIN_BODY_PROGRESS = 16 * 1024;

/**
 * Cuts off a request whose body trickles: a client sending a byte every few seconds would
 * otherwise hold a connection and a temporary file for ever. Progress is read from the socket,
 * so watching takes nothing from the body's consumer.
 */
export function cutOffStalledBodies(app: FastifyInstance, timeoutMs: number) {
  app.addHook('onRequest', async (req) => {
    const raw = req.raw;
    const hasBody = raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length'] ?? 0) > 0;
    if (!hasBody) return;
    const socket = raw.socket;
    let seen = socket.bytesRead;
    const timer = setInterval(() => {
      if (raw.complete || raw.destroyed) return clearInterval(timer);
      if (socket.bytesRead - seen < MIN_BODY_PROGRESS) {
        clearInterval(timer);
        req.log.warn('request body stalled; connection closed');
        raw.destroy(new QuireError(ErrorCode.UploadFailed));
        return;
      }
      seen = socket.bytesRead;
    }, timeoutMs);
    timer.unref();
    raw.once('close', () => clearInterval(timer));
  });
}

/**
 * An answer given before the whole body arrived (a refused upload) ends the connection: the
 * rest of the body is not read, only the answer is flushed first.
 */
export function closeIfBodyUnread(req: FastifyRequest, reply: FastifyReply) {
  if (req.raw.complete) return;
  reply.header('connection', 'close');
  reply.raw.once('finish', () => req.raw.socket?.destroy());
}
