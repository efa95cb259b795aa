// Every route of the site, and a walk through them in one browser page as the app's own links move
// (the history API): far quicker than loading each route afresh, so tests can see them all.
import { marketingPages, type siteLanguages, toolDefinitions } from '@quire/contracts';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { expect } from 'vitest';

const APP_PAGES = [
  'home',
  'home-test',
  'account',
  'document-cloud',
  'share-document',
  'download-file',
  'pdf-editor',
  'automated-test',
  'message',
  'activity/free',
  'ai-detector',
  'ai-detector-result',
  'ai-translator',
  'ai-proofread',
  'chat-pdf',
  'ai-read',
  ...toolDefinitions.map((tool) => tool.slug),
];

/** Every route, as a path after the language's prefix: the marketing pages (landing pages included), the viewer, the app. */
export const ROUTES = [...marketingPages.map((p) => p.path), '/preview', ...APP_PAGES.map((p) => `/app/${p}`)];

export type Language = (typeof siteLanguages)[number];

export const urlOf = (language: Language, route: string) => (language.prefix ? `/${language.prefix}${route === '/' ? '' : route}` : route);

interface Walk {
  browser: Browser;
  /** The server's address. */
  origin: string;
  language: Language;
  width: number;
  /** More of the browser context's options (a signed-in session, say). */
  context?: BrowserContextOptions;
  /** Once, on the first page, before the walk. */
  prepare?(page: Page): Promise<void>;
  /** The routes to walk: every one (ROUTES) unless named. */
  routes?: readonly string[];
}

/**
 * Opens the language's home, then shows each route in turn, and hands each to `visit` once its page
 * has set its title (the title is cleared before each move). Reduced motion: what is looked at is
 * the page as it settles, not halfway through a transition.
 */
export async function walkRoutes(walk: Walk, visit: (route: string, page: Page) => Promise<void>) {
  const { language, width } = walk;
  const context = await walk.browser.newContext({ viewport: { width, height: 900 }, reducedMotion: 'reduce', ...walk.context });
  const page = await context.newPage();
  await page.goto(walk.origin + urlOf(language, '/'));
  // Texts load on demand: the page's language follows once they have.
  await expect.poll(() => page.evaluate(() => document.documentElement.lang), { timeout: 10_000 }).toBe(language.htmlLang);
  // The server's copy of a marketing page is in the page from the start: the app's own replaces it once it renders.
  await page.locator('#root > :not(.prerendered)').first().waitFor({ state: 'attached' });
  await walk.prepare?.(page);
  for (const route of walk.routes ?? ROUTES) {
    const url = urlOf(language, route);
    await page.evaluate((to) => {
      if (location.pathname === to) return; // the home page it opened on
      document.title = '';
      history.pushState(null, '', to);
      dispatchEvent(new PopStateEvent('popstate'));
    }, url);
    await page
      .waitForFunction(() => document.title !== '', null, { timeout: 15_000 })
      .catch(() => expect.fail(`${url} at ${width} px set no title`));
    await visit(route, page);
  }
  await context.close();
}
