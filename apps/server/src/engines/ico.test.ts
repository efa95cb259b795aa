import { describe, expect, it } from 'vitest';
import { icoFromPng } from './ico.js';

const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe('icoFromPng', () => {
  it('writes one icon directory entry pointing at the PNG after the 22 header bytes', () => {
    const ico = icoFromPng(png, 48);
    expect(ico.length).toBe(22 + png.length);
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 1]);
    expect([ico[6], ico[7], ico.readUInt16LE(10), ico.readUInt16LE(12)]).toEqual([48, 48, 1, 32]);
    expect([ico.readUInt32LE(14), ico.readUInt32LE(18)]).toEqual([png.length, 22]);
    expect(ico.subarray(22).equals(png)).toBe(true);
  });

  it('writes 256 as 0 and refuses sizes an icon cannot have', () => {
    const ico = icoFromPng(png, 256);
    expect([ico[6], ico[7]]).toEqual([0, 0]);
    expect(() => icoFromPng(png, 0)).toThrow();
    expect(() => icoFromPng(png, 257)).toThrow();
  });
});
