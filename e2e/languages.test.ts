// Every route of the site in every language, in Chromium at 1280 and 390 px: the page's language
// and direction, a title of its own, no translation key, no English text left, no sideways scroll,
// and none of the serious axe-core violations the words decide (names, labels, titles, languages).
// One browser page per language and width walks the routes as the app's own links do (the history
// API), so the 22 × 2 walks fit in minutes. Screenshots of five languages' home and a tool page are
// kept to look at; an error from the catalogue shows in the page's language.
import os from 'node:os';
import path from 'node:path';
import { ErrorCode, errorMessages, siteLanguages } from '@quire/contracts';
import { catalogueTexts } from '@quire/contracts/catalogueFiles';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, WORDING_RULES, withAxe } from './axe.js';
import { startE2e, type E2e } from './browser.js';
import { englishSentence, keptEnglish, looksLikeKey, readerTexts } from './pageTexts.js';
import { ROUTES, type Language, urlOf, walkRoutes } from './routeWalk.js';

let e2e: E2e;
beforeAll(async () => {
  e2e = await startE2e();
});
afterAll(() => e2e.stop());

const WIDTHS = [1280, 390];
/** The languages whose screenshots are looked at: a Latin, a CJK, a right-to-left and a Cyrillic script. */
const LOOKED_AT = ['de', 'jp', 'zh', 'ar', 'ru'];
const SHOT_ROUTES = ['/', '/app/merge-pdf'];
const shots = path.join(os.tmpdir(), 'quire-languages');

/** Up to this width the sidebar is a drawer, off screen until opened. */
const PHONE_MAX = 768;

/** Where the app's sidebar is: on the left edge (ltr), the right edge (rtl), off screen (hidden), elsewhere; undefined without one. */
function sidebarPlace(page: Page): Promise<string | undefined> {
  return page.evaluate(() => {
    const box = document.querySelector('.sidebar')?.getBoundingClientRect();
    if (!box) return undefined;
    if (box.right <= 0 || box.left >= window.innerWidth) return 'hidden';
    if (box.left === 0) return 'ltr';
    return Math.abs(box.right - window.innerWidth) < 1 ? 'rtl' : `at ${Math.round(box.left)}–${Math.round(box.right)} px`;
  });
}

interface Seen {
  title: string;
  texts: string[];
}
const walk = (language: Language, width: number, visit: (route: string, page: Page) => Promise<void>) =>
  walkRoutes({ browser: e2e.browser, origin: e2e.quire.url, language, width, ...withAxe }, visit);

/** What is wrong with one language at one width, route by route, against what the English pages showed. */
async function problemsOf(language: Language, width: number, english: Map<string, Seen>): Promise<string[]> {
  const problems: string[] = [];
  const kept = keptEnglish(language.locale);
  await walk(language, width, async (route, page) => {
    const where = `${urlOf(language, route)} at ${width} px`;
    const shown = await page.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir }));
    if (shown.lang !== language.htmlLang || shown.dir !== language.dir) problems.push(`${where}: lang ${shown.lang}, dir ${shown.dir}`);
    const title = await page.title();
    const englishTitle = english.get(route)!.title;
    if (title === englishTitle && !kept.has(englishTitle.replace(/ · Quire$/, ''))) problems.push(`${where}: the English title "${title}"`);
    const englishTexts = new Set(english.get(route)!.texts);
    for (const text of await readerTexts(page)) {
      if (looksLikeKey(text)) problems.push(`${where}: the key ${text}`);
      else if (englishSentence(text) && englishTexts.has(text) && !kept.has(text)) problems.push(`${where}: English "${text}"`);
    }
    if (await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)) problems.push(`${where}: scrolls sideways`);
    problems.push(...(await axeViolations(page, where, WORDING_RULES)));
    const sidebar = await sidebarPlace(page);
    const expected = width > PHONE_MAX ? language.dir : 'hidden';
    if (sidebar && sidebar !== expected) problems.push(`${where}: the sidebar is ${sidebar}, not ${expected}`);
    if (LOOKED_AT.includes(language.prefix) && SHOT_ROUTES.includes(route))
      await page.screenshot({ path: path.join(shots, `${language.prefix}${route.replaceAll('/', '-')}-${width}.png`) });
  });
  return problems;
}

describe('every language', () => {
  it('shows every route in its own language, in its direction, with no key or English left, named and labelled for axe, at 1280 and 390 px', async () => {
    const english = new Map<string, Seen>();
    await walk(siteLanguages[0], 1280, async (route, page) => {
      english.set(route, { title: await page.title(), texts: await readerTexts(page) });
    });
    // The English pages have titles of their own too.
    expect(new Set([...english.values()].map((seen) => seen.title)).size).toBeGreaterThan(ROUTES.length / 2);
    const walks = siteLanguages.filter((l) => l.prefix).flatMap((language) => WIDTHS.map((width) => [language, width] as const));
    const problems: string[] = [];
    // Three walks at a time: the pages wait on the network more than on the processor.
    for (let i = 0; i < walks.length; i += 3)
      problems.push(...(await Promise.all(walks.slice(i, i + 3).map(([language, width]) => problemsOf(language, width, english)))).flat());
    expect(problems).toEqual([]);
  }, 900_000);
});

describe('the error catalogue', () => {
  it('words a refused upload in the page’s language', async () => {
    const page = await e2e.open('/de/app/merge-pdf', { width: 1280, height: 900 });
    await expect.poll(() => page.evaluate(() => document.documentElement.lang), { timeout: 10_000 }).toBe('de');
    await page.getByTestId('file-input').setInputFiles([{ name: 'leer.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(0) }]);
    const card = page.locator('[data-testid="file-item"]', { hasText: 'leer.pdf' });
    await expect.poll(() => card.getAttribute('data-state'), { timeout: 30_000 }).toBe('damaged');
    const german = catalogueTexts('de-de')[ErrorCode.Empty];
    expect(german).not.toBe(errorMessages[ErrorCode.Empty]);
    expect(await card.locator('.file-status').textContent()).toBe(german);
    await page.context().close();
  });
});
