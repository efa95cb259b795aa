// What the MuPDF child program (program.ts) is asked to do, and what it answers: the contract
// between the server and that child process.
import type { EditOperation, FormFields, PageObjects, PageRuns, PdfDocumentFormat, SignFont } from '@quire/contracts';
import type { FontFiles } from '../fontFiles.js';
import type { FailureAnswer } from '../jobFailure.js';
import type { Margins } from '../pageBoxes.js';

export interface RedactArea {
  page: number;
  /** PDF points from the bottom left of the page as shown (CropBox, after /Rotate). */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface RedactText {
  text: string;
  regex?: boolean | undefined;
}

interface JobFiles {
  /** A PDF whose page tree qpdf has checked, unencrypted (qpdf.editableInput) unless `password` is given. */
  input: string;
  /** The password of an encrypted input kept so, for a job that appends to it (qpdf.appendableInput); '' for none. */
  password?: string;
  output: string;
}

export interface CropJob extends JobFiles {
  op: 'crop';
  /** 1-based pages, or all. */
  pages: number[] | 'all';
  /** Points to take off each side as the page is shown. */
  margins: Margins;
}

export interface RedactJob extends JobFiles {
  op: 'redact';
  areas: RedactArea[];
  texts: RedactText[];
}

export interface ReplaceJob extends JobFiles {
  op: 'replace';
  search: string;
  replace: string;
}

/** Each page's lines of text, with the block each is in, as JSON (PageLines[]) in `output`. */
export interface TextLinesJob extends JobFiles {
  op: 'textLines';
}

/** A page's lines as textLines reads them: line numbers count from 1 down the page's text. */
export interface PageLines {
  page: number;
  lines: { line: number; block: number; text: string }[];
}

/**
 * New text over lines of pages (line numbers as textLines gives them), each shrunk to its line's
 * width; the lines of one block are shrunk alike.
 */
export interface ReplaceLinesJob extends JobFiles {
  op: 'replaceLines';
  pages: { page: number; lines: { line: number; block: number; text: string }[] }[];
}

/** Text lines, paths and background pictures of every page, as JSON in `output` (convert/pageGeometry.ts). */
export interface GeometryJob extends JobFiles {
  op: 'geometry';
  /** Collect vector paths (DXF). */
  paths: boolean;
  /** Draw each page without its editable text at this resolution (PPTX), or not at all. */
  backgroundDpi: number | null;
}

/**
 * PDF to documents: the document model (convert/model.ts) written in `format` to `output`, its images
 * kept in `imagesDir` meanwhile. The writers run in the worker too, under its limits.
 */
export interface ExtractJob extends JobFiles {
  op: 'extract';
  imagesDir: string;
  format: PdfDocumentFormat;
  title: string;
  /** pdftotext -bbox-layout of the pages, which the model is checked against (convert/popplerCheck.ts); null where poppler cannot read the file. */
  popplerLayout: string | null;
}

/** Where an image XObject is drawn most coarsely enlarged: its lowest resolution on the page, per axis. */
export interface ImagePlacement {
  object: number;
  xPpi: number;
  yPpi: number;
}

/**
 * Compress's structure-preserving rewrite: the images above `targetDpi` downsampled and
 * re-encoded as JPEG, fonts subset, identical objects merged; nothing else changes.
 */
export interface OptimizeJob extends JobFiles {
  op: 'optimize';
  /** The document's image XObjects as drawn on its pages (those not listed are left alone). */
  images: ImagePlacement[];
  targetDpi: number;
  /** Bitonal images drawn at more than 1.5 times this resolution come down to it. */
  monoDpi: number;
  jpegQuality: number;
  /** 4:2:0 chroma subsampling of colour JPEGs. */
  chromaSubsampling: boolean;
}

/** The editor's save: its operations (the pages one first) written into the file. */
export interface EditJob extends JobFiles {
  op: 'edit';
  operations: EditOperation[];
  fonts: FontFiles;
}

/** The editor's reads: a page's text runs or its images and annotations, or the form's fields; `output` is not written. */
export interface InspectJob extends JobFiles {
  op: 'inspect';
  what: 'runs' | 'objects' | 'fields';
  /** 1-based, for runs and objects. */
  page: number;
}

/** The font files of the typed-text fonts (Debian's packages, scripts/setup.sh). */
export const SIGN_FONT_FILES: Record<SignFont, string> = {
  'dancing-script': '/usr/share/fonts/opentype/dancingscript/DancingScript-Regular.otf',
  'kaushan-script': '/usr/share/fonts/opentype/kaushanscript/KaushanScript-Regular.otf',
  sans: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
};
/** Where a handwriting font lacks a character (the handwriting fonts have Latin letters only). */
export const SIGN_FALLBACK_FONT_FILE = SIGN_FONT_FILES.sans;

/** A signature image or a line of text on a page; points from the top left of the page as shown. */
export interface SignMark {
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  /** A PNG file in the job's folder. */
  image?: string;
  /** Real text in the font of `fontFile` (or `fallbackFontFile` where that lacks a character); colour #rrggbb. */
  text?: { value: string; fontFile: string; fallbackFontFile: string; color: string };
}

/** The value of a digital signature's field, with room for the CMS (contentsBytes) and its byte range. */
export interface SignatureField {
  /** The index in marks of the image drawn as the field's appearance (not into the page). */
  appearance: number;
  name: string;
  /** The signer's name, from the certificate. */
  signer: string;
  /** A PDF date: D:YYYYMMDDHHmmSSZ. */
  signedAt: string;
  contentsBytes: number;
  reason?: string | undefined;
  location?: string | undefined;
  contactInfo?: string | undefined;
}

export interface SignJob extends JobFiles {
  op: 'sign';
  marks: SignMark[];
  field?: SignatureField;
}

export type MupdfJob =
  | CropJob
  | RedactJob
  | ReplaceJob
  | TextLinesJob
  | ReplaceLinesJob
  | GeometryJob
  | ExtractJob
  | OptimizeJob
  | EditJob
  | InspectJob
  | SignJob;

export interface JobResults {
  crop: { pages: number };
  redact: { areas: number; textHits: number; annotations: number; outlineTitles: number };
  /** fallbackFont: the standard font used where the original one lacks the new characters. */
  replace: { count: number; fallbackFont: string | null };
  textLines: { pages: number };
  replaceLines: { lines: number; fallbackFont: string | null };
  geometry: { pages: number };
  /** fallbackFonts: the families used where a run's own font lacks the new characters. */
  edit: { fallbackFonts: string[] };
  inspect: PageRuns | PageObjects | FormFields;
  /** textFlowPages: the pages written as poppler's text, their model having lost most of it. */
  extract: { pages: number; textFlowPages: number[] };
  /** incremental: appended to the file as it was (false where MuPDF had to repair it, and rewrote it). */
  sign: { marks: number; incremental: boolean };
  /**
   * Images stored as JPEG: imagesDownsampled brought down to the level's resolution,
   * imagesReencoded JPEGs (or JPEG 2000s) re-encoded smaller at their own, photosToJpeg lossless
   * photographs; imagesToJbig2 bitonal images re-encoded as JBIG2, bitonalDownsampled of them
   * downsampled first; metadataTrimmed XMP packets rid of their blank padding.
   */
  optimize: {
    imagesDownsampled: number;
    imagesReencoded: number;
    photosToJpeg: number;
    imagesToJbig2: number;
    bitonalDownsampled: number;
    fontsSubset: number;
    metadataTrimmed: number;
  };
}

/** The worker's last line of output. code: a catalogue code (3100, 3124 or 3125). */
export type MupdfAnswer<Op extends MupdfJob['op'] = MupdfJob['op']> = { ok: true; result: JobResults[Op] } | FailureAnswer;

/** Lines the worker writes while it works: "progress 42". */
export const PROGRESS_PREFIX = 'progress ';
