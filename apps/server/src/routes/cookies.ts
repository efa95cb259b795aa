// The cookies Quire sets: the anonymous visitor's id and the session of a signed-in account.
import type { FastifyReply, FastifyRequest } from 'fastify';

export const VISITOR_COOKIE = 'quire_vid';
export const SESSION_COOKIE = 'quire_session';

/**
 * Scripts cannot read them and other sites' requests do not carry them (links followed to Quire
 * do); Secure over HTTPS, directly or through a trusted TLS-terminating proxy (X-Forwarded-Proto).
 */
const options = (req: FastifyRequest) => ({ path: '/', httpOnly: true, sameSite: 'lax', secure: req.protocol === 'https' }) as const;

export function setCookie(req: FastifyRequest, reply: FastifyReply, name: string, value: string, maxAgeS: number) {
  reply.setCookie(name, value, { ...options(req), maxAge: maxAgeS });
}

export function clearCookie(req: FastifyRequest, reply: FastifyReply, name: string) {
  reply.clearCookie(name, options(req));
}
