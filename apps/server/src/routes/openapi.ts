// The OpenAPI document, generated from the same call list and zod schemas the server uses.
import { z } from 'zod';
import { aiStreamEvent, envelope } from '@quire/contracts';
import type { Call } from './calls.js';
import { SESSION_COOKIE } from './cookies.js';

const schemaOf = (s: z.ZodType) => z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' });

const securitySchemes = {
  session: { type: 'http', scheme: 'bearer', description: "A session token, from login's answer" },
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'The same session token in the cookie login sets (the web app)',
  },
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'qk_…',
    description:
      'A personal API key (POST /api/account/v1/api-keys): calls the tools and cloud APIs as its account, cannot manage the account',
  },
};
const bySession = [{ session: [] }, { sessionCookie: [] }];
/** Who may make each kind of call: `{}` is an anonymous visitor (the visitor cookie, set on the first call). */
function securityOf(call: Call) {
  if (call.session === 'ignored') return [];
  if (call.session === undefined) return [{}, ...bySession, { apiKey: [] }];
  return call.session === 'account' ? [...bySession, { apiKey: [] }] : bySession;
}

export function openApiDocument(calls: Call[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const call of calls) {
    const op: Record<string, unknown> = {
      summary: call.summary,
      operationId: `${call.method.toLowerCase()}_${call.path.replace(/\W+/g, '_')}`,
      security: securityOf(call),
      // Sessions of operators only: other accounts get 3015.
      ...(call.session === 'operator' && { 'x-operators-only': true }),
    };
    if (call.query) {
      const json = schemaOf(call.query) as { properties?: Record<string, unknown>; required?: string[] };
      op.parameters = Object.entries(json.properties ?? {}).map(([name, schema]) => ({
        name,
        in: 'query',
        required: json.required?.includes(name) ?? false,
        schema,
      }));
    }
    if (call.body) op.requestBody = { required: true, content: { 'application/json': { schema: schemaOf(call.body) } } };
    if (call.rawBody === 'multipart')
      op.requestBody = {
        required: true,
        content: {
          'multipart/form-data': {
            schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } }, required: ['file'] },
          },
        },
      };
    if (call.rawBody === 'octet-stream')
      op.requestBody = { required: true, content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } };
    op.responses = call.redirects
      ? { 302: { description: 'A redirect; the browser follows it' } }
      : call.streams
        ? {
            200: {
              description:
                'Server-Sent Events, each `data: <json>` an aiStreamEvent (text, citations or result, done or error); the X-Quire-Stream-Id header names the stream for stream/cancel. A refusal before the stream starts is an envelope',
              content: { 'text/event-stream': { schema: schemaOf(aiStreamEvent) } },
            },
          }
        : call.sendsFile
          ? { 200: { description: 'The file', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } } }
          : {
              200: {
                description: 'Envelope {code, msg, data}; code 0 on success, a catalogue code otherwise',
                content: { 'application/json': { schema: schemaOf(envelope(call.response ?? z.null())) } },
              },
            };
    const pathParams = [...call.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
    if (pathParams.length) {
      op.parameters = [
        ...((op.parameters as unknown[]) ?? []),
        ...pathParams.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      ];
    }
    const openApiPath = call.path.replace(/:(\w+)/g, '{$1}');
    paths[openApiPath] = { ...paths[openApiPath], [call.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Quire API',
      version: '1',
      description:
        'Every JSON answer is an envelope {code, msg, data}. Error codes: see docs/errors.md. ' +
        "Files and tasks belong to whoever made them: an anonymous visitor, or an account signed in by a session or one of its API keys; another owner's id answers 2405.",
    },
    components: { securitySchemes },
    paths,
  };
}
