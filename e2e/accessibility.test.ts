// axe-core in Chromium on every route of the site, for a visitor (in English, and right to left in
// Arabic, at 1280 and 390 px) and for a signed-in account (1280 and 390 px), and on a page of each
// kind in every other language: no serious or critical violation.
import { siteLanguages } from '@quire/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, withAxe } from './axe.js';
import { E2E_PASSWORD, startE2e, type E2e } from './browser.js';
import { type Language, urlOf, walkRoutes } from './routeWalk.js';
import { createAccount } from '../apps/server/src/services/accounts.js';

let e2e: E2e;
beforeAll(async () => {
  e2e = await startE2e();
});
afterAll(() => e2e.stop());

const english = siteLanguages[0];
const arabic = siteLanguages.find((l) => l.prefix === 'ar')!;

/** A page of each kind: the marketing home, a landing page, pricing, the app's home, a tool, an AI page, the viewer. */
const PAGE_KINDS = ['/', '/png-to-pdf', '/pricing', '/app/home', '/app/merge-pdf', '/app/chat-pdf', '/preview'];

/** The serious and critical violations axe finds on `routes` (every one unless named), as "page width: rule: element why". */
async function violations(language: Language, width: number, storageState?: string, routes?: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  const walk = {
    browser: e2e.browser,
    origin: e2e.quire.url,
    language,
    width,
    ...(routes && { routes }),
    ...withAxe,
    context: { ...withAxe.context, storageState },
  };
  await walkRoutes(walk, async (route, page) => {
    found.push(...(await axeViolations(page, `${urlOf(language, route)} ${width}`)));
  });
  return found;
}

describe('accessibility (axe-core)', () => {
  it('finds nothing serious on any route a visitor opens, left to right and right to left', async () => {
    const found = await Promise.all([
      violations(english, 1280),
      violations(english, 390),
      violations(arabic, 1280),
      violations(arabic, 390),
    ]);
    expect(found.flat()).toEqual([]);
  }, 600_000);

  it('finds nothing serious on a page of each kind in every other language', async () => {
    const others = siteLanguages.filter((l) => l !== english && l !== arabic);
    const found: string[] = [];
    // Four languages at a time: each walk is a browser context of its own.
    for (let i = 0; i < others.length; i += 4)
      found.push(...(await Promise.all(others.slice(i, i + 4).map((l) => violations(l, 1280, undefined, PAGE_KINDS)))).flat());
    expect(found).toEqual([]);
  }, 600_000);

  it('shows where the keyboard is: every element Tab reaches on a page of each kind draws a focus ring', async () => {
    const context = await e2e.browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const unmarked: string[] = [];
    for (const route of ['/', '/pricing', '/png-to-pdf', '/app/home', '/app/merge-pdf']) {
      await page.goto(e2e.quire.url + route);
      await page.locator('#root > :not(.prerendered)').first().waitFor({ state: 'attached' });
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      const reached = new Set<string>();
      for (let i = 0; i < 30; i++) {
        await page.keyboard.press('Tab');
        const focused = await page.evaluate(() => {
          const el = document.activeElement;
          if (!el || el === document.body) return null;
          // A ring on the element, or on the box it sits in (a search field's).
          const ring = (e: Element | null) => {
            if (!e) return false;
            const s = getComputedStyle(e);
            return (s.outlineStyle !== 'none' && Number.parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
          };
          const r = el.getBoundingClientRect();
          const name = `${el.tagName.toLowerCase()}${el.getAttribute('data-testid') ? `[${el.getAttribute('data-testid')}]` : ''} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
          return {
            name,
            marked: ring(el) || ring(el.parentElement) || ring(el.parentElement?.parentElement ?? null),
            shown: r.width > 0 && r.height > 0,
          };
        });
        if (!focused) continue;
        reached.add(focused.name);
        if (!focused.marked || !focused.shown) unmarked.push(`${route}: ${focused.name}${focused.shown ? '' : ' (not shown)'}`);
      }
      expect(reached.size, route).toBeGreaterThan(8);
    }
    await context.close();
    expect(unmarked).toEqual([]);
  }, 120_000);

  it('finds nothing serious on any route for a signed-in account', async () => {
    const email = 'axe@example.org';
    await createAccount(e2e.quire.ctx, email, E2E_PASSWORD, 'premium');
    // Signed in once through the API; the browser contexts share that session.
    const context = await e2e.browser.newContext();
    const answer = await context.request.post(`${e2e.quire.url}/api/account/v1/login`, { data: { email, password: E2E_PASSWORD } });
    expect((await answer.json()).code).toBe(0);
    const state = `${e2e.quire.ctx.config.dataDir}/axe-session.json`;
    await context.storageState({ path: state });
    await context.close();
    const found = await Promise.all([violations(english, 1280, state), violations(english, 390, state)]);
    expect(found.flat()).toEqual([]);
  }, 600_000);
});
