import { describe, expect, it } from 'vitest';
import { croppedSize, resizedSize } from './imageTools.js';
import { toolParams } from './toolParams.js';

describe('image tool sizes', () => {
  it('resizes both sides by one percentage, rounded, never below one pixel', () => {
    expect(resizedSize(200, 100, 50)).toEqual([100, 50]);
    expect(resizedSize(201, 101, 50)).toEqual([101, 51]);
    expect(resizedSize(300, 3, 10)).toEqual([30, 1]);
    expect(resizedSize(370, 285, 500)).toEqual([1850, 1425]);
  });

  it('crops inside the margins, or says they leave nothing', () => {
    expect(croppedSize(200, 100, { top: 10, right: 10, bottom: 10, left: 10 })).toEqual([180, 80]);
    expect(croppedSize(200, 100, { top: 50, right: 0, bottom: 50, left: 0 })).toBeNull();
    expect(croppedSize(200, 100, { top: 0, right: 199, bottom: 0, left: 0 })).toEqual([1, 100]);
  });
});

describe('images_process parameters', () => {
  const parse = (body: object) => toolParams.images_process.safeParse({ file_id: 'f', ...body });

  it('fills the spec defaults: png, a 16 x 16 icon, level medium', () => {
    expect(parse({ action: 'convert' }).data).toMatchObject({ format: 'png', ico_size: 16 });
    expect(parse({ action: 'compress' }).data).toMatchObject({ level: 'medium' });
  });

  it('takes only the options of its action, within their bounds', () => {
    expect(parse({ action: 'resize', percent: 1 }).success).toBe(true);
    expect(parse({ action: 'resize', percent: 500 }).success).toBe(true);
    expect(parse({ action: 'resize', percent: 501 }).success).toBe(false);
    expect(parse({ action: 'resize', percent: 12.5 }).success).toBe(false);
    expect(parse({ action: 'resize' }).success).toBe(false);
    expect(parse({ action: 'rotate', angle: 45 }).success).toBe(false);
    expect(parse({ action: 'convert', format: 'ico', ico_size: 24 }).success).toBe(false);
    expect(parse({ action: 'crop', margins: { top: 1, right: 2, bottom: 3 } }).success).toBe(false);
    expect(parse({ action: 'flip' }).success).toBe(false);
  });
});
