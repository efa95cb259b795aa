// A binary PPM (P6, 8 bits, as pdftoppm writes it) rewritten as a 24-bit BMP, a band of rows at a
// time: BMP stores rows bottom up, in BGR order, each padded to 4 bytes.
import fs from 'node:fs/promises';

/** Width, height and where the pixels start in a P6 file with a maxval of 255. */
export function parsePpmHeader(head: Buffer): { width: number; height: number; offset: number } {
  const tokens: string[] = [];
  let i = 0;
  while (tokens.length < 4 && i < head.length) {
    const c = head[i]!;
    if (c === 0x23) {
      while (i < head.length && head[i] !== 0x0a) i++; // a comment runs to the end of its line
    } else if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
      i++;
    } else {
      let j = i;
      while (j < head.length && ![0x20, 0x0a, 0x0d, 0x09].includes(head[j]!)) j++;
      tokens.push(head.subarray(i, j).toString('latin1'));
      i = j;
    }
  }
  const [magic, w, h, max] = tokens;
  const width = Number(w);
  const height = Number(h);
  if (magic !== 'P6' || max !== '255' || !(width > 0) || !(height > 0)) throw new Error('not an 8-bit binary PPM');
  return { width, height, offset: i + 1 }; // one whitespace byte ends the header
}

export async function ppmToBmp(ppm: string, bmp: string): Promise<void> {
  const input = await fs.open(ppm, 'r');
  const output = await fs.open(bmp, 'w');
  try {
    const head = Buffer.alloc(256);
    await input.read(head, 0, head.length, 0);
    const { width, height, offset } = parsePpmHeader(head);
    const rowIn = width * 3;
    const rowOut = (rowIn + 3) & ~3;
    const imageSize = rowOut * height;
    const header = Buffer.alloc(54);
    header.write('BM', 0, 'latin1');
    header.writeUInt32LE(54 + imageSize, 2);
    header.writeUInt32LE(54, 10);
    header.writeUInt32LE(40, 14);
    header.writeInt32LE(width, 18);
    header.writeInt32LE(height, 22);
    header.writeUInt16LE(1, 26);
    header.writeUInt16LE(24, 28);
    header.writeUInt32LE(imageSize, 34);
    header.writeInt32LE(2835, 38); // 72 dpi in pixels per metre; the page's own resolution is not carried
    header.writeInt32LE(2835, 42);
    await output.write(header, 0, header.length, 0);
    // Bands of rows from the bottom of the picture up.
    const band = Math.max(1, Math.floor((4 << 20) / rowIn));
    const src = Buffer.alloc(band * rowIn);
    const dst = Buffer.alloc(band * rowOut);
    let written = 54;
    for (let end = height; end > 0; end -= band) {
      const start = Math.max(0, end - band);
      const rows = end - start;
      const { bytesRead } = await input.read(src, 0, rows * rowIn, offset + start * rowIn);
      if (bytesRead < rows * rowIn) throw new Error('truncated PPM');
      dst.fill(0, 0, rows * rowOut);
      for (let r = 0; r < rows; r++) {
        const from = (rows - 1 - r) * rowIn;
        const to = r * rowOut;
        for (let x = 0; x < rowIn; x += 3) {
          dst[to + x] = src[from + x + 2]!;
          dst[to + x + 1] = src[from + x + 1]!;
          dst[to + x + 2] = src[from + x]!;
        }
      }
      await output.write(dst, 0, rows * rowOut, written);
      written += rows * rowOut;
    }
  } finally {
    await input.close();
    await output.close();
  }
}
