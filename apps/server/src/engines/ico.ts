// An ICO file holding one PNG-compressed icon (Windows Vista and later, and every browser, read
// them): a 6-byte directory header, one 16-byte entry, the PNG.

/** The ICO container around `png`, an image of `size` x `size` pixels (1–256). */
export function icoFromPng(png: Buffer, size: number): Buffer {
  if (!Number.isInteger(size) || size < 1 || size > 256) throw new Error(`an icon is 1 to 256 pixels wide, not ${size}`);
  const head = Buffer.alloc(6 + 16);
  head.writeUInt16LE(0, 0); // reserved
  head.writeUInt16LE(1, 2); // 1: icon (2 would be a cursor)
  head.writeUInt16LE(1, 4); // one image
  head.writeUInt8(size === 256 ? 0 : size, 6); // 0 stands for 256
  head.writeUInt8(size === 256 ? 0 : size, 7);
  head.writeUInt8(0, 8); // no palette
  head.writeUInt8(0, 9); // reserved
  head.writeUInt16LE(1, 10); // colour planes
  head.writeUInt16LE(32, 12); // bits per pixel
  head.writeUInt32LE(png.length, 14);
  head.writeUInt32LE(head.length, 18); // the PNG follows the entry
  return Buffer.concat([head, png]);
}
