// The message centre's ids and header, without zod: the page's shell imports them (ADR 0542).

/** The product id the page asks with; any other has no messages. */
export const MESSAGE_PID = 4512;
/** Spec §9: the page asks for up to this many at once, and the server answers no more. */
export const MESSAGE_PAGE_SIZE = 999;
/** A visitor's messages are those of the client signature in this header (never in a URL). */
export const CLIENT_SIGN_HEADER = 'x-client-sign';
