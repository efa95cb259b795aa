// The editor's reads: a page's text runs, its images and annotations, the form's fields, read by
// MuPDF in a child process under the tools' limits, from the caller's own file (2405 for another's).
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  type EditFontStyle,
  ErrorCode,
  type FontFamilyId,
  type FormFields,
  type PageObjects,
  type PageRuns,
  QuireError,
} from '@quire/contracts';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../context.js';
import { refusal } from '../texts/words.js';
import { detectFileType } from '../engines/fileTypes.js';
import { editFontFiles } from '../engines/fontFiles.js';
import { runMupdf } from '../engines/mupdf.js';
import type { InspectJob } from '../engines/mupdf/jobs.js';
import { editableInput } from '../engines/qpdf.js';
import { newId } from '../ids.js';
import { unlockedFile } from './files.js';

interface Read {
  file_id: string;
  passwd?: string | undefined;
  page?: number;
}

async function inspect(ctx: AppContext, ownerId: string, read: Read, what: InspectJob['what']) {
  const row = await unlockedFile(ctx, ownerId, read.file_id, read.passwd);
  const local = await ctx.storage.localPath(row.storage_key);
  if ((await detectFileType(local, row.name)) !== 'pdf') throw new QuireError(ErrorCode.NotPdf);
  const page = read.page ?? 1;
  if (page > row.total_page) throw refusal(ErrorCode.EditPageMissing, 'error.page.missing', { page });
  const workDir = path.join(ctx.scratchDir, `editor-${newId()}`);
  await fs.mkdir(workDir, { recursive: true });
  try {
    const input = await editableInput(
      { file: local, password: read.passwd },
      row.total_page,
      path.join(workDir, 'input.pdf'),
      ctx.toolLimits,
    );
    // One page is read (all of them for the fields): the time allowed is a page's, or the document's.
    const pages = what === 'fields' ? row.total_page : 1;
    return await runMupdf({ op: 'inspect', what, page, input, output: path.join(workDir, 'unused') }, pages, workDir, ctx.toolLimits);
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
  }
}

export const pageRunsOf = (ctx: AppContext, ownerId: string, read: Read) => inspect(ctx, ownerId, read, 'runs') as Promise<PageRuns>;
export const pageObjectsOf = (ctx: AppContext, ownerId: string, read: Read) =>
  inspect(ctx, ownerId, read, 'objects') as Promise<PageObjects>;
export const formFieldsOf = (ctx: AppContext, ownerId: string, read: Read) => inspect(ctx, ownerId, read, 'fields') as Promise<FormFields>;

/** A day: the files come with Debian's font packages and change only when those are upgraded. */
const FONT_MAX_AGE_S = 24 * 60 * 60;

/** The file of a family's style that the saved PDF will embed, for the page's @font-face. */
export async function sendEditFont(reply: FastifyReply, family: FontFamilyId, style: EditFontStyle) {
  const file = (await editFontFiles())[family]?.[style];
  if (!file) throw new QuireError(ErrorCode.EditFontMissing);
  const { size } = await fs.stat(file);
  return reply
    .header('content-type', file.endsWith('.otf') ? 'font/otf' : 'font/ttf')
    .header('content-length', size)
    .header('cache-control', `public, max-age=${FONT_MAX_AGE_S}`)
    .send(createReadStream(file));
}
