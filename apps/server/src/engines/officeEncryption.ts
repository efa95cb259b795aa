// Whether an office document is password protected, read from its container alone, so an upload
// asks for the password at once instead of when LibreOffice first opens it. Only the few bytes
// that say so are read; a file this cannot make sense of is "not encrypted" (LibreOffice decides).
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { ErrorCode, QuireError } from '@quire/contracts';
import { centralDirectory, readAt, zipEntry } from './zipPackage.js';

type Handle = fs.FileHandle;

const OLE2 = Buffer.from('d0cf11e0a1b11ae1', 'hex');
const LAST_SECTOR = 0xfffffffa; // ids from here on mark ends and free or special sectors
const NO_ENTRY = 0xffffffff;
const MAX_ROOT_ENTRIES = 4096;
/** EncryptionInfo streams are a few kilobytes. */
const MAX_ENCRYPTION_INFO = 1 << 20;

/** Sector ids of a chain, stopping at its end, at an id out of range, or where it loops. */
function chain(start: number, table: Uint32Array, max: number): number[] {
  const ids: number[] = [];
  const seen = new Set<number>();
  for (let id = start; id < LAST_SECTOR && id < table.length && !seen.has(id) && ids.length < max; id = table[id]!) {
    seen.add(id);
    ids.push(id);
  }
  return ids;
}

interface Entry {
  name: string;
  start: number;
  size: number;
}

/** A compound file (MS-CFB) opened as far as reading streams of the root storage needs. */
async function openCompound(h: Handle, fileSize: number) {
  const header = await readAt(h, 0, 512);
  if (header.length < 512 || !header.subarray(0, 8).equals(OLE2)) return null;
  const shift = header.readUInt16LE(0x1e);
  const miniShift = header.readUInt16LE(0x20);
  if ((shift !== 9 && shift !== 12) || miniShift !== 6) return null;
  const sectorSize = 1 << shift;
  const perSector = sectorSize / 4;
  const sectors = Math.ceil(fileSize / sectorSize) - 1;
  const readSector = (id: number) => readAt(h, (id + 1) * sectorSize, sectorSize);
  const readChain = async (ids: number[]) => Buffer.concat(await Promise.all(ids.map(readSector)));
  const table = (buf: Buffer) => new Uint32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + (buf.length & ~3)));

  // The FAT's sectors: 109 listed in the header, the rest in a chain of DIFAT sectors.
  const fatCount = Math.min(header.readUInt32LE(0x2c), Math.ceil(sectors / perSector));
  const fatIds: number[] = [];
  for (let i = 0; i < 109 && fatIds.length < fatCount; i++) fatIds.push(header.readUInt32LE(0x4c + i * 4));
  const seenDifat = new Set<number>();
  for (let id = header.readUInt32LE(0x44); fatIds.length < fatCount && id < sectors && !seenDifat.has(id); ) {
    seenDifat.add(id);
    const difat = await readSector(id);
    if (difat.length < sectorSize) break;
    for (let i = 0; i < perSector - 1 && fatIds.length < fatCount; i++) fatIds.push(difat.readUInt32LE(i * 4));
    id = difat.readUInt32LE(sectorSize - 4);
  }
  const fat = table(await readChain(fatIds.filter((id) => id < sectors)));

  // Directory entries are read one sector at a time as the walk of the root's children reaches them.
  const dirChain = chain(header.readUInt32LE(0x30), fat, sectors);
  const perDirSector = sectorSize / 128;
  const dirSectors = new Map<number, Buffer>();
  const entryAt = async (index: number) => {
    const at = Math.floor(index / perDirSector);
    if (at >= dirChain.length) return null;
    if (!dirSectors.has(at)) dirSectors.set(at, await readSector(dirChain[at]!));
    const raw = dirSectors.get(at)!.subarray((index % perDirSector) * 128, ((index % perDirSector) + 1) * 128);
    if (raw.length < 128) return null;
    const nameBytes = Math.min(raw.readUInt16LE(0x40), 64);
    return {
      name: raw.subarray(0, Math.max(nameBytes - 2, 0)).toString('utf16le'),
      type: raw[0x42]!,
      left: raw.readUInt32LE(0x44),
      right: raw.readUInt32LE(0x48),
      child: raw.readUInt32LE(0x4c),
      start: raw.readUInt32LE(0x74),
      size: raw.readUInt32LE(0x78),
    };
  };
  const root = await entryAt(0);
  if (root?.type !== 5) return null;

  /** The streams directly in the root storage, by name (its children form a binary tree). */
  const rootStreams = new Map<string, Entry>();
  const pending = [root.child];
  const visited = new Set<number>();
  while (pending.length && visited.size < MAX_ROOT_ENTRIES) {
    const index = pending.pop()!;
    if (index === NO_ENTRY || visited.has(index)) continue;
    visited.add(index);
    const entry = await entryAt(index);
    if (!entry) continue;
    if (entry.type === 2) rootStreams.set(entry.name, entry);
    pending.push(entry.left, entry.right);
  }

  // Streams under the cutoff live in the mini stream (the root entry's chain), in 64-byte sectors.
  const cutoff = header.readUInt32LE(0x38);
  let mini: { fat: Uint32Array; sectors: number[] } | undefined;
  const miniStream = async () => {
    if (!mini) {
      const miniFat = await readChain(chain(header.readUInt32LE(0x3c), fat, Math.min(header.readUInt32LE(0x40), sectors)));
      mini = { fat: table(miniFat), sectors: chain(root.start, fat, sectors) };
    }
    return mini;
  };

  /** The first `length` bytes of a stream (fewer if it is shorter or its chain breaks off). */
  const read = async (entry: Entry, length: number): Promise<Buffer> => {
    const want = Math.min(length, entry.size);
    if (entry.size >= cutoff) return (await readChain(chain(entry.start, fat, Math.ceil(want / sectorSize)))).subarray(0, want);
    const { fat: miniFat, sectors: streamSectors } = await miniStream();
    const parts: Buffer[] = [];
    for (const id of chain(entry.start, miniFat, Math.ceil(want / 64))) {
      const sector = streamSectors[Math.floor((id * 64) / sectorSize)];
      if (sector === undefined) break;
      parts.push(await readAt(h, (sector + 1) * sectorSize + ((id * 64) % sectorSize), 64));
    }
    return Buffer.concat(parts).subarray(0, want);
  };
  return { rootStreams, read };
}

/** An Excel workbook stream (BIFF5/8): a FILEPASS record among the globals' first records after BOF. */
function hasFilePass(stream: Buffer): boolean {
  if (stream.length < 4 || stream.readUInt16LE(0) !== 0x0809) return false;
  for (let pos = 4 + stream.readUInt16LE(2); pos + 4 <= stream.length; pos += 4 + stream.readUInt16LE(pos + 2)) {
    const type = stream.readUInt16LE(pos);
    if (type === 0x002f) return true;
    if (type === 0x0809 || type === 0x000a) return false; // next substream or EOF: none
  }
  return false;
}

async function compoundEncrypted(h: Handle, size: number): Promise<boolean> {
  const cf = await openCompound(h, size);
  if (!cf) return false;
  const streams = cf.rootStreams;
  // Encrypted OOXML (MS-OFFCRYPTO): the zip itself is the encrypted stream.
  if (streams.has('EncryptedPackage')) return true;
  const word = streams.get('WordDocument');
  if (word) {
    const fib = await cf.read(word, 12);
    return fib.length === 12 && (fib.readUInt16LE(0x0a) & 0x0100) !== 0; // MS-DOC FibBase.fEncrypted
  }
  const book = streams.get('Workbook') ?? streams.get('Book');
  if (book) return hasFilePass(await cf.read(book, 4096));
  // MS-PPT CurrentUserAtom.headerToken: 0xF3D1C4DF means the document is encrypted.
  const user = streams.get('Current User');
  if (user && streams.has('PowerPoint Document')) {
    const atom = await cf.read(user, 16);
    return atom.length === 16 && atom.readUInt32LE(12) === 0xf3d1c4df;
  }
  return false;
}

/** OpenDocument: an encrypted package lists how each of its parts is encrypted in the manifest. */
async function odfEncrypted(h: Handle, size: number): Promise<boolean> {
  const mimetype = await zipEntry(h, size, 'mimetype');
  if (!mimetype?.toString('latin1').startsWith('application/vnd.oasis.opendocument.')) return false;
  const manifest = await zipEntry(h, size, 'META-INF/manifest.xml');
  return !!manifest?.toString('utf8').includes('manifest:encryption-data');
}

/** Whether an office document (OLE2 Word/Excel/PowerPoint, encrypted OOXML, or ODF) needs a password to open. */
export async function isEncryptedOffice(file: string): Promise<boolean> {
  const h = await fs.open(file, 'r');
  try {
    const { size } = await h.stat();
    const magic = await readAt(h, 0, 8);
    if (magic.equals(OLE2)) return await compoundEncrypted(h, size);
    if (magic.subarray(0, 4).toString('latin1') === 'PK\x03\x04') return await odfEncrypted(h, size);
    return false;
  } catch {
    return false; // damaged beyond what the parsers guard against: LibreOffice will tell
  } finally {
    await h.close();
  }
}

/** Every stream of the root storage can be read from its start, as far as a reader looks first. */
async function compoundReadable(h: Handle, size: number): Promise<boolean> {
  const cf = await openCompound(h, size);
  if (!cf || cf.rootStreams.size === 0) return false;
  for (const entry of cf.rootStreams.values()) {
    const want = Math.min(entry.size, 4096);
    if ((await cf.read(entry, want)).length < want) return false;
  }
  return true;
}

/**
 * Whether an office document's container cannot be walked: a compound file whose header, directory
 * or a root stream's sector chain is broken, or a zip without a central directory. Found at upload
 * so the file card says so at once; what is inside (XML, records) is LibreOffice's to judge.
 */
export async function isDamagedOffice(file: string): Promise<boolean> {
  const h = await fs.open(file, 'r');
  try {
    const { size } = await h.stat();
    const magic = await readAt(h, 0, 8);
    if (magic.equals(OLE2)) return !(await compoundReadable(h, size));
    if (magic.subarray(0, 4).toString('latin1') === 'PK\x03\x04') return !(await centralDirectory(h, size));
    return false;
  } catch {
    return true; // a structure the parsers could not follow at all
  } finally {
    await h.close();
  }
}

// MS-OFFCRYPTO agile encryption: the block keys that derive each key from the password's hash.
const VERIFIER_INPUT_BLOCK = Buffer.from('fea7d2763b4b9e79', 'hex');
const VERIFIER_HASH_BLOCK = Buffer.from('d7aa0f6d3061344e', 'hex');
const KEY_VALUE_BLOCK = Buffer.from('146e0be7abacd0d6', 'hex');
const SEGMENT = 4096;
const MAX_SPINS = 500_000;
const HASHES: Record<string, string> = { SHA1: 'sha1', SHA256: 'sha256', SHA384: 'sha384', SHA512: 'sha512' };

/** The attributes of the first element of the given name in the EncryptionInfo XML. */
function attributes(xml: string, element: string): Record<string, string> | null {
  const tag = new RegExp(`<${element}\\s([^>]*)>`).exec(xml);
  if (!tag) return null;
  return Object.fromEntries([...tag[1]!.matchAll(/([\w:]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

interface CipherParams {
  salt: Buffer;
  hash: string;
  keyBytes: number;
  blockSize: number;
}

function cipherParams(attrs: Record<string, string>): CipherParams | null {
  const hash = HASHES[attrs.hashAlgorithm ?? ''];
  const keyBits = Number(attrs.keyBits);
  if (!hash || attrs.cipherAlgorithm !== 'AES' || attrs.cipherChaining !== 'ChainingModeCBC' || ![128, 192, 256].includes(keyBits))
    return null;
  return { salt: Buffer.from(attrs.saltValue ?? '', 'base64'), hash, keyBytes: keyBits / 8, blockSize: Number(attrs.blockSize) || 16 };
}

const digest = (hash: string, ...parts: Buffer[]) => crypto.createHash(hash).update(Buffer.concat(parts)).digest();

/** A hash cut or padded with 0x36 to `length` bytes, as keys and IVs are made from hashes. */
function fit(bytes: Buffer, length: number): Buffer {
  return bytes.length >= length ? bytes.subarray(0, length) : Buffer.concat([bytes, Buffer.alloc(length - bytes.length, 0x36)]);
}

function aesDecrypt(key: Buffer, iv: Buffer, data: Buffer): Buffer {
  const decipher = crypto.createDecipheriv(`aes-${key.length * 8}-cbc`, key, iv).setAutoPadding(false);
  return Buffer.concat([decipher.update(data.subarray(0, data.length - (data.length % 16))), decipher.final()]);
}

/**
 * Decrypts an OOXML package under agile encryption (MS-OFFCRYPTO) with its password into a plain
 * zip at `output`. LibreOffice 7.4 cannot open some of these even with the right password (a
 * 256-bit key made from a 160-bit SHA-1 hash must be padded, which it does not do), so Quire
 * decrypts them itself. False when the file is no such package (LibreOffice is left to it);
 * throws 3123 for a wrong password.
 */
export async function decryptAgilePackage(file: string, password: string, output: string): Promise<boolean> {
  const h = await fs.open(file, 'r');
  let plain: Buffer;
  try {
    const { size } = await h.stat();
    if (!(await readAt(h, 0, 8)).equals(OLE2)) return false;
    const cf = await openCompound(h, size);
    const infoEntry = cf?.rootStreams.get('EncryptionInfo');
    const packageEntry = cf?.rootStreams.get('EncryptedPackage');
    if (!cf || !infoEntry || !packageEntry) return false;
    const info = await cf.read(infoEntry, MAX_ENCRYPTION_INFO);
    // Agile encryption is version 4.4, its description XML after the 8-byte header.
    if (info.length < 8 || info.readUInt16LE(0) !== 4 || info.readUInt16LE(2) !== 4) return false;
    const xml = info.subarray(8).toString('utf8');
    const keyDataAttrs = attributes(xml, 'keyData');
    const keyAttrs = attributes(xml, 'p:encryptedKey');
    const keyData = keyDataAttrs && cipherParams(keyDataAttrs);
    const key = keyAttrs && cipherParams(keyAttrs);
    if (!keyData || !key || !keyAttrs) return false;

    // Office uses 100,000 rounds; far more would hold the server up, so such a file is left to LibreOffice.
    const spins = Number(keyAttrs.spinCount) || 0;
    if (spins > MAX_SPINS) return false;
    let hashed = digest(key.hash, key.salt, Buffer.from(password, 'utf16le'));
    const counter = Buffer.alloc(4);
    for (let i = 0; i < spins; i++) {
      counter.writeUInt32LE(i);
      hashed = digest(key.hash, counter, hashed);
    }
    const iv = fit(key.salt, key.blockSize);
    const unwrap = (block: Buffer, value: string) =>
      aesDecrypt(fit(digest(key.hash, hashed, block), key.keyBytes), iv, Buffer.from(value, 'base64'));
    const verifierInput = unwrap(VERIFIER_INPUT_BLOCK, keyAttrs.encryptedVerifierHashInput ?? '').subarray(0, key.salt.length);
    const verifierHash = digest(key.hash, verifierInput);
    const expected = unwrap(VERIFIER_HASH_BLOCK, keyAttrs.encryptedVerifierHashValue ?? '').subarray(0, verifierHash.length);
    if (!verifierHash.equals(expected)) throw new QuireError(ErrorCode.WrongPassword);
    const secret = unwrap(KEY_VALUE_BLOCK, keyAttrs.encryptedKeyValue ?? '').subarray(0, keyData.keyBytes);

    const encrypted = await cf.read(packageEntry, packageEntry.size);
    if (encrypted.length < 8) return false;
    const length = Number(encrypted.readBigUInt64LE(0));
    const segments: Buffer[] = [];
    for (let i = 0, at = 8; at < encrypted.length; i++, at += SEGMENT) {
      counter.writeUInt32LE(i);
      const segmentIv = fit(digest(keyData.hash, keyData.salt, counter), keyData.blockSize);
      segments.push(aesDecrypt(secret, segmentIv, encrypted.subarray(at, at + SEGMENT)));
    }
    plain = Buffer.concat(segments).subarray(0, length);
  } finally {
    await h.close();
  }
  await fs.writeFile(output, plain);
  return true;
}
