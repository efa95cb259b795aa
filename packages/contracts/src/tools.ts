// The tool registry's data, shared by the web app (routes, sidebar, upload rules) and the server
// (API paths; the parameters' schemas are toolParams.ts). Each tool's behaviour lives in apps/server/src/tools/<id>.ts.
import { imageExtensions, imageProcessExtensions } from './conversions.js';
import { defaultImageOutputFormat } from './imageTools.js';
import type { ToolId } from './toolParams.js';

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
