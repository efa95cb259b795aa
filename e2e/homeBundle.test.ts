// The home route's JavaScript, as Chromium loads it from the built app, stays within 250 KB gzipped;
// pdf.js (and its worker) is left for the tool pages that draw previews.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2e, type E2e } from './browser.js';

const HOME_JS_BUDGET_BYTES = 250 * 1024;

let e2e: E2e;
beforeAll(async () => {
  e2e = await startE2e();
});
afterAll(async () => {
  await e2e.stop();
});

describe('home route bundle', () => {
  it.each(['/', '/app/home'])('%s loads at most 250 KB of gzipped JavaScript, and no pdf.js', async (pathname) => {
    const page = await (await e2e.browser.newContext()).newPage();
    const scripts = new Set<string>();
    page.on('request', (r) => {
      if (r.resourceType() === 'script' || /\.m?js(\?|$)/.test(r.url())) scripts.add(new URL(r.url()).pathname);
    });
    await page.goto(e2e.quire.url + pathname, { waitUntil: 'networkidle' });
    await page.locator('h1').first().waitFor();
    const dist = e2e.quire.ctx.config.webDist;
    const sizes = [...scripts].map((p) => {
      const gzipped = zlib.gzipSync(fs.readFileSync(path.join(dist, p))).length;
      return { p, gzipped };
    });
    const total = sizes.reduce((sum, s) => sum + s.gzipped, 0);
    console.log(
      `${pathname}: ${(total / 1024).toFixed(1)} KB gzipped in`,
      sizes.map((s) => `${s.p} ${(s.gzipped / 1024).toFixed(1)} KB`),
    );
    expect(sizes.length).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(HOME_JS_BUDGET_BYTES);
    // pdf.js is the chunk pdf-<hash>.js and its worker pdf.worker.min-<hash>.mjs (our small pdfDocument-<hash>.js wrapper may load).
    expect(sizes.filter((s) => /\/pdf(-|\.worker)[^/]*\.m?js$/.test(s.p))).toEqual([]);
    await page.context().close();
  });
});
