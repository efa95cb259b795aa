// Images decoded by ImageMagick, a decoder independent of the engines Quire uses (sharp, MuPDF).
import { execFileSync } from 'node:child_process';

export interface DecodedFrame {
  format: string;
  width: number;
  height: number;
}

/**
 * Each frame of an image as ImageMagick decodes it: its format and size. The pixel checksum (%#)
 * makes it read every pixel; a warning (a damaged file) makes it fail.
 */
export function decodeImage(file: string): DecodedFrame[] {
  const out = execFileSync('identify', ['-regard-warnings', '-format', '%m %w %h %#\n', file], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return out
    .trim()
    .split('\n')
    .map((line) => {
      const [format, w, h, hash] = line.split(' ');
      if (!/^[0-9a-f]{64}$/.test(hash ?? '')) throw new Error(`no pixel checksum for ${file}: ${line}`);
      return { format: format!, width: Number(w), height: Number(h) };
    });
}
