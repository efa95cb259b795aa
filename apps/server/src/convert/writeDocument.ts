// The document model written in one of the formats of PDF to documents.
import { writeDocx } from './docx.js';
import { writeEpub } from './epub.js';
import { writeHtml } from './html.js';
import type { DocModel } from './model.js';
import { writePages } from './pages.js';
import { writeRtf } from './rtf.js';
import { writeText } from './text.js';
import { writeXlsx } from './xlsx.js';

export type DocumentFormat = 'docx' | 'xlsx' | 'html' | 'rtf' | 'txt' | 'epub' | 'pages';

export async function writeDocument(model: DocModel, format: DocumentFormat, title: string, out: string): Promise<void> {
  if (format === 'docx') await writeDocx(model, out);
  else if (format === 'xlsx') await writeXlsx(model, out);
  else if (format === 'html') writeHtml(model, title, out);
  else if (format === 'rtf') writeRtf(model, out);
  else if (format === 'txt') writeText(model, out);
  else if (format === 'pages') await writePages(model, out);
  else await writeEpub(model, title, out);
}
