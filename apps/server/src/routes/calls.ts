// Every call of the API is declared once here: method, path, schemas and a thin handler.
// The server registers these, and the OpenAPI document is generated from the same list.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  bindFileRequest,
  bindTaskRequest,
  boundFiles,
  boundTasks,
  bulkDownloadQuery,
  cancelTaskRequest,
  deletedOutputs,
  deleteOutputsRequest,
  documentInfo,
  downloadQuery,
  fileDownloadQuery,
  ErrorCode,
  isQuireError,
  QuireError,
  documentInfoQuery,
  fileInfo,
  outputAsFileRequest,
  serverConfig,
  taskCreated,
  taskEntry,
  taskResultQuery,
  toolDefinitions,
  uploadCompleteRequest,
  uploadPartQuery,
  uploadPartResult,
  uploadPolicy,
  uploadPolicyRequest,
  UPLOAD_CHUNK_THRESHOLD,
  UPLOAD_PART_SIZE,
} from '@quire/contracts';
import type { AppContext } from '../context.js';
import { installedLanguages } from '../engines/ocr.js';
import { acceptUpload, toFileInfo, unlockedFile } from '../services/files.js';
import { checkFreeSpace, checkHoldings } from '../services/holdings.js';
import { deleteOutputs, outputAsFile, sendBulk, sendTaskOutput, sendUpload } from '../services/downloads.js';
import { newId } from '../ids.js';
import { completeUpload, uploadPolicy as makeUploadPolicy, uploadPart } from '../services/uploads.js';
import { cancelTasks, createTask, taskResults } from '../services/tasks.js';
import { limitsAnswer, limitsOf, tooLargeError } from '../services/limits.js';
import type { RateLimitedCall } from '../services/rateLimits.js';
import type { Identity } from '../services/accounts.js';
import { tools } from '../tools/registry.js';
import { bindFiles, bindTasks } from '../services/anonymous.js';
import { accountCalls, currentSession, refreshCall } from './account.js';
import { visitorOf } from './identity.js';
import { ssoCalls } from './sso.js';
import { apiKeyCalls } from './apiKeys.js';
import { adminCalls } from './admin.js';
import { siteCalls } from './site.js';
import { messageCalls } from './messages.js';
import { cloudCalls } from './cloud.js';
import { shareCalls } from './share.js';
import { templateCalls } from './templates.js';
import { editorCalls } from './editor.js';
import { signCalls } from './sign.js';
import { aiLanguageCalls } from './aiLanguage.js';
import { signTaskParams } from '../services/signatures.js';
import { aiCalls } from './ai.js';
import { aiDetectCalls } from './aiDetect.js';
import { surveyCalls } from './survey.js';
import { activityCalls } from './activity.js';
import type { Words } from '../texts/words.js';

export interface CallContext {
  ctx: AppContext;
  /** Who owns what the call makes and may read: the signed-in account, or else the visitor. */
  ownerId: string;
  identity: Identity;
  req: FastifyRequest;
  reply: FastifyReply;
  /** The caller's language (its Accept-Language), for the words the server says itself. */
  words: Words;
}

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  summary: string;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The `data` of the envelope; calls that answer with a file leave it out. */
  response?: z.ZodType;
  /** Raw request bodies (uploads) are described, not validated, by the document. */
  rawBody?: 'multipart' | 'octet-stream';
  /** The handler sends a file itself instead of returning envelope data. */
  sendsFile?: true;
  /** The handler answers with Server-Sent Events (text/event-stream) it writes itself. */
  streams?: true;
  /** The handler answers with a redirect (a browser's navigation), not envelope data. */
  redirects?: true;
  /** Bytes the request body may have, where more than the server's 1 MB (the editor's images). */
  /** The largest body the call takes, in bytes, where it is not the server's 1 MB. */
  bodyLimit?: number;
  /** Counted against the client's rate limit of this kind of call (429 beyond it). */
  rateLimit?: RateLimitedCall;
  /** Adds bytes its caller holds until retention (an upload, a task's outputs): 4017 past the caller's or its address's cap. */
  holds?: true;
  /**
   * Left out: anyone may call, as a visitor, a session or an API key. `required`: a session signed
   * in with the password (account management; 3001 for a visitor, 3012 for an API key).
   * `operator`: such a session of an operator's account (3015 for others, checked by the service).
   * `account`: a signed-in account, by a session or an API key (3001 for a visitor): the document cloud.
   * A token of an ended session, or a revoked key, is answered with 1408 (the client signs out)
   * unless the call ignores it: those that sign in, or need no sign-in, as a mailed link's.
   */
  session?: 'ignored' | 'required' | 'operator' | 'account';
  // biome-ignore lint/suspicious/noExplicitAny: query and body have passed the call's own zod schemas before the handler runs; one list holds calls of every shape
  handler(input: { query: any; body: any }, c: CallContext): Promise<unknown>;
}

const base = '/api/tools/v1/';

/** Room for the multipart framing (boundaries, part headers) around the file itself. */
const MULTIPART_FRAMING_BYTES = 64 * 1024;

function declaredLength(req: FastifyRequest): number | undefined {
  const header = req.headers['content-length'];
  return header === undefined ? undefined : Number(header);
}

/** One-request upload: stream the part to a temporary file, then check it like any upload. */
async function receiveMultipart(c: CallContext) {
  const limits = limitsOf(c.ctx, c.identity);
  const tooLarge = () => tooLargeError(limits.role, limits.maxFileBytes);
  // A body declared bigger than the plan's file is refused before a byte of it is read.
  const declared = declaredLength(c.req) ?? 0;
  if (declared > limits.maxFileBytes + MULTIPART_FRAMING_BYTES) throw tooLarge();
  // And one that cannot fit in what its owner or address may still hold.
  if (declared > MULTIPART_FRAMING_BYTES) await checkHoldings(c.ctx, c.ownerId, c.req.ip, declared - MULTIPART_FRAMING_BYTES);
  const part = await c.req.file({ limits: { fileSize: limits.maxFileBytes } });
  if (!part) throw new QuireError(ErrorCode.NeedPdfFirst);
  // Past the limit the parser would read on to the end of the body, discarding it: stop instead.
  part.file.once('limit', () => part.file.destroy(tooLarge()));
  fs.mkdirSync(c.ctx.scratchDir, { recursive: true });
  const tmp = path.join(c.ctx.scratchDir, `${newId()}.upload`);
  const out = fs.createWriteStream(tmp);
  try {
    await pipeline(part.file, out);
    // A small body can end before the limit's destroy lands: the parser marks it cut short.
    if (part.file.truncated) throw tooLarge();
  } catch (e) {
    // A stream that fails while still opening its file creates it after any earlier removal.
    if (!out.closed) await new Promise<void>((closed) => out.once('close', closed));
    fs.rmSync(tmp, { force: true });
    // The parser's own failure is a body that ended before its closing boundary: the client's.
    throw isQuireError(e) ? e : new QuireError(ErrorCode.UploadFailed);
  }
  // Free space and bytes held are checked once the part is on disk: an await before the parser
  // would let the whole body arrive first, and a form cut short would then fail unheard.
  try {
    await checkFreeSpace(c.ctx);
    await checkHoldings(c.ctx, c.ownerId, c.req.ip);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
  return acceptUpload(c.ctx, c.ownerId, limits, part.filename, tmp);
}

/** The sign call's images (its saved signatures among them) and a certificate: more than 1 MB. */
const SIGN_CALL_BODY_BYTES = 8 * 1024 * 1024;

/** A tool's task; a request without a session is an anonymous visitor's, whose tasks a day are limited. */
const queueTask = (c: CallContext, toolId: string, params: unknown) =>
  createTask(c.ctx, c.ownerId, limitsOf(c.ctx, c.identity), toolId, params, { address: c.req.ip, anonymous: !c.identity.account });

/** The account owner of a signed-in call (3001 without a session) and the visitor of its cookie, whose work it may take. */
const bindingParties = (c: CallContext) => {
  currentSession(c);
  return { account: c.ownerId, visitor: visitorOf(c.req) };
};

export function buildCalls(): Call[] {
  // Path segments like :file_id are fields of the call's body; the tool's schema validates them all.
  // Pages that share a tool (the converter's) share its call: one per tool.
  const oneDefinitionPerTool = toolDefinitions.filter((def, i) => toolDefinitions.findIndex((d) => d.id === def.id) === i);
  const toolCalls: Call[] = oneDefinitionPerTool.flatMap((def) =>
    [def.apiPath, ...(def.apiPathAliases ?? [])].flatMap((apiPath): Call[] => {
      const params = tools[def.id].params;
      const summary = `Queue the ${def.id} tool`;
      const post: Call = {
        method: 'POST',
        path: base + apiPath,
        summary,
        body: params,
        response: taskCreated,
        rateLimit: 'task',
        holds: true,
        // Signing names saved signatures, which become images of the task here (the tool reads no database).
        ...(def.id === 'sign'
          ? {
              bodyLimit: SIGN_CALL_BODY_BYTES,
              handler: async ({ body }, c) => queueTask(c, def.id, await signTaskParams(c.ctx, c.ownerId, body)),
            }
          : { handler: ({ body }, c) => queueTask(c, def.id, body) }),
      };
      // The API's converter is a GET whose query carries the parameters, a password among them;
      // the same call as a POST keeps the password out of the URL (the web app's way).
      if (def.apiMethod !== 'GET') return [post];
      const get: Call = {
        method: 'GET',
        path: base + apiPath,
        summary: `${summary} (parameters in the query; the POST keeps a password out of the URL)`,
        query: params,
        response: taskCreated,
        rateLimit: 'task',
        holds: true,
        handler: ({ query }, c) => queueTask(c, def.id, query),
      };
      return [get, post];
    }),
  );

  return [
    {
      method: 'GET',
      path: `${base}config`,
      summary: "The caller's plan and its limits, which the web app checks before uploading",
      response: serverConfig,
      handler: async (_, { ctx, identity }) => ({
        sign_in_to_download: !ctx.config.anonymousDownloads,
        ...limitsAnswer(limitsOf(ctx, identity)),
        retention_hours: ctx.config.retentionHours,
        chunk_threshold: UPLOAD_CHUNK_THRESHOLD,
        part_size: UPLOAD_PART_SIZE,
        ocr_languages: await installedLanguages().catch(() => []),
        operator_contact: ctx.config.operatorContact,
        signing_certificate: ctx.config.signingCertificate !== undefined,
        timestamp_authority: ctx.config.timestampAuthority !== undefined,
      }),
    },
    {
      method: 'POST',
      path: `${base}file/stream`,
      summary: 'Upload a file in one request (multipart field "file")',
      rateLimit: 'upload',
      holds: true,
      rawBody: 'multipart',
      response: fileInfo,
      handler: (_, c) => receiveMultipart(c),
    },
    {
      method: 'POST',
      path: `${base}file/upload-policy`,
      summary: 'Start or resume a chunked upload',
      rateLimit: 'upload',
      holds: true,
      body: uploadPolicyRequest,
      response: uploadPolicy,
      handler: ({ body }, c) => makeUploadPolicy(c.ctx, c.ownerId, limitsOf(c.ctx, c.identity), body),
    },
    {
      method: 'PUT',
      path: `${base}file/upload-part`,
      summary: 'Send one part (raw bytes) of a chunked upload',
      rateLimit: 'upload',
      query: uploadPartQuery,
      rawBody: 'octet-stream',
      response: uploadPartResult,
      handler: ({ query }, c) => {
        // Only the octet-stream parser hands over a stream; JSON, or no body at all, is not a part.
        if (!(c.req.body instanceof Readable) || declaredLength(c.req) === 0)
          throw new QuireError(ErrorCode.InvalidParams, 'The part must be sent as raw bytes (application/octet-stream).');
        return uploadPart(c.ctx, c.ownerId, query.upload_id, query.part_number, c.req.body, declaredLength(c.req));
      },
    },
    {
      method: 'POST',
      path: `${base}file/upload-complete`,
      summary: 'Join the parts, verify the md5 and register the file',
      rateLimit: 'upload',
      body: uploadCompleteRequest,
      response: fileInfo,
      handler: ({ body }, c) => completeUpload(c.ctx, c.ownerId, limitsOf(c.ctx, c.identity), body.upload_id),
    },
    ...(['GET', 'POST'] as const).map(
      (method): Call => ({
        method,
        path: `${base}document/info`,
        summary:
          'Pages and size of an uploaded file; 3122 if it needs a password, 3123 if the password is wrong' +
          (method === 'GET' ? ' (parameters in the query; the POST keeps a password out of the URL)' : ''),
        [method === 'GET' ? 'query' : 'body']: documentInfoQuery,
        response: documentInfo,
        handler: async (input, c) => {
          const { file_id, passwd } = method === 'GET' ? input.query : input.body;
          const {
            file_id: id,
            file_size,
            total_page,
            page_w,
            page_h,
            repaired,
          } = toFileInfo(await unlockedFile(c.ctx, c.ownerId, file_id, passwd));
          return { file_id: id, file_size, total_page, page_w, page_h, ...(repaired && { repaired }) };
        },
      }),
    ),
    ...toolCalls,
    {
      method: 'GET',
      path: `${base}get-task-result`,
      summary: 'Status and progress of a task, or of every task of a multi_id',
      query: taskResultQuery,
      response: z.array(taskEntry),
      handler: ({ query }, c) => taskResults(c.ctx, c.ownerId, query, c.words),
    },
    {
      method: 'POST',
      path: `${base}document/cancel-task`,
      summary:
        'Cancel a task, or every task of a multi_id: a queued one never runs, a running one is stopped and what it made removed; ' +
        'each fails with 3127, finished ones keep their state. Answers every task as get-task-result does',
      body: cancelTaskRequest,
      response: z.array(taskEntry),
      // Every task's state after, as get-task-result answers it.
      handler: async ({ body }, c) => {
        await cancelTasks(c.ctx, c.ownerId, body);
        return taskResults(c.ctx, c.ownerId, body, c.words);
      },
    },
    {
      method: 'GET',
      path: `${base}file/download`,
      // No password: the visitor uploaded these very bytes, and the browser opens an encrypted one with the password itself.
      summary: 'The uploaded file itself, as it was uploaded (the web app renders thumbnails from it)',
      query: fileDownloadQuery,
      sendsFile: true,
      handler: ({ query }, c) => sendUpload(c.ctx, c.reply, c.ownerId, query.file_id, c.req.headers.range),
    },
    {
      method: 'GET',
      path: `${base}document/download-doc`,
      summary: "A task's output: the only one, one by index, or a zip of all",
      query: downloadQuery,
      sendsFile: true,
      handler: ({ query }, c) => sendTaskOutput(c.ctx, c.reply, c.ownerId, query.task_id, query.index),
    },
    {
      method: 'POST',
      path: `${base}document/delete-outputs`,
      summary: 'Delete the outputs of every finished task of a multi_id now, before their retention ends',
      body: deleteOutputsRequest,
      response: deletedOutputs,
      handler: ({ body }, c) => deleteOutputs(c.ctx, c.ownerId, body.multi_id),
    },
    {
      method: 'POST',
      path: `${base}document/output-as-file`,
      summary: "A task's output registered as an upload, so another tool can take its file_id",
      rateLimit: 'upload',
      holds: true,
      body: outputAsFileRequest,
      response: fileInfo,
      handler: ({ body }, c) => outputAsFile(c.ctx, c.ownerId, limitsOf(c.ctx, c.identity), body.task_id, body.index),
    },
    {
      method: 'GET',
      path: `${base}download-doc-bulk`,
      summary: 'A zip of the outputs of every finished task of a multi_id',
      query: bulkDownloadQuery,
      sendsFile: true,
      handler: ({ query }, c) => sendBulk(c.ctx, c.reply, c.ownerId, query.multi_id),
    },
    {
      method: 'POST',
      path: `${base}task/bind`,
      summary:
        "Move the visitor's task, or every task of a multi_id, to the signed-in account (3001 without a session), with the files " +
        "an unfinished one reads; the visitor is the one of the visitor cookie. Tasks already the account's count as bound",
      body: bindTaskRequest,
      session: 'required',
      response: boundTasks,
      handler: ({ body }, c) => {
        const { account, visitor } = bindingParties(c);
        return bindTasks(c.ctx, account, visitor, body);
      },
    },
    {
      method: 'POST',
      path: `${base}file/bind`,
      summary: "Move the visitor's uploaded files to the signed-in account (3001 without a session); 2405 if one is neither's",
      body: bindFileRequest,
      session: 'required',
      response: boundFiles,
      handler: ({ body }, c) => {
        const { account, visitor } = bindingParties(c);
        return bindFiles(c.ctx, account, visitor, body.file_ids);
      },
    },
    refreshCall(base),
    ...accountCalls(),
    ...ssoCalls(),
    ...apiKeyCalls(),
    ...adminCalls(),
    ...siteCalls(),
    ...messageCalls(),
    ...cloudCalls(),
    ...shareCalls(),
    ...templateCalls(),
    ...editorCalls(queueTask),
    ...signCalls(),
    ...aiCalls(),
    ...aiDetectCalls(),
    ...aiLanguageCalls(queueTask),
    ...surveyCalls(),
    ...activityCalls(),
  ];
}
