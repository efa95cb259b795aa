// The app shell: every tool page of the registry loads, the marketing home searches live,
// redirects and language prefixes behave as the product defines them, at desktop and mobile widths.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolDefinitions } from '@quire/contracts';
import { startE2e, type E2e } from './browser.js';

let e2e: E2e;
beforeAll(async () => {
  e2e = await startE2e();
});
afterAll(async () => {
  await e2e.stop();
});

describe('every tool page', () => {
  it.each(toolDefinitions.map((t) => [t.slug, t.extFrom[0]]))('/app/%s shows the sidebar and an upload zone', async (slug, ext) => {
    const page = await e2e.open(`/app/${slug}`);
    await page.getByTestId('dropzone').waitFor();
    expect(await page.getByTestId('sidebar').isVisible()).toBe(true);
    expect(await page.getByTestId('file-input').getAttribute('accept')).toContain(`.${ext}`);
    await page.context().close();
  });
});

describe('marketing home', () => {
  it('filters tools live, case-insensitively, with a no-results line', async () => {
    const page = await e2e.open('/');
    const cards = page.getByTestId('tool-card');
    await cards.first().waitFor();
    const all = await cards.count();
    // Pages reached by their slug only (marketing links) are not listed.
    expect(all).toBeGreaterThanOrEqual(toolDefinitions.filter((t) => t.listed !== false).length);
    const search = page.locator('[data-testid="tool-search"] input, input[data-testid="tool-search"]').first();
    await search.fill('SPLIT');
    await expect.poll(() => cards.count()).toBe(1);
    expect(await cards.first().textContent()).toMatch(/split/i);
    await search.fill('zzzz');
    await page.getByTestId('no-results').waitFor();
    await page.context().close();
  });

  it('has no sidebar outside /app', async () => {
    const page = await e2e.open('/');
    await page.getByTestId('tool-card').first().waitFor();
    expect(await page.getByTestId('sidebar').count()).toBe(0);
    await page.context().close();
  });
});

describe('routes', () => {
  it('offers every conversion on /app/pdf-converter: any file to PDF, and the conversions from PDF below; the home at /app/home-test', async () => {
    const page = await e2e.open('/app/pdf-converter');
    await page.getByTestId('dropzone').waitFor();
    const accepted = (await page.getByTestId('file-input').getAttribute('accept'))!.split(',');
    expect(accepted).toEqual(expect.arrayContaining(['.docx', '.xlsx', '.pptx', '.jpg']));
    const fromPdf = page.getByTestId('converter-from-pdf').getByTestId('tool-card');
    const hrefs = await fromPdf.evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(expect.arrayContaining(['/app/pdf-to-word', '/app/pdf-to-jpg', '/app/pdf-to-epub', '/app/pdf-to-pages']));
    expect(hrefs).not.toContain('/app/extract-images-from-pdf');
    await page.goto(`${e2e.quire.url}/app/home-test`);
    await page.getByTestId('tool-card').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/home-test');
    await page.context().close();
  });

  it('redirects legacy /v2/{tool}-new paths to /app/{tool}, keeping the query', async () => {
    const page = await e2e.open('/de/v2/merge-pdf-new?from=mail');
    await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe('/de/app/merge-pdf?from=mail');
    await page.context().close();
  });

  it('sends /v2/popular-tools and unknown paths to the home page', async () => {
    for (const from of ['/v2/popular-tools', '/no/such/page']) {
      const page = await e2e.open(from);
      await expect.poll(() => new URL(page.url()).pathname).toBe('/');
      await page.context().close();
    }
  });

  it('speaks German under /de and keeps the prefix in links', async () => {
    const page = await e2e.open('/de/app/merge-pdf');
    await expect.poll(() => page.locator('h1').first().textContent()).toBe('PDF zusammenfügen');
    const hrefs = await page
      .getByTestId('sidebar')
      .locator('a[href*="/app/"]')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs.length).toBeGreaterThan(3);
    expect(hrefs.every((h) => h!.startsWith('/de/'))).toBe(true);
    await page.context().close();
  });

  it('uses the mobile layout at 390 px without the desktop sidebar', async () => {
    const page = await e2e.open('/app/split-pdf', { width: 390, height: 844 });
    await page.getByTestId('dropzone').waitFor();
    // The sidebar becomes a drawer parked off-screen until the menu button opens it.
    const box = await page.getByTestId('sidebar').boundingBox();
    expect(box === null || box.x + box.width <= 0).toBe(true);
    await page.context().close();
  });
});
