// Conversions to PDF: the image size limit, and how images to PDF lays an image on its page
// (the server draws it so, the web app previews it so).

/** Where the route limits images, those over 20 MB are refused with this message. */
export const IMAGE_MAX_BYTES = 20 * 1024 * 1024;
export const imageTooLargeMessage = 'Image size too large, should be less than 20MB.';
/**
 * Images declaring more pixels than this are refused (4012) from their header, before anything
 * decodes them: a little above the largest camera photos (about 102 megapixels). The image tools
 * need up to some 10 bytes a decoded pixel (a turned JPEG written again), so this keeps every one
 * within the image engine's memory bound; libvips' own bound, 16383² (268 megapixels), ran 20 s at 1.6 GB.
 */
export const IMAGE_MAX_PIXELS = 120_000_000;

export const imageExtensions = ['jpg', 'jpeg', 'png', 'bmp', 'gif', 'tif', 'tiff'] as const;
/** The image tools (images_process) read WebP too. */
export const imageProcessExtensions = [...imageExtensions, 'webp'] as const;

/** Any image a tool takes: the 20 MB image limit applies to it. */
export function isImageFileName(name: string): boolean {
  const dot = name.lastIndexOf('.');
  return dot >= 0 && (imageProcessExtensions as readonly string[]).includes(name.slice(dot + 1).toLowerCase());
}

export type PageSize = 'a4' | 'letter' | 'fit';
export type PageOrientation = 'portrait' | 'landscape' | 'auto';
export type PageMargin = 'none' | 'small' | 'large';

export interface ImageLayout {
  page_size: PageSize;
  orientation: PageOrientation;
  margin: PageMargin;
}

/** What images to PDF does unless told otherwise: A4, each page turned to match its image, no margin. */
export const defaultImageLayout: ImageLayout = { page_size: 'a4', orientation: 'auto', margin: 'none' };

/** Portrait sizes in points (72 per inch). */
export const pagePoints: Record<Exclude<PageSize, 'fit'>, readonly [number, number]> = {
  a4: [595.28, 841.89],
  letter: [612, 792],
};

/** Margins in millimetres, turned into points at 72 per inch and 25.4 mm per inch. */
export const marginMm: Record<PageMargin, number> = { none: 0, small: 7, large: 15 };
export const mmToPoints = (mm: number) => (mm * 72) / 25.4;

export interface Placement {
  /** Page width and height in points. */
  page: [number, number];
  /** Where the image goes, in points from the bottom left of the page. */
  box: { x: number; y: number; width: number; height: number };
}

/**
 * The page for an image of `width` x `height` points (as it is meant to be seen) and where on it
 * the image goes: centred inside the margins, shrunk to fit but never enlarged past its own size.
 * "fit" makes the page the image plus its margins; "auto" turns the page to match the image.
 */
export function placeImage(width: number, height: number, layout: ImageLayout): Placement {
  const margin = mmToPoints(marginMm[layout.margin]);
  if (layout.page_size === 'fit') {
    return { page: [width + 2 * margin, height + 2 * margin], box: { x: margin, y: margin, width, height } };
  }
  const [short, long] = pagePoints[layout.page_size];
  const landscape = layout.orientation === 'landscape' || (layout.orientation === 'auto' && width > height);
  const page: [number, number] = landscape ? [long, short] : [short, long];
  const scale = Math.min(1, (page[0] - 2 * margin) / width, (page[1] - 2 * margin) / height);
  const w = width * scale;
  const h = height * scale;
  return { page, box: { x: (page[0] - w) / 2, y: (page[1] - h) / 2, width: w, height: h } };
}

/** Conversions from PDF: the image formats a page can be rendered to. */
export const pdfImageFormats = ['jpg', 'png', 'bmp', 'tiff', 'gif'] as const;
export type PdfImageFormat = (typeof pdfImageFormats)[number];
/** Resolutions of a page rendered to an image, dots per inch. */
export const PDF_IMAGE_DPI = { min: 36, max: 600, default: 150, choices: [72, 150, 300] } as const;
/** A page rendered larger than this many pixels is refused (3100): a bitmap that size needs about 450 MB. */
export const PDF_IMAGE_MAX_PIXELS = 150_000_000;
export const isPdfImageFormat = (format: string): format is PdfImageFormat => (pdfImageFormats as readonly string[]).includes(format);
/** Conversions from PDF to documents. */
export const pdfDocumentFormats = ['docx', 'xlsx', 'html', 'rtf', 'txt', 'epub', 'pages'] as const;
export type PdfDocumentFormat = (typeof pdfDocumentFormats)[number];
export const isPdfDocumentFormat = (format: string): format is PdfDocumentFormat =>
  (pdfDocumentFormats as readonly string[]).includes(format);
