// A zip package's (OOXML, OpenDocument, EPUB) central directory, read without inflating anything
// but the entries asked for: what each entry declares it inflates to, and small entries' bytes.
import type fs from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

type Handle = fs.FileHandle;

const inflateRaw = promisify(zlib.inflateRaw);
const MAX_CENTRAL_DIRECTORY = 8 << 20;
const MAX_ENTRY = 1 << 20;
const CENTRAL_HEADER = 0x02014b50;
/** A zip64 entry states 0xFFFFFFFF in the 32-bit size fields: 4 GB or more, as far as a bound is concerned. */
const ZIP64_MARK = 0xffffffff;

export async function readAt(h: Handle, pos: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  const { bytesRead } = await h.read(buf, 0, length, pos);
  return buf.subarray(0, bytesRead);
}

/** A zip's central directory, found from its end record, or null when there is none to read. */
export async function centralDirectory(h: Handle, size: number): Promise<Buffer | null> {
  const tailLength = Math.min(size, 22 + 0xffff);
  const tail = await readAt(h, size - tailLength, tailLength);
  const eocd = tail.lastIndexOf(Buffer.from('PK\x05\x06', 'latin1'));
  if (eocd < 0 || eocd + 22 > tail.length) return null;
  const cdSize = tail.readUInt32LE(eocd + 12);
  if (cdSize > MAX_CENTRAL_DIRECTORY) return null;
  const cd = await readAt(h, tail.readUInt32LE(eocd + 16), cdSize);
  return cd.length === cdSize && cd.length >= 46 && cd.readUInt32LE(0) === CENTRAL_HEADER ? cd : null;
}

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated; others no reader here takes. */
  method: number;
  compressedBytes: number;
  /** What the entry declares it inflates to (ZIP64_MARK read as 4 GB). */
  inflatedBytes: number;
  localHeader: number;
}

/** The entries the central directory lists. */
export function zipEntries(cd: Buffer): ZipEntry[] {
  const entries: ZipEntry[] = [];
  for (let pos = 0; pos + 46 <= cd.length && cd.readUInt32LE(pos) === CENTRAL_HEADER; ) {
    const [nameLength, extra, comment] = [cd.readUInt16LE(pos + 28), cd.readUInt16LE(pos + 30), cd.readUInt16LE(pos + 32)];
    const inflated = cd.readUInt32LE(pos + 24);
    entries.push({
      name: cd.toString('utf8', pos + 46, pos + 46 + nameLength),
      method: cd.readUInt16LE(pos + 10),
      compressedBytes: cd.readUInt32LE(pos + 20),
      inflatedBytes: inflated === ZIP64_MARK ? 2 ** 32 : inflated,
      localHeader: cd.readUInt32LE(pos + 42),
    });
    pos += 46 + nameLength + extra + comment;
  }
  return entries;
}

/** Where an entry's data starts, past its local header; null when the header is not there. */
async function dataStart(h: Handle, entry: ZipEntry): Promise<number | null> {
  const head = await readAt(h, entry.localHeader, 30);
  if (head.length < 30 || head.readUInt32LE(0) !== 0x04034b50) return null;
  return entry.localHeader + 30 + head.readUInt16LE(26) + head.readUInt16LE(28);
}

/** One small entry of a zip, inflated, or null (missing, too big, zip64 or damaged). */
export async function zipEntry(h: Handle, size: number, wanted: string): Promise<Buffer | null> {
  const cd = await centralDirectory(h, size);
  const entry = cd && zipEntries(cd).find((e) => e.name === wanted);
  if (!entry || entry.compressedBytes > MAX_ENTRY || (entry.method !== 0 && entry.method !== 8)) return null;
  const start = await dataStart(h, entry);
  if (start === null) return null;
  const data = await readAt(h, start, entry.compressedBytes);
  return entry.method === 0 ? data : await inflateRaw(data, { maxOutputLength: MAX_ENTRY });
}

/**
 * An entry's bytes as they inflate, chunk by chunk, to `visit`; stops at the end, at damage, or
 * when `visit` answers false. Only stored and deflated entries are read.
 */
export async function streamEntry(file: string, h: Handle, entry: ZipEntry, visit: (chunk: Buffer) => boolean): Promise<void> {
  const start = await dataStart(h, entry);
  if (start === null || entry.compressedBytes === 0 || (entry.method !== 0 && entry.method !== 8)) return;
  const raw = createReadStream(file, { start, end: start + entry.compressedBytes - 1 });
  const data = entry.method === 0 ? raw : raw.pipe(zlib.createInflateRaw());
  try {
    for await (const chunk of data) if (!visit(chunk as Buffer)) break;
  } catch {
    // Damaged data counts as far as it inflated: the engine that opens it will say the rest.
  } finally {
    raw.destroy();
    data.destroy();
  }
}
