import { describe, expect, it } from 'vitest';
import { landingPageBySlug, landingPages, marketingPages } from './marketingPages.js';

/** The product's marketing-site slugs. */
const SPEC_SLUGS = [
  'convert-from-jpg',
  'chat-with-pdf',
  'ai-pdf-translator',
  'pdf-proofreader',
  'ai-read-pdf',
  'ai-pdf-rewriter',
  'ai-explain-pdf',
  'ask-pdf-ai',
  'tiff-to-pdf',
  'pdf-to-tiff',
  'png-to-pdf',
  'pdf-to-png',
  'bmp-to-pdf',
  'pdf-to-bmp',
  'gif-to-pdf',
  'pdf-to-gif',
  'image-to-text',
  'pdf-to-text',
  'all-tools',
  'pricing',
];

describe('marketing pages', () => {
  it('has a page for every marketing slug, the home page and the templates, each once', () => {
    const paths = marketingPages.map((p) => p.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths.sort()).toEqual(['/', '/template', ...SPEC_SLUGS.map((s) => `/${s}`)].sort());
  });

  it('leads each format page to a tool taking and making that format', () => {
    for (const format of ['png', 'tiff', 'bmp', 'gif']) {
      const toPdf = landingPageBySlug(`${format}-to-pdf`)!.target;
      const fromPdf = landingPageBySlug(`pdf-to-${format}`)!.target;
      expect(toPdf.kind === 'tool' && toPdf.tool.extFrom.includes(format) && toPdf.tool.extTo === 'pdf', format).toBe(true);
      expect(fromPdf.kind === 'tool' && fromPdf.tool.extFrom.join() === 'pdf' && fromPdf.tool.extTo === format, format).toBe(true);
    }
    const text = landingPageBySlug('pdf-to-text')!.target;
    expect(text.kind === 'tool' && text.tool.slug).toBe('pdf-to-txt');
    const ocr = landingPageBySlug('image-to-text')!.target;
    expect(ocr.kind === 'tool' && ocr.tool.id).toBe('ocr');
    const jpg = landingPageBySlug('convert-from-jpg')!.target;
    expect(jpg.kind === 'tool' && jpg.tool.extFrom.includes('jpg') && jpg.tool.id).toBe('images_process');
    expect(landingPageBySlug('ask-pdf-ai')!.target).toEqual({ kind: 'ai', appPath: 'ai-read?mode=ask' });
  });

  it('relates each page to other landing pages only', () => {
    for (const page of landingPages) {
      expect(page.related.length, page.slug).toBeGreaterThanOrEqual(3);
      for (const slug of page.related) {
        expect(slug, page.slug).not.toBe(page.slug);
        expect(landingPageBySlug(slug), `${page.slug} → ${slug}`).toBeDefined();
      }
    }
  });
});
