// The home route's JavaScript, as Chromium loads it from the built app, stays within its budget gzipped;
// pdf.js (and its worker) and the tools' option panels are left for the tool pages. The built files
// go out precompressed (br, gzip) as the client accepts, hashed names cached for a year.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2e, type E2e } from './browser.js';

/** Zod off the home route (ADR 0542), the English texts split by the pages that use them (ADR 0544). */
const HOME_JS_BUDGET_KB = 160;
const HOME_JS_BUDGET_BYTES = HOME_JS_BUDGET_KB * 1024;

let e2e: E2e;
beforeAll(async () => {
  e2e = await startE2e();
});
afterAll(async () => {
  await e2e.stop();
});

describe('home route bundle', () => {
  it.each(['/', '/app/home'])(`%s loads at most ${HOME_JS_BUDGET_KB} KB of gzipped JavaScript, and no pdf.js`, async (pathname) => {
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

/** A GET as sent, undecoded: fetch would unpack the body and hide the encoding. */
function rawGet(pathname: string, acceptEncoding?: string): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  const url = new URL(e2e.quire.url + pathname);
  const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
  return new Promise((resolve, reject) => {
    http
      .get({ host: url.hostname, port: url.port, path: url.pathname, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('delivery of the built files', () => {
  const unpack: Record<string, (b: Buffer) => Buffer> = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync };

  it("sends the home page's scripts and styles as br or gzip as asked, cached for a year under their hashed names", async () => {
    const html = (await rawGet('/')).body.toString('utf8');
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(3);
    let gzipped = 0;
    for (const asset of assets) {
      const original = fs.readFileSync(path.join(e2e.quire.ctx.config.webDist, asset));
      for (const [asked, sent] of [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
      ] as const) {
        const { headers, body } = await rawGet(asset, asked);
        // A file of a few hundred bytes may not shrink: it has no compressed variant.
        if (original.length > 1024) expect(headers['content-encoding'], `${asset} ${asked}`).toBe(sent);
        expect(headers.vary, asset).toMatch(/accept-encoding/i);
        expect(headers['cache-control'], asset).toBe('public, max-age=31536000, immutable');
        expect(headers['content-type'], asset).toMatch(asset.endsWith('.css') ? /^text\/css/ : /javascript/);
        const encoding = headers['content-encoding'];
        expect((encoding ? unpack[encoding]!(body) : body).equals(original), `${asset} ${asked}`).toBe(true);
        if (sent === 'gzip' && asset.endsWith('.js')) gzipped += body.length;
      }
      const plain = await rawGet(asset);
      expect(plain.headers['content-encoding'], asset).toBeUndefined();
      expect(plain.body.equals(original), asset).toBe(true);
    }
    console.log(`home page scripts sent gzipped: ${(gzipped / 1024).toFixed(1)} KB`);
  });

  it('has every name that is not hashed revalidated', async () => {
    for (const pathname of ['/favicon.svg', '/index.html']) {
      const { headers } = await rawGet(pathname, 'gzip, br');
      expect(headers['cache-control'], pathname).toBe('no-cache');
    }
    expect((await rawGet('/', 'gzip, br')).headers['cache-control'] ?? '').not.toMatch(/immutable|max-age=[1-9]/);
  });
});
