// The built web app works under its Content-Security-Policy: pages load, pdf.js draws
// thumbnails in its worker, and Chromium reports no violation.
import fs from 'node:fs';
import crypto from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startE2e, tmpDir, type E2e } from './browser.js';
import { makePdf } from '../apps/server/test/fixtures.js';

let e2e: E2e;
const dir = tmpDir('csp');
const file = (name: string) => path.join(dir, name);

beforeAll(async () => {
  e2e = await startE2e();
  // Over the chunk threshold, so the upload hashes it with WebAssembly and sends it in parts.
  await makePdf(file('gamma.pdf'), 3, 'Gamma', undefined, crypto.randomBytes(700_000));
});
afterAll(async () => {
  await e2e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Every CSP violation the page or its workers report, as events and as console errors. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const consoleErrors: string[] = [];
  const collect = (msg: { type(): string; text(): string }) => {
    if (msg.type() === 'error' && /Content[- ]Security[- ]Policy|Refused to/i.test(msg.text())) consoleErrors.push(msg.text());
  };
  page.on('console', collect);
  page.on('worker', (worker) => worker.on('console', collect));
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`),
    );
  });
  return async () => [...consoleErrors, ...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations))];
}

/** True once some thumbnail canvas holds a drawn (non-white, non-transparent) pixel. */
const thumbnailDrawn = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLCanvasElement>('[data-testid="thumb"] canvas')].some((canvas) => {
      if (!canvas.width || !canvas.height) return false;
      const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 0; i < pixels.length; i += 4) if (pixels[i + 3]! > 0 && pixels[i]! < 128) return true;
      return false;
    }),
  );

describe('under the content security policy', () => {
  it('a tool page renders pdf.js thumbnails with no violation', async () => {
    const context = await e2e.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const violations = await watchViolations(page);
    const response = await page.goto(`${e2e.quire.url}/app/rearrange-pdf-pages`);
    const csp = response?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    await page.getByTestId('file-input').setInputFiles(file('gamma.pdf'));
    await expect.poll(() => page.getByTestId('thumb').count(), { timeout: 30_000 }).toBe(3);
    await expect.poll(() => thumbnailDrawn(page), { timeout: 60_000 }).toBe(true);
    // Other pages of the app too: the home page with its search, a language prefix, the pages of
    // the account's mailed links, the account page, and Chat PDF, whose chunk builds zod object
    // schemas at once (zod probes new Function unless the page told it jitless first).
    for (const pathname of ['/', '/app/chat-pdf', '/de/app/merge-pdf', '/account/reset-password#token=x', '/app/account']) {
      await page.goto(e2e.quire.url + pathname);
      await page.locator('h1').first().waitFor();
    }
    // The sign-in dialog with its inline checks.
    await page.getByTestId('login-button').click();
    await page.getByTestId('signin-submit').click();
    await page.getByTestId('field-error').first().waitFor();
    expect(await violations()).toEqual([]);
    await context.close();
  });

  it('the app cannot be framed by another page', async () => {
    const context = await e2e.browser.newContext();
    const page = await context.newPage();
    // A page of another origin (a data: URL is opaque) tries to frame the app.
    await page.goto(`data:text/html,<iframe src="${e2e.quire.url}/app/merge-pdf"></iframe>`);
    const framed = () => page.frames().find((f) => f !== page.mainFrame());
    // Chromium shows its own error page in place of a refused frame; wait until the frame has settled either way.
    await expect.poll(() => framed()?.url() ?? '', { timeout: 30_000 }).not.toMatch(/^(about:blank)?$/);
    expect(framed()!.url()).toMatch(/^chrome-error:/);
    await context.close();
  });
});
