// A PAdES B-B signature: the PKCS#12 opened by openssl (its password in a file only this process can
// read, never on the command line), then a detached CMS over the file's byte range, with the
// signing-certificate-v2 attribute, written into the Contents placeholder MuPDF left (mupdf/sign.ts);
// B-T where the signature value is time-stamped (timestamp.ts).
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ErrorCode, QuireError } from '@quire/contracts';
import type { EngineLimits } from './qpdf.js';
import { der, element, integer, NULL, OID, octets, oid, sequence, set } from './der.js';
import { boundFor, runEngine } from './run.js';
import { MAX_TSA_REPLY_BYTES } from './timestamp.js';

/** Bytes kept for the CMS: a signer certificate and a chain of a few more fit with room to spare. */
export const SIGNATURE_CONTENTS_BYTES = 16 * 1024;
/** Bytes kept besides for a time-stamp token: as much as a TSA's reply may hold. */
export const TIMESTAMP_CONTENTS_BYTES = MAX_TSA_REPLY_BYTES;

export interface SigningCredentials {
  key: crypto.KeyObject;
  /** The signer's certificate first, then the rest of the chain the file holds. */
  certificates: crypto.X509Certificate[];
  /** The signer's common name (or the whole subject where it has none). */
  signerName: string;
}

const badCertificate = () => new QuireError(ErrorCode.BadCertificate);

async function openssl(args: string[], limits: EngineLimits) {
  return runEngine('openssl', args, boundFor('inspect', limits));
}

/** The key and certificates of a PKCS#12 file opened with its password. */
export async function readPkcs12(p12: Buffer, password: string, limits: EngineLimits): Promise<SigningCredentials> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-p12-'));
  try {
    const p12File = path.join(dir, 'certificate.p12');
    const passwordFile = path.join(dir, 'password');
    await fs.writeFile(p12File, p12, { mode: 0o600 });
    await fs.writeFile(passwordFile, password, { mode: 0o600 });
    const args = ['pkcs12', '-in', p12File, '-passin', `file:${passwordFile}`, '-nodes'];
    let res = await openssl(args, limits);
    // Files made with older tools (RC2, 3DES) need OpenSSL 3's legacy provider.
    if (res.exitCode !== 0 && /unsupported/i.test(res.stderr)) res = await openssl([...args, '-legacy'], limits);
    if (res.exitCode !== 0) throw badCertificate();
    return credentialsFromPem(res.stdout);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

function credentialsFromPem(pem: string): SigningCredentials {
  const keyPem = pem.match(/-----BEGIN (?:RSA |EC )?PRIVATE KEY-----[\s\S]+?-----END (?:RSA |EC )?PRIVATE KEY-----/)?.[0];
  const certPems = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (!keyPem || certPems.length === 0) throw badCertificate();
  const key = crypto.createPrivateKey(keyPem);
  const certificates = certPems.map((c) => new crypto.X509Certificate(c));
  const signer = certificates.find((c) => c.checkPrivateKey(key));
  if (!signer) throw badCertificate();
  const signerName = signer.subject.match(/^CN=(.+)$/m)?.[1] ?? signer.subject.replace(/\n/g, ', ');
  return { key, certificates: [signer, ...certificates.filter((c) => c !== signer)], signerName };
}

/** A certificate's issuer (its encoded Name) and serial number (its encoded INTEGER). */
function issuerAndSerial(cert: Buffer) {
  const tbs = element(cert, element(cert, 0).content);
  let at = tbs.content;
  if (cert[at] === 0xa0) at = element(cert, at).end; // the explicit version
  const serial = element(cert, at);
  const algorithm = element(cert, serial.end);
  const issuer = element(cert, algorithm.end);
  return { serial: cert.subarray(serial.start, serial.end), issuer: cert.subarray(issuer.start, issuer.end) };
}

/** What a signature's timestamp is asked for: the token over the SignerInfo's signature value. */
export type StampSignature = (signature: Buffer) => Promise<Buffer>;

/**
 * A detached CMS SignedData over the content whose SHA-256 is `digest`, signed by the credentials;
 * with `stamp`, the signature value's time-stamp token as the unsigned attribute
 * id-aa-signatureTimeStampToken (PAdES B-T).
 */
export async function signedData(digest: Buffer, { key, certificates }: SigningCredentials, stamp?: StampSignature): Promise<Buffer> {
  const signer = certificates[0]!.raw;
  const { issuer, serial } = issuerAndSerial(signer);
  const sha256 = sequence(oid(OID.sha256));
  const signingCertificateV2 = sequence(
    sequence(sequence(octets(crypto.createHash('sha256').update(signer).digest()), sequence(sequence(der(0xa4, issuer)), serial))),
  );
  const attributes = [
    sequence(oid(OID.contentType), set(oid(OID.data))),
    sequence(oid(OID.messageDigest), set(octets(digest))),
    sequence(oid(OID.signingCertificateV2), set(signingCertificateV2)),
  ];
  // What is signed is the attributes as a SET; the SignerInfo carries them as [0] IMPLICIT.
  const signedAttributes = set(...attributes);
  const signature = crypto.sign('sha256', signedAttributes, key);
  const signatureAlgorithm = key.asymmetricKeyType === 'rsa' ? sequence(oid(OID.rsaEncryption), NULL) : sequence(oid(OID.ecdsaWithSha256));
  // Unsigned attributes are [1] IMPLICIT SET OF: one attribute needs no sorting.
  const unsignedAttributes = stamp ? [der(0xa1, sequence(oid(OID.signatureTimeStampToken), set(await stamp(signature))))] : [];
  const signerInfo = sequence(
    integer(1),
    sequence(issuer, serial),
    sha256,
    Buffer.concat([Buffer.from([0xa0]), signedAttributes.subarray(1)]),
    signatureAlgorithm,
    octets(signature),
    ...unsignedAttributes,
  );
  const content = sequence(integer(1), set(sha256), sequence(oid(OID.data)), der(0xa0, ...certificates.map((c) => c.raw)), set(signerInfo));
  return sequence(oid(OID.signedData), der(0xa0, content));
}

/** The last match of `pattern` in the file's text (latin1: one character a byte). */
function lastMatch(text: string, pattern: RegExp) {
  let found: RegExpExecArray | null = null;
  for (const m of text.matchAll(pattern)) found = m;
  return found;
}

export interface SignatureRoom {
  /** The bytes MuPDF left for the CMS (the Contents placeholder's zeros, halved). */
  contentsBytes: number;
  stamp?: StampSignature | undefined;
}

/**
 * Fills the newest signature's placeholders in `file`: the byte range (everything but the Contents
 * string) in the room its placeholder numbers took, then the CMS over those bytes, hex-encoded.
 */
export async function fillSignature(file: string, credentials: SigningCredentials, { contentsBytes, stamp }: SignatureRoom): Promise<void> {
  const bytes = await fs.readFile(file);
  const text = bytes.toString('latin1');
  const contents = lastMatch(text, new RegExp(`/Contents\\s*<(0{${contentsBytes * 2}})>`, 'g'));
  const range = lastMatch(text, /\/ByteRange\s*\[\s*0\s+2147483647\s+2147483647\s+2147483647\s*\]/g);
  if (!contents || !range) throw new QuireError(ErrorCode.TaskFailed, 'The signature field could not be written.');
  const hexStart = contents.index + contents[0].indexOf('<');
  const hexEnd = hexStart + contentsBytes * 2 + 2;
  const byteRange = `/ByteRange [0 ${hexStart} ${hexEnd} ${bytes.length - hexEnd}]`;
  bytes.write(byteRange.padEnd(range[0].length, ' '), range.index, 'latin1');
  const digest = crypto.createHash('sha256').update(bytes.subarray(0, hexStart)).update(bytes.subarray(hexEnd)).digest();
  const cms = await signedData(digest, credentials, stamp);
  if (cms.length > contentsBytes) throw new QuireError(ErrorCode.BadCertificate, 'The certificate chain is too large to sign with.');
  bytes.write(cms.toString('hex').padEnd(contentsBytes * 2, '0'), hexStart + 1, 'latin1');
  await fs.writeFile(file, bytes);
}
