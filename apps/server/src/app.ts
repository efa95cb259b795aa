// The HTTP server: the API under /api, the OpenAPI document at /api/docs, and the built web app.
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { ErrorCode, errorHttpStatus, QuireError } from '@quire/contracts';
import type { AppContext } from './context.js';
import { buildCalls } from './routes/calls.js';
import { openApiDocument } from './routes/openapi.js';
import { firstIssue } from './services/tasks.js';
import { loggerOptions } from './logging.js';
import { RateLimited } from './services/rateLimits.js';
import type { Identity } from './services/accounts.js';
import { addSecurityHeaders, closeIfBodyUnread, cutOffStalledBodies } from './routes/edge.js';
import { identify, refuseCrossOriginWrite, requireSession } from './routes/identity.js';
import { marketingRoutes, sendPage } from './routes/marketing.js';
import { languageOf, wordsFor } from './texts/words.js';
import { isDatabaseUnavailable } from './db/connect.js';
import { healthOf } from './services/health.js';
import { checkFreeSpace, checkHoldings } from './services/holdings.js';

/** The words of the language the caller asks for: the page sends its own with each call. */
const callerWords = (req: FastifyRequest) => wordsFor(languageOf(req.headers['accept-language']));

/** A build file named by its content's hash ("index-DiU0li6X.js", or its .br/.gz): it never changes under that name. */
const HASHED_ASSET = /[\\/]assets[\\/][^\\/]+-[\w-]{8}\.\w+(\.br|\.gz)?$/;

/**
 * A call that takes no upload takes JSON or nothing. A form of another page (text/plain,
 * multipart, urlencoded) is refused before its body is read, whatever the call would ignore of it.
 */
function refuseNonJsonBody(req: FastifyRequest) {
  const type = req.headers['content-type'];
  if (type === undefined || req.method === 'GET') return;
  if (type.split(';')[0]!.trim().toLowerCase() !== 'application/json')
    throw new QuireError(ErrorCode.InvalidParams, 'The body must be JSON (Content-Type: application/json).');
}

declare module 'fastify' {
  interface FastifyRequest {
    identity: Identity;
  }
}

/** `logStream`: where requests are logged (tests), instead of stdout when QUIRE_LOG=1. */
export async function buildApp(ctx: AppContext, { logStream }: { logStream?: NodeJS.WritableStream } = {}): Promise<FastifyInstance> {
  const calls = buildCalls();
  const logger = loggerOptions(
    calls.map((c) => c.path),
    logStream,
  );
  const app = Fastify({
    logger,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: true,
    trustProxy: ctx.config.trustProxy,
    // A path the router cannot decode (a bad percent escape) is refused in the envelope too.
    frameworkErrors: (_err, req: FastifyRequest, reply: FastifyReply) =>
      reply.status(400).send({ code: ErrorCode.InvalidParams, msg: callerWords(req).code(ErrorCode.InvalidParams), data: null }),
  });
  addSecurityHeaders(app);
  cutOffStalledBodies(app, ctx.config.bodyTimeoutMs, ctx.config.maxFileBytes, (req) => ({
    code: ErrorCode.UploadFailed,
    msg: callerWords(req).code(ErrorCode.UploadFailed),
  }));
  await app.register(cookie);
  await app.register(multipart, { limits: { fileSize: ctx.config.maxFileBytes, files: 1 } });
  // Upload parts arrive as raw bytes and are streamed straight to disk.
  app.addContentTypeParser('application/octet-stream', (_req, payload, done) => done(null, payload));

  // Set by the hook below for every API request, the only ones that read it.
  app.decorateRequest('identity', null as unknown as Identity);
  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/api/')) return;
    refuseCrossOriginWrite(req);
    req.identity = await identify(ctx, req, reply);
  });

  app.setErrorHandler((err, req, reply) => {
    closeIfBodyUnread(req, reply);
    if (err instanceof RateLimited) {
      reply.header('retry-after', String(err.retryAfterS));
      return reply.status(429).send({ code: err.code, msg: callerWords(req).message(err), data: null });
    }
    if (err instanceof QuireError) {
      const msg = callerWords(req).message(err);
      return reply.status(errorHttpStatus[err.code]).send({ code: err.code, msg, data: err.data ?? null });
    }
    const e = err as { statusCode?: number; code?: string; message: string };
    if (e.code === 'FST_REQ_FILE_TOO_LARGE' || e.statusCode === 413) {
      return reply.status(413).send({ code: ErrorCode.TooLarge, msg: callerWords(req).code(ErrorCode.TooLarge), data: null });
    }
    if (e.statusCode && e.statusCode < 500) {
      return reply.status(e.statusCode).send({ code: ErrorCode.InvalidParams, msg: e.message, data: null });
    }
    // The database restarting or stopped: the client tries again later, as with any busy service.
    if (isDatabaseUnavailable(err)) {
      req.log.warn(`database unavailable: ${(err as Error).message}`);
      return reply.status(503).send({ code: ErrorCode.Busy, msg: callerWords(req).code(ErrorCode.Busy), data: null });
    }
    req.log.error(err);
    console.error(err);
    return reply.status(500).send({ code: ErrorCode.Generic, msg: callerWords(req).code(ErrorCode.Generic), data: null });
  });

  for (const call of calls) {
    const { rateLimit } = call;
    app.route({
      method: call.method,
      url: call.path,
      ...(call.bodyLimit && { bodyLimit: call.bodyLimit }),
      onRequest: async (req: FastifyRequest) => {
        if (!call.rawBody) refuseNonJsonBody(req);
        // Counted and checked before the body is read, so a refused upload costs nothing.
        if (rateLimit) ctx.rateLimits.take(rateLimit, req.identity.ownerId, req.ip);
        // A multipart upload is checked once its part is on disk (receiveMultipart says why).
        if (rateLimit && call.rawBody !== 'multipart') {
          // Uploads, tasks and cloud writes all write to the data volume.
          if (rateLimit !== 'account') await checkFreeSpace(ctx);
          if (call.holds) await checkHoldings(ctx, req.identity.ownerId, req.ip);
        }
      },
      handler: async (req, reply) => {
        const { identity } = req;
        const words = callerWords(req);
        if (identity.ended && call.session !== 'ignored') throw new QuireError(ErrorCode.SessionEnded);
        if (call.session === 'required' || call.session === 'operator') requireSession(identity);
        if (call.session === 'account' && !identity.account) throw new QuireError(ErrorCode.NotLogin);
        const query = call.query
          ? call.query.safeParse(req.query, { error: words.schemaErrors })
          : { success: true as const, data: req.query };
        if (!query.success) throw new QuireError(ErrorCode.InvalidParams, firstIssue(query.error));
        const rawBody = { ...(req.body as object), ...(req.params as object) };
        const body = call.body ? call.body.safeParse(rawBody, { error: words.schemaErrors }) : { success: true as const, data: req.body };
        if (!body.success) throw new QuireError(ErrorCode.InvalidParams, firstIssue(body.error));
        const data = await call.handler(
          { query: query.data, body: body.data },
          { ctx, ownerId: identity.ownerId, identity, req, reply, words },
        );
        if (call.sendsFile || call.redirects || call.streams) return reply;
        return { code: 0, msg: 'success', data };
      },
    });
  }

  app.get('/api/health', async (req, reply) => {
    const status = await healthOf(ctx);
    if (status === 'ok') return { code: 0, msg: 'success', data: { status } };
    return reply.status(503).send({ code: ErrorCode.Busy, msg: callerWords(req).code(ErrorCode.Busy), data: { status } });
  });
  const doc = openApiDocument(calls);
  app.get('/api/docs', async () => doc);

  marketingRoutes(app, ctx.config);
  if (fs.existsSync(path.join(ctx.config.webDist, 'index.html'))) {
    // wildcard: files built after start are served too; a missing one falls to the handler below.
    // No index: "/" is the home page, answered with its own head and content by marketingRoutes.
    await app.register(fastifyStatic, {
      root: ctx.config.webDist,
      index: false,
      // The build's .br and .gz beside each text file, chosen by Accept-Encoding.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (res, file) => {
        res.setHeader('vary', 'accept-encoding');
        res.setHeader('cache-control', HASHED_ASSET.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api/'))
      return reply.status(404).send({ code: ErrorCode.NoData, msg: callerWords(req).code(ErrorCode.NoData), data: null });
    // A missing build asset is a 404, not the app (a module served as HTML breaks the page).
    if (req.url.startsWith('/assets/')) return reply.status(404).type('text/plain').send('Not found');
    // Every other path is a route of the single-page app, which handles redirects itself; a page is only read.
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return reply.status(405).header('allow', 'GET, HEAD').type('text/plain').send('Method not allowed');
    return sendPage(ctx.config, req, reply);
  });
  return app;
}
