// Chat with PDF in Chromium against the real server and its classic provider: a three-page PDF
// uploaded to the document cloud and read (the free plan here analyses two pages), summarised,
// asked about with answers whose page links open the page cited; the plan's questions used up
// (11007); conversations renamed, pinned, shared (read from the link without an account), reopened
// after a reload, deleted; notes added and deleted; the phone layout's three tabs.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAsNewAccount, startE2e, type E2e } from './browser.js';
import { makeProsePdf } from './prosePdf.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-e2e-ai-chat-'));

let e2e: E2e;
let pdf: string;
let accounts = 0;
beforeAll(async () => {
  pdf = await makeProsePdf(path.join(dir, 'subjects.pdf'));
  // Two pages analysed and three questions, so that both limits show in a few steps.
  const limitsFile = path.join(dir, 'limits.json');
  fs.writeFileSync(limitsFile, JSON.stringify({ free: { ai: { questions: 3, pagesPerAnalysis: 2 } } }));
  e2e = await startE2e({ limitsFile });
});
afterAll(() => e2e.stop());

/** Uploads the PDF and waits until it is read and can be asked about. */
async function uploadAndWait(page: Page) {
  await page.getByTestId('chat-file').setInputFiles(pdf);
  await page.getByTestId('chat-workspace').waitFor();
  // Read in part (2 of its 3 pages): the AI plan, which reads more, is offered once.
  const upgrade = page.getByTestId('upgrade-dialog');
  await upgrade.waitFor({ timeout: 60_000 });
  expect(await upgrade.getAttribute('data-upgrade')).toBe('chatLimitPage');
  await upgrade.getByTestId('upgrade-cancel').click();
  await expect.poll(() => page.getByTestId('chat-question').isEnabled(), { timeout: 60_000 }).toBe(true);
}

async function ask(page: Page, question: string) {
  const answers = page.getByTestId('chat-message-assistant');
  const before = await answers.count();
  await page.getByTestId('chat-question').fill(question);
  await page.getByTestId('chat-question').press('Enter');
  await expect.poll(() => answers.count()).toBe(before + 1);
  // Done streaming: Send is back in place of Stop.
  await page.getByTestId('chat-send').waitFor();
  return answers.nth(before);
}

/** The page's own API calls, with its session. */
const apiGet = (page: Page, url: string) => page.evaluate(async (u) => (await fetch(u)).json(), url);

describe('Chat with PDF', () => {
  it('reads the pages the plan allows, summarises, answers with the page cited, and stops at the plan’s questions', async () => {
    const page = await openAsNewAccount(e2e, '/app/chat-pdf', { width: 1280, height: 900 }, `chat-${accounts++}@example.org`);
    await uploadAndWait(page);
    expect(await page.getByTestId('chat-file-name').textContent()).toContain('subjects.pdf');
    expect(await page.getByTestId('chat-status').textContent()).toContain('first 2 of 3 pages');
    const summary = page.getByTestId('chat-summary');
    await summary.waitFor();
    expect(((await summary.locator('.chat-summary-text').textContent()) ?? '').length).toBeGreaterThan(100);
    expect(await page.getByTestId('chat-keywords').locator('li').count()).toBeGreaterThan(0);
    // The page-3 subject was not read: the summary speaks of the first two only.
    expect(await summary.textContent()).not.toContain('Stockton');

    const answer = await ask(page, 'What makes a volcano erupt?');
    expect(await answer.textContent()).toMatch(/magma/);
    const cite = answer.getByTestId('chat-cite').first();
    expect(await cite.getAttribute('data-page')).toBe('2');
    await cite.click();
    const cited = page.locator('.chat-page.cited');
    expect(await cited.getAttribute('data-page')).toBe('2');
    await expect.poll(() => cited.locator('[data-drawn="yes"]').count()).toBe(1);
    await expect
      .poll(() =>
        page.evaluate(() => {
          const pane = document.querySelector('[data-testid="chat-document"]')!.getBoundingClientRect();
          const shown = document.querySelector('.chat-page.cited')!.getBoundingClientRect();
          // Scrolled to: the page's top at the pane's top (the last page may stop short of it).
          return Math.abs(shown.top - pane.top) < 40;
        }),
      )
      .toBe(true);
    await page.screenshot({ path: path.join(dir, 'chat-1280.png') });

    // A suggested question is asked in the same conversation.
    await page.getByTestId('chat-suggestions').locator('button').first().click();
    await expect.poll(() => page.getByTestId('chat-message-assistant').count()).toBe(2);
    await page.getByTestId('chat-send').waitFor();
    await ask(page, 'How should a kitchen garden be watered?');

    const conversations = (await apiGet(page, '/api/ai/v2/conversation/list')).data.conversations;
    expect(conversations).toHaveLength(1);
    const detail = await apiGet(page, `/api/ai/v2/conversation/detail?conversation_id=${conversations[0].conversation_id}`);
    expect(detail.data.messages.map((m: { role: string }) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(detail.data.messages[0].content).toBe('What makes a volcano erupt?');
    // The PDF is in the document cloud.
    const listing = await page.evaluate(async () =>
      (
        await fetch('/api/cloud/v1/list', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ folder_id: null, sort: 'name', order: 'asc' }),
        })
      ).json(),
    );
    expect(JSON.stringify(listing.data)).toContain('subjects.pdf');

    // The fourth question is over the plan's three: the upgrade dialog, and the question kept in the box.
    await page.getByTestId('chat-question').fill('When did the first railway open?');
    await page.getByTestId('chat-question').press('Enter');
    await page.getByTestId('upgrade-dialog').waitFor();
    expect(await page.getByTestId('chat-question').inputValue()).toBe('When did the first railway open?');
    expect(await page.getByTestId('chat-message-user').count()).toBe(3);
  });

  it('renames, pins, shares, reopens and deletes conversations, and keeps notes', async () => {
    const page = await openAsNewAccount(e2e, '/app/chat-pdf', { width: 1280, height: 900 }, `chat-${accounts++}@example.org`);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await uploadAndWait(page);
    await ask(page, 'What is basalt lava like?');

    await page.getByTestId('chat-history').click();
    const item = page.getByTestId('chat-conversation');
    expect(await item.count()).toBe(1);
    await item.getByTestId('chat-rename').click();
    await page.getByTestId('chat-rename-input').fill('Lava notes');
    await page.getByTestId('chat-rename-save').click();
    await expect.poll(() => page.getByTestId('chat-history').textContent()).toContain('Lava notes');
    await item.getByTestId('chat-pin').click();
    await expect.poll(() => item.getByTestId('chat-pin').getAttribute('aria-pressed')).toBe('true');

    await item.getByTestId('chat-share').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain('/app/chat-pdf?conversation=');
    const link = await page.evaluate(() => navigator.clipboard.readText());
    // Anyone with the link reads the conversation, without an account.
    const reader = await e2e.open(new URL(link).pathname + new URL(link).search);
    await reader.getByTestId('chat-shared').waitFor();
    await expect.poll(() => reader.getByTestId('chat-message-user').textContent()).toBe('What is basalt lava like?');
    expect(await reader.getByTestId('chat-message-assistant').textContent()).toMatch(/lava/i);
    expect(await reader.title()).toContain('Lava notes');
    expect(await reader.getByTestId('signin-dialog').count()).toBe(0);

    // A new conversation starts empty, under the summary.
    await page.getByTestId('chat-new').click();
    expect(await page.getByTestId('chat-message-user').count()).toBe(0);
    await page.getByTestId('chat-summary').waitFor();

    // Notes on a page: added, listed, deleted.
    await page.getByTestId('chat-tab-notes').click();
    await page.getByTestId('chat-note-page').fill('2');
    await page.getByTestId('chat-note-text').fill('Compare with Etna.');
    await page.getByTestId('chat-note-add').click();
    await expect.poll(() => page.getByTestId('chat-note').textContent()).toContain('Compare with Etna.');
    expect(await page.getByTestId('chat-note').textContent()).toContain('Page 2');

    // After a reload the conversation is among the recent ones, and reopens with its messages.
    await page.reload();
    const recent = page.getByTestId('chat-recent');
    await recent.waitFor();
    await recent.getByRole('button', { name: /Lava notes/ }).click();
    await expect.poll(() => page.getByTestId('chat-message-user').textContent()).toBe('What is basalt lava like?');
    await page.getByTestId('chat-tab-notes').click();
    await expect.poll(() => page.getByTestId('chat-note').count()).toBe(1);
    await page.getByTestId('chat-note-delete').click();
    await expect.poll(() => page.getByTestId('chat-note').count()).toBe(0);

    await page.getByTestId('chat-tab-chat').click();
    await page.getByTestId('chat-history').click();
    await page.getByTestId('chat-delete').click();
    await page.getByTestId('confirm-ok').click();
    await expect.poll(async () => (await apiGet(page, '/api/ai/v2/conversation/list')).data.conversations.length).toBe(0);
    expect(await page.getByTestId('chat-message-user').count()).toBe(0);

    // Leaving with the document open asks first, with the chat's own message.
    await page.locator('.sidebar').getByRole('link', { name: 'Home' }).click();
    const confirm = page.getByTestId('confirm-dialog');
    await expect.poll(() => confirm.textContent()).toContain('conversations and notes are kept');
    await page.getByTestId('confirm-cancel').click();
    expect(new URL(page.url()).pathname).toBe('/app/chat-pdf');
    await page.locator('.sidebar').getByRole('link', { name: 'Home' }).click();
    await page.getByTestId('confirm-ok').click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/app/home');
  });

  it('shows the document, the chat and the notes as tabs on a phone', async () => {
    const page = await openAsNewAccount(e2e, '/app/chat-pdf', { width: 390, height: 844 }, `chat-${accounts++}@example.org`);
    await uploadAndWait(page);
    expect(await page.getByTestId('chat-document').isVisible()).toBe(false);
    const answer = await ask(page, 'When should the garden beds be watered?');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: path.join(dir, 'chat-390.png') });
    // Page 3 was not analysed: the answer rests on the first two pages.
    const pages = await answer.getByTestId('chat-cite').evaluateAll((els) => els.map((e) => e.getAttribute('data-page')));
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.every((p) => p === '1' || p === '2')).toBe(true);
    await answer.getByTestId('chat-cite').first().click();
    await page.getByTestId('chat-document').waitFor();
    expect(await page.getByTestId('chat-panel').isVisible()).toBe(false);
    await expect.poll(() => page.locator('.chat-page.cited [data-drawn="yes"]').count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: path.join(dir, 'chat-390-document.png') });
    console.info(`Chat with PDF screenshots: ${dir}`);
  });
});
