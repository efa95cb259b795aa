// The image tools' engine: sharp (libvips) in a child process. sharp.ts bundles it and starts it
// through runEngine, so untrusted images are decoded under a time limit and a memory bound, never
// in the server. It reads its job from the JSON file named on its command line and ends with one
// JSON line: the answer (imageJobs.ts). libvips reads no BMP: MuPDF decodes those to pixels.
//
// Images are turned upright by their EXIF orientation first; crop margins and sizes are those of
// the image as seen. An animated GIF or WebP stays animated when written as GIF or WebP; written
// in another format, it keeps its first frame (so does a TIFF with several pages).
import fs from 'node:fs';
import type { Pixmap } from 'mupdf';
import sharp, { type Sharp } from 'sharp';
import { ErrorCode, errorMessages } from '@quire/contracts/errors';
import { croppedSize, defaultIcoSize, resizedSize, tooManyPixelsMessage } from '@quire/contracts/imageTools';
import { ppmToBmp } from './bmp.js';
import { icoFromPng } from './ico.js';
import { outOfMemoryMessage, type ImageAnswer, type ImageCheckJob, type ImageJob, type SignatureImageJob } from './imageJobs.js';
import { packedPixels } from './pixmapPixels.js';
import { failureAnswer, JobFailure } from './jobFailure.js';

const tooManyPixels = () => new JobFailure(ErrorCode.TooLarge, tooManyPixelsMessage);

// Encoder settings per compress level (high: smallest file, low: best quality), and `none` for the
// other actions: a good-quality file that does not try to be small at the cost of detail.
const jpegQuality = { high: 55, medium: 70, low: 85, none: 90 };
const webpQuality = { high: 50, medium: 70, low: 85, none: 90 };
const gifColours = { high: 64, medium: 128, low: 256, none: 256 };

/** `animation`: the loop count and frame delays an animated GIF or WebP keeps. */
function encode(img: Sharp, job: ImageJob, alpha: boolean, animation: { loop?: number; delay?: number[] }): Sharp {
  const level = job.params.action === 'compress' ? job.params.level : 'none';
  switch (job.format) {
    case 'jpg':
      return img.flatten({ background: '#ffffff' }).jpeg({ quality: jpegQuality[level], mozjpeg: true });
    case 'webp':
      return img.webp({ quality: webpQuality[level], alphaQuality: 100, effort: 6, ...animation });
    case 'gif':
      // Compressing chooses a palette afresh; otherwise an image's own palette is kept.
      return img.gif({ colours: gifColours[level], effort: 10, dither: level === 'high' ? 0.5 : 1, reuse: level === 'none', ...animation });
    case 'png':
      // high and medium quantise to a palette (as pngquant does); low and the other actions stay lossless.
      if (level === 'high' || level === 'medium')
        return img.png({
          palette: true,
          quality: level === 'high' ? 60 : 80,
          colours: level === 'high' ? 128 : 256,
          effort: 10,
          compressionLevel: 9,
        });
      return img.png({ compressionLevel: 9, adaptiveFiltering: true });
    case 'tiff':
      // JPEG inside TIFF holds no alpha: a transparent image stays lossless.
      if ((level === 'high' || level === 'medium') && !alpha) return img.tiff({ compression: 'jpeg', quality: jpegQuality[level] });
      return img.tiff({ compression: 'deflate', predictor: 'horizontal' });
    case 'bmp':
    case 'ico':
      throw new Error(`${job.format} is written by the worker itself`);
  }
}

type RawPixels = { data: Buffer; raw: { width: number; height: number; channels: 1 | 2 | 3 | 4 } };
let bmpPixels: RawPixels | undefined;

/** The input, decoded lazily by libvips, or (BMP, once) by MuPDF into raw pixels. */
async function open(job: ImageJob | ImageCheckJob, options: sharp.SharpOptions = {}): Promise<Sharp> {
  if (job.inputFormat !== 'bmp') return sharp(job.input, { limitInputPixels: job.maxPixels, ...options });
  bmpPixels ??= await decodeBmp(job);
  return sharp(bmpPixels.data, { raw: bmpPixels.raw });
}

async function decodeBmp(job: ImageJob | ImageCheckJob): Promise<RawPixels> {
  const mupdf = await import('mupdf');
  let pixmap: Pixmap;
  try {
    pixmap = new mupdf.Image(fs.readFileSync(job.input)).toPixmap();
  } catch {
    throw new JobFailure(ErrorCode.Unreadable, errorMessages[ErrorCode.Unreadable]);
  }
  if (pixmap.getWidth() * pixmap.getHeight() > job.maxPixels) throw tooManyPixels();
  if (pixmap.getColorSpace()?.isRGB() !== true && pixmap.getColorSpace()?.isGray() !== true)
    pixmap = pixmap.convertToColorSpace(mupdf.ColorSpace.DeviceRGB, true);
  const [width, height, channels] = [pixmap.getWidth(), pixmap.getHeight(), pixmap.getNumberOfComponents()];
  return { data: packedPixels(pixmap), raw: { width, height, channels: channels as RawPixels['raw']['channels'] } };
}

/** A thumbnail reads every row of the image, so a damaged one fails; a JPEG shrinks while it decodes, so it stays cheap. */
async function check(job: ImageCheckJob): Promise<ImageAnswer> {
  await (await open(job)).resize(64, 64, { fit: 'inside' }).raw().toBuffer();
  return { ok: true };
}

/** A PNG or SVG signature, bounded in pixels before it is decoded, rewritten as a plain PNG. */
async function signatureImage(job: SignatureImageJob): Promise<ImageAnswer> {
  const img = sharp(job.input, { limitInputPixels: job.maxSide * job.maxSide });
  const meta = await img.metadata().catch(() => null);
  if (!meta || (meta.format !== 'png' && meta.format !== 'svg')) throw new JobFailure(ErrorCode.BadSignatureImage, job.notAnImageMessage);
  if ((meta.width ?? 0) > job.maxSide || (meta.height ?? 0) > job.maxSide)
    throw new JobFailure(ErrorCode.BadSignatureImage, job.tooLargeMessage);
  await img.png().toFile(job.output);
  return { ok: true };
}

async function run(job: ImageJob): Promise<ImageAnswer> {
  const meta = await (await open(job)).metadata();
  const animated = (meta.pages ?? 1) > 1 && (job.format === 'gif' || job.format === 'webp') && job.inputFormat !== 'tiff';
  const frames = animated ? meta.pages! : 1;
  // Of the first frame as seen: EXIF orientations 5–8 swap width and height.
  const [width, height] = (meta.orientation ?? 1) >= 5 ? [meta.height!, meta.width!] : [meta.width!, meta.height!];
  const p = job.params;

  let img: Sharp;
  if (p.action === 'rotate' && animated) {
    // libvips turns no animation as a whole: each frame is turned and the frames joined again.
    const turned: Buffer[] = [];
    for (let page = 0; page < frames; page++)
      turned.push(await (await open(job, { page })).rotate(p.angle).png({ compressionLevel: 1 }).toBuffer());
    img = sharp(turned, { join: { animated: true }, limitInputPixels: job.maxPixels });
  } else {
    img = (await open(job, { animated })).autoOrient();
  }

  if (p.action === 'crop') {
    const size = croppedSize(width, height, p.margins);
    if (!size) throw new JobFailure(ErrorCode.InvalidParams, { key: 'error.crop.nothingOfImage', params: { width, height } });
    img = img.extract({ left: p.margins.left, top: p.margins.top, width: size[0], height: size[1] });
  } else if (p.action === 'resize') {
    const [w, h] = resizedSize(width, height, p.percent);
    if (w * h * frames > job.maxPixels) {
      throw new JobFailure(ErrorCode.InvalidParams, { key: 'error.limit.resize', params: { width: w, height: h } });
    }
    img = img.resize(w, h, { fit: 'fill' });
  } else if (p.action === 'rotate' && !animated) {
    img = img.rotate(p.angle);
  }

  const alpha = meta.hasAlpha === true;
  if (job.format === 'ico') {
    // The image fitted inside the square, its aspect kept, the rest transparent.
    const size = p.action === 'convert' ? p.ico_size : defaultIcoSize;
    const png = await img
      .resize(size, size, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .ensureAlpha()
      .png()
      .toBuffer();
    fs.writeFileSync(job.output, icoFromPng(png, size));
    return { ok: true };
  }
  if (job.format === 'bmp') {
    // 24-bit BMP (engines/bmp.ts, from a PPM): transparency laid over white.
    const { data, info } = await img
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const ppm = `${job.output}.ppm`;
    fs.writeFileSync(ppm, Buffer.concat([Buffer.from(`P6\n${info.width} ${info.height}\n255\n`, 'latin1'), data]));
    try {
      await ppmToBmp(ppm, job.output);
    } finally {
      fs.rmSync(ppm, { force: true });
    }
    return { ok: true };
  }
  const animation = animated ? { loop: meta.loop ?? 0, ...(meta.delay && { delay: meta.delay }) } : {};
  await encode(img, job, alpha, animation).toFile(job.output);
  return { ok: true };
}

const answer = (a: ImageAnswer) => process.stdout.write(`${JSON.stringify(a)}\n`);

const job = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as ImageJob | ImageCheckJob | SignatureImageJob;
sharp.cache(false);
try {
  answer('signature' in job ? await signatureImage(job) : 'check' in job ? await check(job) : await run(job));
} catch (e) {
  if ('output' in job) fs.rmSync(job.output, { force: true });
  // libvips' own words go to the log; the user gets the catalogue's.
  if (!(e instanceof JobFailure)) process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  const failure =
    e instanceof JobFailure
      ? e
      : /pixel limit/i.test(String(e))
        ? tooManyPixels()
        : /out of memory/i.test(String(e))
          ? new JobFailure(ErrorCode.TaskFailed, outOfMemoryMessage)
          : new JobFailure(ErrorCode.Unreadable, errorMessages[ErrorCode.Unreadable]);
  answer(failureAnswer(failure));
}
