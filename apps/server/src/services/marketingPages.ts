// The marketing pages as real HTML: the built index.html with the page's language, title,
// description, canonical and hreflang links, Open Graph tags, and its content (heading, lead,
// steps, FAQ, links) inside #root, so that search engines and link previews read the page without
// running the app. The texts are those the web build copies out of its locale files
// (<webDist>/seo/<locale>.json); React replaces the content when the app starts.
import fs from 'node:fs';
import path from 'node:path';
import { landingPageBySlug, landingTextKeys, localizedPath, marketingPages, siteLanguages, type MarketingPage } from '@quire/contracts';
import type { Config } from '../config.js';

type SiteLanguage = (typeof siteLanguages)[number];
type Texts = Record<string, string>;

const SITE_NAME = 'Quire';

/** A file read again only when it changed: a rebuild of the web app while the server runs is picked up. */
const fileCache = new Map<string, { mtimeMs: number; text: string }>();
function readCached(file: string): string | undefined {
  let mtimeMs: number;
  try {
    mtimeMs = fs.statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
  const cached = fileCache.get(file);
  if (cached?.mtimeMs === mtimeMs) return cached.text;
  const text = fs.readFileSync(file, 'utf8');
  fileCache.set(file, { mtimeMs, text });
  return text;
}

const readTexts = (config: Config, locale: string): Texts => {
  const json = readCached(path.join(config.webDist, 'seo', `${locale}.json`));
  return json ? (JSON.parse(json) as Texts) : {};
};

/** Text for HTML content and double-quoted attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page a path names, with its language: "/de/pricing" is /pricing in German. */
function findMarketingPage(pathname: string): { page: MarketingPage; language: SiteLanguage } | undefined {
  for (const language of siteLanguages) {
    const page = marketingPages.find((p) => localizedPath(language.prefix, p.path) === pathname);
    if (page) return { page, language };
  }
  return undefined;
}

/** Every marketing page's path in every language: the paths the server answers with a page of its own. */
export const marketingPaths = (): string[] => siteLanguages.flatMap((l) => marketingPages.map((p) => localizedPath(l.prefix, p.path)));

const absoluteUrl = (config: Config, prefix: string, pagePath: string) => `${config.publicUrl}${localizedPath(prefix, pagePath)}`;

/** The same page in every language, and x-default (English, which has no prefix). */
function alternates(config: Config, pagePath: string): { hreflang: string; href: string }[] {
  return [
    ...siteLanguages.map((l) => ({ hreflang: l.htmlLang, href: absoluteUrl(config, l.prefix, pagePath) })),
    { hreflang: 'x-default', href: absoluteUrl(config, '', pagePath) },
  ];
}

/** <html lang dir> of the index page for a language. */
const withLanguage = (html: string, language: SiteLanguage) =>
  html.replace(/<html[^>]*>/, `<html lang="${escapeHtml(language.htmlLang)}" dir="${language.dir}">`);

function headTags(config: Config, page: MarketingPage, language: SiteLanguage, text: (key: string) => string): string {
  const url = absoluteUrl(config, language.prefix, page.path);
  const title = text(page.title);
  const description = text(page.description);
  return [
    `<meta name="description" content="${escapeHtml(description)}" />`,
    `<link rel="canonical" href="${escapeHtml(url)}" />`,
    ...alternates(config, page.path).map((a) => `<link rel="alternate" hreflang="${a.hreflang}" href="${escapeHtml(a.href)}" />`),
    '<meta property="og:type" content="website" />',
    `<meta property="og:site_name" content="${SITE_NAME}" />`,
    `<meta property="og:title" content="${escapeHtml(title)}" />`,
    `<meta property="og:description" content="${escapeHtml(description)}" />`,
    `<meta property="og:url" content="${escapeHtml(url)}" />`,
    // Open Graph writes a locale as language_TERRITORY: en_US, pt_BR.
    `<meta property="og:locale" content="${language.locale.replace(/-(\w+)$/, (_, territory: string) => `_${territory.toUpperCase()}`)}" />`,
    '<meta name="twitter:card" content="summary" />',
  ]
    .map((tag) => `    ${tag}\n`)
    .join('');
}

/** The page's content as plain semantic HTML, in the classes the app's landing page uses. */
function bodyHtml(page: MarketingPage, language: SiteLanguage, text: (key: string) => string): string {
  const h = (key: string) => escapeHtml(text(key));
  const link = (pagePath: string, key: string) => `<a href="${escapeHtml(localizedPath(language.prefix, pagePath))}">${h(key)}</a>`;
  const parts = [`<h1>${h(page.heading)}</h1>`, `<p class="landing-lead">${h(page.lead)}</p>`];
  const landing = page.landing;
  if (landing) {
    const keys = landingTextKeys(landing.slug);
    parts.push(
      `<section><h2>${h(keys.howTo)}</h2><ol>${keys.steps.map((s) => `<li>${h(s)}</li>`).join('')}</ol></section>`,
      `<section><h2>${h('landing.faqTitle')}</h2>${keys.faq
        .map((f) => `<details><summary>${h(f.question)}</summary><p>${h(f.answer)}</p></details>`)
        .join('')}</section>`,
      `<nav><h2>${h('landing.relatedTitle')}</h2><ul>${landing.related
        .flatMap((slug) => (landingPageBySlug(slug) ? [`<li>${link(`/${slug}`, landingTextKeys(slug).title)}</li>`] : []))
        .join('')}</ul>${link('/all-tools', 'landing.seeAllTools')}</nav>`,
    );
  } else {
    // The home page and all-tools lead crawlers to every landing page.
    parts.push(`<nav><ul>${marketingPages.flatMap((p) => (p.landing ? [`<li>${link(p.path, p.heading)}</li>`] : [])).join('')}</ul></nav>`);
  }
  return `<div class="prerendered"><main>${parts.join('')}</main></div>`;
}

/**
 * The HTML of a path: a marketing page with its head and content, any other page the app's
 * index.html in the path's language; undefined when the web app is not built.
 */
export function pageHtml(config: Config, pathname: string): string | undefined {
  const index = readCached(path.join(config.webDist, 'index.html'));
  if (index === undefined) return undefined;
  const found = findMarketingPage(pathname);
  if (!found) {
    const prefix = /^\/([^/]+)/.exec(pathname)?.[1];
    return withLanguage(index, siteLanguages.find((l) => l.prefix && l.prefix === prefix) ?? siteLanguages[0]);
  }
  const { page, language } = found;
  const own = readTexts(config, language.locale);
  const english = readTexts(config, 'en-us');
  // A text not yet translated shows in English; an older build without the texts shows the plain index.
  const text = (key: string) => own[key] ?? english[key] ?? '';
  if (!english[page.title]) return withLanguage(index, language);
  // Replaced by functions: a replacement string would read "$&" or "$'" in a text as patterns.
  return withLanguage(index, language)
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(`${text(page.title)} · ${SITE_NAME}`)}</title>`)
    .replace(/\s*<meta name="description"[^>]*>/, '')
    .replace('</head>', () => `${headTags(config, page, language, text)}  </head>`)
    .replace('<div id="root"></div>', () => `<div id="root">${bodyHtml(page, language, text)}</div>`);
}

/** Every marketing page in every language, each with its alternates (xhtml:link), for search engines. */
export function sitemapXml(config: Config): string {
  const urls = siteLanguages.flatMap((language) =>
    marketingPages.map((page) => {
      const links = alternates(config, page.path)
        .map((a) => `    <xhtml:link rel="alternate" hreflang="${a.hreflang}" href="${escapeHtml(a.href)}"/>`)
        .join('\n');
      return `  <url>\n    <loc>${escapeHtml(absoluteUrl(config, language.prefix, page.path))}</loc>\n${links}\n  </url>`;
    }),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

/** Crawlers may read the site but not the API, and find the sitemap. */
export const robotsTxt = (config: Config) => `User-agent: *\nDisallow: /api/\nSitemap: ${config.publicUrl}/sitemap.xml\n`;
