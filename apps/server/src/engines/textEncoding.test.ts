import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { detectEncoding, transcodeToUtf8 } from './textEncoding.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-enc-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const file = (name: string, bytes: Buffer) => {
  const p = path.join(dir, name);
  fs.writeFileSync(p, bytes);
  return p;
};
const limits = { timeoutMs: 10_000, memoryMb: 512 };
const text = 'Grüße aus Köln – ein Text, der lang genug ist, um ihn zu erkennen. '.repeat(20);

describe('text encodings', () => {
  it('knows a byte-order mark, and UTF-16 without one', async () => {
    expect(await detectEncoding(file('bom8.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])))).toEqual({
      name: 'UTF-8',
      bom: true,
    });
    expect(await detectEncoding(file('le.txt', Buffer.from(text, 'utf16le')))).toEqual({ name: 'UTF-16LE', bom: false });
    expect(await detectEncoding(file('plain.txt', Buffer.from(text)))).toEqual({ name: 'UTF-8', bom: false });
  });

  it('guesses a legacy encoding and writes the text as UTF-8', async () => {
    const japanese = 'マルチン・ルターの小信仰問答書。十戒について、父親が家族に簡潔に示すには。'.repeat(10);
    const sjis = path.join(dir, 'ja.sjis');
    execFileSync('iconv', ['-f', 'UTF-8', '-t', 'SHIFT_JIS', '-o', sjis, file('ja.utf8', Buffer.from(japanese))]);
    const encoding = await detectEncoding(sjis);
    expect(encoding.name).toBe('Shift_JIS');
    const out = path.join(dir, 'ja.out');
    await transcodeToUtf8(sjis, encoding, out, limits);
    expect(fs.readFileSync(out, 'utf8')).toBe(japanese);
  });

  it('drops the byte-order mark of UTF-16 when writing UTF-8', async () => {
    const input = file('bom16.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hello', 'utf16le')]));
    const out = path.join(dir, 'bom16.out');
    await transcodeToUtf8(input, await detectEncoding(input), out, limits);
    expect(fs.readFileSync(out, 'utf8')).toBe('hello');
  });
});
