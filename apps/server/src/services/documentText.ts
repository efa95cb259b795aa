// The text of an uploaded document for the AI tools that read one (the detector, the proofreader):
// a PDF page by page (opened with its password), a Word or other office file through LibreOffice's
// PDF, a text file in any encoding. Everything made on the way is deleted after.
import fs from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, QuireError } from '@quire/contracts';
import type { AppContext } from '../context.js';
import type { FileTable } from '../db/schema.js';
import { detectFileType, extensionOf } from '../engines/fileTypes.js';
import { pageLayout } from '../engines/poppler.js';
import { editableInput } from '../engines/qpdf.js';
import { detectEncoding, transcodeToUtf8 } from '../engines/textEncoding.js';
import { newId } from '../ids.js';

export interface DocumentText {
  /** The pages' text (a text file is one page), at most `maxPages` of them. */
  pages: string[];
  /** The document has more pages than were read. */
  more: boolean;
}

/**
 * Reads `file`'s text: up to `maxPages` pages (one more is read to know whether there are more).
 * A text file larger than `maxTextBytes` is refused with `tooLong` before it is read. 4011 for a
 * type that holds no text to read; 3122 for an encrypted file without its password.
 */
export async function documentText(
  ctx: AppContext,
  file: FileTable,
  options: { maxPages: number; maxTextBytes: number; tooLong: () => QuireError; password?: string | undefined },
): Promise<DocumentText> {
  const local = await ctx.storage.localPath(file.storage_key);
  const type = await detectFileType(local, file.name);
  await fs.mkdir(ctx.scratchDir, { recursive: true });
  const scratch = path.join(ctx.scratchDir, newId());
  try {
    if (type === 'text') {
      if (file.size > options.maxTextBytes) throw options.tooLong();
      const encoding = await detectEncoding(local);
      if (encoding.name === 'UTF-8') return { pages: [(await fs.readFile(local, 'utf8')).replace(/^\ufeff/, '')], more: false };
      await transcodeToUtf8(local, encoding, `${scratch}.txt`, ctx.toolLimits);
      return { pages: [await fs.readFile(`${scratch}.txt`, 'utf8')], more: false };
    }
    if (file.encrypted === 1 && !options.password) throw new QuireError(ErrorCode.Encrypted);
    let pdf = local;
    if (type === 'office') {
      // LibreOffice picks its import filter by the file's own extension, which the stored copy lacks.
      const input = `${scratch}.${extensionOf(file.name) || 'bin'}`;
      await fs.copyFile(local, input);
      pdf = `${scratch}.pdf`;
      await ctx.office.convert({ input, output: pdf, ...(options.password && { password: options.password }) }, ctx.toolLimits);
    } else if (type === 'pdf') {
      if (file.encrypted === 1)
        pdf = await editableInput({ file: local, password: options.password }, file.total_page, `${scratch}.pdf`, ctx.inspectLimits);
    } else {
      throw new QuireError(ErrorCode.UnsupportedType);
    }
    const { pages } = await pageLayout(pdf, options.maxPages + 1, `${scratch}.layout`, ctx.toolLimits);
    return { pages: pages.slice(0, options.maxPages), more: pages.length > options.maxPages };
  } finally {
    await Promise.all(['.txt', '.pdf', '.layout', `.${extensionOf(file.name)}`].map((ext) => fs.rm(scratch + ext, { force: true })));
  }
}
