// What kind of file an upload is, by its content's magic bytes and its name together, and which
// tools take it. A name alone is never trusted: a PDF named .docx is a PDF, a zip named .pdf is refused.
import fs from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, IMAGE_MAX_BYTES, IMAGE_MAX_PIXELS, imageTooLargeMessage, QuireError, tooManyPixelsMessage } from '@quire/contracts';
import type { AppContext } from '../context.js';
import type { FileTable } from '../db/schema.js';
import { imageFormatOf, largestFrame, readImageHeader, type ImageFormat } from '../engines/imageHeader.js';

/**
 * pdf; an image format; `office`: anything LibreOffice opens by itself (Word, Excel, PowerPoint,
 * OpenDocument, RTF, Pages, Keynote, Numbers, Publisher, DXF); `text` and `html`, whose encoding
 * is settled first; `epub`, which MuPDF lays out.
 */
export type FileType = 'pdf' | ImageFormat | 'office' | 'text' | 'html' | 'epub';

export const imageTypes: readonly FileType[] = ['jpeg', 'png', 'gif', 'bmp', 'tiff'];
/** The image tools (images_process) read WebP too; the image limits apply to all of these. */
export const processableImageTypes: readonly FileType[] = [...imageTypes, 'webp'];

const OLE2 = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
// Compound-file formats: Word, Excel, PowerPoint 97-2003, Publisher, Works; also encrypted OOXML,
// which is an OLE2 container holding the encrypted zip.
const oleNames = new Set([
  'doc',
  'dot',
  'xls',
  'xlt',
  'ppt',
  'pps',
  'pot',
  'pub',
  'wps',
  'docx',
  'docm',
  'dotx',
  'xlsx',
  'xlsm',
  'pptx',
  'ppsx',
]);
const zipNames = new Set(['docx', 'docm', 'dotx', 'xlsx', 'xlsm', 'pptx', 'ppsx', 'odt', 'ods', 'odp', 'odg', 'pages', 'key', 'numbers']);
const textNames: Record<string, FileType> = { txt: 'text', html: 'html', htm: 'html', xhtml: 'html', dxf: 'office' };

export const extensionOf = (name: string) => path.extname(name).slice(1).toLowerCase();

/** The type of a file, or null when its content is of no type Quire reads. */
export async function detectFileType(file: string, name: string): Promise<FileType | null> {
  const handle = await fs.open(file, 'r');
  let head: Buffer;
  try {
    const buf = Buffer.alloc(1024);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    head = buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  const ext = extensionOf(name);
  if (head.includes('%PDF-')) return 'pdf';
  const image = imageFormatOf(head);
  if (image) return image;
  if (head.subarray(0, 8).equals(OLE2)) return oleNames.has(ext) ? 'office' : null;
  if (head.subarray(0, 4).toString('latin1') === 'PK\x03\x04') return ext === 'epub' ? 'epub' : zipNames.has(ext) ? 'office' : null;
  if (head.subarray(0, 5).toString('latin1') === '{\\rtf') return 'office';
  // Text has no magic number: its name decides, and binary data (a NUL run) is not text in any encoding.
  return textNames[ext] && !head.includes(Buffer.alloc(4)) ? textNames[ext] : null;
}

/** The catalogue's refusal for a tool given a type it does not take. */
function refusalFor(accepts: readonly FileType[]): ErrorCode {
  if (accepts.includes('pdf')) return ErrorCode.NotPdf;
  return accepts.every((t) => processableImageTypes.includes(t)) ? ErrorCode.WrongType : ErrorCode.UnsupportedType;
}

/**
 * Before a task is queued: each input must be of a type the tool takes, and an image within the
 * spec's 20 MB and a pixel count a decoder can hold (read from its header, nothing decoded).
 */
export async function checkInputTypes(ctx: AppContext, accepts: readonly FileType[], files: readonly FileTable[]): Promise<void> {
  for (const row of files) {
    const local = await ctx.storage.localPath(row.storage_key);
    const type = await detectFileType(local, row.name);
    if (!type || !accepts.includes(type)) throw new QuireError(refusalFor(accepts));
    if (!processableImageTypes.includes(type)) continue;
    if (row.size > IMAGE_MAX_BYTES) throw new QuireError(ErrorCode.TooLarge, imageTooLargeMessage);
    const header = await readImageHeader(local);
    if (header && largestFrame(header) > IMAGE_MAX_PIXELS) throw new QuireError(ErrorCode.TooLarge, tooManyPixelsMessage);
  }
}
