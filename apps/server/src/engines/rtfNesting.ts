// RTF whose table paragraphs name a nesting level no table has (\itap0 or a negative level inside
// a table, a level more than one below the one before): LibreOffice refused such a file as
// unreadable, or dropped the nested cells' text and all that followed in their table. Each such
// level is set to the one the paragraph can have, one below the table paragraph before it,
// as the file is copied: the rest of the file is untouched and never held whole in memory.
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A control word (or an escaped backslash, which is none), with its numeric parameter. */
const CONTROL = /\\(\\|[a-zA-Z]{1,32})(-?\d{1,10})?/g;
/** The longest control word a chunk's end can cut: one started this close to the end waits for the next chunk. */
const MAX_CONTROL_CHARS = 48;

class NestingLevels extends Transform {
  private carry = '';
  /** Whether the current paragraph's properties said \intbl. */
  private inTable = false;
  /** The nesting level of the last table paragraph. */
  private depth = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    // RTF is 7-bit ASCII (other characters are escaped), so latin1 maps every byte to one character and back.
    const text = this.carry + chunk.toString('latin1');
    const cut = text.lastIndexOf('\\');
    const keep = cut >= 0 && text.length - cut < MAX_CONTROL_CHARS ? cut : text.length;
    this.carry = text.slice(keep);
    done(null, Buffer.from(this.rewrite(text.slice(0, keep)), 'latin1'));
  }

  override _flush(done: TransformCallback) {
    done(null, Buffer.from(this.rewrite(this.carry), 'latin1'));
  }

  private rewrite(text: string): string {
    return text.replace(CONTROL, (whole, word: string, parameter: string | undefined) => {
      if (word === 'pard') this.inTable = false;
      else if (word === 'intbl') this.inTable = true;
      else if (word === 'itap' && this.inTable) {
        const level = Number(parameter ?? 1);
        const possible = level >= 1 && level <= this.depth + 1 ? level : this.depth + 1;
        this.depth = possible;
        return `\\itap${possible}`;
      }
      return whole;
    });
  }
}

/** `input` as `output`, every table paragraph's nesting level one a table can have. */
export async function withSoundNesting(input: string, output: string): Promise<void> {
  await pipeline(createReadStream(input), new NestingLevels(), createWriteStream(output));
}

/** Whether `file` is RTF by its first bytes, whatever its name. */
export async function isRtf(file: string): Promise<boolean> {
  const h = await fs.open(file, 'r');
  try {
    const head = Buffer.alloc(5);
    const { bytesRead } = await h.read(head, 0, 5, 0);
    return head.subarray(0, bytesRead).toString('latin1') === '{\\rtf';
  } finally {
    await h.close();
  }
}
