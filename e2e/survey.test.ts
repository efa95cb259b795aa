// The occupation survey in Chromium: with a language picked (localStorage quire.language) it appears
// a second after sign-in; submit waits for a choice, Other's 48 characters show the limit tip;
// Escape closes it for 7 days (the page's clock moved 8 days brings it back); an answer is kept as the
// account's career and it never asks again. On a 390 px phone it is a bottom drawer that scrolls
// nothing sideways, shown at load for a signed-in account; without a picked language it never shows.
// Screenshots go to QUIRE_SHOTS when it is set.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../apps/server/src/services/accounts.js';
import { findAccountByEmail } from '../apps/server/src/db/accountsRepo.js';
import { E2E_PASSWORD, openAsNewAccount, signInFromHeader, startE2e, type E2e } from './browser.js';

const DAY_MS = 24 * 3600_000;

let e2e: E2e;
beforeAll(async () => {
  e2e = await startE2e();
});
afterAll(() => e2e.stop());

const shot = async (page: Page, name: string) => {
  if (process.env.QUIRE_SHOTS) await page.screenshot({ path: `${process.env.QUIRE_SHOTS}/${name}.png` });
};
const pickLanguage = (page: Page) => page.evaluate(() => localStorage.setItem('quire.language', 'en'));
const careerOf = async (email: string) => (await findAccountByEmail(e2e.quire.ctx.db, email))?.career;
/** The survey stays away: well past the second it would take to appear. */
const staysAway = async (page: Page) => {
  await page.waitForTimeout(2000);
  expect(await page.getByTestId('survey').count()).toBe(0);
};

describe('occupation survey', () => {
  it('asks a second after sign-in, checks the answer, rests 7 days when closed, and never asks once answered', async () => {
    const email = 'surveyed@example.org';
    await createAccount(e2e.quire.ctx, email, E2E_PASSWORD, 'free');
    const context = await e2e.browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.clock.install();
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error('page error:', e));
    await page.goto(`${e2e.quire.url}/`);
    await pickLanguage(page);
    await signInFromHeader(page, email, E2E_PASSWORD);
    const signedInAt = Date.now();

    const survey = page.getByTestId('survey');
    await survey.waitFor();
    expect(Date.now() - signedInAt).toBeGreaterThan(600);
    await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('[data-testid="survey"]'))).toBe(true);
    const choices = page.getByRole('radiogroup', { name: 'What do you do?' });
    expect(await choices.getByRole('radio').count()).toBe(13);
    const submit = page.getByTestId('survey-submit');
    expect(await submit.isDisabled()).toBe(true);

    await choices.getByText('Other', { exact: true }).click();
    const text = page.getByTestId('survey-other-text');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('survey-other-text');
    expect(await submit.isDisabled()).toBe(true);
    await text.fill('x'.repeat(48));
    await page.getByTestId('survey-limit').waitFor();
    expect(await submit.isDisabled()).toBe(true);
    await text.fill('Lighthouse keeper');
    expect(await page.getByTestId('survey-limit').count()).toBe(0);
    expect(await submit.isDisabled()).toBe(false);
    await shot(page, 'survey-1280');

    await page.keyboard.press('Escape');
    await survey.waitFor({ state: 'detached' });
    await page.reload();
    await page.getByTestId('avatar-button').first().waitFor();
    await staysAway(page);

    await context.clock.setSystemTime(Date.now() + 8 * DAY_MS);
    await page.reload();
    await survey.waitFor();
    await choices.getByText('Legal', { exact: true }).click();
    let sent = 0;
    page.on('request', (req) => {
      if (req.url().endsWith('/api/ai/v2/user-ext-info/collect')) sent++;
    });
    // Two presses at once (before the page re-renders): one answer sent.
    await submit.evaluate((button: HTMLButtonElement) => {
      button.click();
      button.click();
    });
    await page.getByTestId('toast').filter({ hasText: 'Your occupation has been saved' }).waitFor();
    await survey.waitFor({ state: 'detached' });
    expect(await careerOf(email)).toBe('Legal');
    expect(sent).toBe(1);

    await page.reload();
    await page.getByTestId('avatar-button').first().waitFor();
    await staysAway(page);
    await context.close();
  });

  it('on a phone: never without a picked language; at load once picked, as a bottom drawer', async () => {
    const viewport = { width: 390, height: 844 };
    const page = await openAsNewAccount(e2e, '/app/chat-pdf', viewport, 'phone@example.org');
    await staysAway(page);

    await pickLanguage(page);
    await page.reload();
    const survey = page.getByTestId('survey');
    await survey.waitFor();
    // The drawer rises into place (0.2 s): measured once it is there.
    const bottom = async () => {
      const box = (await survey.boundingBox())!;
      return Math.round(box.y + box.height);
    };
    await expect.poll(bottom).toBe(viewport.height);
    const box = (await survey.boundingBox())!;
    expect(Math.round(box.x)).toBe(0);
    expect(Math.round(box.width)).toBe(viewport.width);
    await survey.getByText('Other', { exact: true }).click();
    await page.getByTestId('survey-other-text').fill('y'.repeat(48));
    await page.getByTestId('survey-limit').waitFor();
    const sideways = await page.evaluate(() => {
      const dialog = document.querySelector('[data-testid="survey"]')!;
      return document.documentElement.scrollWidth > window.innerWidth || dialog.scrollWidth > dialog.clientWidth;
    });
    expect(sideways).toBe(false);
    await shot(page, 'survey-390');
    await page.getByRole('button', { name: 'Not now' }).click();
    await survey.waitFor({ state: 'detached' });
    expect(await careerOf('phone@example.org')).toBe('');
  });
});
