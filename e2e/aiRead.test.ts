// AI read in Chromium against the real server (WordNet, diction's rules, TextRank, retrieval):
// text selected in pdf.js's text layer brings up the tool bar; a word is explained, a sentence
// rewritten, a passage and the whole document summarised, a question about a selection answered
// with its page opened; the marketing slugs land on the tool in its mode; the phone layout.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAsNewAccount, startE2e, type E2e } from './browser.js';
import { makeProsePdf, PROSE_PAGES } from './prosePdf.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-e2e-ai-read-'));

let e2e: E2e;
let pdf: string;
let accounts = 0;
beforeAll(async () => {
  pdf = await makeProsePdf(path.join(dir, 'subjects.pdf'));
  e2e = await startE2e();
});
afterAll(() => e2e.stop());

async function openPdf(page: Page) {
  await page.getByTestId('read-file').setInputFiles(pdf);
  await page.getByTestId('read-workspace').waitFor();
}

/** Selects, in page `n`'s text layer, from the start of `from` to the end of `to` (or of `from`), as a reader's drag would. */
async function select(page: Page, n: number, from: string, to = from) {
  const layer = page.locator(`.read-page[data-page="${n}"] .textLayer`);
  await layer.scrollIntoViewIfNeeded();
  await expect.poll(() => layer.textContent(), { timeout: 30_000 }).toContain(to);
  await page.evaluate(
    ([n, from, to]) => {
      const spans = Array.from(document.querySelectorAll(`.read-page[data-page="${n}"] .textLayer span`)).filter(
        (s) => s.firstChild?.nodeType === Node.TEXT_NODE,
      );
      const first = spans.find((s) => s.textContent!.includes(from!))!;
      const last = spans.slice(spans.indexOf(first)).find((s) => s.textContent!.includes(to!))!;
      const range = document.createRange();
      range.setStart(first.firstChild!, first.textContent!.indexOf(from!));
      range.setEnd(last.firstChild!, last.textContent!.indexOf(to!) + to!.length);
      document.getSelection()!.removeAllRanges();
      document.getSelection()!.addRange(range);
    },
    [String(n), from, to],
  );
  await page.getByTestId('read-toolbar').waitFor();
}

describe('AI read', () => {
  it('explains a word, rewrites a sentence and summarises a passage and the document from the selection', async () => {
    const page = await openAsNewAccount(e2e, '/app/ai-read', { width: 1280, height: 900 }, `read-${accounts++}@example.org`);
    await openPdf(page);

    await select(page, 2, 'magma');
    await page.screenshot({ path: path.join(dir, 'read-toolbar-1280.png') });
    await page.getByTestId('read-do-explain').click();
    const explained = page.getByTestId('read-explain');
    await expect.poll(() => explained.getByTestId('read-sense').count()).toBeGreaterThan(0);
    // WordNet knows magma as a noun: molten rock.
    expect(await explained.getByTestId('read-sense').first().getAttribute('data-pos')).toBe('noun');
    expect(await explained.textContent()).toMatch(/molten rock/);
    expect(await explained.locator('.read-sentence').textContent()).toContain('A volcano erupts when magma rises');

    await select(page, 1, 'Gardeners', 'healthy.');
    await page.getByTestId('read-do-rewrite').click();
    await expect.poll(() => page.getByTestId('read-rewritten').textContent()).toContain('to keep the soil healthy');
    expect(await page.getByTestId('read-rewritten').textContent()).not.toContain('in order to');
    expect(await page.getByTestId('read-changes').textContent()).toContain('in order to');
    expect(await page.getByTestId('read-rewrite-note').textContent()).toMatch(/without a language model/);

    const [, volcanoes] = PROSE_PAGES[1]!;
    await select(page, 2, 'A volcano erupts', 'explodes.');
    await page.getByTestId('read-do-summarise').click();
    const summary = page.getByTestId('read-summary');
    await expect.poll(() => summary.getAttribute('data-status')).toBe('done');
    const summarised = (await summary.textContent()) ?? '';
    expect(summarised.length).toBeGreaterThan(30);
    expect(summarised.length).toBeLessThan(volcanoes.length);
    for (const sentence of summarised.split(/(?<=[.;])\s+/)) expect(volcanoes).toContain(sentence.trim());
    await page.screenshot({ path: path.join(dir, 'read-summary-1280.png') });

    await page.getByTestId('read-summarise-document').click();
    await expect.poll(() => summary.getAttribute('data-status')).toBe('done');
    expect(await page.getByTestId('read-summarise').textContent()).toContain('The document in brief');
  });

  it('asks about a selection and opens the page the answer cites', async () => {
    const page = await openAsNewAccount(e2e, '/app/ai-read', { width: 1280, height: 900 }, `read-${accounts++}@example.org`);
    await openPdf(page);
    await select(page, 2, 'Basalt lava');
    await page.getByTestId('read-do-ask').click();
    const question = page.getByTestId('read-question');
    await expect.poll(() => question.inputValue()).toBe('“Basalt lava” ');
    await expect.poll(() => question.isEnabled(), { timeout: 60_000 }).toBe(true);
    await question.fill('“Basalt lava” how far does it flow?');
    await page.getByTestId('read-send').click();
    const answer = page.getByTestId('chat-message-assistant');
    await expect.poll(() => answer.textContent()).toMatch(/Basalt lava flows far/);
    // The document is scrolled back to the top, then the answer's page is opened.
    await page.getByTestId('read-pages').evaluate((el) => el.scrollTo(0, 0));
    await answer.getByTestId('chat-cite').first().click();
    expect(await page.locator('.read-page.cited').getAttribute('data-page')).toBe('2');
    await expect
      .poll(() =>
        page.evaluate(() => {
          const pane = document.querySelector('[data-testid="read-pages"]')!.getBoundingClientRect();
          return Math.abs(document.querySelector('.read-page.cited')!.getBoundingClientRect().top - pane.top) < 40;
        }),
      )
      .toBe(true);
  });

  it('opens the PDF chosen on a marketing slug’s landing page in the tool, in its mode', async () => {
    // Signed in on the tool (it asks at once), the visitor then comes by the landing page.
    const page = await openAsNewAccount(e2e, '/app/ai-read', { width: 1280, height: 900 }, `read-${accounts++}@example.org`);
    await page.goto(`${e2e.quire.url}/ai-pdf-rewriter`);
    await page.getByTestId('landing-file').setInputFiles(pdf);
    await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe('/app/ai-read?mode=rewrite');
    await page.getByTestId('read-workspace').waitFor();
    expect(await page.getByTestId('read-tab-rewrite').getAttribute('aria-selected')).toBe('true');
    await page.goto(`${e2e.quire.url}/de/pdf-proofreader`);
    await page.getByTestId('landing-file').setInputFiles(pdf);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/de/app/ai-proofread');
    await expect.poll(() => page.getByTestId('proofread-file-name').textContent()).toContain('.pdf');
  });

  it('shows the document and the AI as tabs on a phone', async () => {
    const page = await openAsNewAccount(e2e, '/app/ai-read?mode=explain', { width: 390, height: 844 }, `read-${accounts++}@example.org`);
    await openPdf(page);
    await select(page, 1, 'compost');
    await page.getByTestId('read-do-explain').click();
    await expect.poll(() => page.getByTestId('read-sense').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('read-pages').isVisible()).toBe(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: path.join(dir, 'read-explain-390.png') });
    await page.getByTestId('read-pane-document').click();
    expect(await page.getByTestId('read-pages').isVisible()).toBe(true);
    await page.screenshot({ path: path.join(dir, 'read-document-390.png') });
    console.info(`AI read screenshots: ${dir}`);
  });
});
