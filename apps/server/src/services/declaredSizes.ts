// Decompression and structure bombs refused before any engine inflates them: a stream that
// inflates to gigabytes, an image declaring billions of pixels, a page tree thousands of levels
// deep. Judged from qpdf's dump of the objects, inflating only what could be large and only up to
// the bound, so a bomb costs a fraction of a second and a few megabytes.
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { ErrorCode, PDF_IMAGE_MAX_PIXELS, QuireError, tooManyPixelsMessage } from '@quire/contracts';
import type { EngineLimits } from '../engines/qpdf.js';
import { dumpObjects, type PdfObjects, type PdfValue } from '../engines/qpdfObjects.js';
import { newId } from '../ids.js';

const MB = 1024 * 1024;
/** Any one stream other than an image, inflated (content streams of real drawings stay far below). */
export const MAX_STREAM_BYTES = 128 * MB;
/** All streams other than images together, inflated. */
export const MAX_TOTAL_BYTES = 512 * MB;
/** Deeper page trees are damaged: real ones are a handful of levels. */
export const MAX_PAGE_TREE_DEPTH = 64;
/** The object dump (dictionaries only) of any real document is far smaller. */
const MAX_DUMP_BYTES = 64 * MB;
/** zlib's largest possible expansion of one deflate pass. */
const MAX_FLATE_RATIO = 1032;

const components: Record<string, number> = { '/DeviceGray': 1, '/CalGray': 1, '/G': 1, '/DeviceRGB': 3, '/CalRGB': 3, '/RGB': 3 };

/**
 * Refuses `file` with 4012 when a stream inflates, or an image declares, more than can be
 * processed, and with 3124 when its page tree is deeper than any real one.
 */
export async function checkDeclaredSizes(file: string, password: string | undefined, workDir: string, limits: EngineLimits) {
  const dir = path.join(workDir, `sizes-${newId()}`);
  await fs.mkdir(dir, { recursive: true });
  try {
    const objects = await dumpObjects(file, password, dir, MAX_DUMP_BYTES, limits);
    checkPageTreeDepth(objects);
    await checkStreams(objects);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

const resolve = (objects: PdfObjects, value: PdfValue | undefined): PdfValue | undefined =>
  typeof value === 'string' && / R$/.test(value) ? objects.get(value)?.value : value;

const asDict = (value: PdfValue | undefined) =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, PdfValue>) : undefined;

function checkPageTreeDepth(objects: PdfObjects) {
  const root = asDict(resolve(objects, asDict(objects.get('trailer')?.value)?.['/Root']));
  const top = root?.['/Pages'];
  if (typeof top !== 'string') return;
  // Iterative, so that a deep tree cannot exhaust this process's stack either.
  const seen = new Set<string>();
  const stack: [string, number][] = [[top, 1]];
  while (stack.length) {
    const [ref, depth] = stack.pop()!;
    if (seen.has(ref)) continue;
    seen.add(ref);
    const kids = asDict(objects.get(ref)?.value)?.['/Kids'];
    if (!Array.isArray(kids) || kids.length === 0) continue;
    if (depth > MAX_PAGE_TREE_DEPTH) throw new QuireError(ErrorCode.Damaged);
    for (const kid of kids) if (typeof kid === 'string') stack.push([kid, depth + 1]);
  }
}

interface FlateStream {
  datafile: string;
  flates: number;
  /** Inflated beyond this, it is refused. */
  bound: number;
  /** The most it could inflate to, from its stored size. */
  most: number;
  image: boolean;
}

async function checkStreams(objects: PdfObjects) {
  const streams: FlateStream[] = [];
  for (const { stream } of objects.values()) {
    if (!stream?.datafile) continue;
    const dict = stream.dict;
    const filters = [resolve(objects, dict['/Filter'])].flat();
    // Only deflate can expand by three orders of magnitude; the other filters are measured as their input.
    let flates = 0;
    while (filters[flates] === '/FlateDecode' || filters[flates] === '/Fl') flates++;
    const image = resolve(objects, dict['/Subtype']) === '/Image';
    let bound = MAX_STREAM_BYTES;
    if (image) {
      const width = Number(resolve(objects, dict['/Width'])) || 0;
      const height = Number(resolve(objects, dict['/Height'])) || 0;
      // Said as pixels: the file itself may be a few kilobytes.
      if (width * height > PDF_IMAGE_MAX_PIXELS) throw new QuireError(ErrorCode.TooLarge, tooManyPixelsMessage);
      const mask = resolve(objects, dict['/ImageMask']) === true;
      const bits = mask ? 1 : Number(resolve(objects, dict['/BitsPerComponent'])) || 8;
      const colorSpace = resolve(objects, dict['/ColorSpace']);
      const perPixel = mask ? 1 : (components[typeof colorSpace === 'string' ? colorSpace : ''] ?? 4);
      // A row may carry a predictor byte; an image codec's data (JPEG) may exceed the raw size a little.
      bound = 2 * height * (Math.ceil((width * perPixel * bits) / 8) + 1) + MB;
    }
    if (flates === 0) continue;
    const most = (await fs.stat(stream.datafile)).size * MAX_FLATE_RATIO ** flates;
    streams.push({ datafile: stream.datafile, flates, bound, most, image });
  }
  // Only what could break a bound is inflated: usually nothing, at worst the total bound's worth.
  const totalAtMost = streams.filter((s) => !s.image).reduce((sum, s) => sum + Math.min(s.most, s.bound), 0);
  let total = 0;
  for (const s of streams) {
    if (s.most <= s.bound && (s.image || totalAtMost <= MAX_TOTAL_BYTES)) continue;
    const size = await inflatedSize(s.datafile, s.flates, s.image ? s.bound : Math.min(s.bound, MAX_TOTAL_BYTES - total));
    if (size > s.bound) throw new QuireError(ErrorCode.TooLarge);
    if (s.image) continue;
    total += size;
    if (total > MAX_TOTAL_BYTES) throw new QuireError(ErrorCode.TooLarge);
  }
}

/** Bytes `flates` inflate passes make of `file`, counting stops just past `limit`; damaged data counts until it breaks. */
function inflatedSize(file: string, flates: number, limit: number): Promise<number> {
  return new Promise((done) => {
    const source = createReadStream(file);
    const stages = Array.from({ length: flates }, () => zlib.createInflate({ chunkSize: MB }));
    let size = 0;
    const finish = () => {
      for (const stage of [source, ...stages]) stage.destroy();
      done(size);
    };
    let last: Readable = source;
    for (const stage of stages) last = last.pipe(stage);
    for (const stage of [source, ...stages]) stage.on('error', finish);
    last.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish();
    });
    last.on('end', finish);
  });
}
