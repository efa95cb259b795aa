// DER, as little of it as a CMS SignedData and an RFC 3161 time-stamp exchange need: writing the
// few types they use, and reading an element's bounds (a malformed length is a RangeError).

const derLength = (n: number) => {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
};

/** An element of `tag` holding `content`. */
export const der = (tag: number, ...content: Buffer[]) => {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), derLength(body.length), body]);
};
export const sequence = (...c: Buffer[]) => der(0x30, ...c);
/** A SET OF in DER: its elements sorted by their encodings. */
export const set = (...c: Buffer[]) => der(0x31, ...[...c].sort(Buffer.compare));
/** A small INTEGER (0–127). */
export const integer = (n: number) => der(0x02, Buffer.from([n]));
/** A non-negative INTEGER of big-endian `bytes`, with the zero byte DER wants before a high bit. */
export const unsignedInteger = (bytes: Buffer) => der(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
export const octets = (b: Buffer) => der(0x04, b);
export const TRUE = Buffer.from([0x01, 0x01, 0xff]);
export const NULL = Buffer.from([0x05, 0x00]);
export const oid = (dotted: string) => {
  const [a, b, ...rest] = dotted.split('.').map(Number);
  const bytes = [a! * 40 + b!];
  for (const n of rest) {
    const group: number[] = [];
    for (let v = n; ; v = Math.floor(v / 128)) {
      group.unshift((v % 128) | (group.length ? 0x80 : 0));
      if (v < 128) break;
    }
    bytes.push(...group);
  }
  return der(0x06, Buffer.from(bytes));
};

export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
};

export interface DerElement {
  tag: number;
  /** Where the element starts, where its content starts, and where it ends. */
  start: number;
  content: number;
  end: number;
}

/** The element of a DER encoding at `offset`; a RangeError where its header or length runs past `buf`. */
export function element(buf: Buffer, offset: number): DerElement {
  if (offset + 2 > buf.length) throw new RangeError('DER element past the end');
  const first = buf[offset + 1]!;
  let length = first;
  let header = 2;
  if (first & 0x80) {
    const count = first & 0x7f;
    if (count === 0 || count > 4 || offset + 2 + count > buf.length) throw new RangeError('DER length not supported');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + buf[offset + 2 + i]!;
    header += count;
  }
  const end = offset + header + length;
  if (end > buf.length) throw new RangeError('DER element past the end');
  return { tag: buf[offset]!, start: offset, content: offset + header, end };
}

/** The elements inside a constructed element, in order. */
export function children(buf: Buffer, parent: DerElement): DerElement[] {
  const found: DerElement[] = [];
  for (let at = parent.content; at < parent.end; at = found.at(-1)!.end) found.push(element(buf, at));
  return found;
}

/** The bytes of an element's content. */
export const contentOf = (buf: Buffer, e: DerElement) => buf.subarray(e.content, e.end);
/** The whole encoding of an element, header included. */
export const encodingOf = (buf: Buffer, e: DerElement) => buf.subarray(e.start, e.end);
