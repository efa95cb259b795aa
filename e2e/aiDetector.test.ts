// The AI detector's pages in Chromium against the real server and its statistical detector: a
// visitor is asked to sign in; pasted text is checked from 250 characters on; the result page shows
// the server's score, verdict and every sentence marked, and says the detector is statistical; a
// PDF's text is checked and the characters left go down; past the free plan's characters the AI
// upgrade dialog opens. With a model set for the detector (the tests' tiny model), the result page
// says the model scored the text, or that it could not and the statistical detector did.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../apps/server/src/services/accounts.js';
import { makePdf } from '../apps/server/test/fixtures.js';
import { startOpenAiServer, type OpenAiTestServer } from '../apps/server/test/openaiServer.js';
import { tinyModelWriting, writeTinyModel } from '../apps/server/test/tinyModel.js';
import { likelihoodOf } from '../apps/web/src/ai/detector/likelihood.js';
import { startE2e, type E2e } from './browser.js';

const PASSWORD = 'long enough password';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-e2e-detector-'));

/** Held-out passages of the labelled set: a licence (people wrote it) and this project's specification (a language model did). */
function passage(label: 'human' | 'machine', source: string): string {
  const rows = fs
    .readFileSync(path.resolve(import.meta.dirname, '../test-corpus/ai-detect/passages.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { text: string; label: string; source: string; split: string });
  const texts = rows.filter((r) => r.label === label && r.split === 'test' && r.source.includes(source)).map((r) => r.text);
  return texts.join('\n\n').slice(0, 1500);
}

let e2e: E2e;
let accounts = 0;
beforeAll(async () => {
  e2e = await startE2e();
});
afterAll(() => e2e.stop());

/** A new free account signed in from the sign-in dialog the page opens by itself. */
async function openSignedIn(viewport?: { width: number; height: number }, on = e2e): Promise<Page> {
  const email = `detector-${accounts++}@example.org`;
  await createAccount(on.quire.ctx, email, PASSWORD, 'free');
  const page = await on.open('/app/ai-detector', viewport);
  const dialog = page.getByTestId('signin-dialog');
  await dialog.waitFor();
  expect(await dialog.getByTestId('signin-reason').textContent()).toContain('Sign in to use the AI tools');
  await dialog.getByLabel('Email', { exact: true }).fill(email);
  await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await dialog.getByTestId('signin-submit').click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByTestId('ai-detector').waitFor();
  return page;
}

const remaining = async (page: Page) => (await page.getByTestId('detector-remaining').textContent())?.replace(/\s+/g, ' ');

/** Detects `text` from the text tab and answers the percentage the result page shows. */
async function detect(page: Page, text: string): Promise<number> {
  await page.getByTestId('detector-text').fill(text);
  await page.getByTestId('detector-run').click();
  await page.getByTestId('detector-score').waitFor();
  const percent = Number(/(\d+)%/.exec((await page.getByTestId('detector-percent').textContent()) ?? '')?.[1]);
  expect(await page.getByTestId('detector-score').getAttribute('data-verdict')).toBe(likelihoodOf(percent / 100));
  return percent;
}

describe('the AI detector pages', () => {
  it('asks a visitor to sign in and runs nothing before', async () => {
    const page = await e2e.open('/app/ai-detector');
    await page.getByTestId('signin-dialog').waitFor();
    await page.getByTestId('signin-dialog').getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('ai-signed-out').waitFor();
    expect(await page.getByTestId('detector-run').count()).toBe(0);
  });

  it('checks pasted text from 250 characters on, and marks a licence as more human than the specification', async () => {
    const page = await openSignedIn({ width: 1280, height: 900 });
    expect(await remaining(page)).toBe('10,000 of 10,000 characters left');
    const human = passage('human', 'GPL-3');
    await page.getByTestId('detector-text').fill(human.slice(0, 249));
    expect(await page.getByTestId('detector-run').isDisabled()).toBe(true);
    expect(await page.getByTestId('detector-count').textContent()).toBe('249 characters · at least 250');
    await page.getByTestId('detector-text').fill(human.slice(0, 250));
    expect(await page.getByTestId('detector-run').isEnabled()).toBe(true);

    const humanPercent = await detect(page, human);
    // Every sentence the server scored is marked, in order, and together they are the text.
    const marks = page.getByTestId('detector-sentence');
    expect(await marks.count()).toBeGreaterThan(3);
    const marked = (await marks.evaluateAll((els) => els.map((e) => e.firstChild?.textContent ?? ''))).join(' ');
    expect(marked.replace(/\s+/g, ' ')).toBe(human.replace(/\s+/g, ' ').trim());
    expect(await page.getByTestId('detector-charged').textContent()).toContain(
      `${human.length.toLocaleString('en-US')} characters checked`,
    );
    expect(await page.getByTestId('detector-method').getAttribute('data-method')).toBe('statistical');
    expect(await page.getByTestId('detector-method').textContent()).toMatch(/^A statistical estimate/);
    expect(await page.getByTestId('detector-fallback').count()).toBe(0);
    await page.screenshot({ path: path.join(dir, 'result-1280.png'), fullPage: true });

    await page.getByTestId('detector-again').click();
    await page.getByTestId('ai-detector').waitFor();
    expect(await remaining(page)).toBe(`${(10_000 - human.length).toLocaleString('en-US')} of 10,000 characters left`);
    const machinePercent = await detect(page, passage('machine', 'spec/product.md'));
    expect(machinePercent).toBeGreaterThan(humanPercent);
    await page.reload();
    // The result stays through a reload (it is the navigation's).
    await page.getByTestId('detector-score').waitFor();
    expect(Number(/(\d+)%/.exec((await page.getByTestId('detector-percent').textContent()) ?? '')?.[1])).toBe(machinePercent);
  });

  it("checks a PDF's text, names the file, and opens the AI upgrade dialog past the free plan's characters", async () => {
    const page = await openSignedIn({ width: 390, height: 844 });
    await page.screenshot({ path: path.join(dir, 'detector-390.png'), fullPage: true });
    // Eight pages of "Rivers rise and fall with the seasons. Page N": over 250 characters of text.
    const pdf = await makePdf(path.join(dir, 'rivers.pdf'), 8, 'Rivers rise and fall with the seasons.');
    await page.getByTestId('detector-mode-file').click();
    await page.getByTestId('detector-file').setInputFiles(pdf);
    expect(await page.getByTestId('detector-file-name').textContent()).toContain('rivers.pdf');
    await page.getByTestId('detector-run').click();
    await page.getByTestId('detector-score').waitFor();
    expect(await page.getByTestId('detector-source').textContent()).toBe('rivers.pdf');
    expect(await page.getByTestId('detector-sentences').textContent()).toContain('Rivers rise and fall');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: path.join(dir, 'result-390.png'), fullPage: true });

    // Two requests of 5,000 characters (the free plan's most per request) use up its 10,000.
    await page.getByTestId('detector-again').click();
    const long = passage('human', 'GFDL').repeat(4).slice(0, 5000);
    await detect(page, long);
    await page.getByTestId('detector-again').click();
    await page.getByTestId('ai-detector').waitFor();
    await page.getByTestId('detector-text').fill(long);
    await page.getByTestId('detector-run').click();
    const dialog = page.getByTestId('upgrade-dialog');
    await dialog.waitFor();
    expect(await dialog.getAttribute('class')).toContain('upgrade-ai');
    console.info(`AI detector screenshots: ${dir}`);
  });
});

describe('the AI detector pages with a model set for the detector', () => {
  const modelPath = path.join(dir, 'tiny.gguf');
  let endpoint: OpenAiTestServer;
  let withModel: E2e;
  beforeAll(async () => {
    writeTinyModel(modelPath);
    endpoint = await startOpenAiServer(modelPath, 'detector-endpoint-key');
    // An endpoint that ignores echo, as llama.cpp's server does: it cannot score text.
    endpoint.echoes = false;
    withModel = await startE2e({
      aiProviders: { ...e2e.quire.ctx.config.aiProviders, detect: 'local' },
      aiModels: {
        local: { modelPath, memoryMb: 2048, contextTokens: 1024, threads: 1 },
        openai: { baseUrl: endpoint.baseUrl, model: 'tiny', key: 'detector-endpoint-key' },
      },
    });
  });
  afterAll(async () => {
    await withModel?.stop();
    await endpoint?.close();
  });

  it('says the model scored the text, or that it could not and the statistical detector did', async () => {
    const page = await openSignedIn({ width: 1280, height: 900 }, withModel);
    // The tiny model's own writing: a machine's text to the model, letters at random to the statistics.
    const writing = await tinyModelWriting(modelPath, 'The', 300);
    expect(await detect(page, writing)).toBeGreaterThan(50);
    expect(await page.getByTestId('detector-method').getAttribute('data-method')).toBe('model');
    expect(await page.getByTestId('detector-method').textContent()).toMatch(
      /^An estimate from how predictable the text is to an AI language model/,
    );
    expect(await page.getByTestId('detector-fallback').count()).toBe(0);
    // The writing is one run of 300 characters without a space: it wraps inside its card.
    expect(await page.getByTestId('detector-sentences').evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    await page.screenshot({ path: path.join(dir, 'result-model-1280.png'), fullPage: true });

    withModel.quire.ctx.config.aiProviders.detect = 'openai';
    await page.getByTestId('detector-again').click();
    expect(await detect(page, writing)).toBeLessThan(50);
    expect(await page.getByTestId('detector-method').getAttribute('data-method')).toBe('statistical');
    expect(await page.getByTestId('detector-fallback').textContent()).toBe(
      'The AI model set up on this server cannot score texts, so this result comes from the statistical detector instead.',
    );
  });
});

describe('the personal centre', () => {
  it('shows the share of AI tokens left, less after an AI answer', async () => {
    const page = await openSignedIn();
    const tokens = async () => {
      await page.getByTestId('avatar-button').first().click();
      const summary = page.getByTestId('account-ai-tokens');
      await summary.waitFor();
      const shown = { percent: await summary.getAttribute('data-percent'), text: (await summary.textContent())?.replace(/\s+/g, ' ') };
      await page.getByTestId('avatar-button').first().click();
      return shown;
    };
    expect(await tokens()).toEqual({ percent: '100', text: 'AI tokens100% left · 5,000 of 5,000' });
    // 400 words translated: the classic provider charges a word a token.
    const charged = await page.evaluate(async () => {
      const res = await fetch('/api/ai/v2/translate/text', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'The house is red. '.repeat(100), from: 'en', to: 'es' }),
      });
      return ((await res.json()) as { data: { tokens: number } }).data.tokens;
    });
    expect(charged).toBe(400);
    expect(await tokens()).toEqual({ percent: '92', text: 'AI tokens92% left · 4,600 of 5,000' });
  });
});
