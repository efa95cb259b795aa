// The PDF editor as a user works in it, in Chromium: open a PDF, change a word, highlight a
// line, add a sticky note and a shape, reload (the session comes back), undo one step, save and
// export; the exported file is checked with pdftotext and qpdf, and rendered for a look.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { annotations, colourIn, formFields, makeDoc, pdffonts, pdfinfo, text, words } from '../apps/server/test/editFixtures.js';
import { createAccount } from '../apps/server/src/services/accounts.js';
import { encodePng } from '../apps/server/test/imageFixtures.js';
import { download, E2E_PASSWORD, signInByDialog, signInFromHeader, startE2e, tmpDir, type E2e } from './browser.js';

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
  // A 64 px red square shown 100 pt wide on page 1 (46 ppi), a blue one on page 2; two notes and a text comment.
  await makeDoc(file('objects.pdf'), {
    pages: [
      {
        lines: [{ text: 'Objects of the file', x: 72, y: 780 }],
        image: { rect: [300, 500, 100, 100], color: [220, 0, 0] },
        notes: [
          { rect: [480, 760, 500, 780], contents: 'Old remark' },
          { rect: [480, 700, 500, 720], contents: 'Remove me' },
        ],
        comments: [{ rect: [72, 640, 272, 670], contents: 'Old comment' }],
      },
      { image: { rect: [100, 400, 120, 120], color: [0, 0, 220] } },
    ],
  });
});
afterAll(async () => {
  await e2e.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Drags on page 1 between two points given in PDF points from the page's top left (A4 unless its width is given). */
async function dragOnPage(page: Page, from: [number, number], to: [number, number], pageWidth = 595) {
  const sheet = page.locator('[data-testid="editor-page"][data-page="1"]');
  const box = (await sheet.boundingBox())!;
  const k = box.width / pageWidth;
  await page.mouse.move(box.x + from[0] * k, box.y + from[1] * k);
  await page.mouse.down();
  await page.mouse.move(box.x + to[0] * k, box.y + to[1] * k, { steps: 6 });
  await page.mouse.up();
}

/** An element's box on page 1 in PDF points from the page's top left (x, y, width, height). */
async function boxOnPage(page: Page, element: ReturnType<Page['locator']>): Promise<[number, number, number, number]> {
  const sheet = (await page.locator('[data-testid="editor-page"][data-page="1"]').boundingBox())!;
  const box = (await element.boundingBox())!;
  const k = sheet.width / 595;
  return [(box.x - sheet.x) / k, (box.y - sheet.y) / k, box.width / k, box.height / k];
}

/** Each image of the file per pdfimages -list: page, pixel width and horizontal resolution. */
function imageList(pdf: string): { page: number; width: number; xppi: number }[] {
  const rows = execFileSync('pdfimages', ['-list', pdf]).toString().trim().split('\n').slice(2);
  return rows.map((row) => {
    const cells = row.trim().split(/\s+/);
    return { page: Number(cells[0]), width: Number(cells[3]), xppi: Number(cells[12]) };
  });
}

/** The colour of one pixel of page 1 rendered by pdftoppm at 72 dpi. */
function pixelAt(pdf: string, x: number, y: number): number[] {
  const ppm = execFileSync('pdftoppm', ['-r', '72', '-f', '1', '-l', '1', '-x', String(x), '-y', String(y), '-W', '1', '-H', '1', pdf]);
  return [...ppm.subarray(ppm.length - 3)];
}

const opCount = async (page: Page) => Number(await page.getByTestId('editor').getAttribute('data-ops'));

/**
 * Uses the signature made in the open dialog, which the account keeps, and places it on page 1 at
 * (x, y) CSS pixels from the page's top left; the page's box.
 */
async function signKeptAt(page: Page, x: number, y: number) {
  await page.getByTestId('use-signature').click();
  await page.getByTestId('signature-dialog').waitFor({ state: 'detached' });
  // Kept by a server call (file/sign): under load that takes longer than expect.poll's 1 s.
  await page.getByTestId('editor-saved-signature').waitFor({ timeout: 30_000 });
  expect(await page.getByTestId('editor-saved-signature').count()).toBe(1);
  const sheet = (await page.locator('[data-testid="editor-page"][data-page="1"]').boundingBox())!;
  await page.mouse.click(sheet.x + x, sheet.y + y);
  await expect.poll(() => opCount(page)).toBe(1);
  return sheet;
}

type Word = ReturnType<typeof words>[number];
/**
 * The editor's round trip on page 1 of an open file: changes a run's text, highlights a line, adds a
 * sticky note and a rectangle, reloads (the four operations come back) and undoes one step (the
 * rectangle goes). Points are PDF points from the page's top left.
 */
async function editAnnotateReloadUndo(
  page: Page,
  steps: {
    run: string;
    text: string;
    line: Word[];
    note: [number, number];
    noteText: string;
    rectangle: [number, number][];
    pageWidth?: number;
    shot: string;
  },
) {
  await page.getByTestId('tool-editText').click();
  await page.getByRole('button', { name: steps.run }).click();
  const field = page.getByTestId('text-editor');
  expect((await field.inputValue()).replace(/\s+/g, ' ').trim()).toBe(steps.run);
  await field.fill(steps.text);
  await field.press('Enter');
  await expect.poll(() => opCount(page)).toBe(1);

  await page.getByTestId('mode-annotate').click();
  await page.getByTestId('tool-highlight').click();
  const [first, last] = [steps.line[0]!.box, steps.line.at(-1)!.box];
  await dragOnPage(page, [first[0] - 2, first[1] + 2], [last[2] + 2, first[3] - 2], steps.pageWidth);
  await expect.poll(() => opCount(page)).toBe(2);
  await page.getByTestId('tool-note').click();
  await dragOnPage(page, steps.note, steps.note, steps.pageWidth);
  await page.getByTestId('note-editor').fill(steps.noteText);
  await page.getByTestId('note-editor').press('Tab');
  await page.getByTestId('tool-rectangle').click();
  await dragOnPage(page, steps.rectangle[0]!, steps.rectangle[1]!, steps.pageWidth);
  await expect.poll(() => opCount(page)).toBe(4);
  if (shots) await page.screenshot({ path: path.join(shots, steps.shot) });

  // A reload loses nothing: the same file, the same four operations; one undo takes the rectangle away.
  await page.reload();
  await page.getByTestId('editor').waitFor({ timeout: 30_000 });
  expect(await opCount(page)).toBe(4);
  await page.keyboard.press('Control+z');
  await expect.poll(() => opCount(page)).toBe(3);
  expect(await page.locator('[data-testid="editor-page"][data-page="1"] .op-svg').count()).toBe(0);
}

describe('the PDF editor in the browser', () => {
  it('edits text, annotates, keeps the session over a reload and undoes a step', async () => {
    const page = await e2e.open('/app/pdf-editor?t=edit', { width: 1280, height: 900 });
    await page.getByTestId('file-input').setInputFiles(file('letter.pdf'));
    await page.getByTestId('editor').waitFor({ timeout: 30_000 });
    await page.waitForURL(/file_id=/);
    await page.locator('[data-testid="page-thumb"][data-drawn="yes"]').first().waitFor({ timeout: 30_000 });

    // Change a word of the first line; highlight the second line, add a note and a rectangle, reload, undo.
    await editAnnotateReloadUndo(page, {
      run: 'Dear committee, the meeting is on Tuesday.',
      text: 'Dear committee, the meeting is on Thursday.',
      line: words(file('letter.pdf'), 1).filter((w) => w.box[1] > 100 && w.box[1] < 115),
      note: [480, 60],
      noteText: 'Check the date',
      rectangle: [
        [70, 300],
        [300, 380],
      ],
      shot: 'editor-1280.png',
    });

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

  it('edits a word inside a paragraph of a real paper, annotates it and exports it in its own font', async () => {
    // The Bitcoin paper (letter size, subset TrueType fonts): the abstract's second line gets a new word.
    const paper = path.join(import.meta.dirname, '../test-corpus/pdfjs/issue13201.pdf');
    /** The abstract's lines of words as pdftotext reads them, from 'Abstract.' down to the next heading. */
    const linesOf = (pdf: string) => {
      const all = words(pdf, 1);
      const top = all.find((w) => w.word === 'Abstract.')!.box[1];
      const end = all.find((w) => w.word === 'Introduction')!.box[1];
      const lines = new Map<number, typeof all>();
      for (const w of all.filter((w) => w.box[1] >= top - 1 && w.box[1] < end - 1)) {
        const y = Math.round(w.box[1]);
        lines.set(y, [...(lines.get(y) ?? []), w]);
      }
      return [...lines.values()];
    };
    const abstractOf = (pdf: string) => linesOf(pdf).map((line) => line.map((w) => w.word).join(' '));
    const abstract = abstractOf(paper);
    expect(abstract.length).toBeGreaterThan(10);
    const oldLine = abstract[1]!;
    const newLine = oldLine.replace('sent directly from', 'sent securely from');
    expect(newLine).not.toBe(oldLine);

    const page = await e2e.open('/app/pdf-editor?t=edit', { width: 1280, height: 900 });
    await page.getByTestId('file-input').setInputFiles(paper);
    await page.locator('[data-testid="page-thumb"][data-drawn="yes"]').first().waitFor({ timeout: 30_000 });
    // The abstract's second line gets a new word, its fourth line a highlight, the margin a note.
    await editAnnotateReloadUndo(page, {
      run: oldLine,
      text: newLine,
      line: linesOf(paper)[3]!,
      note: [520, 220],
      noteText: 'Which network?',
      rectangle: [
        [140, 420],
        [470, 480],
      ],
      pageWidth: 612,
      shot: 'editor-paper-1280.png',
    });
    const exported = await download(page, 'editor-export', dir);

    // The edited line reads the new word; the other lines of the paragraph are as they were.
    expect(abstractOf(exported)).toEqual(abstract.map((line) => (line === oldLine ? newLine : line)));
    expect(text(exported).replace(/\s+/g, ' ')).not.toContain('sent directly from');
    // The subset Times New Roman has the letters of the new word: it is kept and no font is added
    // (the fonts the page's resources list but its text never uses are dropped).
    const fontNames = (pdf: string) => [...pdffonts(pdf).matchAll(/^(\S+)\s/gm)].map((m) => m[1]!).slice(2);
    expect(fontNames(exported)).toContain('CAAAAA+TimesNewRomanPSMT');
    expect(fontNames(exported).filter((name) => !fontNames(paper).includes(name))).toEqual([]);
    const annots = annotations(exported);
    expect(annots.map((a) => a.subtype).sort()).toEqual(['/Highlight', '/Popup', '/Text']);
    expect(annots.find((a) => a.subtype === '/Text')?.contents).toBe('Which network?');
    execFileSync('qpdf', ['--check', exported]);
    if (shots) execFileSync('pdftoppm', ['-png', '-r', '80', '-f', '1', '-l', '1', exported, path.join(shots, 'exported-paper')]);
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
    await page.getByTestId('note-editor').press('Tab');
    const saving = page.waitForRequest((r) => r.url().includes('/document/content') && r.method() === 'POST');
    await page.getByRole('link', { name: 'Home' }).first().click();
    await saving;
    await page.waitForURL(/\/app\/home/, { timeout: 60_000 });
  }, 120_000);

  it('moves, resizes, nudges and deletes the images of the file, by pointer and keyboard, with undo', async () => {
    const page = await e2e.open('/app/pdf-editor?t=edit', { width: 1280, height: 900 });
    await page.getByTestId('file-input').setInputFiles(file('objects.pdf'));
    await page.locator('[data-testid="page-thumb"][data-drawn="yes"]').first().waitFor({ timeout: 30_000 });
    const red = page.locator('[data-testid="editor-page"][data-page="1"] [data-testid="existing-object"][data-kind="image"]');
    await red.waitFor({ timeout: 30_000 });
    expect((await boxOnPage(page, red)).map(Math.round)).toEqual([300, 242, 100, 100]);

    // Dragged 100 pt left and 50 pt down, then its bottom right corner 50 pt further: the aspect is kept.
    await dragOnPage(page, [350, 292], [250, 342]);
    await expect.poll(async () => (await boxOnPage(page, red)).map(Math.round)).toEqual([200, 292, 100, 100]);
    const corner = (await page.getByTestId('handle-se').boundingBox())!;
    await page.mouse.move(corner.x + corner.width / 2, corner.y + corner.height / 2);
    await page.mouse.down();
    const k = (await page.locator('[data-testid="editor-page"][data-page="1"]').boundingBox())!.width / 595;
    await page.mouse.move(corner.x + corner.width / 2 + 50 * k, corner.y + corner.height / 2 + 20 * k, { steps: 6 });
    await page.mouse.up();
    await expect.poll(async () => (await boxOnPage(page, red)).map(Math.round)).toEqual([200, 292, 150, 150]);
    // Shift+arrow nudges 10 pt; undo takes the nudge back, redo makes it again. One operation throughout.
    await red.focus();
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(async () => Math.round((await boxOnPage(page, red))[0])).toBe(210);
    await page.keyboard.press('Control+z');
    await expect.poll(async () => Math.round((await boxOnPage(page, red))[0])).toBe(200);
    await page.keyboard.press('Control+y');
    await expect.poll(async () => Math.round((await boxOnPage(page, red))[0])).toBe(210);
    expect(await opCount(page)).toBe(1);
    // The session is kept: after a reload the image is where it was left.
    await page.reload();
    await red.waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await boxOnPage(page, red)).map(Math.round)).toEqual([210, 292, 150, 150]);
    // The page shows the image at its new place, copied from the drawn page.
    await page.getByTestId('moved-image').waitFor();
    if (shots) await page.screenshot({ path: path.join(shots, 'editor-image-1280.png') });

    // Tab reaches the image on page 2 (past page 1's annotations), and Delete removes it.
    const blue = page.locator('[data-testid="editor-page"][data-page="2"] [data-testid="existing-object"][data-kind="image"]');
    await page.locator('[data-testid="editor-page"][data-page="2"]').scrollIntoViewIfNeeded();
    await blue.waitFor({ timeout: 30_000 });
    await red.focus();
    for (let i = 0; i < 12 && !(await blue.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    expect(await blue.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Delete');
    await expect.poll(() => opCount(page)).toBe(2);
    await expect.poll(() => blue.count()).toBe(0);

    const exported = await download(page, 'editor-export', dir);
    if (shots) execFileSync('pdftoppm', ['-png', '-r', '50', exported, path.join(shots, 'exported-images')]);
    // One image left: page 1's, its 64 pixels now over 150 pt (31 ppi, was 46).
    expect(imageList(exported)).toEqual([{ page: 1, width: 64, xppi: 31 }]);
    // Red at its new place (x 210–360, y 292–442 from the top), white where it was and not now.
    const moved = colourIn(exported, 1, [220, 350, 350, 430]);
    expect(moved[0]).toBeGreaterThan(180);
    expect(moved[2]).toBeLessThan(60);
    expect(Math.min(...colourIn(exported, 1, [365, 245, 398, 288]))).toBeGreaterThan(250);
    expect(Math.min(...colourIn(exported, 2, [110, 332, 210, 432]))).toBeGreaterThan(250);
  }, 120_000);

  it('edits the text of a note and a comment of the file in place, and deletes a note by keyboard', async () => {
    const page = await e2e.open('/app/pdf-editor?t=annotate', { width: 1280, height: 900 });
    await page.getByTestId('file-input').setInputFiles(file('objects.pdf'));
    await page.locator('[data-testid="page-thumb"][data-drawn="yes"]').first().waitFor({ timeout: 30_000 });
    // Annotate mode leaves the page's own content alone: its images are not offered.
    await page.getByRole('button', { name: 'Annotation: Old remark' }).waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid="existing-object"][data-kind="image"]').count()).toBe(0);

    await page.getByRole('button', { name: 'Annotation: Old remark' }).click();
    await page.getByTestId('annotation-editor').fill('Checked remark');
    await page.getByTestId('annotation-editor').press('Tab');
    await expect.poll(() => opCount(page)).toBe(1);
    // Keyboard: Enter opens the comment's text.
    await page.getByRole('button', { name: 'Annotation: Old comment' }).focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('annotation-editor').fill('New comment');
    await page.getByTestId('annotation-editor').press('Tab');
    await expect.poll(() => opCount(page)).toBe(2);
    await page.getByRole('button', { name: 'Annotation: Remove me' }).focus();
    await page.keyboard.press('Delete');
    await expect.poll(() => opCount(page)).toBe(3);
    // Reopened, a note shows its text as edited.
    await page.getByRole('button', { name: 'Annotation: Checked remark' }).click();
    expect(await page.getByTestId('annotation-editor').inputValue()).toBe('Checked remark');
    await page.getByTestId('annotation-editor').press('Escape');
    if (shots) await page.screenshot({ path: path.join(shots, 'editor-annotations-1280.png') });

    const exported = await download(page, 'editor-export', dir);
    const annots = annotations(exported);
    expect(annots.filter((a) => a.subtype === '/Text').map((a) => a.contents)).toEqual(['Checked remark']);
    expect(annots.filter((a) => a.subtype === '/FreeText').map((a) => a.contents)).toEqual(['New comment']);
    expect(annots.some((a) => a.contents === 'Remove me')).toBe(false);
  }, 120_000);

  it('keeps a text edit when the page is clicked, drops it on Escape, and types into sticky notes from the keyboard alone', async () => {
    const page = await e2e.open('/app/pdf-editor?t=edit', { width: 1280, height: 900 });
    await page.getByTestId('file-input').setInputFiles(file('letter.pdf'));
    await page.locator('[data-testid="page-thumb"][data-drawn="yes"]').first().waitFor({ timeout: 30_000 });
    const sheet = page.locator('[data-testid="editor-page"][data-page="1"]');
    const clickOnPage = async ([x, y]: [number, number]) => {
      const box = (await sheet.boundingBox())!;
      const k = box.width / 595;
      await page.mouse.click(box.x + x * k, box.y + y * k);
    };
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);

    // A click on an empty part of the page leaves the field: the text typed is kept, as in every editor.
    await page.getByTestId('tool-editText').click();
    await page.getByRole('button', { name: 'Dear committee, the meeting is on Tuesday.' }).click();
    await page.getByTestId('text-editor').fill('Dear committee, the meeting is on Friday.');
    await clickOnPage([300, 500]);
    await page.getByTestId('text-editor').waitFor({ state: 'detached' });
    await expect.poll(() => sheet.locator('.op-replaced').allTextContents()).toEqual(['Dear committee, the meeting is on Friday.']);
    // Escape drops what was typed: the run clicked and changed is left as it was, with no operation of its own.
    await page.getByRole('button', { name: 'The venue is the old library hall.' }).click();
    await page.getByTestId('text-editor').fill('Typed by mistake');
    await page.getByTestId('text-editor').press('Escape');
    await page.getByTestId('text-editor').waitFor({ state: 'detached' });
    expect(await sheet.locator('.op-replaced').allTextContents()).toEqual(['Dear committee, the meeting is on Friday.']);
    await expect.poll(() => opCount(page)).toBe(1);

    // A new sticky note takes the keyboard at once: typed into without a click, left with Tab.
    await page.getByTestId('mode-annotate').click();
    await page.getByTestId('tool-note').click();
    await clickOnPage([480, 300]);
    await expect.poll(focused).toBe('note-editor');
    await page.keyboard.type('Call the venue');
    await page.keyboard.press('Tab');
    await expect.poll(focused).not.toBe('note-editor');
    await expect.poll(() => sheet.locator('.op-note').getAttribute('title')).toBe('Call the venue');
    await expect.poll(() => opCount(page)).toBe(2);
    // Selected again, its text takes the keyboard; Escape leaves it unchanged.
    await page.getByTestId('tool-select').click();
    await sheet.locator('[data-testid="op-hit"][data-kind="note"]').click();
    await expect.poll(focused).toBe('note-editor');
    await page.keyboard.type(' tomorrow');
    expect(await page.getByTestId('note-editor').inputValue()).toBe('Call the venue tomorrow');
    await page.keyboard.press('Escape');
    await page.getByTestId('note-editor').waitFor({ state: 'detached' });
    expect(await sheet.locator('.op-note').getAttribute('title')).toBe('Call the venue');
    if (shots) await page.screenshot({ path: path.join(shots, 'editor-note-keyboard-1280.png') });

    const exported = await download(page, 'editor-export', dir);
    const exportedText = text(exported).replace(/\s+/g, ' ');
    expect(exportedText).toContain('the meeting is on Friday.');
    expect(exportedText).toContain('The venue is the old library hall.');
    expect(annotations(exported).find((a) => a.subtype === '/Text')?.contents).toBe('Call the venue');
  }, 120_000);

  it("saves an account's edits into its cloud (a second save replaces them there), and says that a visitor's Save downloads", async () => {
    await createAccount(e2e.quire.ctx, 'editor.saver@example.org', E2E_PASSWORD, 'free');
    const page = await e2e.open('/app/pdf-editor?t=annotate', { width: 1280, height: 900 });
    await signInFromHeader(page, 'editor.saver@example.org', E2E_PASSWORD);
    await page.getByTestId('file-input').setInputFiles(file('letter.pdf'));
    await page.locator('[data-testid="page-thumb"][data-drawn="yes"]').first().waitFor({ timeout: 30_000 });
    const sheet = (await page.locator('[data-testid="editor-page"][data-page="1"]').boundingBox())!;
    const addNote = async (words: string, at: number) => {
      await page.getByTestId('tool-note').click();
      await page.mouse.click(sheet.x + at, sheet.y + at);
      await page.getByTestId('note-editor').fill(words);
      await page.getByTestId('note-editor').press('Tab');
      await expect.poll(() => opCount(page)).toBe(1);
    };
    /** The account's cloud as its API lists it, with the browser's sign-in. */
    const cloudFiles = async () => {
      const answer = await page
        .context()
        .request.post(`${e2e.quire.url}/api/cloud/v1/list`, { data: { folder_id: null, sort: 'name', order: 'asc' } });
      return ((await answer.json()).data.files as { name: string; file_id: string }[]).map((f) => f.name);
    };

    await addNote('First remark', 200);
    expect(await page.getByTestId('editor-save').getAttribute('title')).toBe('Save to cloud');
    await page.getByTestId('editor-save').click();
    const toast = page.getByTestId('toast').filter({ hasText: 'Saved to your document cloud as "letter-edited.pdf"' });
    await toast.waitFor({ timeout: 60_000 });
    expect(await cloudFiles()).toEqual(['letter-edited.pdf']);
    const recent = await page.context().request.get(`${e2e.quire.url}/api/cloud/v1/recent/list`);
    expect((await recent.json()).data.files.map((f: { name: string }) => f.name)).toEqual(['letter-edited.pdf']);
    if (shots) await page.screenshot({ path: path.join(shots, 'editor-saved-cloud-1280.png') });
    // The toast stays (it carries a link): closed, so that the next save's own toast is waited for.
    await toast.getByRole('button', { name: 'Close' }).click();
    await toast.waitFor({ state: 'detached' });

    // Saved again: the same cloud file, now with both notes.
    await expect.poll(() => opCount(page)).toBe(0);
    await page.locator('[data-testid="page-thumb"][data-drawn="yes"]').first().waitFor({ timeout: 30_000 });
    await addNote('Second remark', 300);
    await page.getByTestId('editor-save').click();
    // The edits are cleared once the PDF is written, before it replaces the cloud copy: the toast says it is there.
    await toast.waitFor({ timeout: 60_000 });
    expect(await opCount(page)).toBe(0);
    expect(await cloudFiles()).toEqual(['letter-edited.pdf']);
    const listed = await page
      .context()
      .request.post(`${e2e.quire.url}/api/cloud/v1/list`, { data: { folder_id: null, sort: 'name', order: 'asc' } });
    const cloudId = (await listed.json()).data.files[0].file_id as string;
    const bytes = await page.context().request.get(`${e2e.quire.url}/api/cloud/v1/file/download?file_id=${cloudId}`);
    fs.writeFileSync(file('cloud-copy.pdf'), await bytes.body());
    expect(
      annotations(file('cloud-copy.pdf'))
        .filter((a) => a.subtype === '/Text')
        .map((a) => a.contents)
        .sort(),
    ).toEqual(['First remark', 'Second remark']);
    // The toast leads to the folder the file is in.
    await page.getByTestId('toast-link').last().click();
    await page.locator('[data-testid="cloud-entry"][data-name="letter-edited.pdf"]').waitFor();
    await page.context().close();

    // A visitor has no cloud: Save says it downloads, and does.
    const visitor = await e2e.open('/app/pdf-editor?t=annotate', { width: 1280, height: 900 });
    await visitor.getByTestId('file-input').setInputFiles(file('letter.pdf'));
    await visitor.locator('[data-testid="page-thumb"][data-drawn="yes"]').first().waitFor({ timeout: 30_000 });
    await visitor.getByTestId('tool-note').click();
    const visitorSheet = (await visitor.locator('[data-testid="editor-page"][data-page="1"]').boundingBox())!;
    await visitor.mouse.click(visitorSheet.x + 200, visitorSheet.y + 200);
    await visitor.getByTestId('note-editor').fill('Visitor remark');
    await visitor.getByTestId('note-editor').press('Tab');
    expect(await visitor.getByTestId('editor-save').getAttribute('title')).toBe(
      'Downloads the edited PDF. Sign in to keep it in your document cloud.',
    );
    const saved = await download(visitor, 'editor-save', dir);
    expect(annotations(saved).find((a) => a.subtype === '/Text')?.contents).toBe('Visitor remark');
    await visitor.getByTestId('toast').filter({ hasText: 'Saved and downloaded as "letter.pdf"' }).waitFor();
    if (shots) await visitor.screenshot({ path: path.join(shots, 'editor-saved-visitor-1280.png') });
    await visitor.context().close();
  }, 180_000);

  it("signs with a signature made as in Sign PDF (typed here), kept for the account and offered again in the editor's signature tool", async () => {
    await createAccount(e2e.quire.ctx, 'editor.signer@example.org', E2E_PASSWORD, 'free');
    const page = await e2e.open('/app/pdf-editor?t=annotate', { width: 1280, height: 900 });
    await signInFromHeader(page, 'editor.signer@example.org', E2E_PASSWORD);
    await page.getByTestId('file-input').setInputFiles(file('letter.pdf'));
    await page.locator('[data-testid="page-thumb"][data-drawn="yes"]').first().waitFor({ timeout: 30_000 });

    // No signature yet: the tool opens Sign PDF's dialog (draw, type or upload), kept for the account.
    await page.getByTestId('tool-signature').click();
    await page.getByTestId('signature-dialog').waitFor();
    await page.getByTestId('signature-tab-type').click();
    await page.getByTestId('typed-name').fill('Eddie Signer');
    expect(await page.getByTestId('save-signature').isChecked()).toBe(true);
    const sheet = await signKeptAt(page, 300, 500);
    expect(await page.locator('[data-testid="editor-page"][data-page="1"] .op-image').count()).toBe(1);
    if (shots) await page.screenshot({ path: path.join(shots, 'editor-signature-1280.png') });
    const signed = await download(page, 'editor-export', dir);
    expect(imageList(signed).map((i) => i.page)).toContain(1);

    // Another visit: the saved signature is offered, no dialog needed.
    await page.reload();
    await page.locator('[data-testid="page-thumb"][data-drawn="yes"]').first().waitFor({ timeout: 30_000 });
    await page.getByTestId('tool-signature').click();
    await page.getByTestId('editor-saved-signature').click();
    expect(await page.getByTestId('signature-dialog').count()).toBe(0);
    await page.mouse.click(sheet.x + 300, sheet.y + 600);
    await expect.poll(() => opCount(page)).toBe(1);
    await page.context().close();
  }, 120_000);

  it("signs with a picture from the account's cloud, picked in the signature tool, and the saved PDF carries it", async () => {
    await createAccount(e2e.quire.ctx, 'editor.cloudsigner@example.org', E2E_PASSWORD, 'free');
    // A green 240 × 96 picture, put in the cloud through the cloud page as a user does; a PDF beside it.
    const green = [0, 160, 0];
    const pixels = Buffer.alloc(240 * 96 * 3);
    for (let i = 0; i < pixels.length; i += 3) pixels.set(green, i);
    fs.writeFileSync(file('signature.png'), encodePng({ width: 240, height: 96, channels: 3, pixels }));
    const page = await e2e.open('/app/document-cloud', { width: 1280, height: 900 });
    await signInByDialog(page, 'editor.cloudsigner@example.org', E2E_PASSWORD);
    await page.getByTestId('cloud-file-input').setInputFiles([file('signature.png'), file('letter.pdf')]);
    for (const name of ['signature.png', 'letter.pdf'])
      await page.locator(`[data-testid="cloud-entry"][data-name="${name}"]`).waitFor({ timeout: 30_000 });

    await page.goto(`${e2e.quire.url}/app/pdf-editor?t=annotate`);
    await page.getByTestId('file-input').setInputFiles(file('letter.pdf'));
    await page.locator('[data-testid="page-thumb"][data-drawn="yes"]').first().waitFor({ timeout: 30_000 });
    await page.getByTestId('tool-signature').click();
    await page.getByTestId('signature-tab-upload').click();
    // Escape closes the picker alone: the signature dialog stays.
    const picker = page.getByTestId('cloud-file-picker');
    await page.getByTestId('signature-from-cloud').click();
    await picker.waitFor();
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'detached' });
    expect(await page.getByTestId('signature-dialog').isVisible()).toBe(true);
    await page.getByTestId('signature-from-cloud').click();
    // Pictures only: the PDF is listed but cannot be chosen.
    await picker.locator('[data-name="letter.pdf"] input:disabled').waitFor();
    await picker.locator('[data-name="signature.png"] input').check();
    if (shots) {
      await page.screenshot({ path: path.join(shots, 'editor-signature-cloud-1280.png') });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: path.join(shots, 'editor-signature-cloud-390.png') });
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    await page.getByTestId('picker-add').click();
    await picker.waitFor({ state: 'detached' });
    await page.getByTestId('signature-preview').waitFor();
    // Its top left corner goes where the page is clicked.
    const sheet = await signKeptAt(page, 300, 500);

    await page.getByTestId('editor-save').click();
    await page.getByTestId('toast').filter({ hasText: 'Saved to your document cloud as "letter-edited.pdf"' }).waitFor({ timeout: 60_000 });
    const listed = await page
      .context()
      .request.post(`${e2e.quire.url}/api/cloud/v1/list`, { data: { folder_id: null, sort: 'name', order: 'asc' } });
    const saved = ((await listed.json()).data.files as { name: string; file_id: string }[]).find((f) => f.name === 'letter-edited.pdf')!;
    const bytes = await page.context().request.get(`${e2e.quire.url}/api/cloud/v1/file/download?file_id=${saved.file_id}`);
    fs.writeFileSync(file('cloud-signed.pdf'), await bytes.body());
    expect(imageList(file('cloud-signed.pdf'))).toContainEqual(expect.objectContaining({ page: 1, width: 240 }));
    // Rendered at 72 dpi (a pixel a point): green inside the mark, white beside it.
    const k = sheet.width / 595;
    const [x, y] = [Math.round(300 / k), Math.round(500 / k)];
    expect(pixelAt(file('cloud-signed.pdf'), x + 20, y + 20)).toEqual(green);
    expect(pixelAt(file('cloud-signed.pdf'), x - 20, y + 20)).toEqual([255, 255, 255]);
    await page.context().close();
  }, 180_000);

  it('shows edited text in the font it will get, and sets the family, size and style of a run and a text box', async () => {
    const page = await e2e.open('/app/pdf-editor?t=edit', { width: 1280, height: 900 });
    await page.getByTestId('file-input').setInputFiles(file('letter.pdf'));
    await page.locator('[data-testid="page-thumb"][data-drawn="yes"]').first().waitFor({ timeout: 30_000 });
    await page.getByTestId('tool-editText').click();
    await page.getByRole('button', { name: 'The venue is the old library hall.' }).click();
    const field = page.getByTestId('text-editor');
    await field.fill('The venue is the new town hall.');
    // Helvetica's nearest family, loaded from the server as a web font.
    const loadedFace = (family: string) =>
      page.evaluate(async (name) => {
        await document.fonts.ready;
        return [...document.fonts].find((f) => f.family === name)?.status;
      }, family);
    expect(await field.evaluate((el) => getComputedStyle(el).fontFamily)).toContain('quire-liberation-sans-regular');
    await expect.poll(() => loadedFace('quire-liberation-sans-regular')).toBe('loaded');

    await page.getByTestId('text-font').selectOption('carlito');
    await page.getByTestId('text-bold').click();
    // Typing a size is one undo step however many keys it takes.
    await page.getByTestId('text-size').selectText();
    await page.keyboard.type('16');
    await page.getByTestId('undo').click();
    expect(await page.getByTestId('text-size').inputValue()).toBe('14');
    expect(await page.getByTestId('text-bold').getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('redo').click();
    expect(await page.getByTestId('text-size').inputValue()).toBe('16');
    expect(await page.getByTestId('text-bold').getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => field.evaluate((el) => getComputedStyle(el).fontFamily)).toContain('quire-carlito-bold');
    await expect.poll(() => loadedFace('quire-carlito-bold')).toBe('loaded');
    expect(await field.evaluate((el) => getComputedStyle(el).fontSize)).toMatch(/^\d+(\.\d+)?px$/);

    // A text box takes the style chosen while its tool is on.
    await page.getByTestId('tool-textBox').click();
    await page.getByTestId('text-font').selectOption('dejavu-serif');
    await page.getByTestId('text-italic').click();
    await dragOnPage(page, [72, 400], [372, 430]);
    await page.getByTestId('text-editor').fill('Boxed words');
    await page.getByTestId('text-editor').press('Tab');
    await expect.poll(() => loadedFace('quire-dejavu-serif-italic')).toBe('loaded');
    if (shots) await page.screenshot({ path: path.join(shots, 'editor-fonts-1280.png') });

    const exported = await download(page, 'editor-export', dir);
    if (shots) execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', exported, path.join(shots, 'exported-fonts')]);
    const exportedText = text(exported).replace(/\s+/g, ' ');
    expect(exportedText).toContain('The venue is the new town hall.');
    expect(exportedText).toContain('Boxed words');
    const fonts = pdffonts(exported);
    expect(fonts).toMatch(/Carlito-Bold/);
    expect(fonts).toMatch(/DejaVuSerif-Italic/);
    // The run is set at 16 pt: pdftotext's word boxes are that high.
    const venue = words(exported, 1).find((w) => w.word === 'venue')!;
    expect(venue.box[3] - venue.box[1]).toBeGreaterThan(14);
  }, 120_000);

  it('adds a blank page from the thumbnails, writes on it, moves a page by keyboard, and exports them in order', async () => {
    // Pages of two sizes: a blank page takes the size of the page before it in the new order.
    const pdf = await makeDoc(file('two-sizes.pdf'), {
      pages: [
        { size: [612, 792], lines: [{ text: 'Letter sized first page.', x: 72, y: 700 }] },
        { lines: [{ text: 'A4 sized second page.', x: 72, y: 760 }] },
      ],
    });
    const page = await e2e.open('/app/pdf-editor?t=edit', { width: 1280, height: 900 });
    await page.getByTestId('file-input').setInputFiles(pdf);
    await page.locator('[data-testid="page-thumb"][data-drawn="yes"]').first().waitFor({ timeout: 30_000 });
    const order = () => page.getByTestId('page-strip-item').evaluateAll((items) => items.map((i) => i.getAttribute('data-source')));

    await page.locator('[data-testid="page-strip-item"][data-source="1"] [data-testid="add-blank-page"]').click();
    await expect.poll(order).toEqual(['1', '3', '2']);
    const blank = page.locator('[data-testid="editor-page"][data-page="3"]');
    await blank.scrollIntoViewIfNeeded();
    // Shown at page 1's proportions (612 × 792), white.
    const sheet = (await blank.boundingBox())!;
    expect(sheet.height / sheet.width).toBeCloseTo(792 / 612, 2);
    await page.getByTestId('tool-textBox').click();
    await page.mouse.move(sheet.x + sheet.width * 0.15, sheet.y + sheet.height * 0.2);
    await page.mouse.down();
    await page.mouse.move(sheet.x + sheet.width * 0.7, sheet.y + sheet.height * 0.25, { steps: 6 });
    await page.mouse.up();
    await page.getByTestId('text-editor').fill('Written on the blank page');
    await page.getByTestId('text-editor').press('Tab');
    await page.keyboard.press('Escape');

    // Page 3 (the file's page 2) one place up by keyboard, said to screen readers; undo and redo it.
    await page.locator('[data-testid="page-strip-item"][data-source="2"] .page-strip-thumb').focus();
    await page.keyboard.press('Alt+ArrowUp');
    await expect.poll(order).toEqual(['1', '2', '3']);
    expect(await page.getByTestId('page-strip-status').textContent()).toBe('Page 3 moved to position 2');
    await page.getByTestId('undo').click();
    await expect.poll(order).toEqual(['1', '3', '2']);
    await page.getByTestId('redo').click();
    await expect.poll(order).toEqual(['1', '2', '3']);
    if (shots) {
      await page.screenshot({ path: path.join(shots, 'editor-pages-1280.png') });
      // On a phone the strip is hidden: the pages show one below the other.
      const phone = await e2e.open('/app/pdf-editor?t=edit', { width: 390, height: 844 });
      await phone.getByTestId('file-input').setInputFiles(pdf);
      await phone.getByTestId('editor-page').first().waitFor({ timeout: 30_000 });
      await phone.screenshot({ path: path.join(shots, 'editor-pages-390.png') });
    }

    const exported = await download(page, 'editor-export', dir);
    execFileSync('qpdf', ['--check', exported]);
    const info = execFileSync('pdfinfo', ['-f', '1', '-l', '3', exported]).toString();
    expect(info).toMatch(/Pages:\s+3\n/);
    // Now after the A4 page, the blank page is A4.
    expect(info).toMatch(/Page\s+1 size:\s+612 x 792 pts/);
    expect(info).toMatch(/Page\s+3 size:\s+595 x 842 pts/);
    const pageText = (n: number) => execFileSync('pdftotext', ['-f', String(n), '-l', String(n), exported, '-']).toString();
    expect(pageText(1)).toContain('Letter sized first page.');
    expect(pageText(2)).toContain('A4 sized second page.');
    expect(pageText(3)).toContain('Written on the blank page');
    if (shots) execFileSync('pdftoppm', ['-png', '-r', '30', exported, path.join(shots, 'exported-pages')]);
  }, 120_000);

  it('keeps every tool reachable at 390 px: the tool row scrolls, with a button that shows more', async () => {
    for (const mode of ['annotate', 'edit'] as const) {
      const page = await e2e.open(`/app/pdf-editor?t=${mode}`, { width: 390, height: 844 });
      await page.getByTestId('file-input').setInputFiles(file('objects.pdf'));
      await page.locator('[data-testid="editor-page"] canvas').first().waitFor({ timeout: 30_000 });
      // Nothing makes the page itself wider than the window.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      const tools = page.locator('[data-testid="editor-tools"] [data-testid^="tool-"]');
      const names = await tools.evaluateAll((els) => els.map((el) => el.getAttribute('data-testid')!));
      expect(names.length).toBeGreaterThan(8);
      // Shown whole: inside the window and inside the visible part of its row, which clips the rest.
      const inView = (name: string) =>
        page.getByTestId(name).evaluate((el) => {
          const r = el.getBoundingClientRect();
          const row = el.closest('.editor-tools')!.getBoundingClientRect();
          return r.left >= Math.max(0, row.left) - 0.5 && r.right <= Math.min(window.innerWidth, row.right) + 0.5;
        });
      /** Scrolls the row with its end buttons until the tool is in the window. */
      const reach = async (name: string) => {
        for (let i = 0; i < 8 && !(await inView(name)); i++) {
          const before = await page
            .getByTestId(name)
            .evaluate((el) => el.getBoundingClientRect().left < el.closest('.editor-tools')!.getBoundingClientRect().left);
          await page.getByTestId(before ? 'tools-back' : 'tools-more').click();
          await page.waitForTimeout(400);
        }
        return inView(name);
      };
      const last = names.at(-1)!;
      if (mode === 'annotate') {
        // The row is wider than the window: its last tool is hidden, and the button at its end shows it.
        await page.getByTestId('editor-page').first().locator('canvas').waitFor();
        expect(await inView(last)).toBe(false);
        if (shots) await page.screenshot({ path: path.join(shots, 'editor-annotate-390.png') });
        expect(await reach(last)).toBe(true);
        if (shots) await page.screenshot({ path: path.join(shots, 'editor-annotate-390-scrolled.png') });
      }
      for (const name of names) {
        expect(await reach(name), name).toBe(true);
        await page.getByTestId(name).click();
        expect(await page.getByTestId(name).getAttribute('aria-pressed'), name).toBe('true');
        await page.keyboard.press('Escape');
      }
      if (shots && mode === 'edit') await page.screenshot({ path: path.join(shots, 'editor-edit-390.png') });
      await page.context().close();
    }
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
