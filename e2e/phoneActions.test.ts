// Every tool page on a phone (390 px) with a long document in it: its action button can be reached,
// scrolled into view, inside the viewport and on top of whatever else is there (the gift button,
// the page's own columns), tested where its centre is.
import os from 'node:os';
import path from 'node:path';
import { type ToolDefinition, toolDefinitions } from '@quire/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2e, tmpDir, type E2e } from './browser.js';
import { toolDocuments } from './toolDocuments.js';
import fs from 'node:fs';

let e2e: E2e;
let dir: string;
let documentFor: (tool: ToolDefinition) => string;
beforeAll(async () => {
  e2e = await startE2e();
  dir = tmpDir('phone-actions');
  documentFor = await toolDocuments(dir);
});
afterAll(async () => {
  await e2e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Where the button is once scrolled to: inside the viewport, and what the page shows at its centre. */
async function reach(page: import('playwright-core').Page): Promise<string | null> {
  const button = page.getByTestId('run-tool');
  await button.scrollIntoViewIfNeeded();
  return button.evaluate((el) => {
    // A page wider than the phone makes the browser's layout viewport wider and taller than the
    // screen: what is fixed to its foot is then below the screen at every scroll position.
    const screen = window.visualViewport!;
    const wide = document.documentElement.scrollWidth;
    if (wide > screen.width) return `the page is ${wide} px wide`;
    const r = el.getBoundingClientRect();
    const [left, top] = [screen.offsetLeft, screen.offsetTop];
    if (r.top < top || r.left < left || r.bottom > top + screen.height || r.right > left + screen.width)
      return `outside the screen (${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}×${Math.round(r.height)})`;
    const shown = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!shown || !(shown === el || el.contains(shown)))
      return `covered by ${shown?.tagName.toLowerCase()}.${shown?.className.toString().replace(/ /g, '.')}`;
    // The gift button floats in the corner, away from the centre: its box must not touch the button's.
    const gift = document.querySelector('[data-testid="activity-box"]')?.getBoundingClientRect();
    if (gift && gift.left < r.right && r.left < gift.right && gift.top < r.bottom && r.top < gift.bottom)
      return 'the gift button covers it';
    return null;
  });
}

describe('a tool’s action button on a phone', () => {
  it('can be reached on every tool page with a long document loaded', async () => {
    const context = await e2e.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const unreachable: string[] = [];
    for (const tool of toolDefinitions) {
      const page = await context.newPage();
      page.on('pageerror', (e) => console.error('page error:', e));
      await page.goto(`${e2e.quire.url}/app/${tool.slug}`);
      await page.getByTestId('file-input').setInputFiles(documentFor(tool));
      await page.getByTestId('run-tool').waitFor();
      // Pages drawn as thumbnails grow the page: it is looked at once they are in.
      await page.waitForLoadState('networkidle');
      const why = await reach(page);
      if (why) {
        unreachable.push(`${tool.slug}: ${why}`);
        await page.screenshot({ path: path.join(os.tmpdir(), `quire-phone-action-${tool.slug}.png`) });
      }
      await page.close();
    }
    await context.close();
    expect(unreachable).toEqual([]);
  }, 600_000);
});
