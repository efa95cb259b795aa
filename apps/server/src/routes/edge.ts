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

/**
 * A year of HTTPS only. Sent only on a request that came over HTTPS (through a trusted proxy's
 * X-Forwarded-Proto): over plain HTTP browsers ignore it, and a server reached by HTTP alone must
 * not be pinned to HTTPS by a stranger's header. No includeSubDomains: the operator's other hosts
 * are not Quire's to pin.
 */
const HSTS = 'max-age=31536000';

/** The headers of every answer; an answer the route writes itself (a stream of events) sets them too. */
export function securityHeaders(req: FastifyRequest) {
  const { url } = req;
  const embedded = EMBEDDED_PAGE.test(url);
  return {
    'x-content-type-options': 'nosniff',
    'x-frame-options': embedded ? 'SAMEORIGIN' : 'DENY',
    'referrer-policy': 'no-referrer',
    'content-security-policy': url.startsWith('/api/') ? API_POLICY : webAppPolicy(embedded ? "'self'" : "'none'"),
    ...(req.protocol === 'https' && { 'strict-transport-security': HSTS }),
  };
}

export function addSecurityHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (req, reply, payload) => {
    reply.headers(securityHeaders(req));
    return payload;
  });
}

/** Bytes a request body must bring within every body timeout to count as still arriving. */
const MIN_BODY_PROGRESS = 16 * 1024;
/**
 * The slowest average a whole body may arrive at (256 kbit/s, below a poor mobile line): a body
 * trickling just over the progress rule would otherwise never end.
 */
const MIN_BODY_BYTES_PER_S = 32 * 1024;

/**
 * How long a body of `bytes` may take in all: one body timeout, plus its length at the slowest
 * average allowed. A body of unknown length (chunked) is given the time of the largest file.
 */
const bodyDeadlineMs = (timeoutMs: number, bytes: number) => timeoutMs + Math.ceil((bytes / MIN_BODY_BYTES_PER_S) * 1000);

/**
 * Cuts off a request whose body trickles: a client sending a byte every few seconds would
 * otherwise hold a connection and a temporary file for ever. Progress is read from the socket,
 * so watching takes nothing from the body's consumer. A stalled body loses its connection; one
 * still arriving past its deadline is answered 408 with `refusal` (the caller's words) first.
 */
export function cutOffStalledBodies(
  app: FastifyInstance,
  timeoutMs: number,
  maxBodyBytes: number,
  refusal: (req: FastifyRequest) => { code: ErrorCode; msg: string },
) {
  app.addHook('onRequest', async (req, reply) => {
    const raw = req.raw;
    const declared = Number(raw.headers['content-length'] ?? 0);
    const hasBody = raw.headers['transfer-encoding'] !== undefined || declared > 0;
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
    const deadline = setTimeout(
      () => {
        if (raw.complete || raw.destroyed) return;
        req.log.warn('request body past its deadline; connection closed');
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(408, { ...securityHeaders(req), 'content-type': 'application/json; charset=utf-8', connection: 'close' });
          reply.raw.end(JSON.stringify({ ...refusal(req), data: null }));
        }
        reply.raw.once('finish', () => socket.destroy());
        if (reply.raw.writableFinished) socket.destroy();
      },
      bodyDeadlineMs(timeoutMs, declared > 0 ? declared : maxBodyBytes),
    );
    timer.unref();
    deadline.unref();
    raw.once('close', () => {
      clearInterval(timer);
      clearTimeout(deadline);
    });
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
