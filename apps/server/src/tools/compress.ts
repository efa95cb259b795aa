// Compress: the smallest of a lossless rewrite and a Ghostscript rebuild at the chosen level, each
// checked, and never a file larger than the input: when nothing can be gained, the input itself.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ToolParams } from '@quire/contracts';
import { fingerprintOf, sameFingerprint } from '../engines/fingerprint.js';
import { pdfwrite, type PdfwriteSettings } from '../engines/ghostscript.js';
import { declaredPageCount, decryptedCopy, optimizePdf, passesCheck } from '../engines/qpdf.js';
import { defineTool, outputName, type ToolContext } from './tool.js';

type Level = ToolParams<'compress'>['level'];

/**
 * high: screen resolution and coarse JPEG, the smallest files; medium: e-book quality, as
 * /ebook; low: print-like resolution and fine JPEG with full colour detail.
 */
export const compressLevels: Record<Level, PdfwriteSettings> = {
  high: { imageDpi: 96, monoDpi: 200, jpegQFactor: 0.9, chromaSubsampling: true },
  medium: { imageDpi: 150, monoDpi: 300, jpegQFactor: 0.76, chromaSubsampling: true },
  low: { imageDpi: 220, monoDpi: 600, jpegQFactor: 0.4, chromaSubsampling: false },
};

const sizeOf = async (file: string) => (await fs.stat(file)).size;

/**
 * The Ghostscript candidate, rewritten losslessly like the other, or null when Ghostscript failed or
 * lost something the lossless rewrite keeps (text, annotations, form fields, outlines, attachments, pages).
 */
async function rebuilt(ctx: ToolContext, lossless: string, level: Level): Promise<string | null> {
  const gsOut = path.join(ctx.workDir, 'rebuilt-gs.pdf');
  const span = (from: number, to: number) => (p: number) => ctx.progress(from + ((to - from) * p) / 100);
  const pages = ctx.inputs[0]!.pages;
  if (!(await pdfwrite(lossless, gsOut, compressLevels[level], pages, ctx.limits, span(10, 80)))) return null;
  const out = path.join(ctx.workDir, 'rebuilt.pdf');
  await optimizePdf({ file: gsOut }, pages, out, ctx.limits, span(80, 88));
  await fs.rm(gsOut, { force: true });
  if ((await sizeOf(out)) >= (await sizeOf(lossless))) return null;
  ctx.progress(90);
  const [before, after] = [await fingerprintOf(lossless, pages, ctx.limits), await fingerprintOf(out, pages, ctx.limits)];
  return before && after && sameFingerprint(before, after) ? out : null;
}

export const compress = defineTool({
  id: 'compress',
  inputsOf: (p) => [{ fileId: p.file_id, password: p.password || p.passwd }],
  async run(ctx, p) {
    const input = ctx.inputs[0]!;
    const inputSize = await sizeOf(input.path);
    // Decrypted, its page tree sound and repacked: a candidate of its own, and the clean source
    // Ghostscript reads. A repack keeps a damaged tree (a /Count that disagrees with the pages), so
    // such a tree is rebuilt first.
    let source = { file: input.path, password: input.password };
    if ((await declaredPageCount(input.path, input.password, ctx.limits)) !== input.pages) {
      source = { file: path.join(ctx.workDir, 'source.pdf'), password: undefined };
      await decryptedCopy({ file: input.path, password: input.password }, input.pages, source.file, ctx.limits);
    }
    const lossless = path.join(ctx.workDir, 'lossless.pdf');
    await optimizePdf(source, input.pages, lossless, ctx.limits, (x) => ctx.progress(x / 10));
    const candidates = [await rebuilt(ctx, lossless, p.level), lossless].filter((c): c is string => c !== null);
    for (const file of candidates) {
      if ((await sizeOf(file)) >= inputSize) break;
      if (await passesCheck(file, input.pages, ctx.limits)) return [{ path: file, name: outputName(input.name, 'compressed'), inputSize }];
    }
    // Storage takes the output file away, so the untouched input goes out as a copy.
    const original = path.join(ctx.workDir, 'original.pdf');
    await fs.copyFile(input.path, original);
    return [{ path: original, name: input.name, inputSize, unchanged: true }];
  },
});
