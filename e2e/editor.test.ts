// The PDF editor as a user works in it, in Chromium: open a PDF, change a word, highlight a
// line, add a sticky note and a shape, reload (the session comes back), undo one step, save and
// export; the exported file is checked with pdftotext and qpdf, and rendered for a look.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { annotations, formFields, makeDoc, pdfinfo, text, words } from '../apps/server/test/editFixtures.js';
import { download, startE2e, tmpDir, type E2e } from './browser.js';

let e2e: E2e;
const dir = tmpDir('editor');
const file = (name: string) => path.join(dir, name);
/** Screenshots to look at, kept where QUIRE_SHOTS says (the test itself does not judge them). */
const shots = process.env.QUIRE_SHOTS;

beforeAll(async () => {
  e2e = await startE2e();
  await makeDoc(file('letter.pdf'), {
    pages: [
      {
        lines: [
          { text: 'Dear committee, the meeting is on Tuesday.', x: 72, y: 760 },
          { text: 'Please bring the signed budget sheet.', x: 72, y: 730 },
          { text: 'The venue is the old library hall.', x: 72, y: 700 },
        ],
      },
      { lines: [{ text: 'Second page of the letter.', x: 72, y: 760 }] },
    ],
  });
  await makeDoc(file('form.pdf'), {
    pages: [
      {
        lines: [{ text: 'Application', x: 72, y: 780 }],
        fields: [{ name: 'applicant', value: '', rect: [72, 700, 200, 20] }],
        notes: [{ rect: [400, 760, 420, 780], contents: 'Old remark' }],
      },
      { lines: [{ text: 'Page to delete.', x: 72, y: 760 }] },
    ],
  });
});
afterAll(async () => {
  await e2e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Drags on page 1 between two points given in PDF points from the page's top left. */
async function dragOnPage(page: Page, from: [number, number], to: [number, number]) {
  const sheet = page.locator('[data-testid="editor-page"][data-page="1"]');
  const box = (await sheet.boundingBox())!;
  const k = box.width / 595;
  await page.mouse.move(box.x + from[0] * k, box.y + from[1] * k);
  await page.mouse.down();
  await page.mouse.move(box.x + to[0] * k, box.y + to[1] * k, { steps: 6 });
  await page.mouse.up();
}

const opCount = async (page: Page) => Number(await page.getByTestId('editor').getAttribute('data-ops'));

describe('the PDF editor in the browser', () => {
  it('edits text, annotates, keeps the session over a reload and undoes a step', async () => {
    const page = await e2e.open('/app/pdf-editor?t=edit', { width: 1280, height: 900 });
    await page.getByTestId('file-input').setInputFiles(file('letter.pdf'));
    await page.getByTestId('editor').waitFor({ timeout: 30_000 });
    await page.waitForURL(/file_id=/);
    await page.locator('[data-testid="page-thumb"][data-drawn="yes"]').first().waitFor({ timeout: 30_000 });

    // Edit mode: click into the first line and change a word.
    await page.getByTestId('tool-editText').click();
    await page.getByRole('button', { name: 'Dear committee, the meeting is on Tuesday.' }).click();
    const field = page.getByTestId('text-editor');
    await field.fill('Dear committee, the meeting is on Thursday.');
    await field.press('Enter');
    await expect.poll(() => opCount(page)).toBe(1);

    // Annotate mode: highlight the second line, a sticky note, a rectangle.
    await page.getByTestId('mode-annotate').click();
    await page.getByTestId('tool-highlight').click();
    const budget = words(file('letter.pdf'), 1).filter((w) => w.box[1] > 100 && w.box[1] < 115);
    await dragOnPage(page, [budget[0]!.box[0] - 2, budget[0]!.box[1] + 2], [budget.at(-1)!.box[2] + 2, budget[0]!.box[3] - 2]);
    await expect.poll(() => opCount(page)).toBe(2);
    await page.getByTestId('tool-note').click();
    await dragOnPage(page, [480, 60], [480, 60]);
    await page.getByTestId('note-editor').fill('Check the date');
    await page.getByTestId('note-editor').press('Escape');
    await page.getByTestId('tool-rectangle').click();
    await dragOnPage(page, [70, 300], [300, 380]);
    await expect.poll(() => opCount(page)).toBe(4);
    if (shots) await page.screenshot({ path: path.join(shots, 'editor-1280.png') });

    // A reload loses nothing: the same file, the same four operations; one undo takes the rectangle away.
    await page.reload();
    await page.getByTestId('editor').waitFor({ timeout: 30_000 });
    expect(await opCount(page)).toBe(4);
    await page.keyboard.press('Control+z');
    await expect.poll(() => opCount(page)).toBe(3);
    expect(await page.locator('[data-testid="editor-page"][data-page="1"] .op-svg').count()).toBe(0);

    // Save: the server writes the edits, and editing goes on from its output with a fresh session.
    const before = new URL(page.url()).searchParams.get('file_id');
    await page.getByTestId('editor-save').click();
    await page.waitForURL((url) => url.searchParams.get('file_id') !== before, { timeout: 60_000 });
    await page.locator('[data-testid="page-thumb"][data-drawn="yes"]').first().waitFor({ timeout: 30_000 });
    expect(await opCount(page)).toBe(0);
    const exported = await download(page, 'editor-export', dir);

    const exportedText = text(exported).replace(/\s+/g, ' ');
    expect(exportedText).toContain('the meeting is on Thursday.');
    expect(exportedText).not.toContain('Tuesday');
    const annots = annotations(exported);
    // The note comes with its popup; the rectangle was undone.
    expect(annots.map((a) => a.subtype).sort()).toEqual(['/Highlight', '/Popup', '/Text']);
    expect(annots.find((a) => a.subtype === '/Text')?.contents).toBe('Check the date');
    if (shots) execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', exported, path.join(shots, 'exported')]);

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.getByTestId('editor').waitFor({ timeout: 30_000 });
    await page.getByTestId('tool-highlight').click();
    if (shots) await page.screenshot({ path: path.join(shots, 'editor-390.png') });
  }, 180_000);

  it('fills a form field, deletes a page and an old note, and saves when the editor is left', async () => {
    const page = await e2e.open('/app/pdf-editor', { width: 1280, height: 900 });
    await page.getByTestId('file-input').setInputFiles(file('form.pdf'));
    await page.getByTestId('editor').waitFor({ timeout: 30_000 });
    const field = page.locator('[data-testid="form-input"][data-field="applicant"]');
    await field.fill('Ada Lovelace');
    await field.press('Tab');
    await page.getByTestId('existing-object').first().click();
    await page.getByTestId('delete-existing').click();
    await expect.poll(() => opCount(page)).toBe(2);
    if (shots) await page.screenshot({ path: path.join(shots, 'editor-form-1280.png') });
    const filled = await download(page, 'editor-export', dir);
    expect(formFields(filled)).toEqual([{ name: 'applicant', value: 'Ada Lovelace' }]);
    expect(annotations(filled).filter((a) => a.subtype === '/Text')).toEqual([]);

    // Export saved the edits: the next export starts from the saved file.
    await expect.poll(() => opCount(page)).toBe(0);
    await page.locator('[data-testid="page-strip-item"][data-source="2"] [data-testid="delete-page"]').click();
    await expect.poll(() => page.getByTestId('page-strip-item').count()).toBe(1);
    const shorter = await download(page, 'editor-export', dir);
    expect(pdfinfo(shorter)).toMatch(/Pages:\s+1\n/);
    expect(text(shorter)).toContain('Ada Lovelace');

    // Share (desktop): the file is saved, then the share dialog opens on it.
    await page.getByTestId('editor-share').click();
    await page.getByTestId('share-dialog').waitFor();
    await page.getByTestId('share-close').click();

    // Leaving through the sidebar saves the session first, then goes.
    await page.getByTestId('tool-note').click();
    const sheet = (await page.locator('[data-testid="editor-page"][data-page="1"]').boundingBox())!;
    await page.mouse.click(sheet.x + 300, sheet.y + 300);
    await page.getByTestId('note-editor').fill('Left behind?');
    await page.getByTestId('note-editor').press('Escape');
    const saving = page.waitForRequest((r) => r.url().includes('/document/content') && r.method() === 'POST');
    await page.getByRole('link', { name: 'Home' }).first().click();
    await saving;
    await page.waitForURL(/\/app\/home/, { timeout: 60_000 });
  }, 120_000);

  it('asks for the password of a protected PDF before opening it', async () => {
    // The password goes to qpdf in a file of arguments, never on its command line.
    fs.writeFileSync(file('args'), `--encrypt\nsesame\nsesame\n256\n--\n${file('letter.pdf')}\n${file('locked.pdf')}\n`);
    execFileSync('qpdf', [`@${file('args')}`]);
    const page = await e2e.open('/app/pdf-editor?t=edit', { width: 1280, height: 900 });
    await page.getByTestId('file-input').setInputFiles(file('locked.pdf'));
    await page.getByTestId('editor-password').fill('wrong');
    await page.getByTestId('editor-password').press('Enter');
    await page.getByText('Wrong password. Try again.').waitFor({ timeout: 30_000 });
    await page.getByTestId('editor-password').fill('sesame');
    await page.getByTestId('editor-password').press('Enter');
    await page.locator('[data-testid="page-thumb"][data-drawn="yes"]').first().waitFor({ timeout: 30_000 });
    await page.getByTestId('tool-editText').click();
    await page.getByRole('button', { name: 'The venue is the old library hall.' }).hover({ timeout: 30_000 });
    if (shots) await page.screenshot({ path: path.join(shots, 'editor-edit-1280.png') });
  }, 60_000);
});
