// The marketing site's pages: a landing page per marketing slug, each leading to the workspace tool
// it advertises, and the site's other public pages. The web app draws them from this catalogue; the
// server answers them as real HTML (for search engines and link previews) and lists them in the sitemap.
import { toolBySlug, type ToolDefinition } from './tools.js';

/** Where a landing page's upload box leads: a workspace tool, or an AI page (with its mode). */
export type LandingTarget = { kind: 'tool'; tool: ToolDefinition } | { kind: 'ai'; appPath: string };

export interface LandingPage {
  slug: string;
  target: LandingTarget;
  /** Landing pages linked under "Related tools". */
  related: readonly string[];
}

const tool = (slug: string): LandingTarget => {
  const found = toolBySlug(slug);
  if (!found) throw new Error(`No tool ${slug}`);
  return { kind: 'tool', tool: found };
};
const ai = (appPath: string): LandingTarget => ({ kind: 'ai', appPath });

const imagesToPdf = ['png-to-pdf', 'tiff-to-pdf', 'bmp-to-pdf', 'gif-to-pdf'];
const pdfToImages = ['pdf-to-png', 'pdf-to-tiff', 'pdf-to-bmp', 'pdf-to-gif'];
const aiReading = ['chat-with-pdf', 'ask-pdf-ai', 'ai-read-pdf', 'ai-explain-pdf'];
const others = (slug: string, family: readonly string[]) => family.filter((s) => s !== slug);

/**
 * The landing pages, in the sitemap's order. Where the registry has a page of the slug's own name
 * (png-to-pdf, pdf-to-tiff, image-to-text, convert-from-jpg…), the upload box opens it: it is the
 * family's tool with the format preset. pdf-to-text opens pdf-to-txt, the text extraction: the
 * registry's pdf-to-text page is OCR, which the page's text sends scans to.
 */
export const landingPages: readonly LandingPage[] = [
  ...imagesToPdf.map((slug) => ({ slug, target: tool(slug), related: [...others(slug, imagesToPdf), 'convert-from-jpg'] })),
  ...pdfToImages.map((slug) => ({ slug, target: tool(slug), related: [...others(slug, pdfToImages), 'pdf-to-text'] })),
  { slug: 'convert-from-jpg', target: tool('convert-from-jpg'), related: ['png-to-pdf', 'pdf-to-png', 'image-to-text'] },
  { slug: 'image-to-text', target: tool('image-to-text'), related: ['pdf-to-text', 'convert-from-jpg', 'ai-read-pdf'] },
  { slug: 'pdf-to-text', target: tool('pdf-to-txt'), related: ['image-to-text', 'ai-pdf-translator', 'pdf-to-png'] },
  { slug: 'chat-with-pdf', target: ai('chat-pdf'), related: others('chat-with-pdf', aiReading) },
  { slug: 'ask-pdf-ai', target: ai('ai-read?mode=ask'), related: others('ask-pdf-ai', aiReading) },
  { slug: 'ai-read-pdf', target: ai('ai-read'), related: others('ai-read-pdf', aiReading) },
  { slug: 'ai-explain-pdf', target: ai('ai-read?mode=explain'), related: others('ai-explain-pdf', aiReading) },
  { slug: 'ai-pdf-rewriter', target: ai('ai-read?mode=rewrite'), related: ['pdf-proofreader', 'ai-pdf-translator', 'ai-read-pdf'] },
  { slug: 'ai-pdf-translator', target: ai('ai-translator'), related: ['pdf-proofreader', 'ai-pdf-rewriter', 'chat-with-pdf'] },
  { slug: 'pdf-proofreader', target: ai('ai-proofread'), related: ['ai-pdf-rewriter', 'ai-pdf-translator', 'chat-with-pdf'] },
];

export function landingPageBySlug(slug: string): LandingPage | undefined {
  return landingPages.find((p) => p.slug === slug);
}

/** The texts of a landing page, by role; the third FAQ entry (are my files safe?) is every page's. */
export function landingTextKeys(slug: string) {
  const key = (name: string) => `landing.${slug}.${name}`;
  return {
    title: key('title'),
    description: key('metaDescription'),
    lead: key('lead'),
    howTo: key('howTo'),
    steps: [key('step1'), key('step2'), key('step3')],
    faq: [
      { question: key('faq1q'), answer: key('faq1a') },
      { question: key('faq2q'), answer: key('faq2a') },
      { question: 'landing.faqSafeQ', answer: 'landing.faqSafeA' },
    ],
  };
}

/** The texts every landing page shows besides its own. */
const landingSharedKeys = [
  'landing.faqTitle',
  'landing.relatedTitle',
  'landing.seeAllTools',
  'landing.trust.free',
  'landing.trust.deleted',
  'landing.trust.selfHosted',
  'landing.aiSignIn',
] as const;

/** A public page of the marketing site (path without the language prefix), and its head's and heading's texts. */
export interface MarketingPage {
  path: string;
  /** The <title>'s text (the site's name follows it). */
  title: string;
  description: string;
  heading: string;
  lead: string;
  landing?: LandingPage;
}

/** Every page of the marketing site, each served as real HTML in every language. */
export const marketingPages: readonly MarketingPage[] = [
  { path: '/', title: 'landing.home.metaTitle', description: 'landing.home.metaDescription', heading: 'home.title', lead: 'home.subtitle' },
  {
    path: '/all-tools',
    title: 'landing.allTools.title',
    description: 'landing.allTools.metaDescription',
    heading: 'landing.allTools.title',
    lead: 'landing.allTools.lead',
  },
  {
    path: '/pricing',
    title: 'pricing.title',
    description: 'landing.pricing.metaDescription',
    heading: 'pricing.title',
    lead: 'pricing.subtitle',
  },
  {
    path: '/template',
    title: 'landing.template.metaTitle',
    description: 'landing.template.metaDescription',
    heading: 'templates.title',
    lead: 'templates.subtitle',
  },
  ...landingPages.map((landing) => {
    const keys = landingTextKeys(landing.slug);
    return { path: `/${landing.slug}`, title: keys.title, description: keys.description, heading: keys.title, lead: keys.lead, landing };
  }),
];

/** A marketing page's path under a language prefix ("/de/pricing", "/de"). */
export function localizedPath(prefix: string, path: string): string {
  if (!prefix) return path;
  return path === '/' ? `/${prefix}` : `/${prefix}${path}`;
}

/** Every text key the marketing pages' HTML needs: what the web build hands the server (seo/<locale>.json). */
export function marketingTextKeys(): string[] {
  const keys = new Set<string>(landingSharedKeys);
  for (const page of marketingPages) {
    for (const key of [page.title, page.description, page.heading, page.lead]) keys.add(key);
    if (!page.landing) continue;
    const texts = landingTextKeys(page.landing.slug);
    for (const key of [texts.howTo, ...texts.steps, ...texts.faq.flatMap((f) => [f.question, f.answer])]) keys.add(key);
  }
  return [...keys];
}

/** A locale file's texts that the marketing pages' HTML needs (the web build's seo/<locale>.json). */
export function pickMarketingTexts(texts: Record<string, string>): Record<string, string> {
  return Object.fromEntries(marketingTextKeys().flatMap((key) => (texts[key] === undefined ? [] : [[key, texts[key]]])));
}
