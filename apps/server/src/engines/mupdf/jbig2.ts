// A lossless JBIG2 encoder (ITU-T T.88) for PDF's JBIG2Decode filter, so that Compress can store
// black-and-white scans in a half or a third of what Flate takes. Debian ships a JBIG2 decoder
// (jbig2dec) but no encoder.
//
// What it writes is the smallest stream every reader decodes alike: the page of one image as
// T.88's embedded organisation (annex D) without the file header, end-of-page and end-of-file
// segments, which PDF leaves out; a page information segment and one immediate generic region
// segment, both on page 1 as PDF wants. The region codes every pixel with the MQ arithmetic coder
// (annex E), template 0 with its usual adaptive pixels and typical prediction (TPGDON), so a
// decoder draws exactly the bitmap it was given.
//
// Never symbol dictionaries or text regions: matching glyphs against each other is how JBIG2
// shrinks text further, and a matcher that takes one glyph for a similar one is how Xerox copiers
// came to swap digits in scanned figures (2013). A generic region has no such failure: it is
// lossless by construction, which the tests prove with three independent decoders.

/** The probability estimates of the MQ coder (T.88 table E.1): Qe, and the index after an MPS and after an LPS. */
const QE = [
  0x5601, 0x3401, 0x1801, 0x0ac1, 0x0521, 0x0221, 0x5601, 0x5401, 0x4801, 0x3801, 0x3001, 0x2401, 0x1c01, 0x1601, 0x5601, 0x5401, 0x5101,
  0x4801, 0x3801, 0x3401, 0x3001, 0x2801, 0x2401, 0x2201, 0x1c01, 0x1801, 0x1601, 0x1401, 0x1201, 0x1101, 0x0ac1, 0x09c1, 0x08a1, 0x0521,
  0x0441, 0x02a1, 0x0221, 0x0141, 0x0111, 0x0085, 0x0049, 0x0025, 0x0015, 0x0009, 0x0005, 0x0001, 0x5601,
];
const NEXT_MPS = [
  1, 2, 3, 4, 5, 38, 7, 8, 9, 10, 11, 12, 13, 29, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36,
  37, 38, 39, 40, 41, 42, 43, 44, 45, 45, 46,
];
const NEXT_LPS = [
  1, 6, 9, 12, 29, 33, 6, 14, 14, 14, 17, 18, 20, 21, 14, 14, 15, 16, 17, 18, 19, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
  33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 46,
];
/** The states whose LPS swaps the sense of the more probable symbol (table E.1's SWITCH column). */
const SWITCHES = new Set([0, 6, 14]);

/**
 * The MQ arithmetic encoder of T.88 annex E.2 (the procedures INITENC, ENCODE, CODEMPS, CODELPS,
 * RENORME, BYTEOUT and FLUSH), with one adaptive state per context, each starting at index 0 with
 * MPS 0 as the decoder's do.
 */
export class MqEncoder {
  private a = 0x8000;
  private c = 0;
  /** Shifts left before the next byte goes out: 12 at first, the byte before the stream being 0, not 0xFF. */
  private ct = 12;
  private out = new Uint8Array(1 << 12);
  private length = 0;
  private readonly index: Uint8Array;
  private readonly mps: Uint8Array;

  constructor(contexts: number) {
    this.index = new Uint8Array(contexts);
    this.mps = new Uint8Array(contexts);
  }

  /** Codes one decision `bit` in context `cx`. */
  encode(cx: number, bit: number) {
    const i = this.index[cx]!;
    const qe = QE[i]!;
    this.a -= qe;
    if (bit === this.mps[cx]) {
      // CODEMPS: the MPS takes the upper sub-interval unless it has become the smaller one.
      if (this.a & 0x8000) {
        this.c += qe;
        return;
      }
      if (this.a < qe) this.a = qe;
      else this.c += qe;
      this.index[cx] = NEXT_MPS[i]!;
    } else {
      // CODELPS, with the conditional exchange of sub-intervals.
      if (this.a < qe) this.c += qe;
      else this.a = qe;
      if (SWITCHES.has(i)) this.mps[cx] = 1 - this.mps[cx]!;
      this.index[cx] = NEXT_LPS[i]!;
    }
    // RENORME
    do {
      this.a <<= 1;
      this.c <<= 1;
      if (--this.ct === 0) this.byteOut();
    } while ((this.a & 0x8000) === 0);
  }

  private push(byte: number) {
    if (this.length === this.out.length) {
      const grown = new Uint8Array(this.out.length * 2);
      grown.set(this.out);
      this.out = grown;
    }
    this.out[this.length++] = byte & 0xff;
  }

  /**
   * BYTEOUT: a carry out of C goes into the byte already written; after a 0xFF only seven bits
   * follow (bit stuffing), so that no marker can appear inside the data.
   */
  private byteOut() {
    // The byte before the first one is taken as 0, and C cannot carry into it: A starts at 0x8000.
    let last = this.length ? this.out[this.length - 1]! : 0;
    if (last !== 0xff && this.c >= 0x8000000) {
      last = ++this.out[this.length - 1]!;
      this.c &= 0x7ffffff;
    }
    if (last === 0xff) {
      this.push(this.c >>> 20);
      this.c &= 0xfffff;
      this.ct = 7;
    } else {
      this.push(this.c >>> 19);
      this.c &= 0x7ffff;
      this.ct = 8;
    }
  }

  /** FLUSH: sets as many trailing bits as it can to 1, writes C out and ends with the 0xFF 0xAC marker. */
  finish(): Uint8Array {
    const top = this.c + this.a;
    this.c |= 0xffff;
    if (this.c >= top) this.c -= 0x8000;
    this.c <<= this.ct;
    this.byteOut();
    this.c <<= this.ct;
    this.byteOut();
    if (this.out[this.length - 1] !== 0xff) this.push(0xff);
    this.push(0xac);
    return this.out.subarray(0, this.length);
  }
}

/**
 * The context of template 0's first decision on a row under typical prediction (SLTP): the
 * value decoders use, itself one of the 65,536 pixel contexts.
 */
const SLTP_CONTEXT = 0x9b25;

/**
 * The generic region's arithmetic-coded data (T.88 6.2.5.7 read backwards): rows of 0/1 pixels
 * (1 black), each row `width` long in an array of `width + 8` whose tail stays 0, so that the
 * template may look past the right edge; rows above the first are 0 too.
 */
function genericRegionData(rowAt: (y: number, into: Uint8Array) => void, width: number, height: number): Uint8Array {
  const mq = new MqEncoder(1 << 16);
  let [above2, above, row] = [new Uint8Array(width + 8), new Uint8Array(width + 8), new Uint8Array(width + 8)];
  let typical = 0;
  for (let y = 0; y < height; y++) {
    rowAt(y, row);
    // Typical prediction: a row equal to the one above is coded as one decision, "same as above"
    // changing from the previous row's, and the decoder copies it.
    let same = 1;
    for (let x = 0; x < width; x++) {
      if (row[x] !== above[x]) {
        same = 0;
        break;
      }
    }
    mq.encode(SLTP_CONTEXT, same ^ typical);
    typical = same;
    if (!same) {
      // Template 0 (figure 3 of T.88, adaptive pixels at (3,-1), (-3,-1), (2,-2), (-2,-2)): the
      // 16 bits of a pixel's context are, high to low, row y-2 from x-2 to x+2, row y-1 from x-3
      // to x+3 and row y from x-4 to x-1. Each window slides one pixel right per step.
      let near2 = (above2[0]! << 2) | (above2[1]! << 1) | above2[2]!;
      let near1 = (above[0]! << 3) | (above[1]! << 2) | (above[2]! << 1) | above[3]!;
      let left = 0;
      for (let x = 0; x < width; x++) {
        const bit = row[x]!;
        mq.encode((near2 << 11) | (near1 << 4) | left, bit);
        left = ((left << 1) | bit) & 0xf;
        near1 = ((near1 << 1) | above[x + 4]!) & 0x7f;
        near2 = ((near2 << 1) | above2[x + 3]!) & 0x1f;
      }
    }
    [above2, above, row] = [above, row, above2];
  }
  return mq.finish();
}

const SEGMENT_PAGE_INFORMATION = 48;
const SEGMENT_IMMEDIATE_GENERIC_REGION = 38;

/**
 * A segment (T.88 7.2): its number, its type, no referred-to segments, page 1 (one byte for the
 * association, as pages below 256 take) and its data's length, then the data.
 */
function segment(number: number, type: number, data: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(11 + data.length);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, number);
  bytes[4] = type;
  bytes[5] = 0;
  bytes[6] = 1;
  view.setUint32(7, data.length);
  bytes.set(data, 11);
  return bytes;
}

/**
 * The JBIG2Decode stream of a 1-bit image: what the filter decodes from it is `samples` (rows
 * packed from the high bit, each starting on a byte) for every pixel of `width` × `height`.
 *
 * JBIG2 has 1 for black where a DeviceGray image's sample 0 is black, so the filter hands out the
 * inverse of the JBIG2 bitmap (as MuPDF, poppler and pdf.js do): the bitmap coded here is the
 * inverse of the samples, and the image's /Decode, colour space or /ImageMask keep their meaning.
 */
export function encodeJbig2(samples: Uint8Array, width: number, height: number): Uint8Array {
  const stride = Math.ceil(width / 8);
  const region = genericRegionData(
    (y, into) => {
      for (let x = 0; x < width; x++) into[x] = 1 - ((samples[y * stride + (x >> 3)]! >> (7 - (x & 7))) & 1);
    },
    width,
    height,
  );

  // Page information (7.4.8): the size, no resolution, "eventually lossless", white by default
  // with OR as the combination operator, not striped.
  const page = new Uint8Array(19);
  const pageView = new DataView(page.buffer);
  pageView.setUint32(0, width);
  pageView.setUint32(4, height);
  page[16] = 0x01;

  // The generic region (7.4.6): its region information, at (0,0) combined by OR onto the white
  // page; flags for arithmetic coding with template 0 and TPGDON; the four adaptive pixels.
  const AT_PIXELS = [3, -1, -3, -1, 2, -2, -2, -2];
  const header = new Uint8Array(17 + 1 + AT_PIXELS.length);
  const headerView = new DataView(header.buffer);
  headerView.setUint32(0, width);
  headerView.setUint32(4, height);
  header[17] = 0x08;
  for (const [i, v] of AT_PIXELS.entries()) headerView.setInt8(18 + i, v);
  const regionData = new Uint8Array(header.length + region.length);
  regionData.set(header);
  regionData.set(region, header.length);

  const parts = [segment(0, SEGMENT_PAGE_INFORMATION, page), segment(1, SEGMENT_IMMEDIATE_GENERIC_REGION, regionData)];
  const stream = new Uint8Array(parts[0]!.length + parts[1]!.length);
  stream.set(parts[0]!);
  stream.set(parts[1]!, parts[0]!.length);
  return stream;
}
