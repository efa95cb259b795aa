// RFC 3161 time-stamps from the operator's Time Stamping Authority (QUIRE_TSA_URL): a
// TimeStampReq over HTTP (application/timestamp-query), its reply bounded in time and size, and
// checked before its token goes into a signature: granted, over the SHA-256 of the data asked
// for, with the nonce asked for. The token's own signature is the readers' to check against the
// TSA's certificate, which the token carries (certReq).
import crypto from 'node:crypto';
import { ErrorCode, QuireError } from '@quire/contracts';
import { children, contentOf, element, encodingOf, integer, NULL, OID, octets, oid, sequence, TRUE, unsignedInteger } from './der.js';
import { tookTooLong } from './run.js';

/** Bytes of a TSA's reply; a token with the TSA's certificate chain is a few kilobytes. */
export const MAX_TSA_REPLY_BYTES = 16 * 1024;

export interface TimestampCall {
  timeoutMs: number;
  /** The task's own stop (its deadline, a cancel). */
  signal?: AbortSignal | undefined;
}

export interface Timestamp {
  /** The TimeStampToken (a CMS ContentInfo), as the TSA sent it. */
  token: Buffer;
  /** The time the TSA vouches for. */
  time: Date;
}

const unavailable = () => new QuireError(ErrorCode.TimestampUnavailable);
const invalid = () => new QuireError(ErrorCode.TimestampInvalid);

/** The reply's body, refused past MAX_TSA_REPLY_BYTES without reading further. */
async function boundedBody(response: Response): Promise<Buffer> {
  if (Number(response.headers.get('content-length') ?? 0) > MAX_TSA_REPLY_BYTES) throw invalid();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.length;
    if (size > MAX_TSA_REPLY_BYTES) throw invalid();
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/** A GeneralizedTime of the form YYYYMMDDHHMMSS[.fff]Z. */
function generalizedTime(text: string): Date {
  const m = text.match(/^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)(\.\d+)?Z$/);
  if (!m) throw invalid();
  const [, y, mo, d, h, mi, s, frac] = m;
  return new Date(Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +s!, Math.round(Number(frac ?? 0) * 1000)));
}

/**
 * The token of a TimeStampResp, checked: status granted (0) or granted with modifications (1), a
 * TSTInfo whose message imprint is SHA-256 of `imprint` and whose nonce is `nonce`.
 */
export function checkedToken(reply: Buffer, imprint: Buffer, nonce: Buffer): Timestamp {
  try {
    const [statusInfo, tokenInfo] = children(reply, element(reply, 0));
    const status = element(reply, statusInfo!.content);
    if (status.tag !== 0x02 || contentOf(reply, status).readUIntBE(0, status.end - status.content) > 1 || !tokenInfo) throw invalid();
    const token = Buffer.from(encodingOf(reply, tokenInfo));
    // ContentInfo { signedData, [0] SignedData { version, digestAlgorithms, encapContentInfo { tstInfo, [0] OCTET STRING } } }
    const [type, wrapped] = children(token, element(token, 0));
    if (!encodingOf(token, type!).equals(oid(OID.signedData))) throw invalid();
    const [, , encap] = children(token, element(token, wrapped!.content));
    const [contentType, explicit] = children(token, encap!);
    if (!encodingOf(token, contentType!).equals(oid(OID.tstInfo))) throw invalid();
    const tstInfo = contentOf(token, element(token, explicit!.content));
    // TSTInfo { version, policy, messageImprint, serialNumber, genTime, accuracy?, ordering?, nonce?, … }
    const [, , messageImprint, , genTime, ...rest] = children(tstInfo, element(tstInfo, 0));
    const expected = sequence(sequence(oid(OID.sha256), NULL), octets(imprint));
    const withoutParameters = sequence(sequence(oid(OID.sha256)), octets(imprint));
    const given = encodingOf(tstInfo, messageImprint!);
    if (!given.equals(expected) && !given.equals(withoutParameters)) throw invalid();
    const nonceElement = rest.find((e) => e.tag === 0x02);
    if (!nonceElement || !encodingOf(tstInfo, nonceElement).equals(unsignedInteger(nonce))) throw invalid();
    if (genTime!.tag !== 0x18) throw invalid();
    return { token, time: generalizedTime(contentOf(tstInfo, genTime!).toString('latin1')) };
  } catch (e) {
    if (e instanceof QuireError) throw e;
    throw invalid();
  }
}

/** A time-stamp token over `data` (its SHA-256) from the TSA at `url`: 4215 where it cannot be had, 4216 where the reply fails its checks. */
export async function timestampOf(url: string, data: Buffer, { timeoutMs, signal }: TimestampCall): Promise<Timestamp> {
  const imprint = crypto.createHash('sha256').update(data).digest();
  const nonce = crypto.randomBytes(8);
  // Neither a leading zero byte nor a high bit: the TSA writes the nonce back as the very bytes sent.
  nonce[0] = (nonce[0]! & 0x7f) | 0x40;
  // TimeStampReq { version 1, messageImprint, nonce, certReq TRUE }: the token then carries the TSA's certificate.
  const request = sequence(integer(1), sequence(sequence(oid(OID.sha256), NULL), octets(imprint)), unsignedInteger(nonce), TRUE);
  const stop = AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])]);
  let reply: Buffer;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/timestamp-query' },
      body: request,
      redirect: 'error',
      signal: stop,
    });
    if (response.status !== 200) throw unavailable();
    reply = await boundedBody(response);
  } catch (e) {
    if (signal?.aborted) throw tookTooLong();
    if (e instanceof QuireError) throw e;
    throw unavailable();
  }
  return checkedToken(reply, imprint, nonce);
}
