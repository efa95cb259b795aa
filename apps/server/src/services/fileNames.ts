// File names that came from a client: what is kept of them, and how they are sent back.
import path from 'node:path';

/** Control characters, lone surrogates and the bidi controls that can disguise an extension. */
const INVISIBLE = /[\p{Cc}\p{Cs}\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
/** Characters Windows refuses in a name; an unzipped download must open there too. */
const RESERVED = /[<>:"|?*]/g;
const MAX_NAME_CHARS = 200;

/**
 * The last path segment of a client's name (either slash), without invisible characters, with
 * no leading or trailing dots or spaces, at most 200 characters (the extension kept), or
 * "document" if nothing is left.
 */
export function safeFileName(name: string): string {
  const lastSegment = name.replace(INVISIBLE, '').split(/[/\\]/).pop() ?? '';
  let safe = lastSegment.replace(RESERVED, '_').replace(/^[\s.]+|[\s.]+$/g, '');
  if (safe.length > MAX_NAME_CHARS) {
    const ext = path.extname(safe).slice(0, 16);
    safe = safe.slice(0, MAX_NAME_CHARS - ext.length) + ext;
  }
  return safe || 'document';
}

/** RFC 5987 value-chars: encodeURIComponent leaves ' ( ) * as they are, which the grammar excludes. */
const rfc5987 = (name: string) =>
  encodeURIComponent(name.replace(/\p{Cs}/gu, '\ufffd')).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Always a download, never shown in place; the plain name for old clients, the UTF-8 one for the rest. */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${rfc5987(name)}`;
}
