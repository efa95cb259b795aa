// Signing a PDF: saved signatures of an account (file/sign), the signing tool's placements and its
// digital signature (document/content/{file_id}/sign), the date a date field shows (query-sign-date)
// and how many signatures an account applied (sign-times). Calls under /api/tools/v1/.
import { z } from 'zod';
import { MAX_P12_BYTES, MAX_SIGN_IMAGES, MAX_SIGNATURE_BYTES, signMessages } from './signLimits.js';
import { siteLanguages, type SiteLocale } from './languages.js';

export * from './signLimits.js';

/** How a signature image was made: drawn with the pointer, typed in a handwriting font, or uploaded. */
export const signatureKinds = ['drawn', 'typed', 'uploaded'] as const;
export type SignatureKind = (typeof signatureKinds)[number];

/** A 1 × 1 transparent PNG: the documented example of an image field. */
const EXAMPLE_IMAGE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A PNG (or, when saving, an SVG) as a data URL: `data:image/png;base64,…`. */
export const signatureImage = z
  .string()
  .max(Math.ceil((MAX_SIGNATURE_BYTES * 4) / 3) + 64, { message: signMessages.imageTooLarge })
  .regex(/^data:image\/(png|svg\+xml);base64,[A-Za-z0-9+/]+=*$/, { message: signMessages.notAnImage })
  .describe('A data URL: data:image/png;base64,… or data:image/svg+xml;base64,… (an SVG is stored as a PNG)')
  .meta({ examples: [EXAMPLE_IMAGE] });

export const savedSignature = z.object({
  id: z.string(),
  kind: z.enum(signatureKinds),
  image: z.string().describe('The signature as a PNG data URL'),
  width: z.number().int().describe('Pixels'),
  height: z.number().int().describe('Pixels'),
  created_at: z.number().int().describe('Epoch ms'),
});
export type SavedSignature = z.infer<typeof savedSignature>;
export const savedSignatureList = z.object({ signatures: z.array(savedSignature).describe('Newest first') });
export const saveSignatureRequest = z.object({ kind: z.enum(signatureKinds), image: signatureImage });
export type SaveSignatureRequest = z.infer<typeof saveSignatureRequest>;
/** DELETE file/sign?id=… (also POST file/sign/delete with the same body, for clients without DELETE bodies). */
export const deleteSignatureRequest = z.object({ id: z.string().min(1).max(64) });

/** Fonts for typed text: handwriting-like ones for a typed signature, a plain sans for names and dates. */
export const signFonts = ['dancing-script', 'kaushan-script', 'sans'] as const;
export type SignFont = (typeof signFonts)[number];
export const DEFAULT_SIGN_FONT: SignFont = 'sans';

export const signPlacement = z
  .object({
    page: z.number().int().min(1).describe('1-based page number'),
    x: z.number().min(0).describe('PDF points from the left edge of the page as shown'),
    y: z.number().min(0).describe('PDF points from the TOP edge of the page as shown (origin top-left, y downwards)'),
    width: z.number().positive().max(20000).describe('PDF points'),
    height: z.number().positive().max(20000).describe('PDF points'),
    kind: z
      .enum(['image', 'text', 'date'])
      .describe('image: a signature image; text: typed text (a name); date: text too, usually from query-sign-date'),
    signature_id: z.string().min(1).max(64).optional().describe('kind image: a saved signature of the account'),
    image: signatureImage.optional().describe('kind image: a one-off PNG (or SVG) data URL instead of a saved signature'),
    image_ref: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe("kind image: a key of the call's `images`, one image sent once for many placements"),
    text: z.string().min(1).max(500).optional().describe('kind text or date: the text, written as real (selectable) text'),
    font: z.enum(signFonts).default(DEFAULT_SIGN_FONT).describe('kind text or date'),
    color: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/)
      .default('#000000')
      .describe('kind text or date: #rrggbb'),
  })
  // Where several are given, signature_id is taken before image_ref, and image_ref before image.
  .refine((p) => (p.kind === 'image' ? !!(p.signature_id || p.image_ref || p.image) : !!p.text), {
    message: 'An image placement needs signature_id, image_ref or image; a text or date placement needs text.',
  });
export type SignPlacement = z.infer<typeof signPlacement>;

/** One-off images by key, each sent once however many placements name it (image_ref). */
export const signImages = z
  .record(z.string().min(1).max(64), signatureImage)
  .refine((images) => Object.keys(images).length <= MAX_SIGN_IMAGES, {
    message: `At most ${MAX_SIGN_IMAGES} different images can be placed at once.`,
  });

/**
 * A digital signature (PAdES B-B, or B-T with `timestamp`): with a PKCS#12 the caller sends (base64, with its password in
 * the body) or, when `certificate` is `operator`, the server's own. Its visible appearance is the
 * placement at `appearance` (an image placement), whose rectangle becomes the signature field's.
 */
export const digitalSignature = z.object({
  certificate: z.enum(['uploaded', 'operator']).default('uploaded'),
  p12: z
    .string()
    .max(Math.ceil((MAX_P12_BYTES * 4) / 3) + 4)
    .regex(/^[A-Za-z0-9+/]+=*$/)
    .optional()
    .describe('certificate uploaded: the .p12/.pfx file, base64'),
  p12_password: z.string().max(256).optional().describe('certificate uploaded: its password (never logged)'),
  appearance: z.number().int().min(0).default(0).describe('Index in placements of the image that shows the signature'),
  timestamp: z
    .boolean()
    .default(false)
    .describe(
      "A trusted timestamp (PAdES B-T) from the server's timestamp authority (config: timestamp_authority); 4217 where it has none",
    ),
  reason: z.string().max(200).optional(),
  location: z.string().max(200).optional(),
  contact_info: z.string().max(200).optional(),
});
export type DigitalSignature = z.infer<typeof digitalSignature>;

/** The date a date field shows: pattern tokens yyyy, MM (2 digits), M, dd (2 digits), d. */
export const signDateFormats = Object.fromEntries(siteLanguages.map((l) => [l.locale, l.dateFormat])) as Record<SiteLocale, string>;
export type SignDateLanguage = SiteLocale;
export const DEFAULT_SIGN_DATE_LANGUAGE: SignDateLanguage = 'en-us';

/** A language tag (en, en-US, de_DE…) to one of the formats, by its language; English otherwise. */
export function signDateLanguage(tag: string | undefined): SignDateLanguage {
  const lower = (tag ?? '').toLowerCase().replace('_', '-');
  const languages = Object.keys(signDateFormats) as SignDateLanguage[];
  return languages.find((l) => l === lower) ?? languages.find((l) => l.split('-')[0] === lower.split('-')[0]) ?? DEFAULT_SIGN_DATE_LANGUAGE;
}

/** The date in a format of signDateFormats (from calendar fields, so no time zone enters). */
export function formatSignDate(date: { year: number; month: number; day: number }, pattern: string): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return pattern.replace(/yyyy|MM|M|dd|d/g, (token) =>
    token === 'yyyy'
      ? String(date.year)
      : token === 'MM'
        ? two(date.month)
        : token === 'M'
          ? String(date.month)
          : token === 'dd'
            ? two(date.day)
            : String(date.day),
  );
}

export const signDateQuery = z.object({
  lang: z.string().max(20).optional().describe('The user language (en-us, de-de, ja-jp…); English formats otherwise'),
  tz_offset: z.coerce
    .number()
    .int()
    .min(-840)
    .max(840)
    .optional()
    .describe("Minutes east of UTC of the user's clock (new Date().getTimezoneOffset() negated); UTC otherwise"),
});
export const signDateAnswer = z.object({
  date: z.string().describe("Today's date in the language's format"),
  format: z.string().describe('The pattern used, e.g. MM/dd/yyyy'),
});
export const signTimesAnswer = z.object({
  sign_times: z.number().int().describe('Signing tasks the account finished'),
  signatures: z.number().int().describe('Marks (placements) those tasks applied'),
});
