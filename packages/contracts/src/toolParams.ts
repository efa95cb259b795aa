// Each tool's parameters, checked by the server where a call comes in. Apart from the registry's
// data (tools.ts) so that the pages which only list tools do not build these schemas.
import { z } from 'zod';
import { defaultImageLayout, PDF_IMAGE_DPI, pdfDocumentFormats, pdfImageFormats } from './conversions.js';
import { parsePageRanges } from './pageRanges.js';
import {
  defaultIcoSize,
  defaultImageOutputFormat,
  icoSizes,
  IMAGE_MARGIN_MAX,
  IMAGE_RESIZE_PERCENT,
  imageOutputFormats,
} from './imageTools.js';
import { editRequest } from './editor.js';
import { translateFileRequest } from './aiLanguage.js';
import { digitalSignature, signImages, signPlacement } from './sign.js';
import { MAX_SIGN_PLACEMENTS } from './signLimits.js';
import { converterOcrOptions, DEFAULT_OCR_LANGUAGE, ocrLanguagesParam, ocrOutputFormats } from './ocr.js';

export const protectPasswordMessage = 'The password must contain between 6 and 20 characters.';

const fileId = z.string().min(1).max(64).describe('An uploaded file id');
const passwd = z.string().max(128).optional().describe("The file's current password, if it has one");
const multiId = z.string().min(1).max(64).optional().describe('Groups several tasks for one bulk download');
const rangeList = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .describe('Pages like "1, 6-159, 59-100" (checked against the page count when the task is made)');

/** A range list is checked for shape here and against the page count on the server. */
export const rangeShape = rangeList.refine((s) => parsePageRanges(s, Number.MAX_SAFE_INTEGER).ok, {
  message: 'Please input something like: 1, 6-159, or 59-100',
});

export const toolParams = {
  merge: z.object({
    file_ids: z.array(fileId).min(2).max(200).describe('Files in the order to merge them'),
    passwds: z.array(z.string().max(128)).optional().describe('Passwords matching file_ids by position'),
    multi_id: multiId,
  }),
  split: z
    .object({
      file_id: fileId,
      passwd,
      multi_id: multiId,
      mode: z.enum(['custom', 'fixed']),
      ranges: rangeShape.optional().describe('custom mode: each range becomes one PDF'),
      every: z.number().int().min(1).max(10000).optional().describe('fixed mode: pages per PDF'),
    })
    .refine((p) => (p.mode === 'custom' ? !!p.ranges : !!p.every), {
      message: 'custom mode needs ranges, fixed mode needs every',
    }),
  extract_page: z.object({ file_id: fileId, passwd, multi_id: multiId, pages: rangeShape }),
  delete_page: z.object({ file_id: fileId, passwd, multi_id: multiId, pages: rangeShape }),
  rearrange: z.object({
    file_id: fileId,
    passwd,
    multi_id: multiId,
    order: z.array(z.number().int().min(1)).min(1).max(10000).describe('The new order of original page numbers'),
  }),
  rotate: z.object({
    file_id: fileId,
    passwd,
    multi_id: multiId,
    angle: z.union([z.literal(90), z.literal(180), z.literal(270)]),
    pages: z.union([z.literal('all'), rangeShape]).default('all'),
  }),
  compress: z.object({
    file_id: fileId,
    // The spec names the current password `password` here; `passwd`, as every other tool names it, is taken too.
    password: passwd,
    passwd,
    multi_id: multiId,
    level: z.enum(['high', 'medium', 'low']).default('medium').describe('high: smallest file; low: best quality'),
    target_size: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe("Largest output wanted, in bytes: images go below the level's resolution and quality until it fits, or as far as they may"),
  }),
  encrypt: z.object({
    file_id: fileId,
    passwd,
    multi_id: multiId,
    password: z
      .string()
      .min(6, { message: protectPasswordMessage })
      .max(20, { message: protectPasswordMessage })
      .describe('The new password (6 to 20 characters)'),
  }),
  decode: z.object({ file_id: fileId, passwd, multi_id: multiId }),
  cut: z.object({
    file_id: fileId,
    passwd,
    multi_id: multiId,
    margins: z
      .object({
        top: z.number().min(0).max(5000),
        right: z.number().min(0).max(5000),
        bottom: z.number().min(0).max(5000),
        left: z.number().min(0).max(5000),
      })
      .describe('Millimetres to cut from each side (72 points per inch, 25.4 mm per inch)'),
    pages: z.union([z.literal('all'), rangeShape]).default('all'),
  }),
  redaction: z
    .object({
      file_id: fileId,
      passwd,
      multi_id: multiId,
      areas: z
        .array(
          z.object({
            page: z.number().int().min(1),
            x: z.number(),
            y: z.number(),
            width: z.number().positive(),
            height: z.number().positive(),
          }),
        )
        .max(10000)
        .default([])
        .describe('Rectangles in PDF points, origin at the bottom left of the page as shown'),
      texts: z
        .array(z.object({ text: z.string().min(1).max(1000), regex: z.boolean().optional() }))
        .max(100)
        .default([])
        .describe('Words, phrases or regular expressions whose every occurrence is removed'),
    })
    .refine((p) => p.areas.length + p.texts.length > 0, { message: 'Mark at least one area or text to redact.' }),
  replacetext: z.object({
    file_id: fileId,
    passwd,
    multi_id: multiId,
    search: z.string().min(1).max(1000),
    replace: z.string().max(1000),
  }),
  // Signatures, names and dates written into the pages; with `digital`, a PAdES signature too.
  sign: z
    .object({
      file_id: fileId,
      passwd,
      multi_id: multiId,
      placements: z.array(signPlacement).min(1).max(MAX_SIGN_PLACEMENTS),
      images: signImages.optional(),
      digital: digitalSignature.optional(),
    })
    .refine((p) => !p.digital || p.placements[p.digital.appearance]?.kind === 'image', {
      message: "The digital signature's appearance must be one of the image placements.",
    })
    .refine((p) => p.placements.every((pl) => pl.signature_id || !pl.image_ref || p.images?.[pl.image_ref]), {
      message: 'An image_ref names no image of images.',
    }),
  // A GET: the query carries these.
  convert: z.object({
    file_id: fileId,
    passwd,
    multi_id: multiId,
    output_format: z
      .enum(['pdf', ...pdfImageFormats, 'pptx', 'dxf', ...pdfDocumentFormats])
      .default('pdf')
      .describe(
        'The format to convert to: pdf from documents and images; jpg, png, bmp, tiff or gif (one image per page) from a PDF; docx, xlsx, html, rtf, txt, epub or pages (Apple Pages) from a PDF; pptx (one slide per page) or dxf (vector paths and text) from a PDF',
      ),
    dpi: z.coerce
      .number()
      .int()
      .min(PDF_IMAGE_DPI.min)
      .max(PDF_IMAGE_DPI.max)
      .optional()
      .describe(`Resolution of the images made from a PDF, dots per inch (${PDF_IMAGE_DPI.default} unless given)`),
    ...converterOcrOptions,
  }),
  extract_images: z.object({ file_id: fileId, passwd, multi_id: multiId }),
  // OCR of a scanned PDF, or of images merged into one first (the two-stage image flow).
  ocr: z.object({
    file_ids: z.array(fileId).min(1).max(200).describe('One PDF, or images in the order of their pages'),
    passwd,
    multi_id: multiId,
    languages: ocrLanguagesParam.default(DEFAULT_OCR_LANGUAGE),
    force_ocr: z.boolean().default(false).describe('Recognise pages that already have text too (their text is replaced)'),
    deskew: z
      .boolean()
      .default(false)
      .describe('Straighten skewed pages (their images are re-encoded); otherwise every page keeps its image as it was'),
    output_format: z
      .enum(ocrOutputFormats)
      .default('pdf')
      .describe('pdf: the searchable PDF; txt: its text, in reading order; docx, xlsx: a document made from it'),
  }),
  images_merge_pdf: z.object({
    file_ids: z.array(fileId).min(1).max(200).describe('Images in the order of their pages'),
    multi_id: multiId,
    page_size: z.enum(['a4', 'letter', 'fit']).default(defaultImageLayout.page_size).describe('fit: each page the size of its image'),
    orientation: z
      .enum(['portrait', 'landscape', 'auto'])
      .default(defaultImageLayout.orientation)
      .describe('auto: each page turned to match its image'),
    margin: z.enum(['none', 'small', 'large']).default(defaultImageLayout.margin).describe('small: 7 mm, large: 15 mm around each image'),
  }),
  // The PDF editor's save (document/content, declared in routes/editor.ts: its page is the editor, not a tool page).
  edit: editRequest,
  // The AI translator's PDF: every line translated in its place (/api/ai/v2/translate/file).
  translate_pdf: translateFileRequest,
  // One image in, one image out; the action decides which options the call carries.
  images_process: z.discriminatedUnion('action', [
    z.object({
      file_id: fileId,
      multi_id: multiId,
      action: z.literal('compress'),
      level: z
        .enum(['high', 'medium', 'low'])
        .default('medium')
        .describe('high: smallest file; low: best quality. The image keeps its format'),
    }),
    z.object({
      file_id: fileId,
      multi_id: multiId,
      action: z.literal('crop'),
      margins: z
        .object({
          top: z.number().int().min(0).max(IMAGE_MARGIN_MAX),
          right: z.number().int().min(0).max(IMAGE_MARGIN_MAX),
          bottom: z.number().int().min(0).max(IMAGE_MARGIN_MAX),
          left: z.number().int().min(0).max(IMAGE_MARGIN_MAX),
        })
        .describe('Pixels to cut from each side of the image as it is seen'),
    }),
    z.object({
      file_id: fileId,
      multi_id: multiId,
      action: z.literal('convert'),
      format: z.enum(imageOutputFormats).default(defaultImageOutputFormat).describe('The format to write'),
      ico_size: z
        .literal([...icoSizes])
        .default(defaultIcoSize)
        .describe('Width and height of an ICO, in pixels (the image is fitted inside, its aspect kept)'),
    }),
    z.object({
      file_id: fileId,
      multi_id: multiId,
      action: z.literal('resize'),
      percent: z
        .number()
        .int()
        .min(IMAGE_RESIZE_PERCENT.min)
        .max(IMAGE_RESIZE_PERCENT.max)
        .describe('One percentage for both width and height'),
    }),
    z.object({
      file_id: fileId,
      multi_id: multiId,
      action: z.literal('rotate'),
      angle: z.union([z.literal(90), z.literal(180), z.literal(270)]).describe('Degrees clockwise'),
    }),
  ]),
} as const;

export type ToolId = keyof typeof toolParams;
export type ToolParams<T extends ToolId> = z.infer<(typeof toolParams)[T]>;
