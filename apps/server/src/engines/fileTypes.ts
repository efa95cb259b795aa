// What kind of file an upload is, by its content's magic bytes and its name together. A name alone
// is never trusted: a PDF named .docx is a PDF, a zip named .pdf is refused.
import fs from 'node:fs/promises';
import path from 'node:path';
import { imageFormatOf, type ImageFormat } from './imageHeader.js';

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
