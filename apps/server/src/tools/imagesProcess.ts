// The image tools: compress, crop, convert, resize or rotate one image (engines/sharp.ts). Every
// action but convert keeps the image's format. Compress never returns a larger file: when nothing
// can be gained, the input itself, marked unchanged.
import fs from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, IMAGE_MAX_PIXELS, QuireError, type ImageOutputFormat, type ToolParams } from '@quire/contracts';
import type { ImageJob } from '../engines/imageJobs.js';
import { runImageJob } from '../engines/sharp.js';
import { detectFileType, extensionOf, processableImageTypes } from '../engines/fileTypes.js';
import { defineTool, outputName, singleInput } from './tool.js';

type InputFormat = ImageJob['inputFormat'];

/** The format each input is written in when the action keeps it, and the extensions it goes by. */
const ownFormat: Record<InputFormat, { format: ImageOutputFormat; extensions: string[] }> = {
  jpeg: { format: 'jpg', extensions: ['jpg', 'jpeg', 'jpe'] },
  png: { format: 'png', extensions: ['png'] },
  gif: { format: 'gif', extensions: ['gif'] },
  bmp: { format: 'bmp', extensions: ['bmp'] },
  tiff: { format: 'tiff', extensions: ['tif', 'tiff'] },
  webp: { format: 'webp', extensions: ['webp'] },
};

const suffixes: Record<Exclude<ToolParams<'images_process'>['action'], 'convert'>, string> = {
  compress: 'compressed',
  crop: 'cropped',
  resize: 'resized',
  rotate: 'rotated',
};

export const imagesProcess = defineTool({
  id: 'images_process',
  accepts: processableImageTypes,
  inputsOf: singleInput,
  async run(ctx, p) {
    const input = ctx.inputs[0]!;
    const type = await detectFileType(input.path, input.name);
    if (!type || !(type in ownFormat)) throw new QuireError(ErrorCode.WrongType);
    const inputFormat = type as InputFormat;
    const own = ownFormat[inputFormat];
    const format = p.action === 'convert' ? p.format : own.format;
    // The input's own extension when the format is kept ("photo.JPEG" stays .JPEG).
    const inputExt = path.extname(input.name).slice(1);
    const ext = p.action !== 'convert' && own.extensions.includes(extensionOf(input.name)) ? inputExt : format;
    const output = path.join(ctx.workDir, `image.${format}`);
    ctx.progress(5);
    await runImageJob({ input: input.path, inputFormat, output, format, params: p, maxPixels: IMAGE_MAX_PIXELS }, ctx.workDir, ctx.limits);
    ctx.progress(95);
    if (p.action === 'convert') return [{ path: output, name: `${path.basename(input.name, path.extname(input.name)) || 'image'}.${ext}` }];
    const name = outputName(input.name, suffixes[p.action], `.${ext}`);
    if (p.action !== 'compress') return [{ path: output, name }];
    const inputSize = (await fs.stat(input.path)).size;
    if ((await fs.stat(output)).size < inputSize) return [{ path: output, name, inputSize }];
    // Storage takes the output file away, so the untouched input goes out as a copy.
    await fs.copyFile(input.path, output);
    return [{ path: output, name: input.name, inputSize, unchanged: true }];
  },
});
