// Which uploads a tool takes: checked when a task is made, before anything runs on them.
import { ErrorCode, IMAGE_MAX_BYTES, IMAGE_MAX_PIXELS, imageTooLargeMessage, QuireError, tooManyPixelsMessage } from '@quire/contracts';
import type { AppContext } from '../context.js';
import type { FileTable } from '../db/schema.js';
import { detectFileType, processableImageTypes, type FileType } from '../engines/fileTypes.js';
import { largestFrame, readImageHeader } from '../engines/imageHeader.js';

/** The catalogue's refusal for a tool given a type it does not take. */
function refusalFor(accepts: readonly FileType[]): ErrorCode {
  if (accepts.includes('pdf')) return ErrorCode.NotPdf;
  return accepts.every((t) => processableImageTypes.includes(t)) ? ErrorCode.WrongType : ErrorCode.UnsupportedType;
}

/**
 * Before a task is queued: each input must be of a type the tool takes, and an image within the
 * spec's 20 MB and a pixel count a decoder can hold (read from its header, nothing decoded).
 */
export async function checkInputTypes(ctx: AppContext, accepts: readonly FileType[], files: readonly FileTable[]): Promise<void> {
  for (const row of files) {
    const local = await ctx.storage.localPath(row.storage_key);
    const type = await detectFileType(local, row.name);
    if (!type || !accepts.includes(type)) throw new QuireError(refusalFor(accepts));
    if (!processableImageTypes.includes(type)) continue;
    if (row.size > IMAGE_MAX_BYTES) throw new QuireError(ErrorCode.TooLarge, imageTooLargeMessage);
    const header = await readImageHeader(local);
    if (header && largestFrame(header) > IMAGE_MAX_PIXELS) throw new QuireError(ErrorCode.TooLarge, tooManyPixelsMessage);
  }
}
