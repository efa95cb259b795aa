// Plain text and HTML carry no reliable statement of their encoding: it is settled here, before
// LibreOffice reads them, which would otherwise guess (and show UTF-16 without a byte-order mark
// as a column of NULs, or Shift_JIS as Latin-1).
import fs from 'node:fs/promises';
import chardet from 'chardet';
import { ErrorCode, QuireError } from '@quire/contracts';
import type { EngineLimits } from './qpdf.js';
import { boundFor, EngineTimeout, runEngine, tookTooLong } from './run.js';

const SAMPLE = 64 * 1024;

const boms: [bytes: number[], encoding: string][] = [
  [[0xef, 0xbb, 0xbf], 'UTF-8'],
  [[0xff, 0xfe, 0, 0], 'UTF-32LE'],
  [[0, 0, 0xfe, 0xff], 'UTF-32BE'],
  [[0xff, 0xfe], 'UTF-16LE'],
  [[0xfe, 0xff], 'UTF-16BE'],
];

export interface TextEncoding {
  name: string;
  /** The file starts with a byte-order mark. */
  bom: boolean;
}

/** UTF-16 without a byte-order mark: mostly-Latin text has a NUL in every other byte. */
function utf16Without(sample: Buffer): string | null {
  let even = 0;
  let odd = 0;
  for (let i = 0; i + 1 < sample.length; i += 2) {
    if (sample[i] === 0) even++;
    if (sample[i + 1] === 0) odd++;
  }
  const pairs = Math.floor(sample.length / 2);
  if (pairs === 0) return null;
  if (odd > pairs * 0.3 && even < pairs * 0.05) return 'UTF-16LE';
  if (even > pairs * 0.3 && odd < pairs * 0.05) return 'UTF-16BE';
  return null;
}

function isUtf8(sample: Buffer, complete: boolean): boolean {
  // A sample cut from a longer file may end inside a character: up to 3 bytes of it are let go.
  for (let cut = 0; cut <= (complete ? 0 : 3); cut++) {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(sample.subarray(0, sample.length - cut));
      return true;
    } catch {
      // try a shorter sample
    }
  }
  return false;
}

// chardet's names that iconv knows; anything else (its generic "mbcs") is read as Windows Latin-1.
const iconvKnows = /^(UTF-(8|16|32)(LE|BE)?|ISO-8859-\d+|ISO-2022-(JP|KR|CN)|windows-\d+|Shift_JIS|EUC-(JP|KR)|GB18030|Big5|KOI8-R)$/i;

/** The encoding of a text file, judged from its first 64 KB. */
export async function detectEncoding(file: string): Promise<TextEncoding> {
  const handle = await fs.open(file, 'r');
  let sample: Buffer;
  let complete: boolean;
  try {
    const buf = Buffer.alloc(SAMPLE);
    const { bytesRead } = await handle.read(buf, 0, SAMPLE, 0);
    sample = buf.subarray(0, bytesRead);
    complete = bytesRead < SAMPLE;
  } finally {
    await handle.close();
  }
  for (const [bytes, name] of boms) if (sample.subarray(0, bytes.length).equals(Buffer.from(bytes))) return { name, bom: true };
  const utf16 = utf16Without(sample);
  if (utf16) return { name: utf16, bom: false };
  if (isUtf8(sample, complete)) return { name: 'UTF-8', bom: false };
  const guess = chardet.detect(sample);
  return { name: guess && iconvKnows.test(guess) ? guess : 'windows-1252', bom: false };
}

/** Writes `input` (not UTF-8) as UTF-8 without a byte-order mark; bytes its encoding does not define are dropped. */
export async function transcodeToUtf8(input: string, encoding: TextEncoding, output: string, limits: EngineLimits): Promise<void> {
  try {
    // Named without LE/BE, iconv takes the byte order from the byte-order mark and drops the mark.
    const from = encoding.bom ? encoding.name.replace(/(LE|BE)$/, '') : encoding.name;
    const result = await runEngine('iconv', ['-c', '-f', from, '-t', 'UTF-8', '-o', output, input], boundFor('text', limits));
    if (result.exitCode !== 0 && result.exitCode !== 1) throw new QuireError(ErrorCode.Unreadable);
  } catch (e) {
    await fs.rm(output, { force: true });
    if (e instanceof EngineTimeout) throw tookTooLong();
    throw e;
  }
}
