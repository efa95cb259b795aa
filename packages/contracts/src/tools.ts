// The tool registry's data, shared by the web app (routes, sidebar, upload rules) and the server
// (API paths, parameter validation). Each tool's behaviour lives in apps/server/src/tools/<id>.ts.
import { z } from 'zod';
import {
  defaultImageLayout,
  imageExtensions,
  imageProcessExtensions,
  PDF_IMAGE_DPI,
  pdfDocumentFormats,
  pdfImageFormats,
} from './conversions.js';
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

export interface ToolDefinition {
  id: ToolId;
  /** The product's name for the tool page (e.g. "cropPDF"). */
  pageId: string;
  /** Route slug under /app. */
  slug: string;
  /** Path of the call under /api/tools/v1/; `:name` segments are body fields carried in the path. */
  apiPath: string;
  /** Further paths answering the same call. */
  apiPathAliases?: string[];
  /** Accepted extensions, lower case, without the dot. */
  extFrom: string[];
  extTo: string;
  acceptFormat: string;
  isSingleUpload: boolean;
  minFiles: number;
  /** The API's call is a GET whose query carries the parameters (the converter); the same call as a POST with a JSON body is always offered. */
  apiMethod?: 'GET';
  /** False for pages reached by their slug only (marketing links), kept out of the sidebar and tool lists. */
  listed?: false;
}

const pdfIn = { extFrom: ['pdf'], extTo: 'pdf', acceptFormat: 'application/pdf' };

const wordExt = ['doc', 'docx', 'docm', 'dot', 'dotx', 'odt'];
const excelExt = ['xls', 'xlsx', 'xlsm', 'ods'];
const pptExt = ['ppt', 'pptx', 'pps', 'ppsx', 'odp'];
const otherDocExt = ['rtf', 'txt', 'html', 'htm', 'xhtml', 'epub', 'pages', 'key', 'numbers', 'pub', 'dxf'];
/** Documents are told apart by extension (many have no MIME type a browser knows). */
const accepting = (extFrom: readonly string[]) => ({ extFrom: [...extFrom], acceptFormat: '' });
const converter = {
  id: 'convert',
  apiPath: 'converter',
  apiMethod: 'GET',
  extTo: 'pdf',
  isSingleUpload: false,
  minFiles: 1,
} satisfies Partial<ToolDefinition>;
const pdfToImage = { extFrom: ['pdf'], acceptFormat: 'application/pdf' };
const imagesToPdf = {
  id: 'images_merge_pdf',
  apiPath: 'images_merge_pdf',
  extTo: 'pdf',
  extFrom: [...imageExtensions],
  acceptFormat: 'image/jpeg,image/png,image/bmp,image/gif,image/tiff',
  isSingleUpload: false,
  minFiles: 1,
} satisfies Partial<ToolDefinition>;
const imageMime = 'image/jpeg,image/png,image/bmp,image/gif,image/tiff';
const ocrTool = {
  id: 'ocr',
  apiPath: 'image/images-ocr-merge-pdf',
  apiPathAliases: ['image/images-ocr-converter', 'image_ocr'],
  extTo: 'pdf',
  isSingleUpload: false,
  minFiles: 1,
} satisfies Partial<ToolDefinition>;
/** extTo '' for the tools whose output keeps the image's own format. */
const imageTool = {
  id: 'images_process',
  apiPath: 'images_process',
  extTo: '',
  extFrom: [...imageProcessExtensions],
  acceptFormat: `${imageMime},image/webp`,
  isSingleUpload: false,
  minFiles: 1,
} satisfies Partial<ToolDefinition>;

export const toolDefinitions: readonly ToolDefinition[] = [
  { id: 'merge', pageId: 'mergePdf', slug: 'merge-pdf', apiPath: 'merge', ...pdfIn, isSingleUpload: false, minFiles: 2 },
  { id: 'split', pageId: 'splitPdf', slug: 'split-pdf', apiPath: 'split', ...pdfIn, isSingleUpload: true, minFiles: 1 },
  {
    id: 'extract_page',
    pageId: 'extractPages',
    slug: 'extract-pages',
    apiPath: 'extract_page',
    ...pdfIn,
    isSingleUpload: true,
    minFiles: 1,
  },
  {
    id: 'delete_page',
    pageId: 'deletePDFPages',
    slug: 'delete-pages',
    apiPath: 'delete_page',
    ...pdfIn,
    isSingleUpload: true,
    minFiles: 1,
  },
  {
    id: 'rearrange',
    pageId: 'rearrangePDFPages',
    slug: 'rearrange-pdf-pages',
    apiPath: 'rearrange',
    ...pdfIn,
    isSingleUpload: true,
    minFiles: 1,
  },
  {
    id: 'rotate',
    pageId: 'rotatePDF',
    slug: 'rotate-pdf',
    apiPath: 'document/rotate',
    ...pdfIn,
    isSingleUpload: true,
    minFiles: 1,
  },
  {
    id: 'compress',
    pageId: 'compressPdf',
    slug: 'compress-pdf',
    apiPath: 'compress',
    ...pdfIn,
    isSingleUpload: false,
    minFiles: 1,
  },
  {
    id: 'encrypt',
    pageId: 'protectPdf',
    slug: 'protect-pdf',
    apiPath: 'encrypt',
    ...pdfIn,
    isSingleUpload: true,
    minFiles: 1,
  },
  {
    id: 'decode',
    pageId: 'unlockPdf',
    slug: 'unlock-pdf',
    apiPath: 'decode',
    ...pdfIn,
    isSingleUpload: true,
    minFiles: 1,
  },
  { id: 'cut', pageId: 'cropPDF', slug: 'crop-pdf', apiPath: 'document/cut', ...pdfIn, isSingleUpload: true, minFiles: 1 },
  // The file id (and an optional password) travel in the path, as the API's call has them.
  {
    id: 'redaction',
    pageId: 'redactPDF',
    slug: 'redact-pdf',
    apiPath: 'document/redaction/:file_id/redaction',
    apiPathAliases: ['document/redaction/:file_id/redaction/:passwd'],
    ...pdfIn,
    isSingleUpload: true,
    minFiles: 1,
  },
  {
    id: 'replacetext',
    pageId: 'replaceText',
    slug: 'replace-text',
    apiPath: 'document/replacetext',
    ...pdfIn,
    isSingleUpload: true,
    minFiles: 1,
  },
  // The password travels in the body (passwd), never in the path.
  {
    id: 'sign',
    pageId: 'signPDF',
    slug: 'sign-pdf',
    apiPath: 'document/content/:file_id/sign',
    ...pdfIn,
    isSingleUpload: true,
    minFiles: 1,
  },
  // Conversions to PDF: one converter call serves a page per source format; each file is its own task.
  { ...converter, pageId: 'wordToPdf', slug: 'word-to-pdf', ...accepting(wordExt) },
  { ...converter, pageId: 'excelToPdf', slug: 'excel-to-pdf', ...accepting(excelExt) },
  { ...converter, pageId: 'pptToPdf', slug: 'ppt-to-pdf', ...accepting(pptExt) },
  { ...converter, pageId: 'rtfToPdf', slug: 'rtf-to-pdf', ...accepting(['rtf']) },
  { ...converter, pageId: 'txtToPdf', slug: 'txt-to-pdf', ...accepting(['txt']) },
  { ...converter, pageId: 'pubToPdf', slug: 'pub-to-pdf', ...accepting(['pub']) },
  {
    ...converter,
    pageId: 'pdfConverter',
    slug: 'pdf-converter',
    ...accepting([...wordExt, ...excelExt, ...pptExt, ...otherDocExt, ...imageExtensions]),
  },
  // PDF to images: the same converter call with an image output_format; one image per page.
  { ...converter, ...pdfToImage, pageId: 'pdfToJpg', slug: 'pdf-to-jpg', extTo: 'jpg' },
  { ...converter, ...pdfToImage, pageId: 'pdfToPng', slug: 'pdf-to-png', extTo: 'png', listed: false },
  { ...converter, ...pdfToImage, pageId: 'pdfToBmp', slug: 'pdf-to-bmp', extTo: 'bmp', listed: false },
  { ...converter, ...pdfToImage, pageId: 'pdfToTiff', slug: 'pdf-to-tiff', extTo: 'tiff', listed: false },
  // PDF to PowerPoint (one slide per page, the text editable) and to DXF (vector paths): the same call.
  { ...converter, ...pdfToImage, pageId: 'pdfToPpt', slug: 'pdf-to-ppt', extTo: 'pptx' },
  { ...converter, ...pdfToImage, pageId: 'pdfToDxf', slug: 'pdf-to-dxf', extTo: 'dxf' },
  // PDF to documents: the same call with a document output_format (pages: an Apple Pages document).
  { ...converter, ...pdfToImage, pageId: 'pdfToWord', slug: 'pdf-to-word', extTo: 'docx' },
  { ...converter, ...pdfToImage, pageId: 'pdfToExcel', slug: 'pdf-to-excel', extTo: 'xlsx' },
  { ...converter, ...pdfToImage, pageId: 'pdfToHtml', slug: 'pdf-to-html', extTo: 'html' },
  { ...converter, ...pdfToImage, pageId: 'pdfToRtf', slug: 'pdf-to-rtf', extTo: 'rtf' },
  { ...converter, ...pdfToImage, pageId: 'pdfToTxt', slug: 'pdf-to-txt', extTo: 'txt' },
  { ...converter, ...pdfToImage, pageId: 'pdfToEpub', slug: 'pdf-to-epub', extTo: 'epub' },
  { ...converter, ...pdfToImage, pageId: 'pdfToPages', slug: 'pdf-to-pages', extTo: 'pages' },
  { ...converter, ...pdfToImage, pageId: 'pdfToGif', slug: 'pdf-to-gif', extTo: 'gif', listed: false },
  // Every embedded image at its own resolution, in its own format.
  {
    id: 'extract_images',
    pageId: 'extractImages',
    slug: 'extract-images-from-pdf',
    apiPath: 'extract_images',
    ...pdfIn,
    extTo: 'zip',
    isSingleUpload: true,
    minFiles: 1,
  },
  // Images to PDF: several images, one PDF; the format pages are marketing slugs of the same tool.
  { ...imagesToPdf, pageId: 'jpgToPdf', slug: 'jpg-to-pdf' },
  { ...imagesToPdf, pageId: 'pngToPdf', slug: 'png-to-pdf', listed: false },
  { ...imagesToPdf, pageId: 'bmpToPdf', slug: 'bmp-to-pdf', listed: false },
  { ...imagesToPdf, pageId: 'gifToPdf', slug: 'gif-to-pdf', listed: false },
  { ...imagesToPdf, pageId: 'tiffToPdf', slug: 'tiff-to-pdf', listed: false },
  // OCR: a scanned PDF, or images merged first, becomes a searchable PDF (or its text); the image OCR calls all answer it.
  { ...ocrTool, pageId: 'OCR', slug: 'OCR', extFrom: ['pdf', ...imageExtensions], acceptFormat: `application/pdf,${imageMime}` },
  {
    ...ocrTool,

    pageId: 'imageToText',
    slug: 'image-to-text',
    extFrom: [...imageExtensions],
    acceptFormat: imageMime,
    extTo: 'txt',
    listed: false,
  },
  { ...ocrTool, pageId: 'pdfToText', slug: 'pdf-to-text', ...pdfIn, extTo: 'txt', listed: false },
  // The image tools: one call, a page per action (the panel of each page sends its action); each image is its own task.
  { ...imageTool, pageId: 'imageCompressor', slug: 'image-compressor' },
  { ...imageTool, pageId: 'cropImage', slug: 'crop-image' },
  { ...imageTool, pageId: 'imageResizer', slug: 'image-resizer' },
  { ...imageTool, pageId: 'rotateImage', slug: 'rotate-image' },
  { ...imageTool, pageId: 'imageConverter', slug: 'image-converter', extTo: defaultImageOutputFormat },
  { ...imageTool, pageId: 'imageToOthers', slug: 'image-to-others', extTo: defaultImageOutputFormat, listed: false },
  { ...imageTool, pageId: 'convertFromJpg', slug: 'convert-from-jpg', extTo: defaultImageOutputFormat, listed: false },
];

/** The call path with its `:name` segments filled from the body (the redaction call's file id). */
export function toolCallPath(tool: Pick<ToolDefinition, 'apiPath'>, body: Record<string, unknown>): string {
  return tool.apiPath.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(body[name] ?? '')));
}

export function toolBySlug(slug: string): ToolDefinition | undefined {
  return toolDefinitions.find((t) => t.slug === slug);
}

/** Extension check, case-insensitive. */
export function hasAcceptedExtension(fileName: string, tool: Pick<ToolDefinition, 'extFrom'>): boolean {
  const dot = fileName.lastIndexOf('.');
  return dot >= 0 && tool.extFrom.includes(fileName.slice(dot + 1).toLowerCase());
}
