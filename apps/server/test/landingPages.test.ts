// The marketing pages as the server answers them, read as a crawler would: every page in every
// language over HTTP, parsed by Chromium's own HTML and XML parsers (DOMParser), no script run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { localizedPath, marketingPages, pickMarketingTexts, siteLanguages, type MarketingPage } from '@quire/contracts';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM } from '../../../e2e/browser.js';
import { quireForTests } from './harness.js';

const PUBLIC_URL = 'https://pdf.example.org';
const localesDir = path.join(import.meta.dirname, '../../web/src/i18n/locales');
const readLocale = (locale: string) =>
  JSON.parse(fs.readFileSync(path.join(localesDir, `${locale}.json`), 'utf8')) as Record<string, string>;

/** A text of the German locale that HTML must escape, as an operator's own wording might be. */
const TRICKY = "Tarife <b>&amp;</b> \"Preise\" & 'mehr' ab $& $' US$5";

/** A web build of its own: the app's index page and the texts the build hands the server, German's pricing title made tricky. */
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-landing-web-'));
fs.copyFileSync(path.join(import.meta.dirname, '../../web/index.html'), path.join(webDist, 'index.html'));
fs.mkdirSync(path.join(webDist, 'seo'));
const texts = Object.fromEntries(siteLanguages.map((l) => [l.locale, pickMarketingTexts(readLocale(l.locale))]));
texts['de-de']!['pricing.title'] = TRICKY;
for (const [locale, picked] of Object.entries(texts)) fs.writeFileSync(path.join(webDist, 'seo', `${locale}.json`), JSON.stringify(picked));

const served = quireForTests('landing', { publicUrl: PUBLIC_URL, webDist });

/** What a crawler reads of a page. */
interface PageFacts {
  lang: string | null;
  dir: string | null;
  title: string;
  description: string | null;
  canonical: string[];
  alternates: { hreflang: string; href: string }[];
  og: Record<string, string>;
  h1: string[];
  h1Children: number;
  steps: string[];
  faq: { question: string; answer: string }[];
  rootText: string;
  links: string[];
}

let browser: Browser;
let parser: Page;
beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  parser = await browser.newPage({ javaScriptEnabled: true });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  fs.rmSync(webDist, { recursive: true, force: true });
});

const parseHtml = (html: string): Promise<PageFacts> =>
  parser.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, 'text/html');
    const all = (selector: string) => [...doc.querySelectorAll(selector)];
    const text = (e: Element) => e.textContent?.trim() ?? '';
    return {
      lang: doc.documentElement.getAttribute('lang'),
      dir: doc.documentElement.getAttribute('dir'),
      title: doc.title,
      description: doc.querySelector('meta[name="description"]')?.getAttribute('content') ?? null,
      canonical: all('link[rel="canonical"]').map((l) => l.getAttribute('href') ?? ''),
      alternates: all('link[rel="alternate"][hreflang]').map((l) => ({
        hreflang: l.getAttribute('hreflang')!,
        href: l.getAttribute('href')!,
      })),
      og: Object.fromEntries(all('meta[property^="og:"]').map((m) => [m.getAttribute('property')!, m.getAttribute('content') ?? ''])),
      h1: all('#root h1').map(text),
      h1Children: all('#root h1 *').length,
      steps: all('#root ol li').map(text),
      faq: all('#root details').map((d) => ({ question: text(d.querySelector('summary')!), answer: text(d.querySelector('p')!) })),
      rootText: text(doc.getElementById('root')!),
      links: all('#root a').map((a) => a.getAttribute('href') ?? ''),
    };
  }, html);

const get = async (pathname: string) => {
  const res = await fetch(served.quire.url + pathname);
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
};

const urlOf = (prefix: string, page: MarketingPage) => PUBLIC_URL + localizedPath(prefix, page.path);

describe('marketing pages', () => {
  it('answers every page in every language with its own head and content', async () => {
    const english = texts['en-us']!;
    for (const language of siteLanguages) {
      const own = texts[language.locale]!;
      // A text a locale has not translated yet shows in English (the app does the same).
      const expected = (key: string) => own[key] ?? english[key]!;
      for (const page of marketingPages) {
        const pathname = localizedPath(language.prefix, page.path);
        const res = await get(pathname);
        expect(res.status, pathname).toBe(200);
        expect(res.type).toMatch(/^text\/html/);
        const facts = await parseHtml(res.body);
        const at = `${pathname}`;
        expect(facts.lang, at).toBe(language.htmlLang);
        expect(facts.dir, at).toBe(language.dir);
        expect(facts.title, at).toBe(`${expected(page.title)} · Quire`);
        expect(facts.description, at).toBe(expected(page.description));
        expect(facts.canonical, at).toEqual([urlOf(language.prefix, page)]);
        // One link per language and x-default (English), each pointing at that language's page.
        expect(facts.alternates, at).toEqual([
          ...siteLanguages.map((l) => ({ hreflang: l.htmlLang, href: urlOf(l.prefix, page) })),
          { hreflang: 'x-default', href: urlOf('', page) },
        ]);
        expect(facts.og['og:title'], at).toBe(expected(page.title));
        expect(facts.og['og:description'], at).toBe(expected(page.description));
        expect(facts.og['og:url'], at).toBe(urlOf(language.prefix, page));
        expect(facts.og['og:locale'], at).toMatch(/^[a-z]{2}_[A-Z]{2}$/);
        expect(facts.h1, at).toEqual([expected(page.heading)]);
        expect(facts.rootText, at).toContain(expected(page.lead));
        if (page.landing) {
          expect(facts.steps, at).toHaveLength(3);
          expect(facts.faq, at).toHaveLength(3);
          expect(facts.faq[2], at).toEqual({ question: expected('landing.faqSafeQ'), answer: expected('landing.faqSafeA') });
          for (const f of facts.faq) expect(f.question.length * f.answer.length, at).toBeGreaterThan(0);
          // Related pages and all-tools are linked in the page's language.
          expect(facts.links.length, at).toBeGreaterThan(1);
          for (const href of facts.links) expect(href.startsWith(localizedPath(language.prefix, '/')), `${at}: ${href}`).toBe(true);
        }
        // No key name or unfilled placeholder leaks into the page.
        const visible = `${facts.title} ${facts.description} ${facts.rootText}`;
        expect(visible, at).not.toMatch(/\{\w+\}|landing\.|home\.|pricing\.|templates\./);
      }
    }
  }, 240_000);

  it('speaks the page’s language: the German home page is German', async () => {
    const english = await parseHtml((await get('/')).body);
    const german = await parseHtml((await get('/de')).body);
    expect(german.h1[0]).toBe(readLocale('de-de')['home.title']);
    expect(german.h1[0]).not.toBe(english.h1[0]);
  });

  it('escapes its texts: markup, ampersands and quotes stay text', async () => {
    const res = await get('/de/pricing');
    const facts = await parseHtml(res.body);
    expect(facts.h1).toEqual([TRICKY]);
    expect(facts.h1Children).toBe(0);
    expect(facts.title).toBe(`${TRICKY} · Quire`);
    expect(facts.og['og:title']).toBe(TRICKY);
    expect(res.body).not.toContain('<b>');
  });

  it('keeps the app’s index page for other paths, in the path’s language', async () => {
    for (const [pathname, lang, dir] of [
      ['/app/merge-pdf', 'en', 'ltr'],
      ['/ar/app/merge-pdf', 'ar', 'rtl'],
      ['/de/app/home', 'de', 'ltr'],
      ['/nope', 'en', 'ltr'],
    ] as const) {
      const res = await get(pathname);
      expect(res.status, pathname).toBe(200);
      const facts = await parseHtml(res.body);
      expect([facts.lang, facts.dir, facts.canonical, facts.rootText], pathname).toEqual([lang, dir, [], '']);
    }
  });

  it('moves a page’s address with a trailing slash to its canonical one for good, keeping the query', async () => {
    for (const [from, to] of [
      ['/pdf-to-png/', '/pdf-to-png'],
      ['/de/pricing/?ref=mail', '/de/pricing?ref=mail'],
      ['/jp/', '/jp'],
    ]) {
      const res = await fetch(served.quire.url + from, { redirect: 'manual' });
      expect([res.status, res.headers.get('location')], from).toEqual([301, to]);
    }
  });

  it('lists every page in every language in sitemap.xml, each with its alternates, and robots.txt points to it', async () => {
    const res = await get('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^application\/xml/);
    const sitemap = await parser.evaluate((source) => {
      const doc = new DOMParser().parseFromString(source, 'application/xml');
      if (doc.querySelector('parsererror')) return { error: doc.querySelector('parsererror')!.textContent };
      const ns = 'http://www.sitemaps.org/schemas/sitemap/0.9';
      return {
        root: doc.documentElement.namespaceURI,
        urls: [...doc.getElementsByTagNameNS(ns, 'url')].map((url) => ({
          loc: url.getElementsByTagNameNS(ns, 'loc')[0]!.textContent,
          alternates: [...url.getElementsByTagNameNS('http://www.w3.org/1999/xhtml', 'link')].map(
            (l) => `${l.getAttribute('hreflang')} ${l.getAttribute('href')}`,
          ),
        })),
      };
    }, res.body);
    expect(sitemap).not.toHaveProperty('error');
    expect(sitemap.urls).toHaveLength(siteLanguages.length * marketingPages.length);
    const expectedLocs = siteLanguages.flatMap((l) => marketingPages.map((p) => urlOf(l.prefix, p)));
    expect(sitemap.urls!.map((u) => u.loc)).toEqual(expectedLocs);
    const pricing = sitemap.urls!.find((u) => u.loc === `${PUBLIC_URL}/ar/pricing`)!;
    expect(pricing.alternates).toHaveLength(siteLanguages.length + 1);
    expect(pricing.alternates).toContain(`de ${PUBLIC_URL}/de/pricing`);
    expect(pricing.alternates).toContain(`x-default ${PUBLIC_URL}/pricing`);

    const robots = await get('/robots.txt');
    expect(robots.status).toBe(200);
    expect(robots.body).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
  });
});
