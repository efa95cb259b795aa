// Zip packages (Word, Excel and PowerPoint's OOXML, OpenDocument, EPUB) refused at upload when
// they would inflate to more than an engine should be handed: LibreOffice and MuPDF parse all of
// a package's markup into memory, so a few megabytes of zip holding a gigabyte of XML ran for
// minutes at gigabytes. Judged from the central directory, and for spreadsheets from their rows,
// before any engine opens the file.
import fs from 'node:fs/promises';
import { ErrorCode, QuireError } from '@quire/contracts';
import { centralDirectory, readAt, streamEntry, zipEntries, type ZipEntry } from '../engines/zipPackage.js';
import { tooManyPagesError } from '../texts/refusals.js';

const MB = 1024 * 1024;
/** Entries of one package: a long book's EPUB holds hundreds, a workbook one per sheet. */
export const MAX_PACKAGE_ENTRIES = 10_000;
/** All entries together, inflated; images and fonts are stored near their own size, so this is the upload's order. */
export const MAX_PACKAGE_BYTES = 512 * MB;
/** Markup (XML, XHTML, styles), inflated: a thousand-page document holds tens of megabytes. */
export const MAX_MARKUP_BYTES = 64 * MB;
/** Printed rows of a page are some fifty at Calc's default height; twice that is a generous bound. */
export const MAX_ROWS_PER_PAGE = 100;

const MARKUP = /\.(xml|rels|x?html?|opf|ncx|svg|css)$/i;
const WORKSHEET = /^xl\/worksheets\/[^/]+\.xml$/;

/**
 * Refuses a zip package with 4012 when it holds too many entries or inflates (by what its central
 * directory declares) past the bounds, and with 4013 when its worksheets hold more rows with cells
 * than `maxPages` pages print. A file without a central directory is left to the damage check.
 */
export async function checkPackageSizes(file: string, maxPages: number): Promise<void> {
  const h = await fs.open(file, 'r');
  try {
    // Compound (OLE2) documents and RTF are no zip: nothing here applies to them.
    if ((await readAt(h, 0, 4)).toString('latin1') !== 'PK\x03\x04') return;
    const cd = await centralDirectory(h, (await h.stat()).size);
    if (!cd) return;
    const entries = zipEntries(cd);
    const total = (filter: (e: ZipEntry) => boolean) => entries.filter(filter).reduce((sum, e) => sum + e.inflatedBytes, 0);
    if (
      entries.length > MAX_PACKAGE_ENTRIES ||
      total(() => true) > MAX_PACKAGE_BYTES ||
      total((e) => MARKUP.test(e.name)) > MAX_MARKUP_BYTES
    )
      throw new QuireError(ErrorCode.TooLarge);
    const maxRows = maxPages * MAX_ROWS_PER_PAGE;
    let rows = 0;
    for (const sheet of entries.filter((e) => WORKSHEET.test(e.name))) {
      rows += await rowsWithCells(file, h, sheet, maxRows - rows);
      if (rows > maxRows) throw tooManyPagesError(maxPages);
    }
  } finally {
    await h.close();
  }
}

/** A row element that is not empty (`<row …/>` is, and prints nothing), with or without a namespace prefix. */
const ROW_WITH_CELLS = /<(?:\w+:)?row\b[^>]*[^/>]>|<(?:\w+:)?row>/g;

const MAX_TAG_CHARS = 4096;

/** Rows with cells of one worksheet, counted as it inflates, up to just past `limit`. */
async function rowsWithCells(file: string, h: fs.FileHandle, sheet: ZipEntry, limit: number): Promise<number> {
  let rows = 0;
  let carry = '';
  await streamEntry(file, h, sheet, (chunk) => {
    const text = carry + chunk.toString('latin1');
    // A tag cut by the chunk's end is counted with the next chunk (one longer than any row tag is not one).
    const cut = text.lastIndexOf('<');
    const whole = cut < 0 || text.includes('>', cut) ? text : text.slice(0, cut);
    carry = text.length - whole.length > MAX_TAG_CHARS ? '' : text.slice(whole.length);
    rows += whole.match(ROW_WITH_CELLS)?.length ?? 0;
    return rows <= limit;
  });
  return rows;
}
