// The translator and the proofreader in Chromium against the real server (Apertium, Hunspell,
// diction): text translated and copied, a pivot named, a PDF translated into a PDF that pdftotext
// reads in Spanish with its pages kept; a text proofread, one suggestion accepted, the corrected
// text downloaded; a visitor asked to sign in first.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../apps/server/test/fixtures.js';
import { openAsNewAccount, startE2e, type E2e, OPERATOR_CONTACT } from './browser.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-e2e-ai-language-'));

let e2e: E2e;
let accounts = 0;
beforeAll(async () => {
  e2e = await startE2e();
});
afterAll(() => e2e.stop());

const openSignedIn = (pathname: string, viewport: { width: number; height: number }) =>
  openAsNewAccount(e2e, pathname, viewport, `language-${accounts++}@example.org`);

describe('the AI translator page', () => {
  it('translates text from English to Spanish, copies it, and names the pivot of French to Portuguese', async () => {
    const page = await openSignedIn('/app/ai-translator', { width: 1280, height: 900 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByTestId('ai-translator').waitFor();
    await expect.poll(() => page.getByTestId('translate-from').locator('option').count()).toBeGreaterThan(3);
    await page.getByTestId('translate-from').selectOption('en');
    await page.getByTestId('translate-to').selectOption('es');
    await page.getByTestId('translate-source').fill('The house is red. My friend reads a book in the garden.');
    await page.getByTestId('translate-run').click();
    await expect.poll(() => page.getByTestId('translate-result').textContent()).toMatch(/casa/);
    const translated = (await page.getByTestId('translate-result').textContent()) ?? '';
    expect(translated).toMatch(/jardín/);
    await page.getByTestId('translate-copy').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(translated);
    await page.screenshot({ path: path.join(dir, 'translator-1280.png'), fullPage: true });

    await page.getByTestId('translate-from').selectOption('fr');
    await page.getByTestId('translate-to').selectOption('pt');
    expect(await page.getByTestId('translate-via').textContent()).toContain('Spanish');
  });

  it('translates a PDF into a PDF of the same pages that reads in Spanish', async () => {
    const page = await openSignedIn('/app/ai-translator', { width: 390, height: 844 });
    await page.getByTestId('translate-mode-file').click();
    await page.getByTestId('translate-from').selectOption('en');
    await page.getByTestId('translate-to').selectOption('es');
    const pdf = await makePdf(path.join(dir, 'house.pdf'), 3, 'The house is red.');
    await page.getByTestId('translate-file').setInputFiles(pdf);
    await page.getByTestId('translate-run').click();
    const link = page.getByTestId('translate-download');
    await link.waitFor({ timeout: 120_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: path.join(dir, 'translator-390.png'), fullPage: true });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const out = path.join(dir, 'translated.pdf');
    await download.saveAs(out);
    expect(execFileSync('pdfinfo', [out], { encoding: 'utf8' })).toMatch(/Pages:\s+3/);
    const text = execFileSync('pdftotext', [out, '-'], { encoding: 'utf8' });
    expect(text).toMatch(/casa/);
    expect(text).not.toMatch(/house/);
  });
});

describe('the AI proofreader page', () => {
  it('marks the issues, applies an accepted suggestion, and downloads the corrected text', async () => {
    const page = await openSignedIn('/app/ai-proofread', { width: 1280, height: 900 });
    await expect.poll(() => page.getByTestId('proofread-language').inputValue()).toBe('en-US');
    await page
      .getByTestId('proofread-text')
      .fill('This is is a sentense about the weather. It was decided by the committee in order to finish early.');
    await page.getByTestId('proofread-run').click();
    await page.getByTestId('proofread-review').waitFor();
    const spelling = page.locator('[data-testid="proofread-issue"][data-kind="spelling"]');
    expect(await spelling.count()).toBe(1);
    // The doubled word, the misspelling and the wordy phrase are marked in the text; the passive sentences around them are listed.
    expect(await page.getByTestId('proofread-mark').allTextContents()).toEqual([' is', 'sentense', 'in order to']);
    await page.screenshot({ path: path.join(dir, 'proofread-1280.png'), fullPage: true });
    const before = await page.getByTestId('proofread-issue').count();
    await spelling
      .getByTestId('proofread-accept')
      .filter({ hasText: /^sentence$/ })
      .click();
    expect(await page.getByTestId('proofread-result').textContent()).toContain('This is is a sentence about');
    expect(await page.getByTestId('proofread-issue').count()).toBe(before - 1);
    // Ignoring the doubled word keeps the text as it is.
    const doubled = page.locator('[data-testid="proofread-issue"][data-kind="grammar"]');
    await doubled.getByTestId('proofread-ignore').click();
    expect(await page.getByTestId('proofread-issue').count()).toBe(before - 2);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('proofread-download').click()]);
    const saved = path.join(dir, 'proofread.txt');
    await download.saveAs(saved);
    expect(fs.readFileSync(saved, 'utf8')).toBe(
      'This is is a sentence about the weather. It was decided by the committee in order to finish early.',
    );
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: path.join(dir, 'proofread-390.png'), fullPage: true });
    console.info(`AI language screenshots: ${dir}`);
  });

  it('asks a visitor to sign in first', async () => {
    for (const pathname of ['/app/ai-proofread', '/app/ai-translator']) {
      const page = await e2e.open(pathname);
      await page.getByTestId('signin-dialog').waitFor();
      expect(await page.getByTestId('signin-reason').textContent()).toContain('Sign in to use the AI tools');
      expect(await page.getByTestId('proofread-run').count()).toBe(0);
      expect(await page.getByTestId('translate-run').count()).toBe(0);
    }
    // Its sign-in dialog belongs to the AI page: going back to the page before closes it.
    const page = await e2e.open('/app/merge-pdf');
    await page.getByTestId('file-input').waitFor({ state: 'attached' });
    await page.evaluate(() => {
      history.pushState(null, '', '/app/ai-translator');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await page.getByTestId('signin-dialog').waitFor();
    await page.goBack();
    await page.getByTestId('signin-dialog').waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe('/app/merge-pdf');
  });
});

describe('out of AI tokens', () => {
  // A server whose free and AI plans have 10 tokens: one translation of more words uses them up.
  let small: E2e;
  beforeAll(async () => {
    const limitsFile = path.join(dir, 'limits.json');
    fs.writeFileSync(limitsFile, JSON.stringify({ free: { ai: { tokens: 10 } }, ai: { ai: { tokens: 10 } } }));
    small = await startE2e({ limitsFile, operatorContact: OPERATOR_CONTACT });
  });
  afterAll(() => small.stop());

  for (const plan of ['free', 'ai'] as const) {
    it(`opens the AI upgrade dialog for the ${plan} plan`, async () => {
      const page = await openAsNewAccount(small, '/app/ai-translator', { width: 1280, height: 900 }, `tokens-${plan}@example.org`, plan);
      await expect.poll(() => page.getByTestId('translate-from').locator('option').count()).toBeGreaterThan(3);
      await page.getByTestId('translate-from').selectOption('en');
      await page.getByTestId('translate-to').selectOption('es');
      // 12 words, more than the 10 tokens left: refused (11003), nothing translated.
      await page.getByTestId('translate-source').fill('The house is red and the garden is green in the summer.');
      await page.getByTestId('translate-run').click();
      const upgrade = page.getByTestId('upgrade-dialog');
      await upgrade.waitFor();
      expect(await upgrade.getAttribute('class')).toContain('upgrade-ai');
      if (plan === 'free') {
        expect(await upgrade.getByTestId('upgrade-buy-ai').count()).toBe(1);
        expect(await upgrade.getByTestId('upgrade-renews').count()).toBe(0);
      } else {
        expect(await upgrade.getByTestId('upgrade-renews').textContent()).toMatch(/renews on/);
      }
      expect(await page.getByTestId('translate-result').textContent()).toBe('');
      await page.screenshot({ path: path.join(dir, `tokens-${plan}.png`) });
    });
  }
});
