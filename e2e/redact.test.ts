// Redact as a user does it, in Chromium: mark an area by dragging on the page, search a word,
// see both previewed, apply, download, and check with pdftotext that the text is gone.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { download, startE2e, tmpDir, type E2e } from './browser.js';
import { makeDoc, text, words } from '../apps/server/test/editFixtures.js';

let e2e: E2e;
const dir = tmpDir('redact');
const file = (name: string) => path.join(dir, name);

beforeAll(async () => {
  e2e = await startE2e();
  await makeDoc(file('secret.pdf'), {
    pages: [
      {
        lines: [
          { text: 'Agent Zanzibar met the courier.', x: 72, y: 760 },
          { text: 'The vault code is 4471 today.', x: 72, y: 700, size: 18 },
        ],
      },
      { lines: [{ text: 'Zanzibar again on page two.', x: 72, y: 760 }] },
    ],
  });
});
afterAll(async () => {
  await e2e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('redact in the browser', () => {
  it('marks an area by dragging and a word by searching, previews both, and removes them from the file', async () => {
    const page = await e2e.open('/app/redact-pdf');
    await page.getByTestId('file-input').setInputFiles(file('secret.pdf'));
    await page.locator('[data-testid="file-item"][data-state="ossSuccessful"]').waitFor({ timeout: 30_000 });
    await page.locator('.page-view-sheet.drawn').waitFor({ timeout: 30_000 });

    // Drag over "4471" where pdftotext says it is (points from the top left; the view is scaled).
    const code = words(file('secret.pdf'), 1).find((w) => w.word === '4471')!.box;
    const view = (await page.getByTestId('page-view').boundingBox())!;
    const k = view.width / 595;
    await page.mouse.move(view.x + (code[0] - 3) * k, view.y + (code[1] - 3) * k);
    await page.mouse.down();
    await page.mouse.move(view.x + (code[2] + 3) * k, view.y + (code[3] + 3) * k, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => page.getByTestId('redact-mark').count()).toBe(1);
    expect(await page.getByTestId('area-count').textContent()).toBe('1 area marked');

    // Search a word: its hits on this page are shown, and counted over the document.
    await page.getByTestId('redact-search-input').fill('zanzibar');
    await page.getByTestId('redact-search-add').click();
    await expect.poll(() => page.getByTestId('term-hits').textContent(), { timeout: 15_000 }).toBe('2 matches');
    expect(await page.getByTestId('text-hit').count()).toBe(1);
    await page.getByTestId('page-next').click();
    await expect.poll(() => page.getByTestId('page-of').textContent()).toBe('Page 2 of 2');
    await expect.poll(() => page.getByTestId('text-hit').count()).toBe(1);
    // The area belongs to page 1.
    expect(await page.getByTestId('redact-mark').count()).toBe(0);

    await page.getByTestId('run-tool').click();
    await page.getByTestId('result').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('output-note').textContent()).toBe("Removed 1 marked area, 2 text matches and the document's metadata.");
    const out = await download(page, 'download', dir);
    const after = text(out);
    expect(after).not.toMatch(/zanzibar/i);
    expect(after).not.toContain('4471');
    expect(after).toMatch(/Agent\s+met the courier\./);
    expect(after).toMatch(/The vault code is\s+today\./);
    await page.context().close();
  });

  it('removes a mark with its button before anything is applied', async () => {
    const page = await e2e.open('/app/redact-pdf');
    await page.getByTestId('file-input').setInputFiles(file('secret.pdf'));
    await page.locator('.page-view-sheet.drawn').waitFor({ timeout: 30_000 });
    const view = (await page.getByTestId('page-view').boundingBox())!;
    await page.mouse.move(view.x + 50, view.y + 50);
    await page.mouse.down();
    await page.mouse.move(view.x + 150, view.y + 120, { steps: 5 });
    await page.mouse.up();
    await expect.poll(() => page.getByTestId('redact-mark').count()).toBe(1);
    expect(await page.getByTestId('run-tool').isDisabled()).toBe(false);
    await page.getByTestId('remove-mark').click();
    expect(await page.getByTestId('redact-mark').count()).toBe(0);
    expect(await page.getByTestId('run-tool').isDisabled()).toBe(true);
    await page.context().close();
  });
});
