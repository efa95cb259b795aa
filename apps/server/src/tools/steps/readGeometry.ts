// The server's side of the MuPDF worker's "geometry" op: what every page of a PDF draws, read
// from the JSON the worker leaves in the job's folder (see pageGeometry.ts for what is collected).
import fs from 'node:fs/promises';
import path from 'node:path';
import { runMupdf } from '../../engines/mupdf.js';
import { editableInput } from '../../engines/qpdf.js';
import type { ToolContext, ToolInput } from '../tool.js';
import type { PageGeometry } from '../../convert/geometryTypes.js';

export interface GeometryOptions {
  paths: boolean;
  backgroundDpi: number | null;
}

/** Each page's geometry; picture names are resolved to files of the job's folder. Progress 0–80. */
export async function readGeometry(ctx: ToolContext, input: ToolInput, opts: GeometryOptions): Promise<PageGeometry[]> {
  // Encrypted or damaged files reach MuPDF as qpdf opens and repairs them.
  const source = await editableInput(
    { file: input.path, password: input.password },
    input.pages,
    path.join(ctx.workDir, 'input.pdf'),
    ctx.limits,
  );
  ctx.progress(5);
  const output = path.join(ctx.workDir, 'geometry.json');
  await runMupdf({ op: 'geometry', input: source, output, ...opts }, ctx.workDir, ctx.limits, (p) =>
    ctx.progress(5 + Math.round(p * 0.75)),
  );
  const pages = JSON.parse(await fs.readFile(output, 'utf8')) as PageGeometry[];
  await fs.rm(output);
  const inWorkDir = (name: string) => path.join(ctx.workDir, name);
  return pages.map((p) => ({
    ...p,
    background: p.background && inWorkDir(p.background),
    images: p.images.map((im) => ({ ...im, file: inWorkDir(im.file) })),
  }));
}
