// The site from the keyboard alone: a skip link is the first stop of Tab on every layout, in the
// page's language; every tool page's file chooser opens with Tab and Enter and Tab then reaches its
// action button; the PDF editor's and the five AI tools' file choosers open with Tab and
// Enter or Space; the header's tool search finds the editor and the AI tools, its arrow keys move
// through the results (aria-activedescendant) and Enter opens one; what is typed in it reads.
import os from 'node:os';
import path from 'node:path';
import type { FileChooser, Page } from 'playwright-core';
import { toolDefinitions } from '@quire/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../apps/server/test/fixtures.js';
import { axeViolations, withAxe } from './axe.js';
import { openAsNewAccount, startE2e, tmpDir, type E2e } from './browser.js';
import { toolDocuments } from './toolDocuments.js';

let e2e: E2e;
let pdf: string;
beforeAll(async () => {
  e2e = await startE2e();
  pdf = await makePdf(path.join(os.tmpdir(), `quire-keyboard-${process.pid}.pdf`), 3, 'Keys');
});
afterAll(() => e2e.stop());

const DESKTOP = { width: 1280, height: 800 };

const focusedTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null);

/** Presses Tab until the element of `testId` has focus; how many presses it took (fails past `most`). */
async function tabTo(page: Page, testId: string, most = 60): Promise<number> {
  for (let presses = 1; presses <= most; presses++) {
    await page.keyboard.press('Tab');
    if ((await focusedTestId(page)) === testId) return presses;
  }
  throw new Error(`${testId} not reached in ${most} presses of Tab on ${page.url()}`);
}

/**
 * The next file chooser of the page. Asked for before the keys are pressed: the browser intercepts
 * choosers only a moment after the listener is added, and a press at once could beat it.
 */
function nextChooser(page: Page): () => Promise<FileChooser> {
  const chooser = new Promise<FileChooser>((resolve) => page.once('filechooser', resolve));
  return async () => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no file chooser on ${page.url()}`)), 10_000);
    });
    try {
      return await Promise.race([chooser, late]);
    } finally {
      clearTimeout(timer);
    }
  };
}

describe('the skip link', () => {
  it('is the first stop of Tab, and Enter then Tab reaches the page’s own first button', async () => {
    for (const [pathname, first, text] of [
      ['/app/merge-pdf', 'select-files', 'Skip to content'],
      ['/de/app/split-pdf', 'select-files', 'Zum Inhalt springen'],
      ['/pricing', null, 'Skip to content'],
    ] as const) {
      const page = await e2e.open(pathname, DESKTOP);
      await page.locator('h1').first().waitFor();
      await expect.poll(() => page.getByTestId('skip-link').textContent()).toBe(text);
      await page.keyboard.press('Tab');
      expect(await focusedTestId(page), pathname).toBe('skip-link');
      // Seen where it is focused, not only there for screen readers.
      const box = await page.getByTestId('skip-link').boundingBox();
      expect(box!.y).toBeGreaterThanOrEqual(0);
      await page.screenshot({ path: path.join(os.tmpdir(), `quire-skip-link${pathname.replaceAll('/', '-')}.png`) });
      await page.keyboard.press('Enter');
      if (first) {
        await page.keyboard.press('Tab');
        expect(await focusedTestId(page), pathname).toBe(first);
      } else {
        // Past the header: the next stop is inside the page's main element.
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.querySelector('main')!.contains(document.activeElement))).toBe(true);
      }
      await page.context().close();
    }
  });
});

describe('every tool page from the keyboard', () => {
  it('opens its file chooser with Tab and Enter, and Tab then reaches its action button once it can act', async () => {
    const documentFor = await toolDocuments(tmpDir('keyboard-tools'));
    const context = await e2e.browser.newContext({ viewport: DESKTOP });
    const stuck: string[] = [];
    let reached = 0;
    for (const tool of toolDefinitions) {
      const page = await context.newPage();
      await page.goto(`${e2e.quire.url}/app/${tool.slug}`);
      await page.getByTestId('select-files').waitFor();
      // The session and the texts settled: nothing redraws the button under the focus.
      await page.waitForLoadState('networkidle');
      try {
        const chooser = nextChooser(page);
        await tabTo(page, 'select-files');
        await page.keyboard.press('Enter');
        await (await chooser()).setFiles(documentFor(tool));
        await page.getByTestId('run-tool').waitFor({ timeout: 60_000 });
        // Uploaded: the button is no longer held back by the file itself.
        await page.waitForFunction(
          () =>
            [...document.querySelectorAll<HTMLElement>('[data-testid="file-item"]')].every(
              (item) => item.dataset.state !== 'localAdded' && item.dataset.state !== 'ossUploading',
            ),
          null,
          { timeout: 60_000 },
        );
        await page.waitForLoadState('networkidle');
        // A button waiting for what the tool needs first (a password, a second file, a mark) is out of
        // the Tab order, as disabled buttons are; the others must be reached.
        if (await page.getByTestId('run-tool').isEnabled()) {
          await tabTo(page, 'run-tool', 150);
          reached++;
        }
      } catch (e) {
        stuck.push(`${tool.slug}: ${(e as Error).message.split('\n')[0]}`);
      }
      await page.close();
    }
    await context.close();
    expect(stuck).toEqual([]);
    expect(reached).toBeGreaterThan(toolDefinitions.length * 0.75);
  }, 600_000);
});

describe('file choosers from the keyboard', () => {
  it('opens the PDF editor’s with Tab and Enter, and the chosen PDF opens', async () => {
    const page = await e2e.open('/app/pdf-editor?t=edit', DESKTOP);
    await page.getByTestId('dropzone').waitFor();
    // The session and the texts settled: nothing redraws the button under the focus.
    await page.waitForLoadState('networkidle');
    const chooser = nextChooser(page);
    await tabTo(page, 'file-input-button');
    expect(await focusedTestId(page)).toBe('file-input-button');
    await page.keyboard.press('Enter');
    await (await chooser()).setFiles(pdf);
    await page.getByTestId('dropzone').waitFor({ state: 'detached', timeout: 60_000 });
    await page.context().close();
  });

  it('opens each AI tool’s with Tab and Enter or Space', async () => {
    const tools = [
      { pathname: '/app/chat-pdf', pick: 'chat-file-button' },
      { pathname: '/app/ai-read', pick: 'read-file-button' },
      { pathname: '/app/ai-translator', mode: 'translate-mode-file', pick: 'translate-file-button' },
      { pathname: '/app/ai-proofread', mode: 'proofread-mode-file', pick: 'proofread-file-button' },
      { pathname: '/app/ai-detector', mode: 'detector-mode-file', pick: 'detector-file-button' },
    ];
    let n = 0;
    for (const { pathname, mode, pick } of tools) {
      const page = await openAsNewAccount(e2e, pathname, DESKTOP, `keys-${n++}@example.org`);
      await page.locator('h1').first().waitFor();
      // The account's state and tokens settled: nothing redraws the button under the focus.
      await page.waitForLoadState('networkidle');
      const opened = nextChooser(page);
      if (mode) {
        await tabTo(page, mode);
        await page.keyboard.press('Enter');
      }
      await tabTo(page, pick);
      await page.waitForLoadState('networkidle');
      expect(await focusedTestId(page), pathname).toBe(pick);
      const key = n % 2 ? 'Enter' : 'Space';
      await page.keyboard.press(key);
      const chooser = await opened();
      expect(chooser.isMultiple(), pathname).toBe(false);
      // Answered, as a user does: a chooser left open holds back the next page's.
      await chooser.setFiles(pdf);
      await page.context().close();
    }
  }, 180_000);
});

describe('the header’s tool search', () => {
  it('finds the editor and every AI tool, moves with the arrow keys and opens with Enter', async () => {
    const page = await e2e.open('/', DESKTOP);
    const search = page.getByTestId('header-search').first();
    await search.waitFor();
    for (const title of ['Edit PDF', 'Annotate PDF', 'Chat with PDF', 'AI read', 'AI translator', 'AI proofreader', 'AI detector']) {
      await search.fill(title);
      await expect.poll(() => page.getByTestId('search-result').allTextContents(), { message: title }).toContain(title);
    }
    await search.fill('rotate');
    const results = page.getByTestId('search-result');
    await expect.poll(() => results.allTextContents()).toEqual(['Rotate PDF', 'Rotate image']);
    expect(await search.getAttribute('role')).toBe('combobox');
    expect(await search.getAttribute('aria-expanded')).toBe('true');
    // Down twice marks the second result; Up once the first; the field keeps the focus all along.
    await search.press('ArrowDown');
    await search.press('ArrowDown');
    const second = await results.nth(1).getAttribute('id');
    expect(await search.getAttribute('aria-activedescendant')).toBe(second);
    expect(await results.nth(1).getAttribute('aria-selected')).toBe('true');
    await page.screenshot({ path: path.join(os.tmpdir(), 'quire-search-marked-1280.png') });
    await search.press('ArrowUp');
    expect(await search.getAttribute('aria-activedescendant')).toBe(await results.nth(0).getAttribute('id'));
    expect(await focusedTestId(page)).toBe('header-search');
    await search.press('ArrowDown');
    const title = await results.nth(1).textContent();
    await search.press('Enter');
    await page.waitForURL((url) => url.pathname.startsWith('/app/'));
    await expect.poll(() => page.locator('h1').first().textContent()).toBe(title);
    await page.context().close();
  });

  it('shows what is typed in it legibly: nothing serious for axe with results open', async () => {
    const context = await e2e.browser.newContext({ viewport: DESKTOP, ...withAxe.context });
    const page = await context.newPage();
    await page.goto(`${e2e.quire.url}/`);
    await withAxe.prepare(page);
    await page.getByTestId('header-search').first().fill('pdf');
    await page.getByTestId('search-results').waitFor();
    expect(await axeViolations(page, 'search open')).toEqual([]);
    await context.close();
  });
});
