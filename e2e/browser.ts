// Debian's Chromium driven by playwright-core against a real Quire serving the built web app.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Plan } from '@quire/contracts';
import { createAccount } from '../apps/server/src/services/accounts.js';
import { startQuire, type Running } from '../apps/server/test/harness.js';

export const CHROMIUM = process.env.QUIRE_CHROMIUM ?? '/usr/bin/chromium';

export interface E2e {
  quire: Running;
  browser: Browser;
  /** A fresh browser context (a new visitor) with a page at `pathname`. */
  open(pathname: string, viewport?: { width: number; height: number }): Promise<Page>;
  stop(): Promise<void>;
}

/** `overrides`: server settings for the test (a low page limit, say). */
export async function startE2e(overrides: Parameters<typeof startQuire>[0] = {}): Promise<E2e> {
  const quire = await startQuire(overrides);
  if (!fs.existsSync(path.join(quire.ctx.config.webDist, 'index.html'))) throw new Error('the web app is not built: run npm run build');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-gpu',
      '--no-first-run',
    ],
  });
  return {
    quire,
    browser,
    async open(pathname, viewport = { width: 1440, height: 900 }) {
      const context = await browser.newContext({ viewport, acceptDownloads: true });
      const page = await context.newPage();
      page.on('pageerror', (e) => console.error('page error:', e));
      await page.goto(quire.url + pathname);
      return page;
    },
    async stop() {
      await browser.close();
      await quire.stop();
    },
  };
}

/** Fills and sends the sign-in dialog open on the page, and waits for it to close. */
export async function signInByDialog(page: Page, email: string, password: string): Promise<void> {
  const dialog = page.getByTestId('signin-dialog');
  await dialog.getByLabel('Email', { exact: true }).fill(email);
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  await dialog.getByTestId('signin-submit').click();
  await dialog.waitFor({ state: 'detached' });
}

/** Signs in through the Log in button of the header, and waits for the account's avatar. */
export async function signInFromHeader(page: Page, email: string, password: string): Promise<void> {
  await page.getByTestId('login-button').click();
  await signInByDialog(page, email, password);
  await page.getByTestId('avatar-button').first().waitFor();
}

export const E2E_PASSWORD = 'long enough password';

/** A new account of `plan`, signed in on a page that asks at once (the AI pages). */
export async function openAsNewAccount(
  e2e: E2e,
  pathname: string,
  viewport: { width: number; height: number },
  email: string,
  plan: Plan = 'free',
): Promise<Page> {
  await createAccount(e2e.quire.ctx, email, E2E_PASSWORD, plan);
  const page = await e2e.open(pathname, viewport);
  await signInByDialog(page, email, E2E_PASSWORD);
  return page;
}

/** Clicks the element that starts a download and saves it under `dir`. */
export async function download(page: Page, testId: string, dir: string, index = 0): Promise<string> {
  const [dl] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).nth(index).click()]);
  const dest = path.join(dir, dl.suggestedFilename());
  await dl.saveAs(dest);
  return dest;
}

export const tmpDir = (label: string) => fs.mkdtempSync(path.join(os.tmpdir(), `quire-e2e-${label}-`));

/** An operator's contact that is neither a page nor an address: buy buttons lead to the pricing page, which shows it. */
export const OPERATOR_CONTACT = 'Ask Ann at the front desk';
