// Signatures: an account's saved signature images, the sign call's placements made ready for its
// task (saved signatures by id turned into images of the call), the date a date field shows, and
// how many signatures an account applied.
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  ErrorCode,
  formatSignDate,
  MAX_SAVED_SIGNATURES,
  MAX_SIGN_IMAGES,
  MAX_SIGNATURE_BYTES,
  QuireError,
  type SavedSignature,
  type SaveSignatureRequest,
  signDateFormats,
  signDateLanguage,
  signMessages,
  type ToolParams,
} from '@quire/contracts';
import type { AppContext } from '../context.js';
import {
  countSignatures,
  deleteOwnedSignature,
  findOwnedSignature,
  insertSignature,
  signaturesOf,
  signCountsOf,
} from '../db/signaturesRepo.js';
import type { SignatureTable } from '../db/schema.js';
import { signaturePng } from '../engines/sharp.js';
import { newId } from '../ids.js';

const PNG_DATA_URL = 'data:image/png;base64,';

const presented = (row: SignatureTable): SavedSignature => ({
  id: row.id,
  kind: row.kind,
  image: PNG_DATA_URL + row.png,
  width: row.width,
  height: row.height,
  created_at: row.created_at,
});

export async function listSignatures(ctx: AppContext, accountId: string) {
  return { signatures: (await signaturesOf(ctx.db, accountId)).map(presented) };
}

/** The image of a data URL as a checked PNG (4212 for anything but a PNG or SVG within the bounds). */
async function checkedPng(ctx: AppContext, dataUrl: string): Promise<Buffer> {
  const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
  if (bytes.length > MAX_SIGNATURE_BYTES) throw new QuireError(ErrorCode.BadSignatureImage, signMessages.imageTooLarge);
  const dir = await fs.mkdtemp(path.join(ctx.scratchDir, 'signature-'));
  try {
    const source = path.join(dir, 'source');
    const png = path.join(dir, 'signature.png');
    await fs.writeFile(source, bytes);
    await signaturePng(source, png, dir, ctx.toolLimits);
    return await fs.readFile(png);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

export async function saveSignature(ctx: AppContext, accountId: string, request: SaveSignatureRequest): Promise<SavedSignature> {
  if ((await countSignatures(ctx.db, accountId)) >= MAX_SAVED_SIGNATURES) throw new QuireError(ErrorCode.TooManySignatures);
  await fs.mkdir(ctx.scratchDir, { recursive: true });
  const png = await checkedPng(ctx, request.image);
  // A PNG's IHDR: width and height as big-endian 32-bit numbers at bytes 16 and 20.
  const row: SignatureTable = {
    id: newId(),
    account_id: accountId,
    kind: request.kind,
    png: png.toString('base64'),
    width: png.readUInt32BE(16),
    height: png.readUInt32BE(20),
    created_at: Date.now(),
  };
  // Counted again after the image was checked: two saves at once must not pass the limit together.
  if ((await countSignatures(ctx.db, accountId)) >= MAX_SAVED_SIGNATURES) throw new QuireError(ErrorCode.TooManySignatures);
  await insertSignature(ctx.db, row);
  return presented(row);
}

export async function deleteSignature(ctx: AppContext, accountId: string, id: string): Promise<void> {
  if (!(await deleteOwnedSignature(ctx.db, accountId, id))) throw new QuireError(ErrorCode.NoData);
}

/**
 * The sign call's parameters as its task takes them: every image once in `images`, each image
 * placement naming its image by image_ref. A saved signature must be the caller's (2405 otherwise,
 * a visitor's too: a visitor has none).
 */
export async function signTaskParams(ctx: AppContext, ownerId: string, params: ToolParams<'sign'>): Promise<ToolParams<'sign'>> {
  const images: Record<string, string> = { ...params.images };
  const keyOfInline = new Map<string, string>();
  const placements: ToolParams<'sign'>['placements'] = [];
  for (const { signature_id, image, image_ref, ...placement } of params.placements) {
    if (signature_id) {
      const key = `saved-${signature_id}`;
      if (!images[key]) {
        const saved = await findOwnedSignature(ctx.db, ownerId, signature_id);
        if (!saved) throw new QuireError(ErrorCode.NoData);
        images[key] = PNG_DATA_URL + saved.png;
      }
      placements.push({ ...placement, image_ref: key });
    } else if (image_ref) placements.push({ ...placement, image_ref });
    else if (image) {
      let key = keyOfInline.get(image);
      if (!key) {
        key = `inline-${keyOfInline.size + 1}`;
        keyOfInline.set(image, key);
        images[key] = image;
      }
      placements.push({ ...placement, image_ref: key });
    } else placements.push(placement);
  }
  if (Object.keys(images).length > MAX_SIGN_IMAGES) throw new QuireError(ErrorCode.InvalidParams, signMessages.tooManyImages);
  return { ...params, placements, images };
}

/** Today's date for a language, on the user's clock (minutes east of UTC). */
export function signDate(query: { lang?: string | undefined; tz_offset?: number | undefined }, now = Date.now()) {
  const format = signDateFormats[signDateLanguage(query.lang)];
  const local = new Date(now + (query.tz_offset ?? 0) * 60_000);
  return {
    date: formatSignDate({ year: local.getUTCFullYear(), month: local.getUTCMonth() + 1, day: local.getUTCDate() }, format),
    format,
  };
}

export async function signTimes(ctx: AppContext, accountId: string) {
  const { tasks, marks } = await signCountsOf(ctx.db, accountId);
  return { sign_times: tasks, signatures: marks };
}
