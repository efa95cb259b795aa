// What each tool page is on the web, keyed by its route slug: the options panel it shows, how it
// looks in menus and cards, and the names of its texts. Pages sharing one API tool (the converter's
// word-to-pdf, pdf-to-jpg…) differ only here, so a new page is one record plus its translations.
import type { ToolDefinition } from '@quire/contracts';
import { type ComponentType, lazy } from 'react';
import type { MessageKey } from '../i18n/translate';
import type { IconName } from '../ui/Icon';
import type { OptionPanelProps } from './panels/types';

/**
 * A panel fetched when its page opens: the home page and the menus read the pages' looks and
 * texts here, and must not carry every tool's options (e2e/homeBundle.test.ts). ToolPage waits for it.
 */
function lazyPanel<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Panel = lazy(async () => ({ default: await load() }));
  return (props: P) => <Panel {...props} />;
}
const CompressPanel = lazyPanel(async () => (await import('./panels/CompressPanel')).CompressPanel);
const ConvertToPdfPanel = lazyPanel(async () => (await import('./panels/ConvertToPdfPanel')).ConvertToPdfPanel);
const CropPanel = lazyPanel(async () => (await import('./panels/CropPanel')).CropPanel);
const ExtractImagesPanel = lazyPanel(async () => (await import('./panels/ExtractImagesPanel')).ExtractImagesPanel);
const CompressImagePanel = lazyPanel(async () => (await import('./panels/ImageProcessPanel')).CompressImagePanel);
const ConvertImagePanel = lazyPanel(async () => (await import('./panels/ImageProcessPanel')).ConvertImagePanel);
const CropImagePanel = lazyPanel(async () => (await import('./panels/ImageProcessPanel')).CropImagePanel);
const ResizeImagePanel = lazyPanel(async () => (await import('./panels/ImageProcessPanel')).ResizeImagePanel);
const RotateImagePanel = lazyPanel(async () => (await import('./panels/ImageProcessPanel')).RotateImagePanel);
const ImagesToPdfPanel = lazyPanel(async () => (await import('./panels/ImagesToPdfPanel')).ImagesToPdfPanel);
const MergePanel = lazyPanel(async () => (await import('./panels/MergePanel')).MergePanel);
const OcrPanel = lazyPanel(async () => (await import('./panels/OcrPanel')).OcrPanel);
const DeletePanel = lazyPanel(async () => (await import('./panels/PagePickPanel')).DeletePanel);
const ExtractPanel = lazyPanel(async () => (await import('./panels/PagePickPanel')).ExtractPanel);
const PdfToDocumentPanel = lazyPanel(async () => (await import('./panels/PdfToDocumentPanel')).PdfToDocumentPanel);
const PdfToImagesPanel = lazyPanel(async () => (await import('./panels/PdfToImagesPanel')).PdfToImagesPanel);
const PdfToSlidesDrawingPanel = lazyPanel(async () => (await import('./panels/PdfToSlidesDrawingPanel')).PdfToSlidesDrawingPanel);
const ProtectPanel = lazyPanel(async () => (await import('./panels/ProtectPanel')).ProtectPanel);
const RearrangePanel = lazyPanel(async () => (await import('./panels/RearrangePanel')).RearrangePanel);
const RedactPanel = lazyPanel(async () => (await import('./panels/RedactPanel')).RedactPanel);
const ReplaceTextPanel = lazyPanel(async () => (await import('./panels/ReplaceTextPanel')).ReplaceTextPanel);
const RotatePanel = lazyPanel(async () => (await import('./panels/RotatePanel')).RotatePanel);
const SplitPanel = lazyPanel(async () => (await import('./panels/SplitPanel')).SplitPanel);
const UnlockPanel = lazyPanel(async () => (await import('./panels/UnlockPanel')).UnlockPanel);
const SignPanel = lazyPanel(async () => (await import('../sign/SignPanel')).SignPanel);

/** The sidebar group a page is listed under. */
export type ToolCategory = 'edit' | 'convert' | 'organize' | 'protect' | 'ai';

export interface ToolLook {
  icon: IconName;
  /** The icon tile's background. */
  color: string;
  category: ToolCategory;
}

export interface ToolTexts {
  title: MessageKey;
  description: MessageKey;
  /** The run button's label. */
  action: MessageKey;
}

export interface ToolPageRecord {
  panel: ComponentType<OptionPanelProps>;
  look: ToolLook;
  texts: ToolTexts;
}

/** Names N whose tools.N.title, .description and .action all exist in en-us. */
/** Names N whose tools.N.title, .description and .action all exist in en-us. */
type ToolTextName = TitledName<MessageKey>;
type TitledName<K> = K extends `tools.${infer N}.title`
  ? [`tools.${N}.description`, `tools.${N}.action`] extends [MessageKey, MessageKey]
    ? N
    : never
  : never;

// The type above guarantees the three keys exist, which TypeScript cannot see through the template.
const texts = (name: ToolTextName): ToolTexts => ({
  title: `tools.${name}.title` as MessageKey,
  description: `tools.${name}.description` as MessageKey,
  action: `tools.${name}.action` as MessageKey,
});

const look = (icon: IconName, color: string, category: ToolCategory): ToolLook => ({ icon, color, category });

/** A panel with the options its page fixes (the output format). */
function bound<P extends object>(Panel: ComponentType<OptionPanelProps & P>, fixed: NoInfer<P>): ComponentType<OptionPanelProps> {
  return (props) => <Panel {...props} {...fixed} />;
}

export const toolPages: Readonly<Record<string, ToolPageRecord>> = {
  'merge-pdf': { panel: MergePanel, look: look('merge', '#e5322d', 'organize'), texts: texts('merge') },
  'split-pdf': { panel: SplitPanel, look: look('split', '#f0803c', 'organize'), texts: texts('split') },
  'extract-pages': { panel: ExtractPanel, look: look('extract', '#2f80ed', 'organize'), texts: texts('extract_page') },
  'delete-pages': { panel: DeletePanel, look: look('deletePages', '#d83a52', 'organize'), texts: texts('delete_page') },
  'rearrange-pdf-pages': { panel: RearrangePanel, look: look('rearrange', '#8e5bd9', 'organize'), texts: texts('rearrange') },
  'rotate-pdf': { panel: RotatePanel, look: look('rotate', '#1f9d6b', 'organize'), texts: texts('rotate') },
  'compress-pdf': { panel: CompressPanel, look: look('compress', '#0f9aa8', 'organize'), texts: texts('compress') },
  'protect-pdf': { panel: ProtectPanel, look: look('lock', '#3b4a6b', 'protect'), texts: texts('encrypt') },
  'unlock-pdf': { panel: UnlockPanel, look: look('unlock', '#d98a00', 'protect'), texts: texts('decode') },
  'crop-pdf': { panel: CropPanel, look: look('crop', '#5b6cd9', 'edit'), texts: texts('cut') },
  'sign-pdf': { panel: SignPanel, look: look('sign', '#7a3fd1', 'protect'), texts: texts('sign') },
  'redact-pdf': { panel: RedactPanel, look: look('redact', '#2b2f3a', 'protect'), texts: texts('redaction') },
  'replace-text': { panel: ReplaceTextPanel, look: look('replaceText', '#c2571a', 'edit'), texts: texts('replacetext') },
  // Files to PDF.
  'word-to-pdf': { panel: ConvertToPdfPanel, look: look('docWord', '#2b579a', 'convert'), texts: texts('word_to_pdf') },
  'excel-to-pdf': { panel: ConvertToPdfPanel, look: look('docSheet', '#217346', 'convert'), texts: texts('excel_to_pdf') },
  'ppt-to-pdf': { panel: ConvertToPdfPanel, look: look('docSlides', '#c43e1c', 'convert'), texts: texts('ppt_to_pdf') },
  'rtf-to-pdf': { panel: ConvertToPdfPanel, look: look('docText', '#6b5b95', 'convert'), texts: texts('rtf_to_pdf') },
  'txt-to-pdf': { panel: ConvertToPdfPanel, look: look('docText', '#5f6b7a', 'convert'), texts: texts('txt_to_pdf') },
  'pub-to-pdf': { panel: ConvertToPdfPanel, look: look('docPub', '#077568', 'convert'), texts: texts('pub_to_pdf') },
  'pdf-converter': { panel: ConvertToPdfPanel, look: look('convert', '#e5322d', 'convert'), texts: texts('convert') },
  // A PDF to images, slides, a drawing or a document.
  'pdf-to-jpg': {
    panel: bound(PdfToImagesPanel, { format: 'jpg' }),
    look: look('image', '#f2b705', 'convert'),
    texts: texts('pdf_to_jpg'),
  },
  'pdf-to-png': {
    panel: bound(PdfToImagesPanel, { format: 'png' }),
    look: look('image', '#8e44ad', 'convert'),
    texts: texts('pdf_to_png'),
  },
  'pdf-to-bmp': {
    panel: bound(PdfToImagesPanel, { format: 'bmp' }),
    look: look('image', '#16a085', 'convert'),
    texts: texts('pdf_to_bmp'),
  },
  'pdf-to-tiff': {
    panel: bound(PdfToImagesPanel, { format: 'tiff' }),
    look: look('image', '#34495e', 'convert'),
    texts: texts('pdf_to_tiff'),
  },
  'pdf-to-gif': {
    panel: bound(PdfToImagesPanel, { format: 'gif' }),
    look: look('image', '#d35400', 'convert'),
    texts: texts('pdf_to_gif'),
  },
  'pdf-to-ppt': {
    panel: bound(PdfToSlidesDrawingPanel, { format: 'pptx' }),
    look: look('docSlides', '#c43e1c', 'convert'),
    texts: texts('pdf_to_ppt'),
  },
  'pdf-to-dxf': {
    panel: bound(PdfToSlidesDrawingPanel, { format: 'dxf' }),
    look: look('file', '#0b6e99', 'convert'),
    texts: texts('pdf_to_dxf'),
  },
  'pdf-to-word': {
    panel: bound(PdfToDocumentPanel, { format: 'docx' }),
    look: look('docWord', '#2b579a', 'convert'),
    texts: texts('pdf_to_word'),
  },
  'pdf-to-excel': {
    panel: bound(PdfToDocumentPanel, { format: 'xlsx' }),
    look: look('docSheet', '#217346', 'convert'),
    texts: texts('pdf_to_excel'),
  },
  'pdf-to-html': {
    panel: bound(PdfToDocumentPanel, { format: 'html' }),
    look: look('docText', '#e44d26', 'convert'),
    texts: texts('pdf_to_html'),
  },
  'pdf-to-rtf': {
    panel: bound(PdfToDocumentPanel, { format: 'rtf' }),
    look: look('docText', '#6b5b95', 'convert'),
    texts: texts('pdf_to_rtf'),
  },
  'pdf-to-txt': {
    panel: bound(PdfToDocumentPanel, { format: 'txt' }),
    look: look('docText', '#5f6b7a', 'convert'),
    texts: texts('pdf_to_txt'),
  },
  'pdf-to-epub': {
    panel: bound(PdfToDocumentPanel, { format: 'epub' }),
    look: look('docText', '#85b536', 'convert'),
    texts: texts('pdf_to_epub'),
  },
  'pdf-to-pages': {
    panel: bound(PdfToDocumentPanel, { format: 'pages' }),
    look: look('docWord', '#f09a37', 'convert'),
    texts: texts('pdf_to_pages'),
  },
  'extract-images-from-pdf': { panel: ExtractImagesPanel, look: look('image', '#27ae60', 'organize'), texts: texts('extract_images') },
  // Images to one PDF.
  'jpg-to-pdf': { panel: ImagesToPdfPanel, look: look('image', '#e0a100', 'convert'), texts: texts('images_merge_pdf') },
  'png-to-pdf': { panel: ImagesToPdfPanel, look: look('image', '#8e44ad', 'convert'), texts: texts('png_to_pdf') },
  'bmp-to-pdf': { panel: ImagesToPdfPanel, look: look('image', '#16a085', 'convert'), texts: texts('bmp_to_pdf') },
  'gif-to-pdf': { panel: ImagesToPdfPanel, look: look('image', '#d35400', 'convert'), texts: texts('gif_to_pdf') },
  'tiff-to-pdf': { panel: ImagesToPdfPanel, look: look('image', '#34495e', 'convert'), texts: texts('tiff_to_pdf') },
  // OCR.
  OCR: { panel: bound(OcrPanel, { output: 'pdf' }), look: look('docText', '#0b7a75', 'edit'), texts: texts('ocr') },
  'image-to-text': { panel: bound(OcrPanel, { output: 'txt' }), look: look('docText', '#b0413e', 'edit'), texts: texts('image_to_text') },
  'pdf-to-text': { panel: bound(OcrPanel, { output: 'txt' }), look: look('docText', '#4a6fa5', 'edit'), texts: texts('pdf_to_text') },
  // The image tools.
  'image-compressor': { panel: CompressImagePanel, look: look('compress', '#1f9d6b', 'edit'), texts: texts('image_compressor') },
  'crop-image': { panel: CropImagePanel, look: look('crop', '#8e5bd9', 'edit'), texts: texts('crop_image') },
  'image-resizer': { panel: ResizeImagePanel, look: look('image', '#2f80ed', 'edit'), texts: texts('image_resizer') },
  'rotate-image': { panel: RotateImagePanel, look: look('rotate', '#f0803c', 'edit'), texts: texts('rotate_image') },
  'image-converter': { panel: ConvertImagePanel, look: look('convert', '#0f9aa8', 'convert'), texts: texts('images_process') },
  'image-to-others': { panel: ConvertImagePanel, look: look('convert', '#0f9aa8', 'convert'), texts: texts('images_process') },
  'convert-from-jpg': { panel: ConvertImagePanel, look: look('convert', '#0f9aa8', 'convert'), texts: texts('images_process') },
};

/** The record of a registry page (every page has one: toolPages.test.ts checks it). */
export function toolPageOf(tool: Pick<ToolDefinition, 'slug'>): ToolPageRecord {
  const record = toolPages[tool.slug];
  if (!record) throw new Error(`No tool page record for /app/${tool.slug}`);
  return record;
}
