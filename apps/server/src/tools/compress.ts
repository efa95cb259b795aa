// Compress: the smallest of three rewrites at the chosen level — a lossless repack, the document
// optimised in place (images downsampled and re-encoded, fonts subset, duplicates merged) and a
// Ghostscript rebuild — that keeps everything the document holds and passes qpdf's check; never
// a file larger than the input as uploaded: when nothing can be gained, the input itself.
import fs from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, QuireError, type ToolParams } from '@quire/contracts';
import { fingerprintOf, sameFingerprint, type Fingerprint } from '../engines/fingerprint.js';
import { pdfwrite, type PdfwriteSettings } from '../engines/ghostscript.js';
import { runMupdf } from '../engines/mupdf.js';
import type { JobResults } from '../engines/mupdf/jobs.js';
import { comparedPages, drawnPages, resampledSimilarity, similarity, worstPageSimilarity, type GreyPage } from '../engines/pageLikeness.js';
import { imagePlacements } from '../engines/poppler.js';
import { EngineTimeout } from '../engines/run.js';
import { declaredPageCount, decryptedCopy, type EngineLimits, optimizePdf, passesCheck } from '../engines/qpdf.js';
import { defineTool, outputName, type ToolContext } from './tool.js';
import type { Said } from '../texts/words.js';

type Level = ToolParams<'compress'>['level'];

/** What the in-place optimiser does to images. */
type ImageSettings = Pick<PdfwriteSettings, 'imageDpi' | 'monoDpi' | 'chromaSubsampling'> & {
  /** mozjpeg quality (0–100) of the images it re-encodes. */
  jpegQuality: number;
};

/**
 * The lowest structural similarity (SSIM, pages drawn grey at 72 dpi) a lossy candidate may have
 * with the lossless repack on any page compared: what the level lets images lose. At medium, a
 * photo shown at screen size re-encoded at quality 75 scores 0.98 and a 300 dpi text scan brought
 * to 150 dpi 0.97; at high, that scan at 96 dpi 0.92. Something a rebuild drew differently scores
 * lower (0.89 on a corpus file), though every word and field is kept. Images resampled in place
 * are judged by what shows rather than where their grain falls (resampledSimilarity, ADR 0547).
 */
type Likeness = { minLikeness: number };

/**
 * high: screen resolution and coarse JPEG, the smallest files; medium: e-book quality, as
 * /ebook; low: print-like resolution and fine JPEG with full colour detail.
 */
export const compressLevels: Record<Level, PdfwriteSettings & ImageSettings & Likeness> = {
  high: { imageDpi: 96, monoDpi: 200, jpegQFactor: 0.9, chromaSubsampling: true, jpegQuality: 50, minLikeness: 0.9 },
  medium: { imageDpi: 150, monoDpi: 300, jpegQFactor: 0.76, chromaSubsampling: true, jpegQuality: 75, minLikeness: 0.95 },
  low: { imageDpi: 220, monoDpi: 600, jpegQFactor: 0.4, chromaSubsampling: false, jpegQuality: 85, minLikeness: 0.97 },
};

/** Coarser image settings a target size may go down to, each coarser than the one before; 50 dpi is still legible on screen. */
const TARGET_LADDER: Omit<ImageSettings, 'monoDpi'>[] = [
  { imageDpi: 150, jpegQuality: 60, chromaSubsampling: true },
  { imageDpi: 120, jpegQuality: 50, chromaSubsampling: true },
  { imageDpi: 96, jpegQuality: 45, chromaSubsampling: true },
  { imageDpi: 72, jpegQuality: 40, chromaSubsampling: true },
  { imageDpi: 72, jpegQuality: 30, chromaSubsampling: true },
  { imageDpi: 50, jpegQuality: 30, chromaSubsampling: true },
];

/** A rewrite of the document and what it did, for the result view. */
interface Candidate {
  file: string;
  /** What made it, for the log. */
  engine: 'qpdf' | 'Ghostscript' | 'MuPDF';
  note: Said;
  /** The lossless repack changes nothing the fingerprint sees; the others are compared with it. */
  lossless?: boolean;
}

const sizeOf = async (file: string) => (await fs.stat(file)).size;

/**
 * Why a candidate is not the result, in the log: an operator asking why a file hardly shrank
 * finds there which rewrite was left out and why (its time limit, its memory bound, a crash, the
 * check, its size). The work folder's name is the task's.
 */
function dropped(ctx: ToolContext, engine: Candidate['engine'], why: string): null {
  console.warn(`compress ${path.basename(ctx.workDir)}: the ${engine} candidate is dropped: ${why}`);
  return null;
}

/**
 * Time for each rewrite (and the images' survey it starts with): a base and a share per megabyte
 * of input, within the engine's own bound. A rewrite is optional, so one that loops on a small
 * file (Ghostscript on a Type 3 font drawn by itself) costs seconds, not the minute an engine call
 * may take, and the other candidates win; a large file keeps the engine's whole bound.
 */
const REWRITE_BASE_MS = 10_000;
const REWRITE_MS_PER_MB = 2_000;
function rewriteLimits(ctx: ToolContext, inputSize: number): EngineLimits {
  const scaled = REWRITE_BASE_MS + (REWRITE_MS_PER_MB * inputSize) / (1024 * 1024);
  return { ...ctx.limits, timeoutMs: Math.min(ctx.limits.timeoutMs, Math.round(scaled)) };
}

/** Where a step reports how far it is, in percent. */
type Progress = (percent: number) => void;
/** A step's progress (0–100) as the part [from, to] of `report`'s. */
const span = (report: Progress, from: number, to: number) => (p: number) => report(from + ((to - from) * p) / 100);

/** The Ghostscript candidate, repacked like the others, or null when Ghostscript failed. */
async function rebuilt(
  ctx: ToolContext,
  lossless: string,
  level: Level,
  limits: EngineLimits,
  progress: Progress,
): Promise<Candidate | null> {
  const gsOut = path.join(ctx.workDir, 'rebuilt-gs.pdf');
  const settings = compressLevels[level];
  const made = await pdfwrite(lossless, gsOut, settings, ctx.inputs[0]!.pages, limits, span(progress, 0, 90));
  if (!made.written) return dropped(ctx, 'Ghostscript', made.why);
  const file = path.join(ctx.workDir, 'rebuilt.pdf');
  await optimizePdf({ file: gsOut }, ctx.inputs[0]!.pages, file, ctx.limits, span(progress, 90, 100));
  await fs.rm(gsOut, { force: true });
  return { file, engine: 'Ghostscript', note: { key: 'note.compress.ghostscript', params: { dpi: settings.imageDpi } } };
}

/**
 * The document optimised in place by the MuPDF program (engines/mupdf/optimize.ts), repacked, or
 * null when MuPDF could not do it: the other candidates remain.
 */
async function optimised(
  ctx: ToolContext,
  lossless: string,
  settings: ImageSettings,
  name: string,
  limits: EngineLimits,
  progress: Progress,
): Promise<Candidate | null> {
  const mupdfOut = path.join(ctx.workDir, `${name}-mupdf.pdf`);
  let done: JobResults['optimize'];
  try {
    done = await runMupdf(
      {
        op: 'optimize',
        input: lossless,
        output: mupdfOut,
        images: await imagePlacements(lossless, ctx.inputs[0]!.pages, limits),
        targetDpi: settings.imageDpi,
        monoDpi: settings.monoDpi,
        jpegQuality: settings.jpegQuality,
        chromaSubsampling: settings.chromaSubsampling,
      },
      ctx.inputs[0]!.pages,
      ctx.workDir,
      limits,
      span(progress, 0, 90),
    );
  } catch (e) {
    if (ctx.limits.signal?.aborted || !(e instanceof QuireError)) throw e;
    return dropped(ctx, 'MuPDF', e.message);
  }
  const file = path.join(ctx.workDir, `${name}.pdf`);
  await optimizePdf({ file: mupdfOut }, ctx.inputs[0]!.pages, file, ctx.limits, span(progress, 90, 100));
  await fs.rm(mupdfOut, { force: true });
  const quality = settings.jpegQuality;
  const did: Said[] = [];
  if (done.imagesDownsampled)
    did.push({ key: 'note.compress.downsampled', params: { count: done.imagesDownsampled, dpi: settings.imageDpi, quality } });
  if (done.imagesReencoded) did.push({ key: 'note.compress.reencoded', params: { count: done.imagesReencoded, quality } });
  if (done.photosToJpeg) did.push({ key: 'note.compress.photosToJpeg', params: { count: done.photosToJpeg, quality } });
  if (done.imagesToJbig2 && done.bitonalDownsampled)
    did.push({
      key: 'note.compress.jbig2Downsampled',
      params: { count: done.imagesToJbig2, downsampled: done.bitonalDownsampled, dpi: settings.monoDpi },
    });
  else if (done.imagesToJbig2) did.push({ key: 'note.compress.jbig2', params: { count: done.imagesToJbig2 } });
  if (done.fontsSubset) did.push({ key: 'note.compress.fontsSubset', params: { count: done.fontsSubset } });
  if (done.metadataTrimmed) did.push({ key: 'note.compress.metadataTrimmed' });
  did.push({ key: 'note.compress.merged' });
  return { file, engine: 'MuPDF', note: { key: 'note.compress.did', params: { list: did } } };
}

/**
 * The Ghostscript rebuild and the in-place optimisation side by side, each engine under its own
 * bounds, as a task's page renders and OCR batches run: on two cores the rewrites take about the
 * longer one's time, not the sum. The task's progress is their mean. Both are waited for, even
 * when one fails, so that nothing still writes in the task's folder.
 */
async function bothRewrites(ctx: ToolContext, lossless: string, level: Level, limits: EngineLimits): Promise<(Candidate | null)[]> {
  const done = [0, 0];
  const progressOf = (i: number) => (p: number) => {
    done[i] = p;
    ctx.progress(10 + (75 * (done[0]! + done[1]!)) / 200);
  };
  const made = await Promise.allSettled([
    rebuilt(ctx, lossless, level, limits, progressOf(0)),
    optimised(ctx, lossless, compressLevels[level], 'optimised', limits, progressOf(1)),
  ]);
  return made.map((m) => {
    if (m.status === 'rejected') throw m.reason;
    return m.value;
  });
}

const sizeText = (bytes: number) =>
  bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} KB`
    : `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 2 : 1)} MB`;

/** The note of a result that misses its target size, before what was done. */
const missed = (target: number, note: Said): Said => ({
  key: 'note.compress.missed',
  params: { size: sizeText(target), dpi: TARGET_LADDER.at(-1)!.imageDpi, note },
});

type Sized = Candidate & { size: number };

/**
 * What a candidate lost of what the lossless repack keeps — text, annotations, form fields,
 * outlines, attachments, pages, their look to `minLikeness` — or its failing qpdf's check; null
 * when it is faithful.
 */
function faithfulness(ctx: ToolContext, lossless: string) {
  const pages = ctx.inputs[0]!.pages;
  const compared = comparedPages(pages);
  let reference: Promise<Fingerprint | null> | undefined;
  let referenceLook: Promise<(GreyPage | null)[]> | undefined;
  const check = async (c: Candidate, { minLikeness }: Likeness): Promise<string | null> => {
    if (!c.lossless) {
      reference ??= fingerprintOf(lossless, pages, ctx.limits);
      const [before, after] = [await reference, await fingerprintOf(c.file, pages, ctx.limits)];
      if (!before || !after || !sameFingerprint(before, after)) return 'it does not keep all the text, fields, links or outlines';
      referenceLook ??= drawnPages(lossless, compared, ctx.workDir, ctx.limits);
      const look = await drawnPages(c.file, compared, ctx.workDir, ctx.limits);
      // MuPDF changes images in place and redraws nothing else: what its resampling moves by a pixel is not lost.
      const likeness = worstPageSimilarity(await referenceLook, look, c.engine === 'MuPDF' ? resampledSimilarity : similarity);
      if (likeness < minLikeness) return `a page looks different (similarity ${likeness.toFixed(3)} < ${minLikeness})`;
    }
    return (await passesCheck(c.file, pages, ctx.limits)) ? null : "it fails qpdf's check";
  };
  // A check that runs out of its own time (pdftotext or qpdf over thousands of pages on a busy
  // machine) leaves that candidate out, as a rewrite that does; the upload itself is always left.
  return (c: Candidate, likeness: Likeness) =>
    check(c, likeness).catch((e: unknown) => {
      const outOfTime = e instanceof EngineTimeout || (e instanceof QuireError && e.code === ErrorCode.TaskFailed);
      if (ctx.limits.signal?.aborted || !outOfTime) throw e;
      return `its check did not finish: ${e.message}`;
    });
}

const withSize = async (c: Candidate): Promise<Sized> => ({ ...c, size: await sizeOf(c.file) });

/**
 * A target size the level's result misses: a binary search down TARGET_LADDER (three optimiser
 * runs at most) for the finest settings whose faithful result fits, else the smallest one found,
 * said so in its note.
 */
async function towardsTarget(
  ctx: ToolContext,
  lossless: string,
  level: Level,
  target: number,
  limits: EngineLimits,
  faithful: (c: Candidate, likeness: Likeness) => Promise<string | null>,
): Promise<Sized | null> {
  const rungs = TARGET_LADDER.filter(
    (r) => r.imageDpi <= compressLevels[level].imageDpi && r.jpegQuality < compressLevels[level].jpegQuality,
  );
  let [lo, hi] = [0, rungs.length - 1];
  let fit: Sized | null = null;
  let smallest: Sized | null = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    // Bitonal images stay at the level's resolution: below it, text breaks up.
    const settings = { ...rungs[mid]!, monoDpi: compressLevels[level].monoDpi };
    const made = await optimised(ctx, lossless, settings, `target-${mid}`, limits, span(ctx.progress, 90, 98));
    // A size asked for may cost the look the coarsest level allows.
    const lost = made && (await faithful(made, compressLevels.high));
    if (lost) dropped(ctx, 'MuPDF', `at ${rungs[mid]!.imageDpi} dpi for the target size, ${lost}`);
    const c = made && !lost ? await withSize(made) : null;
    const withSettings = (note: Said): Said => ({
      key: 'note.compress.settings',
      params: { note, dpi: rungs[mid]!.imageDpi, quality: rungs[mid]!.jpegQuality },
    });
    if (c && c.size <= target) {
      fit = { ...c, note: withSettings(c.note) };
      hi = mid - 1;
    } else {
      if (c && c.size < (smallest?.size ?? Infinity)) smallest = { ...c, note: withSettings(c.note) };
      lo = mid + 1;
    }
  }
  if (fit) return fit;
  return smallest && { ...smallest, note: missed(target, smallest.note) };
}

export const compress = defineTool({
  id: 'compress',
  inputsOf: (p) => [{ fileId: p.file_id, password: p.password || p.passwd }],
  async run(ctx, p) {
    const input = ctx.inputs[0]!;
    // What the user sent is the size to beat and what comes back unchanged, not a repaired copy
    // (a repair at upload can make the stored copy larger, or other bytes of about its size).
    const original = input.asUploaded && (await sizeOf(input.asUploaded).catch(() => null)) !== null ? input.asUploaded : input.path;
    const inputSize = await sizeOf(original);
    // Decrypted, its page tree sound and repacked: a candidate of its own, and the clean source
    // the other two read. A repack keeps a damaged tree (a /Count that disagrees with the pages),
    // so such a tree is rebuilt first.
    let source = { file: input.path, password: input.password };
    if ((await declaredPageCount(input.path, input.password, ctx.limits)) !== input.pages) {
      source = { file: path.join(ctx.workDir, 'source.pdf'), password: undefined };
      await decryptedCopy({ file: input.path, password: input.password }, input.pages, source.file, ctx.limits);
    }
    const lossless = path.join(ctx.workDir, 'lossless.pdf');
    await optimizePdf(source, input.pages, lossless, ctx.limits, span(ctx.progress, 0, 10));
    const candidates: Candidate[] = [{ file: lossless, engine: 'qpdf', note: { key: 'note.compress.lossless' }, lossless: true }];
    const limits = rewriteLimits(ctx, inputSize);
    for (const c of await bothRewrites(ctx, lossless, p.level, limits)) if (c) candidates.push(c);
    const sized = await Promise.all(candidates.map(withSize));
    sized.sort((a, b) => a.size - b.size);
    ctx.progress(88);
    const faithful = faithfulness(ctx, lossless);
    let best: Sized | null = null;
    for (const c of sized) {
      if (c.size >= inputSize) {
        dropped(ctx, c.engine, `it is no smaller than the upload (${c.size} >= ${inputSize} bytes)`);
        continue;
      }
      const lost = await faithful(c, compressLevels[p.level]);
      if (!lost) {
        best = c;
        break;
      }
      dropped(ctx, c.engine, lost);
    }
    if (p.target_size && (best?.size ?? inputSize) > p.target_size) {
      const further = await towardsTarget(ctx, lossless, p.level, p.target_size, limits, faithful);
      if (further && further.size < (best?.size ?? inputSize)) best = further;
      else if (best) best = { ...best, note: missed(p.target_size, best.note) };
    }
    if (best) return [{ path: best.file, name: outputName(input.name, 'compressed'), inputSize, note: best.note }];
    // Storage takes the output file away, so the untouched input goes out as a copy.
    const copy = path.join(ctx.workDir, 'original.pdf');
    await fs.copyFile(original, copy);
    return [{ path: copy, name: input.name, inputSize, unchanged: true }];
  },
});
