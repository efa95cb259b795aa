// Compress: the smallest of three rewrites at the chosen level — a lossless repack, the document
// optimised in place (images downsampled and re-encoded, fonts subset, duplicates merged) and a
// Ghostscript rebuild — that keeps everything the document holds and passes qpdf's check; never
// a file larger than the input: when nothing can be gained, the input itself.
import fs from 'node:fs/promises';
import path from 'node:path';
import { QuireError, type ToolParams } from '@quire/contracts';
import { fingerprintOf, sameFingerprint, type Fingerprint } from '../engines/fingerprint.js';
import { pdfwrite, type PdfwriteSettings } from '../engines/ghostscript.js';
import { runMupdf } from '../engines/mupdf.js';
import { imagePlacements } from '../engines/poppler.js';
import { declaredPageCount, decryptedCopy, optimizePdf, passesCheck } from '../engines/qpdf.js';
import { defineTool, outputName, type ToolContext } from './tool.js';

type Level = ToolParams<'compress'>['level'];

interface LevelSettings extends PdfwriteSettings {
  /** mozjpeg quality (0–100) of the images the in-place optimiser re-encodes. */
  jpegQuality: number;
}

/**
 * high: screen resolution and coarse JPEG, the smallest files; medium: e-book quality, as
 * /ebook; low: print-like resolution and fine JPEG with full colour detail.
 */
export const compressLevels: Record<Level, LevelSettings> = {
  high: { imageDpi: 96, monoDpi: 200, jpegQFactor: 0.9, chromaSubsampling: true, jpegQuality: 50 },
  medium: { imageDpi: 150, monoDpi: 300, jpegQFactor: 0.76, chromaSubsampling: true, jpegQuality: 70 },
  low: { imageDpi: 220, monoDpi: 600, jpegQFactor: 0.4, chromaSubsampling: false, jpegQuality: 85 },
};

/** A rewrite of the document and what it did, for the result view. */
interface Candidate {
  file: string;
  note: string;
  /** The lossless repack changes nothing the fingerprint sees; the others are compared with it. */
  lossless?: boolean;
}

const sizeOf = async (file: string) => (await fs.stat(file)).size;

const span = (ctx: ToolContext, from: number, to: number) => (p: number) => ctx.progress(from + ((to - from) * p) / 100);

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** The Ghostscript candidate, repacked like the others, or null when Ghostscript failed. */
async function rebuilt(ctx: ToolContext, lossless: string, level: Level): Promise<Candidate | null> {
  const gsOut = path.join(ctx.workDir, 'rebuilt-gs.pdf');
  const settings = compressLevels[level];
  if (!(await pdfwrite(lossless, gsOut, settings, ctx.inputs[0]!.pages, ctx.limits, span(ctx, 10, 50)))) return null;
  const file = path.join(ctx.workDir, 'rebuilt.pdf');
  await optimizePdf({ file: gsOut }, file, ctx.limits, span(ctx, 50, 55));
  await fs.rm(gsOut, { force: true });
  return { file, note: `Rebuilt by Ghostscript: images at ${settings.imageDpi} dpi, fonts subset.` };
}

/**
 * The document optimised in place by the MuPDF program (engines/mupdf/optimize.ts), repacked, or
 * null when MuPDF could not do it: the other candidates remain.
 */
async function optimised(ctx: ToolContext, lossless: string, level: Level): Promise<Candidate | null> {
  const settings = compressLevels[level];
  const mupdfOut = path.join(ctx.workDir, 'optimised-mupdf.pdf');
  let done: { imagesRecompressed: number; fontsSubset: number };
  try {
    done = await runMupdf(
      {
        op: 'optimize',
        input: lossless,
        output: mupdfOut,
        images: await imagePlacements(lossless, ctx.limits),
        targetDpi: settings.imageDpi,
        jpegQuality: settings.jpegQuality,
        chromaSubsampling: settings.chromaSubsampling,
      },
      ctx.workDir,
      ctx.limits,
      span(ctx, 55, 80),
    );
  } catch (e) {
    if (ctx.limits.signal?.aborted || !(e instanceof QuireError)) throw e;
    return null;
  }
  const file = path.join(ctx.workDir, 'optimised.pdf');
  await optimizePdf({ file: mupdfOut }, file, ctx.limits, span(ctx, 80, 85));
  await fs.rm(mupdfOut, { force: true });
  const did = [
    done.imagesRecompressed && `${plural(done.imagesRecompressed, 'image')} recompressed`,
    done.fontsSubset && `${plural(done.fontsSubset, 'font')} subset`,
    'duplicate objects merged and streams recompressed',
  ].filter(Boolean);
  return { file, note: `${did.join(', ')}.`.replace(/^./, (c) => c.toUpperCase()) };
}

export const compress = defineTool({
  id: 'compress',
  inputsOf: (p) => [{ fileId: p.file_id, password: p.password || p.passwd }],
  async run(ctx, p) {
    const input = ctx.inputs[0]!;
    const inputSize = await sizeOf(input.path);
    // Decrypted, its page tree sound and repacked: a candidate of its own, and the clean source
    // the other two read. A repack keeps a damaged tree (a /Count that disagrees with the pages),
    // so such a tree is rebuilt first.
    let source = { file: input.path, password: input.password };
    if ((await declaredPageCount(input.path, input.password, ctx.limits)) !== input.pages) {
      source = { file: path.join(ctx.workDir, 'source.pdf'), password: undefined };
      await decryptedCopy({ file: input.path, password: input.password }, input.pages, source.file, ctx.limits);
    }
    const lossless = path.join(ctx.workDir, 'lossless.pdf');
    await optimizePdf(source, lossless, ctx.limits, span(ctx, 0, 10));
    const candidates: Candidate[] = [
      { file: lossless, note: 'Repacked without loss: objects packed and streams recompressed.', lossless: true },
    ];
    for (const made of [await rebuilt(ctx, lossless, p.level), await optimised(ctx, lossless, p.level)]) if (made) candidates.push(made);
    const sized = await Promise.all(candidates.map(async (c) => ({ ...c, size: await sizeOf(c.file) })));
    sized.sort((a, b) => a.size - b.size);
    ctx.progress(88);
    // A lossy candidate counts only when it lost nothing the lossless repack keeps (text,
    // annotations, form fields, outlines, attachments, pages); the smallest such one wins.
    let reference: Promise<Fingerprint | null> | undefined;
    for (const c of sized) {
      if (c.size >= inputSize) break;
      if (!c.lossless) {
        reference ??= fingerprintOf(lossless, ctx.limits);
        const [before, after] = [await reference, await fingerprintOf(c.file, ctx.limits)];
        if (!before || !after || !sameFingerprint(before, after)) continue;
      }
      if (await passesCheck(c.file, ctx.limits))
        return [{ path: c.file, name: outputName(input.name, 'compressed'), inputSize, note: c.note }];
    }
    // Storage takes the output file away, so the untouched input goes out as a copy.
    const original = path.join(ctx.workDir, 'original.pdf');
    await fs.copyFile(input.path, original);
    return [{ path: original, name: input.name, inputSize, unchanged: true }];
  },
});
