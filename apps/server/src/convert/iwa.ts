// Apple's iWork archive (IWA), as Pages, Keynote and Numbers store their objects since 2013:
// protobuf messages, each object an ArchiveInfo header (its id, its message type, the payload's
// length) followed by its payload, the whole stream cut into Snappy chunks. Written by hand: the
// protobuf wire format needs only varints, floats, doubles and length-delimited fields here.

/** Protobuf wire types. */
const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;
const FIXED32 = 5;

function varint(n: number): number[] {
  const bytes: number[] = [];
  // Numbers up to 2^53: division rather than bit shifts, which would cut them to 32 bits.
  while (n >= 0x80) {
    bytes.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  bytes.push(n);
  return bytes;
}

/** A protobuf message under construction: fields are written in the order they are added. */
export class ProtoMessage {
  private readonly parts: Buffer[] = [];
  /** Ids of the objects this message (or one inside it) refers to: the archive lists them. */
  readonly references: number[] = [];
  /** Ids of the data files (images) it refers to, listed likewise. */
  readonly dataReferences: number[] = [];

  private key(field: number, wireType: number) {
    this.parts.push(Buffer.from(varint(field * 8 + wireType)));
  }

  uint(field: number, n: number): this {
    this.key(field, VARINT);
    this.parts.push(Buffer.from(varint(n)));
    return this;
  }

  bool(field: number, b: boolean): this {
    return this.uint(field, b ? 1 : 0);
  }

  float(field: number, x: number): this {
    this.key(field, FIXED32);
    const b = Buffer.alloc(4);
    b.writeFloatLE(x);
    this.parts.push(b);
    return this;
  }

  double(field: number, x: number): this {
    this.key(field, FIXED64);
    const b = Buffer.alloc(8);
    b.writeDoubleLE(x);
    this.parts.push(b);
    return this;
  }

  bytes(field: number, data: Buffer): this {
    this.key(field, LENGTH_DELIMITED);
    this.parts.push(Buffer.from(varint(data.length)), data);
    return this;
  }

  string(field: number, s: string): this {
    return this.bytes(field, Buffer.from(s, 'utf8'));
  }

  message(field: number, m: ProtoMessage): this {
    this.references.push(...m.references);
    this.dataReferences.push(...m.dataReferences);
    return this.bytes(field, m.encode());
  }

  /** A packed repeated varint field. */
  packed(field: number, ns: number[]): this {
    return this.bytes(field, Buffer.from(ns.flatMap(varint)));
  }

  /** A TSP.Reference to the object `id`. */
  ref(field: number, id: number): this {
    this.references.push(id);
    return this.message(field, new ProtoMessage().uint(1, id));
  }

  /** A TSP.DataReference to the data file `id` (the package metadata's list of files says which). */
  dataRef(field: number, id: number): this {
    this.dataReferences.push(id);
    return this.message(field, new ProtoMessage().uint(1, id));
  }

  encode(): Buffer {
    return Buffer.concat(this.parts);
  }
}

export interface IwaObject {
  /** Unique across the document. */
  id: number;
  /** The message type of the payload, as the iWork registry numbers them (2001 TSWP.StorageArchive…). */
  type: number;
  payload: ProtoMessage;
}

/** The archive format version iWork writes in each MessageInfo. */
const ARCHIVE_VERSION = [1, 0, 5];

/** The objects as one uncompressed IWA stream: for each, its ArchiveInfo's length, the ArchiveInfo, the payload. */
function archiveStream(objects: IwaObject[]): Buffer {
  const parts: Buffer[] = [];
  for (const o of objects) {
    const payload = o.payload.encode();
    const info = new ProtoMessage().uint(1, o.type).packed(2, ARCHIVE_VERSION).uint(3, payload.length);
    const refs = [...new Set(o.payload.references)];
    if (refs.length > 0) info.packed(5, refs);
    const dataRefs = [...new Set(o.payload.dataReferences)];
    if (dataRefs.length > 0) info.packed(6, dataRefs);
    const header = new ProtoMessage().uint(1, o.id).message(2, info).encode();
    parts.push(Buffer.from(varint(header.length)), header, payload);
  }
  return Buffer.concat(parts);
}

/** Bytes of uncompressed data per chunk, as iWork cuts its own streams. */
const CHUNK_BYTES = 0x10000;

/**
 * A Snappy block of `data` made of one literal: valid Snappy that any decoder reads, only not
 * smaller. The text of a document is small next to what a zip would save, and no compressor is needed.
 */
function literalBlock(data: Buffer): Buffer {
  const n = data.length - 1;
  // A literal's tag: its length - 1 in the upper six bits up to 59; 60 to 62 say 1 to 3 bytes follow with it.
  const tag =
    n < 60
      ? [n << 2]
      : n < 0x100
        ? [60 << 2, n]
        : n < 0x10000
          ? [61 << 2, n & 0xff, n >> 8]
          : [62 << 2, n & 0xff, (n >> 8) & 0xff, n >> 16];
  return Buffer.concat([Buffer.from([...varint(data.length), ...tag]), data]);
}

/**
 * The objects as an .iwa file: the archive stream in chunks, each a 4-byte header (type 0, then the
 * chunk's length as 24-bit little-endian) and a Snappy block; unlike Snappy's framing format,
 * iWork writes no stream identifier and no checksums.
 */
export function iwaFile(objects: IwaObject[]): Buffer {
  const stream = archiveStream(objects);
  const chunks: Buffer[] = [];
  for (let at = 0; at < stream.length; at += CHUNK_BYTES) {
    const block = literalBlock(stream.subarray(at, at + CHUNK_BYTES));
    chunks.push(Buffer.from([0, block.length & 0xff, (block.length >> 8) & 0xff, block.length >> 16]), block);
  }
  return Buffer.concat(chunks);
}
