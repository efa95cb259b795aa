// How Redact and Replace text find text, shared so the web app's preview of hits and the server's
// authoritative search agree: a literal search matches its words with any run of whitespace
// between them (a phrase may wrap onto the next line); a regular expression is used as written.

/** At most this many hits per page: a pattern like "." must not stall a page with a million marks. */
export const MAX_HITS_PER_PAGE = 20_000;

export interface SearchSpec {
  text: string;
  regex?: boolean | undefined;
  /** Redaction ignores case (better too much removed than a "JOHN" left); Replace matches it. */
  ignoreCase: boolean;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The message of a regular expression that does not compile, or null. */
export function patternError(text: string): string | null {
  try {
    new RegExp(text, 'g');
    return null;
  } catch (e) {
    return `Invalid regular expression: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}`;
  }
}

export function searchPattern({ text, regex, ignoreCase }: SearchSpec): RegExp {
  const source = regex ? text : text.trim().split(/\s+/).map(escapeRegex).join('\\s+');
  return new RegExp(source, ignoreCase ? 'gi' : 'g');
}

export interface Hit {
  index: number;
  length: number;
}

/** Non-empty matches of `pattern` in `text`, in order, at most MAX_HITS_PER_PAGE. */
export function findHits(text: string, pattern: RegExp): Hit[] {
  const hits: Hit[] = [];
  for (const m of text.matchAll(pattern)) {
    // An empty match (e.g. /x*/) marks nothing.
    if (m[0].length > 0) hits.push({ index: m.index, length: m[0].length });
    if (hits.length >= MAX_HITS_PER_PAGE) break;
  }
  return hits;
}
