// Identical objects written once: the font programs, images, ICC profiles and any other streams
// (and the fonts, descriptors and resources that hold them) that several copies of one document
// part carry, as a merge of files from one source does. MuPDF's own merging on save compares every
// object with every other (garbage=4 took 2.3 s on 1,000 pages, and grows with the square of the
// objects) and at the level that skips streams (garbage=deduplicate) leaves the big ones alone; here
// each object is keyed once, so the pass grows with the document.
import { createHash } from 'node:crypto';
import type * as mupdf from 'mupdf';
import type { DeduplicateJob, JobResults } from './jobs.js';
import { openPdf, progress, save } from './program.js';

/**
 * Objects whose identity is part of the document's structure, never merged however alike: pages
 * and the page tree, annotations and form fields (a Rect, a Parent, a field name /T or type /FT),
 * structure elements (/P), outline items, articles, optional content groups, signatures. Read from
 * the object's text, so a nested dictionary or a string that looks like one only keeps an object
 * apart, which costs nothing but a copy.
 */
const STRUCTURAL =
  /\/(?:Parent|Kids|Rect|P|T|FT)(?=[\s/[<(]|$)|\/Type\/(?:Catalog|Pages|Page|Annot|OCG|Sig|StructTreeRoot|StructElem|Outlines|Thread|Bead)\b/;

/** In MuPDF's tight text of an object: literal and hex strings (skipped whole) and references ("12 0 R", number captured). */
const TOKENS = /\((?:[^\\()]|\\[\s\S])*\)|<[0-9A-Fa-f]*>|(?<![\w.#])(\d+) \d+ R/g;

/** Progress lines over a pass of the objects: this many at most. */
const PROGRESS_LINES = 50;

/**
 * Points every reference to an object at the first object identical to it, in content and in what
 * it references, keyed once in a walk that follows references depth first. Streams compare by their
 * dictionary and their stored bytes (hashed only when another stream has the same dictionary). The
 * copies are left unreferenced, for the save's garbage collection. Returns how many there were.
 */
function mergeDuplicates(doc: mupdf.PDFDocument): number {
  const count = doc.countObjects();
  /** Each object's canonical number: 0 not yet keyed, -1 being keyed (a cycle keeps it apart). */
  const canonical = new Int32Array(count);
  const texts: string[] = [];
  const objectKeys = new Map<string, number>();
  /** Streams by dictionary: the first one's number until a second comes, then by hash of their bytes. */
  const streamKeys = new Map<string, number | Map<string, number>>();
  let copies = 0;

  const digest = (num: number) => {
    const raw = doc.newIndirect(num).readRawStream();
    try {
      return createHash('sha256').update(raw.asUint8Array()).digest('base64');
    } finally {
      // Freed at once, not when the garbage collector gets to it: the bytes sit in MuPDF's memory.
      raw.destroy();
    }
  };
  const settle = (num: number, to: number) => {
    canonical[num] = to;
    return to;
  };
  /** Settles `num` as a copy of `first`, or as the first of its kind. */
  const keep = (num: number, first: number | undefined) => {
    if (first === undefined) return settle(num, num);
    copies++;
    return settle(num, first);
  };
  const canonicalOf = (num: number): number => {
    if (num <= 0 || num >= count || canonical[num] === -1) return num;
    if (canonical[num]! > 0) return canonical[num]!;
    const ref = doc.newIndirect(num);
    const text = ref.resolve().toString(true, true);
    texts[num] = text;
    if (text === 'null' || STRUCTURAL.test(text)) return settle(num, num);
    canonical[num] = -1;
    // A reference becomes {n}, n the number of the first object like it: braces never stand outside a string in an object's text.
    const key = text.replace(TOKENS, (token, target?: string) => (target === undefined ? token : `{${canonicalOf(Number(target))}}`));
    if (!ref.isStream()) {
      const first = objectKeys.get(key);
      if (first === undefined) objectKeys.set(key, num);
      return keep(num, first);
    }
    let byHash = streamKeys.get(key);
    if (byHash === undefined) {
      streamKeys.set(key, num);
      return settle(num, num);
    }
    if (typeof byHash === 'number') {
      byHash = new Map([[digest(byHash), byHash]]);
      streamKeys.set(key, byHash);
    }
    const hash = digest(num);
    const first = byHash.get(hash);
    if (first === undefined) byHash.set(hash, num);
    return keep(num, first);
  };

  const step = Math.ceil(count / PROGRESS_LINES);
  for (let num = 1; num < count; num++) {
    canonicalOf(num);
    if (num % step === 0) progress(num, count);
  }
  if (!copies) return 0;

  const moved = (num: number) => num > 0 && num < count && canonical[num]! > 0 && canonical[num] !== num;
  const repoint = (obj: mupdf.PDFObject) =>
    obj.forEach((value, key) => {
      if (value.isIndirect()) {
        if (moved(value.asIndirect())) obj.put(key, doc.newIndirect(canonical[value.asIndirect()]!));
      } else if (value.isDictionary() || value.isArray()) repoint(value);
    });
  const pointsAtCopy = (text: string) => [...text.matchAll(TOKENS)].some((m) => m[1] !== undefined && moved(Number(m[1])));
  for (let num = 1; num < count; num++) if (!moved(num) && texts[num] && pointsAtCopy(texts[num]!)) repoint(doc.newIndirect(num).resolve());
  repoint(doc.getTrailer());
  return copies;
}

/** Writes `output` with identical objects merged, when there are any; otherwise writes nothing. */
export function deduplicate(job: DeduplicateJob): JobResults['deduplicate'] {
  const doc = openPdf(job.input);
  const copies = mergeDuplicates(doc);
  if (copies) save(doc, job.output);
  progress(1, 1);
  return { copies };
}
