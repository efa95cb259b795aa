// Identical objects of a file qpdf joined written once (ADR 0141): the font programs, images, ICC
// profiles and other streams that several inputs carry (and the fonts, descriptors and resources
// that hold them), as a merge of files from one source does. It works on qpdf's own text, in the
// server's process: qpdf writes a merge with a plain cross-reference
// table and every object on its own, so each object is read once, keyed once, and written back
// byte for byte but for the numbers of the objects it references. A separate program (MuPDF in
// Node, ADR 0140) cost more to start than qpdf took to join fifty files.
import { hash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, rmSync, writeSync } from 'node:fs';

/**
 * Objects whose identity is part of the document's structure, never merged however alike: pages
 * and the page tree, annotations and form fields (a Rect, a Parent, a field name /T or type /FT),
 * structure elements (/P), outline items, articles, optional content groups, signatures. Read from
 * the object's text, so a nested dictionary or a string that looks like one only keeps an object
 * apart, which costs nothing but a copy.
 */
const STRUCTURAL =
  /\/(?:Parent|Kids|Rect|P|T|FT)(?=[\s/[<(]|$)|\/Type\s*\/(?:Catalog|Pages|Page|Annot|OCG|Sig|StructTreeRoot|StructElem|Outlines|Thread|Bead)\b/;

/** In qpdf's text of an object: literal and hex strings (skipped whole; qpdf escapes every parenthesis) and references ("12 0 R", number captured). */
const TOKENS = /\((?:[^\\()]|\\[\s\S])*\)|<[0-9A-Fa-f\s]*>|(?<![\w.#])(\d+) \d+ R/g;

/** Bytes read or written at once at most, but for a big object's text. */
const WINDOW_BYTES = 1024 * 1024;
/** Objects longer than this have only their first this many bytes read with the others: a stream's data is read only to compare it. */
const HEAD_BYTES = 64 * 1024;
/** Streams' data is compared in chunks of this many bytes, the first one smaller: most streams of one length differ early. */
const FIRST_CHUNK_BYTES = 16 * 1024;
/**
 * More objects than this, or more text than this in their dictionaries, and the pass is not
 * tried: their keys are held in the server's memory, which a merge must not grow with the file.
 */
const MAX_OBJECTS = 200_000;
const MAX_TEXT_BYTES = 16 * 1024 * 1024;
/** Objects smaller than this (dictionary and data) are not worth writing the file again for. */
const MIN_SHARED_BYTES = 1024;
/** Bytes read between two turns of the event loop. */
const YIELD_BYTES = 8 * 1024 * 1024;

/** One object as qpdf wrote it: its text (a stream's dictionary) and, for a stream, where its data starts. */
interface Entry {
  num: number;
  /** Offset of "N 0 obj". */
  start: number;
  /** Offset of the next object (or of the cross-reference table). */
  end: number;
  /** Offset of the text after "N 0 obj\n". */
  textStart: number;
  text: string;
  /** Offset of "stream" for a stream: from there to `end` is copied as it is. */
  dataStart?: number;
  /** For a stream, a hash of its data and length when read whole with its dictionary, else of its length and first bytes. */
  dataKey?: string;
}

/**
 * Reads of a file at given offsets, made synchronously: on a busy machine each asynchronous read
 * waited milliseconds for a thread of the pool, which cost more than qpdf's join. The event loop
 * (the API shares it) is given a turn after every YIELD_BYTES read.
 */
class FileReader {
  private sinceYield = 0;
  /** Where compared data is read: one buffer for every comparison, not one each. */
  private readonly scratch = [Buffer.allocUnsafe(WINDOW_BYTES), Buffer.allocUnsafe(WINDOW_BYTES)] as const;

  constructor(private readonly fd: number) {}

  /** The bytes of [from, from + length), in `into` when given (no longer than it). */
  async read(from: number, length: number, into = Buffer.allocUnsafe(length)): Promise<Buffer> {
    const bytesRead = readSync(this.fd, into, 0, length, from);
    this.sinceYield += bytesRead;
    if (this.sinceYield >= YIELD_BYTES) {
      this.sinceYield = 0;
      await new Promise(setImmediate);
    }
    return into.subarray(0, bytesRead);
  }

  /**
   * Each of `entries` (in file order) with its bytes when it is small, read many to a read when
   * little lies between them; a big one comes with null, for its caller to read what it needs.
   */
  async *objects(entries: Entry[]): AsyncGenerator<[Entry, Buffer | null]> {
    const small = (e: Entry) => e.end - e.start <= HEAD_BYTES;
    for (let i = 0; i < entries.length; ) {
      const first = entries[i]!;
      if (!small(first)) {
        yield [first, null];
        i++;
        continue;
      }
      let last = i;
      const joins = (next: Entry | undefined) =>
        next &&
        small(next) &&
        next.start >= entries[last]!.end &&
        next.start - entries[last]!.end <= HEAD_BYTES &&
        next.end - first.start <= WINDOW_BYTES;
      while (joins(entries[last + 1])) last++;
      const run = await this.read(first.start, entries[last]!.end - first.start);
      for (; i <= last; i++) yield [entries[i]!, run.subarray(entries[i]!.start - first.start, entries[i]!.end - first.start)];
    }
  }

  /** True when [a, a + length) and [b, b + length) hold the same bytes; `aBytes`, when given, are those at a. */
  async same(a: number, b: number, length: number, aBytes?: Buffer): Promise<boolean> {
    if (aBytes) return aBytes.equals(await this.read(b, length, this.scratch[1]));
    for (let done = 0, chunk = FIRST_CHUNK_BYTES; done < length; done += chunk, chunk = WINDOW_BYTES) {
      const n = Math.min(chunk, length - done);
      if (!(await this.read(a + done, n, this.scratch[0])).equals(await this.read(b + done, n, this.scratch[1]))) return false;
    }
    return true;
  }
}

/** The layout qpdf writes a merge in. */
interface Layout {
  header: Buffer;
  /** By number, and in the file's order. */
  entries: Entry[];
  inOrder: Entry[];
  trailer: string;
}

/** "N 0 obj\n" at the start of an object. */
const OBJECT_HEADER = /^(\d+) 0 obj\n/;
/** What ends a stream's dictionary in qpdf's output. */
const STREAM_KEYWORD = Buffer.from('\nstream\n');

/** The table's objects and the trailer, or null when the file is laid out otherwise than qpdf writes a merge (the pass is then skipped). */
async function readTable(reader: FileReader, size: number): Promise<Layout | null> {
  const tail = (await reader.read(Math.max(0, size - 1024), 1024)).toString('latin1');
  const xrefAt = Number(tail.match(/startxref\s+(\d+)\s+%%EOF\s*$/)?.[1]);
  if (!(xrefAt > 0 && xrefAt < size)) return null;
  const head = (await reader.read(xrefAt, 64)).toString('latin1').match(/^xref\n0 (\d+)\n/);
  const count = Number(head?.[1]);
  if (!head || !(count > 1 && count <= MAX_OBJECTS)) return null;
  // A table of one section, 20 bytes an entry, every object in use: how qpdf writes a file anew.
  const tableAt = xrefAt + head[0].length;
  const table = (await reader.read(tableAt, count * 20 + 1024)).toString('latin1');
  const trailer = table.slice(count * 20).match(/^trailer\s*(<<[\s\S]*>>)\s*startxref/)?.[1];
  if (!trailer || /\/(?:Encrypt|Prev|XRefStm)\b/.test(trailer)) return null;
  const entries: Entry[] = [];
  for (let num = 1; num < count; num++) {
    // "0000012345 00000 n \n": an offset, generation 0, in use.
    const at = num * 20;
    const start = Number(table.slice(at, at + 10));
    if (!Number.isInteger(start) || table.slice(at + 10, at + 18) !== ' 00000 n' || table[at + 19] !== '\n') return null;
    entries.push({ num, start, end: 0, textStart: 0, text: '' });
  }
  const inOrder = [...entries].sort((a, b) => a.start - b.start);
  for (const [i, e] of inOrder.entries()) e.end = inOrder[i + 1]?.start ?? xrefAt;
  if (!inOrder.every((e) => e.start < e.end)) return null;
  return { header: await reader.read(0, inOrder[0]!.start), entries, inOrder, trailer };
}

/**
 * Reads the text of each of `entries` (in file order) and where a stream's data starts; the
 * bytes of text read, or -1 when an object is not as qpdf writes it or the text is too much.
 */
async function readObjects(reader: FileReader, entries: Entry[]): Promise<number> {
  let textBytes = 0;
  for await (const [e, whole] of reader.objects(entries)) {
    const span = e.end - e.start;
    // A stream's dictionary comes before "stream": of a big object only the head is read, unless it is no stream.
    let bytes = whole ?? (await reader.read(e.start, HEAD_BYTES));
    const stream = bytes.indexOf(STREAM_KEYWORD);
    if (stream < 0 && !whole) {
      if (span > MAX_TEXT_BYTES) return -1;
      bytes = await reader.read(e.start, span);
    }
    // The text ends before "stream" or "endobj"; what follows is copied as it is.
    const text = bytes.toString('latin1', 0, stream < 0 ? bytes.length : stream);
    const header = text.match(OBJECT_HEADER);
    const textEnd = stream < 0 ? text.lastIndexOf('\nendobj') : stream;
    if (Number(header?.[1]) !== e.num || textEnd < header![0].length) return -1;
    e.textStart = e.start + header![0].length;
    e.text = text.slice(header![0].length, textEnd);
    if (stream >= 0) {
      e.dataStart = e.start + stream + 1;
      // The first bytes of a big stream's data, mostly read with its dictionary.
      const dataAt = stream + 1;
      const head = whole
        ? whole.subarray(dataAt)
        : dataAt + FIRST_CHUNK_BYTES <= bytes.length
          ? bytes.subarray(dataAt, dataAt + FIRST_CHUNK_BYTES)
          : await reader.read(e.dataStart, FIRST_CHUNK_BYTES);
      e.dataKey = `${e.end - e.dataStart}:${hash('sha256', head, 'base64')}`;
    }
    textBytes += e.text.length;
    if (textBytes > MAX_TEXT_BYTES) return -1;
  }
  return textBytes;
}

/**
 * For each stream whose data (from "stream" to the object's end) is the same bytes as an earlier
 * one's, the number of the first such stream: only streams of one length are read and compared.
 */
async function sameData(reader: FileReader, entries: Entry[]): Promise<Map<number, number>> {
  const byKey = new Map<string, Entry[]>();
  for (const e of entries) {
    if (e.dataKey === undefined) continue;
    const group = byKey.get(e.dataKey);
    if (group) group.push(e);
    else byKey.set(e.dataKey, [e]);
  }
  const firstWithData = new Map<number, number>();
  for (const group of byKey.values()) {
    if (group.length < 2) continue;
    /** The streams of the group unlike those before them, with their data when it fits a window. */
    const firsts: [Entry, Buffer | undefined][] = [];
    for (const e of group) {
      const length = e.end - e.dataStart!;
      // A key hashed from all the data (a small object, read whole) is the data; a longer stream is compared whole.
      const hashedWhole = e.end - e.start <= HEAD_BYTES;
      let first: Entry | undefined;
      for (const [f, data] of firsts) {
        if (hashedWhole || (await reader.same(f.dataStart!, e.dataStart!, length, data))) {
          first = f;
          break;
        }
      }
      if (first) firstWithData.set(e.num, first.num);
      else firsts.push([e, hashedWhole || length > WINDOW_BYTES ? undefined : await reader.read(e.dataStart!, length)]);
    }
  }
  return firstWithData;
}

/**
 * Each object's canonical number, the first object identical to it in text and in what it
 * references, keyed once in a walk that follows references depth first; null when a reference
 * points outside the file (renumbering would aim it at another object).
 */
function canonicalNumbers(entries: Entry[], firstWithData: Map<number, number>): Int32Array | null {
  const count = entries.length + 1;
  /** 0 not yet keyed, -1 being keyed (a cycle keeps it apart). */
  const canonical = new Int32Array(count);
  const keys = new Map<string, number>();
  let dangling = false;
  const settle = (num: number, to: number) => {
    canonical[num] = to;
    return to;
  };
  const canonicalOf = (num: number): number => {
    if (num <= 0 || num >= count) {
      dangling = true;
      return num;
    }
    if (canonical[num] === -1) return num;
    if (canonical[num]! > 0) return canonical[num]!;
    const e = entries[num - 1]!;
    if (e.text.trim() === 'null' || STRUCTURAL.test(e.text)) return settle(num, num);
    canonical[num] = -1;
    // A reference becomes {n}, n the number of the first object like it: braces never stand outside a string in an object's text.
    let key = e.text.replace(TOKENS, (token, target?: string) => (target === undefined ? token : `{${canonicalOf(Number(target))}}`));
    if (e.dataStart !== undefined) key += `stream ${firstWithData.get(num) ?? num}`;
    const first = keys.get(key);
    if (first === undefined) keys.set(key, num);
    return settle(num, first ?? num);
  };
  for (let num = 1; num < count; num++) canonicalOf(num);
  return dangling ? null : canonical;
}

/** `text` with each reference aimed at its object's new number. */
const renumbered = (text: string, newNumber: Int32Array) =>
  text.replace(TOKENS, (token, target?: string) => (target === undefined ? token : `${newNumber[Number(target)]} 0 R`));

/**
 * Writes `output` from `joined` (a file qpdf wrote) with every object that is a copy of another
 * left out and the references to it aimed at the other, the objects numbered anew. Returns how
 * many copies it left out; writes nothing when there are none or when the file is not laid out
 * as qpdf writes a merge.
 */
export async function writeSharedOnce(joined: string, output: string): Promise<number> {
  const fd = openSync(joined, 'r');
  try {
    const reader = new FileReader(fd);
    const layout = await readTable(reader, fstatSync(fd).size);
    if (!layout) return 0;
    // A stream worth a rewrite is in a big object: when none of those repeats, the small ones are never read.
    const big = layout.inOrder.filter((e) => e.end - e.start >= MIN_SHARED_BYTES);
    const bigKeys = (await readObjects(reader, big)) < 0 ? [] : big.flatMap((e) => e.dataKey ?? []);
    if (new Set(bigKeys).size === bigKeys.length) return 0;
    const textBytes = await readObjects(
      reader,
      layout.inOrder.filter((e) => e.end - e.start < MIN_SHARED_BYTES),
    );
    if (textBytes < 0 || textBytes > MAX_TEXT_BYTES) return 0;
    const { entries } = layout;
    const firstWithData = await sameData(reader, entries);
    // No stream's data repeats after all (big ones alike in their first bytes only): not worth a rewrite.
    if (!firstWithData.size) return 0;
    let canonical: Int32Array | null;
    try {
      canonical = canonicalNumbers(entries, firstWithData);
    } catch (e) {
      // A chain of references deeper than the stack: the file keeps its copies.
      if (e instanceof RangeError) return 0;
      throw e;
    }
    if (!canonical) return 0;
    // Numbered anew in the file's order, as they are written.
    const kept = layout.inOrder.filter((e) => canonical[e.num] === e.num);
    const copies = entries.length - kept.length;
    if (!copies) return 0;
    const newNumber = new Int32Array(canonical.length);
    for (const [i, e] of kept.entries()) newNumber[e.num] = i + 1;
    for (const e of entries) newNumber[e.num] = newNumber[canonical[e.num]!]!;
    await writeObjects(reader, layout, kept, newNumber, output);
    return copies;
  } finally {
    closeSync(fd);
  }
}

/** Writes the header, the `kept` objects in their order, a cross-reference table and the trailer. */
async function writeObjects(reader: FileReader, layout: Layout, kept: Entry[], newNumber: Int32Array, output: string) {
  const out = openSync(output, 'w');
  try {
    let offset = 0;
    /** Writes all of `pending` (one system call may write less than it is given). */
    const writeAll = (pending: Buffer[]) => {
      const bytes = Buffer.concat(pending);
      for (let at = 0; at < bytes.length; ) at += writeSync(out, bytes, at);
    };
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    /** Queues `bytes`; writes what is queued once it fills a window. */
    const write = async (bytes: Buffer) => {
      pending.push(bytes);
      pendingBytes += bytes.length;
      offset += bytes.length;
      if (pendingBytes < WINDOW_BYTES) return;
      writeAll(pending);
      await new Promise(setImmediate);
      pending = [];
      pendingBytes = 0;
    };
    const offsets: number[] = [];
    await write(layout.header);
    let i = 0;
    for await (const [e, whole] of reader.objects(kept)) {
      offsets.push(offset);
      await write(Buffer.from(`${++i} 0 obj\n${renumbered(e.text, newNumber)}`, 'latin1'));
      // A stream's data, or the rest of an object after its text ("endobj"), as qpdf wrote it.
      const restAt = e.textStart + e.text.length;
      if (whole) await write(whole.subarray(restAt - e.start));
      else for (let at = restAt; at < e.end; at += WINDOW_BYTES) await write(await reader.read(at, Math.min(WINDOW_BYTES, e.end - at)));
    }
    const xrefAt = offset;
    const rows = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
    const trailer = renumbered(layout.trailer, newNumber).replace(/\/Size \d+/, `/Size ${kept.length + 1}`);
    pending.push(
      Buffer.from(`xref\n0 ${kept.length + 1}\n0000000000 65535 f \n${rows}trailer ${trailer}\nstartxref\n${xrefAt}\n%%EOF\n`, 'latin1'),
    );
    writeAll(pending);
  } catch (e) {
    closeSync(out);
    rmSync(output, { force: true });
    throw e;
  }
  closeSync(out);
}
