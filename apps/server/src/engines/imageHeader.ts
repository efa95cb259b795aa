// Reads what an image file declares about itself (format, dimensions, EXIF orientation) from its
// headers alone, so limits are checked before any decoder sees the pixels.
import fs from 'node:fs/promises';

export type ImageFormat = 'jpeg' | 'png' | 'gif' | 'bmp' | 'tiff' | 'webp' | 'heif';

export interface ImageHeader {
  format: ImageFormat;
  /** Each frame or page the file declares (TIFF pages; one for the others), in pixels. */
  frames: { width: number; height: number }[];
  /** EXIF orientation 1–8 of a JPEG (other formats are left to their decoder); 1 when absent. */
  orientation: number;
  /** Pixels per inch the file declares (JPEG), if any. */
  dpi?: { x: number; y: number };
  /** The JPEG start-of-frame marker (0xc0 baseline, 0xc2 progressive, 0xc3 lossless…). */
  jpegFrameMarker?: number;
}

/** The format by magic number, from the first bytes of a file. */
export function imageFormatOf(head: Uint8Array): ImageFormat | null {
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (b.subarray(0, 4).toString('latin1') === 'GIF8') return 'gif';
  if (b.subarray(0, 2).toString('latin1') === 'BM' && b.length >= 26) return 'bmp';
  const tiff = b.subarray(0, 4).toString('latin1');
  if (tiff === 'II*\0' || tiff === 'MM\0*') return 'tiff';
  if (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  if (b.subarray(4, 8).toString('latin1') === 'ftyp' && /^(heic|heix|hevc|hevx|mif1|msf1|avif)$/.test(b.subarray(8, 12).toString('latin1')))
    return 'heif';
  return null;
}

/** Random access to a file without reading all of it. */
class Reader {
  constructor(
    private readonly handle: fs.FileHandle,
    readonly size: number,
  ) {}

  async at(offset: number, length: number): Promise<Buffer> {
    const n = Math.max(0, Math.min(length, this.size - offset));
    const buf = Buffer.alloc(n);
    if (n > 0) await this.handle.read(buf, 0, n, offset);
    return buf;
  }
}

/** The header of an image file, or null when it is no image or its header is cut short or invalid. */
export async function readImageHeader(file: string): Promise<ImageHeader | null> {
  const handle = await fs.open(file, 'r');
  try {
    const reader = new Reader(handle, (await handle.stat()).size);
    const head = await reader.at(0, 64);
    const format = imageFormatOf(head);
    if (!format) return null;
    const header = await parsers[format](reader, head);
    const sane = header && header.frames.length > 0 && header.frames.every((f) => f.width > 0 && f.height > 0);
    return sane ? { format, orientation: 1, ...header } : null;
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

type Parsed = Omit<ImageHeader, 'format' | 'orientation'> & { orientation?: number };

const parsers: Record<ImageFormat, (r: Reader, head: Buffer) => Promise<Parsed | null>> = {
  png: async (_r, head) =>
    head.subarray(12, 16).toString('latin1') === 'IHDR'
      ? { frames: [{ width: head.readUInt32BE(16), height: head.readUInt32BE(20) }] }
      : null,
  gif: readGif,
  bmp: async (_r, head) => {
    const infoSize = head.readUInt32LE(14);
    // OS/2 v1 headers (12 bytes) hold 16-bit sizes; later ones 32-bit, height negative for top-down rows.
    if (infoSize === 12) return { frames: [{ width: head.readUInt16LE(18), height: head.readUInt16LE(20) }] };
    return { frames: [{ width: head.readInt32LE(18), height: Math.abs(head.readInt32LE(22)) }] };
  },
  webp: async (_r, head) => {
    const chunk = head.subarray(12, 16).toString('latin1');
    if (chunk === 'VP8X') return { frames: [{ width: 1 + head.readUIntLE(24, 3), height: 1 + head.readUIntLE(27, 3) }] };
    if (chunk === 'VP8L') {
      const bits = head.readUInt32LE(21);
      return { frames: [{ width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 }] };
    }
    if (chunk === 'VP8 ') return { frames: [{ width: head.readUInt16LE(26) & 0x3fff, height: head.readUInt16LE(28) & 0x3fff }] };
    return null;
  },
  // Not decoded by Quire; its sizes live deep in the box tree and are never needed.
  heif: async () => null,
  jpeg: readJpeg,
  tiff: async (r) => {
    const pages = await readTiffPages(r);
    return pages && { frames: pages };
  },
};

const SOF_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** Walks the JPEG segments up to the frame header, noting JFIF density and EXIF orientation on the way. */
async function readJpeg(r: Reader): Promise<Parsed | null> {
  let offset = 2;
  let orientation = 1;
  let dpi: ImageHeader['dpi'];
  while (offset + 4 <= r.size) {
    const seg = await r.at(offset, 4);
    if (seg[0] !== 0xff) return null;
    const marker = seg[1]!;
    if (marker === 0xff) {
      offset++; // fill byte
      continue;
    }
    const length = seg.readUInt16BE(2);
    if (SOF_MARKERS.has(marker)) {
      const sof = await r.at(offset + 4, 5);
      if (sof.length < 5) return null;
      return {
        frames: [{ width: sof.readUInt16BE(3), height: sof.readUInt16BE(1) }],
        orientation,
        jpegFrameMarker: marker,
        ...(dpi && { dpi }),
      };
    }
    if (marker === 0xe0) {
      const app0 = await r.at(offset + 4, 12);
      if (app0.subarray(0, 5).toString('latin1') === 'JFIF\0') {
        const [units, x, y] = [app0[7], app0.readUInt16BE(8), app0.readUInt16BE(10)];
        if (x > 0 && y > 0 && (units === 1 || units === 2)) dpi = units === 1 ? { x, y } : { x: x * 2.54, y: y * 2.54 };
      }
    }
    if (marker === 0xe1) {
      const app1 = await r.at(offset + 4, Math.min(length - 2, 64 * 1024));
      if (app1.subarray(0, 6).toString('latin1') === 'Exif\0\0') orientation = exifOrientation(app1.subarray(6)) ?? orientation;
    }
    offset += 2 + length;
  }
  return null;
}

/** Tag 0x0112 of IFD0 in a TIFF structure (an EXIF block is one). */
function exifOrientation(tiff: Buffer): number | undefined {
  if (tiff.length < 8) return undefined;
  const le = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (o: number) => (le ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
  const u32 = (o: number) => (le ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return undefined;
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > tiff.length) return undefined;
    if (u16(entry) === 0x0112) {
      const value = u16(entry + 8);
      return value >= 1 && value <= 8 ? value : undefined;
    }
  }
  return undefined;
}

/** Sequential reading through a window, for formats whose blocks must be walked one by one. */
class Cursor {
  private window: Buffer = Buffer.alloc(0);
  private start = 0;

  constructor(
    private readonly r: Reader,
    public offset: number,
  ) {}

  async bytes(n: number): Promise<Buffer> {
    if (this.offset < this.start || this.offset + n > this.start + this.window.length) {
      this.start = this.offset;
      this.window = await this.r.at(this.offset, Math.max(n, 64 * 1024));
    }
    const out = this.window.subarray(this.offset - this.start, this.offset - this.start + n);
    if (out.length < n) throw new Error('cut short');
    this.offset += n;
    return out;
  }

  async byte(): Promise<number> {
    return (await this.bytes(1))[0]!;
  }

  /** Skips a chain of data sub-blocks (length byte, data), ended by a zero length. */
  async skipSubBlocks(): Promise<void> {
    for (let n = await this.byte(); n > 0; n = await this.byte()) this.offset += n;
  }
}

/**
 * Every frame of a GIF, as the area from the canvas origin to its far corner: a frame may lie
 * outside the logical screen, and decoders grow the canvas to hold it (a decompression bomb is a
 * tiny file whose frame declares a huge one).
 */
async function readGif(r: Reader, head: Buffer): Promise<Parsed | null> {
  const frames: { width: number; height: number }[] = [];
  const screen = { width: head.readUInt16LE(6), height: head.readUInt16LE(8) };
  const c = new Cursor(r, 13);
  if (head[10]! & 0x80) c.offset += 3 << ((head[10]! & 7) + 1);
  try {
    for (let block = await c.byte(); block !== 0x3b; block = await c.byte()) {
      if (block === 0x21) {
        c.offset++; // label
        await c.skipSubBlocks();
      } else if (block === 0x2c) {
        const d = await c.bytes(9);
        frames.push({
          width: Math.max(screen.width, d.readUInt16LE(0) + d.readUInt16LE(4)),
          height: Math.max(screen.height, d.readUInt16LE(2) + d.readUInt16LE(6)),
        });
        if (frames.length > MAX_FRAMES) return null;
        if (d[8]! & 0x80) c.offset += 3 << ((d[8]! & 7) + 1);
        c.offset++; // LZW minimum code size
        await c.skipSubBlocks();
      } else {
        break; // not a block: decoders stop here too
      }
    }
  } catch {
    // Cut short (no trailer is common): the frames declared up to there.
  }
  return frames.length ? { frames } : null;
}

/** At most this many frames or pages are listed; more (or a loop) is refused. */
const MAX_FRAMES = 10_000;

/** The size of every page (image file directory) of a TIFF. */
async function readTiffPages(r: Reader): Promise<{ width: number; height: number }[] | null> {
  const head = await r.at(0, 8);
  const le = head.toString('latin1', 0, 2) === 'II';
  const u16 = (b: Buffer, o: number) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
  const u32 = (b: Buffer, o: number) => (le ? b.readUInt32LE(o) : b.readUInt32BE(o));
  const pages: { width: number; height: number }[] = [];
  const seen = new Set<number>();
  let ifd = u32(head, 4);
  while (ifd !== 0) {
    if (seen.has(ifd) || pages.length >= MAX_FRAMES) return null;
    seen.add(ifd);
    const countBuf = await r.at(ifd, 2);
    if (countBuf.length < 2) return null;
    const count = u16(countBuf, 0);
    const entries = await r.at(ifd + 2, count * 12 + 4);
    if (entries.length < count * 12 + 4) return null;
    let width = 0;
    let height = 0;
    for (let i = 0; i < count; i++) {
      const e = i * 12;
      const [tag, type] = [u16(entries, e), u16(entries, e + 2)];
      // SHORT (3) or LONG (4) values sit in the entry itself.
      const value = type === 3 ? u16(entries, e + 8) : u32(entries, e + 8);
      if (tag === 256) width = value;
      if (tag === 257) height = value;
    }
    pages.push({ width, height });
    ifd = u32(entries, count * 12);
  }
  return pages;
}

/** How many pixels a decoder would allocate for the largest frame. */
export const largestFrame = (h: ImageHeader) => Math.max(...h.frames.map((f) => f.width * f.height));
