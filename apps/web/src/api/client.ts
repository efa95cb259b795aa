// JSON calls to /api/tools/v1/ with the {code, msg, data} envelope; every failure becomes an
// ApiError whose message is ready to show (from the error catalogue).
import { ErrorCode, errorMessages, type LimitRefusal } from '@quire/contracts';

export const API_BASE = '/api/tools/v1/';
const HTTP_TIMEOUT_MS = 90_000;

/** Codes for failures that never reached the API (the catalogue's string codes). */
export const NETWORK_ERROR = -1;

/** The catalogue's message for a code (NETWORK_ERROR included) in the page's language, if it has one. */
type CatalogueText = (code: number) => string | undefined;
const englishCatalogue: CatalogueText = (code) =>
  code === NETWORK_ERROR ? 'Network error. Please connect to the Internet' : errorMessages[code as ErrorCode];
let catalogueText = englishCatalogue;
/** Sent as Accept-Language with every call: the server words what it says itself in the page's language. */
let pageLanguage = 'en';

/**
 * The page's language (its BCP 47 tag) and its catalogue's texts, set here by I18nProvider as its
 * texts load; English until then.
 */
export function setPageLanguage(language: string, text: CatalogueText): void {
  pageLanguage = language;
  catalogueText = (code) => text(code) ?? englishCatalogue(code);
}

/** `headers` with the page's language, for a call made outside `send` (an upload's XMLHttpRequest). */
export function withPageLanguage(headers: HeadersInit = {}): Headers {
  const all = new Headers(headers);
  if (!all.has('Accept-Language')) all.set('Accept-Language', pageLanguage);
  return all;
}

const serverWorded: readonly number[] = [
  ErrorCode.InvalidParams,
  ErrorCode.TooManyPages,
  ErrorCode.TooLarge,
  ErrorCode.TooManyFiles,
  // Premium's "Limit of 100,000 characters exceeded"; a free account's is the catalogue's.
  ErrorCode.DetectorCharsLimit,
  ErrorCode.TaskFailed,
];

/** The message to show for a catalogue code: the catalogue's, else the server's, else generic. */
export function messageFor(code: number, serverMsg?: string): string {
  // For these the server's msg carries the exact message to show, in the page's language: a page
  // range's, the limit passed, why a task failed (it took too long: fewer pages, a lower resolution).
  if (serverWorded.includes(code) && serverMsg) return serverMsg;
  return catalogueText(code) ?? (serverMsg || catalogueText(ErrorCode.Generic)!);
}

/**
 * The catalogue's other session codes (1401, 3011): the page signs out without asking to sign in
 * again. Quire's server never sends them; a server of the product's API may.
 */
export const QUIET_SESSION_LOST_CODES: readonly number[] = [1401, 3011];
/** Codes after which the page is signed out: not signed in (3001), the session ended (1408), and the quiet ones. */
const SESSION_LOST_CODES: readonly number[] = [ErrorCode.NotLogin, ErrorCode.SessionEnded, ...QUIET_SESSION_LOST_CODES];
const sessionLostListeners = new Set<(code: number) => void>();

/** Calls `listener` with the code whenever an API answer says there is no session; returns the unsubscribe. */
export function onSessionLost(listener: (code: number) => void): () => void {
  sessionLostListeners.add(listener);
  return () => sessionLostListeners.delete(listener);
}

/** A limit's refusal as the page opens its upgrade dialog; `reason`: what the server said of it. */
export type Upgrade = LimitRefusal & { reason?: string };

/** What else a failure may carry besides its code and the server's message. */
export interface ApiErrorDetails {
  /** The task that failed, when the failure is a task's. */
  taskId?: string;
  /** The limit that refused the call, as the server described it. */
  upgrade?: LimitRefusal;
  /**
   * The answer's HTTP status, when there was an answer: one code can have more than one cause, told
   * apart by it (3500 is a rate limit at 429, a service away at 503).
   */
  httpStatus?: number;
}

export class ApiError extends Error {
  readonly taskId?: string;
  /** A plan's limit refused the call: the upgrade dialog to open, the limit, and the server's reason. */
  readonly upgrade?: Upgrade;
  readonly httpStatus?: number;
  constructor(
    readonly code: number,
    serverMsg?: string,
    { taskId, upgrade, httpStatus }: ApiErrorDetails = {},
  ) {
    super(messageFor(code, serverMsg));
    this.name = 'ApiError';
    this.taskId = taskId;
    if (upgrade) this.upgrade = { ...upgrade, reason: this.message };
    this.httpStatus = httpStatus;
  }
}

export type Query = Record<string, string | number | undefined>;

/** `base` + `path` with the query's set values. */
export function urlWithQuery(base: string, path: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  const qs = params.toString();
  return base + path + (qs ? `?${qs}` : '');
}

export function apiUrl(path: string, query: Query = {}): string {
  return urlWithQuery(API_BASE, path, query);
}

/**
 * The data a contracts' schema describes, for a call's answer: the page takes the server's answers
 * as the contracts type them, without building the schemas (and zod) into the page (ADR 0541).
 */
export type Answer<S extends { parse(data: unknown): unknown }> = ReturnType<S['parse']>;

export type FetchLike = (url: string, init?: RequestInit) => Promise<Response>;

/** Reads an envelope, throwing ApiError unless code is 0, and returns its `data` as the call's answer. */
export async function readEnvelope<T>(res: Response): Promise<T> {
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new ApiError(res.status >= 500 ? ErrorCode.Busy : ErrorCode.Generic, undefined, { httpStatus: res.status });
  }
  const { code, msg, data } = (body ?? {}) as { code?: unknown; msg?: unknown; data?: unknown };
  if (typeof code !== 'number') throw new ApiError(ErrorCode.Generic, undefined, { httpStatus: res.status });
  if (code !== 0) {
    if (SESSION_LOST_CODES.includes(code)) for (const listener of sessionLostListeners) listener(code);
    throw new ApiError(code, typeof msg === 'string' ? msg : undefined, { upgrade: refusalOf(data), httpStatus: res.status });
  }
  return data as T;
}

/** A failed call's data names the limit that refused it (the dialog to open) when it has `upgrade`. */
function refusalOf(data: unknown): LimitRefusal | undefined {
  return typeof data === 'object' && data !== null && 'upgrade' in data ? (data as LimitRefusal) : undefined;
}

/** fetch with a 90 s time-out, mapping transport failures to catalogue codes. */
export async function send(url: string, init: RequestInit = {}, fetchFn: FetchLike = fetch): Promise<Response> {
  const timeout = AbortSignal.timeout(HTTP_TIMEOUT_MS);
  const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
  try {
    return await fetchFn(url, { ...init, headers: withPageLanguage(init.headers), signal });
  } catch (e) {
    if (init.signal?.aborted) throw e; // cancelled by us: not an error to show
    throw new ApiError(timeout.aborted ? ErrorCode.Busy : NETWORK_ERROR);
  }
}

export async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  return readEnvelope<T>(await send(url, signal ? { signal } : {}));
}

export function postJson<T>(url: string, body: unknown): Promise<T> {
  return sendJson<T>('POST', url, body);
}

export async function sendJson<T>(method: 'POST' | 'PUT', url: string, body: unknown): Promise<T> {
  const res = await send(url, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return readEnvelope<T>(res);
}

export function isAbort(e: unknown): boolean {
  return e instanceof DOMException && e.name === 'AbortError';
}
