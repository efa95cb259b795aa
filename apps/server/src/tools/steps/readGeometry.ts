// The server's side of the MuPDF worker's "geometry" op: what every page of a PDF draws, read
// from the JSON the worker leaves in the job's folder (convert/pageGeometry.ts says what is
// collected), and the conversions made from it: PowerPoint and DXF.
import fs from 'node:fs/promises';
import path from 'node:path';
import { runMupdf } from '../../engines/mupdf.js';
import { writeDxf } from '../../convert/dxf.js';
import type { PageGeometry } from '../../convert/geometryTypes.js';
import { writePptx } from '../../convert/pptx.js';
import { readableInput, type ToolContext, type ToolInput, type ToolOutput } from '../tool.js';

export interface GeometryOptions {
  paths: boolean;
  backgroundDpi: number | null;
}

/** Each page's geometry; picture names are resolved to files of the job's folder. Progress 0–80. */
export async function readGeometry(ctx: ToolContext, input: ToolInput, opts: GeometryOptions): Promise<PageGeometry[]> {
  const source = await readableInput(ctx, input);
  ctx.progress(5);
  const output = path.join(ctx.workDir, 'geometry.json');
  await runMupdf({ op: 'geometry', input: source, output, ...opts }, input.pages, ctx.workDir, ctx.limits, (p) =>
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

/** Resolution of the slides' background pictures. */
const BACKGROUND_DPI = 150;

export async function pdfToPptx(ctx: ToolContext, input: ToolInput, name: string): Promise<ToolOutput[]> {
  const pages = await readGeometry(ctx, input, { paths: false, backgroundDpi: BACKGROUND_DPI });
  const out = path.join(ctx.workDir, 'converted.pptx');
  await writePptx(pages, out);
  ctx.progress(100);
  return [{ path: out, name }];
}

export async function pdfToDxf(ctx: ToolContext, input: ToolInput, name: string): Promise<ToolOutput[]> {
  const pages = await readGeometry(ctx, input, { paths: true, backgroundDpi: null });
  const out = path.join(ctx.workDir, 'converted.dxf');
  await writeDxf(pages, out);
  ctx.progress(100);
  return [{ path: out, name }];
}
