// Ghostscript's pdfwrite: rewrites a PDF with its images downsampled and recompressed and its fonts
// subset. It rebuilds the whole document, so what it may drop (form fields, outlines, attachments)
// is the caller's to check; see engines/fingerprint.ts. Every call is bounded by runEngine.
import fs from 'node:fs/promises';
import { optionalStep } from './optional.js';
import type { EngineLimits } from './qpdf.js';
import { boundFor, runEngine } from './run.js';

export interface PdfwriteSettings {
  /** Colour and grey images above this resolution are downsampled (bicubic) to it. */
  imageDpi: number;
  /** One-bit images (scans of text) likewise; they are cheap, so this stays high. */
  monoDpi: number;
  /** JPEG quantisation of recompressed images: larger is smaller and coarser (/ebook uses 0.76). */
  jpegQFactor: number;
  /** 2×2 chroma subsampling: much smaller JPEGs, at the cost of fine colour detail. */
  chromaSubsampling: boolean;
}

function imageArgs(s: PdfwriteSettings): string[] {
  const args: string[] = [];
  for (const kind of ['Color', 'Gray', 'Mono']) {
    const dpi = kind === 'Mono' ? s.monoDpi : s.imageDpi;
    // Threshold 1.0: anything above the target is brought down to it (the presets leave up to 1.5×).
    args.push(
      `-dDownsample${kind}Images=true`,
      `-d${kind}ImageDownsampleType=/Bicubic`,
      `-d${kind}ImageResolution=${dpi}`,
      `-d${kind}ImageDownsampleThreshold=1.0`,
    );
  }
  return args;
}

/** PostScript that sets the JPEG tables pdfwrite uses when it picks JPEG for an image (AutoFilter keeps Flate for flat art). */
function jpegTables(s: PdfwriteSettings): string {
  const n = s.chromaSubsampling ? 2 : 1;
  const dict = `<< /QFactor ${s.jpegQFactor} /Blend 1 /HSamples [${n} 1 1 ${n}] /VSamples [${n} 1 1 ${n}] >>`;
  return `<< /ColorACSImageDict ${dict} /GrayACSImageDict ${dict} >> setdistillerparams`;
}

/** What a pdfwrite run gave: the file written, or why there is none (for the log). */
export type Rewrite = { written: true } | { written: false; why: string };

/**
 * Writes `out` from `input` (an unencrypted PDF) with pdfwrite. Resolves written when `out` was
 * written whole; else why not, with nothing left behind (a run that crashed or was stopped
 * mid-write leaves a truncated file, which is removed): the caller then has one candidate fewer,
 * which is not an error. The task's deadline passing fails the task (3125).
 */
export async function pdfwrite(
  input: string,
  out: string,
  settings: PdfwriteSettings,
  pages: number,
  limits: EngineLimits,
  onProgress?: (percent: number) => void,
): Promise<Rewrite> {
  const args = [
    '-dSAFER',
    '-dNOPAUSE',
    '-dBATCH',
    '-sDEVICE=pdfwrite',
    '-dCompatibilityLevel=1.7',
    // Keep every page as it is turned; the default turns pages by the direction of their text.
    '-dAutoRotatePages=/None',
    // Keep annotations, including those not meant for printing (links, notes).
    '-dPreserveAnnots=true',
    '-dPrinted=false',
    '-dColorConversionStrategy=/LeaveColorUnchanged',
    '-dEmbedAllFonts=true',
    '-dSubsetFonts=true',
    '-dCompressFonts=true',
    '-dDetectDuplicateImages=true',
    // Re-encode JPEGs too, at the level's quality: passed through, a fine JPEG below the target resolution stays as large as it was.
    '-dPassThroughJPEGImages=false',
    ...imageArgs(settings),
    // "%" in OutputFile names a page-number format; a literal one is doubled.
    `-sOutputFile=${out.replaceAll('%', '%%')}`,
    '-c',
    jpegTables(settings),
    '-f',
    input,
  ];
  // Without -q Ghostscript prints "Page N" as it finishes each page.
  const onLine = onProgress
    ? (line: string) => {
        const m = line.match(/^Page (\d+)$/);
        if (m) onProgress(Math.min(100, (Number(m[1]) / Math.max(1, pages)) * 100));
      }
    : undefined;
  const bound = boundFor('rewrite', limits, pages);
  let made: Rewrite = { written: false, why: `Ghostscript ran out of its ${bound.timeoutMs / 1000} s time limit` };
  try {
    made = await optionalStep(
      limits,
      async (): Promise<Rewrite> => {
        const res = await runEngine('gs', args, { ...bound, onLine });
        if (res.signal)
          return { written: false, why: `Ghostscript ended on ${res.signal} (a crash, or its ${bound.memoryMb} MB memory bound)` };
        if (res.exitCode !== 0)
          return { written: false, why: `Ghostscript exited with ${res.exitCode}: ${lastLine(res.stderr || res.stdout)}` };
        if (!((await fs.stat(out).catch(() => null))?.size ?? 0)) return { written: false, why: 'Ghostscript wrote nothing' };
        return { written: true };
      },
      made,
    );
    return made;
  } finally {
    if (!made.written) await fs.rm(out, { force: true });
  }
}

const lastLine = (text: string) => text.trim().split('\n').at(-1)?.trim() ?? '';
