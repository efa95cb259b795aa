// Crop through the HTTP API: CropBox and TrimBox checked with pdfinfo -box, the rendered page
// size with pdftoppm, for all pages, a range, rotated pages and pages already cropped.
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, pageRangeMessages } from '@quire/contracts';
import { quireForTests } from './harness.js';
import { encryptPdf, npages } from './fixtures.js';
import { makeDoc, pageBoxes, qpdfCheckOk, renderPage, text, type Box } from './editFixtures.js';

const { client, dir } = quireForTests('crop');
const file = (name: string) => path.join(dir, name);
let plainId: string;
let mixedId: string;

/** 10 mm in points: 72 per inch, 25.4 mm per inch. */
const MM10 = (10 * 72) / 25.4;
const margins = (top: number, right: number, bottom: number, left: number) => ({ top, right, bottom, left });
const near = (got: Box, want: Box) => {
  for (const [i, v] of got.entries()) expect(v).toBeCloseTo(want[i]!, 1);
};

beforeAll(async () => {
  const line = (n: number) => [{ text: `Crop page ${n}`, x: 72, y: 700 }];
  await makeDoc(file('plain.pdf'), { pages: [1, 2, 3].map((n) => ({ lines: line(n) })) });
  // Page 1 upright, page 2 turned 90° clockwise, page 3 turned 270°, page 4 already cropped.
  await makeDoc(file('mixed.pdf'), {
    pages: [
      { lines: line(1) },
      { rotate: 90, lines: line(2) },
      { rotate: 270, lines: line(3) },
      { cropBox: [50, 60, 545, 800], lines: line(4) },
    ],
  });
  plainId = await client.uploadId(file('plain.pdf'));
  mixedId = await client.uploadId(file('mixed.pdf'));
});

describe('crop', () => {
  it('takes millimetres off every side of every page: CropBox, TrimBox and the rendered size shrink', async () => {
    const entry = await client.runTool(
      'document/cut',
      { file_id: plainId, margins: margins(10, 10, 10, 10), pages: 'all' },
      file('all.pdf'),
    );
    expect(entry.status).toBe(0);
    expect(entry.output_file_name).toBe('plain-cropped.pdf');
    expect(qpdfCheckOk(file('all.pdf'))).toBe(true);
    expect(npages(file('all.pdf'))).toBe(3);
    for (const page of pageBoxes(file('all.pdf'))) {
      near(page.media, [0, 0, 595, 842]);
      near(page.crop, [MM10, MM10, 595 - MM10, 842 - MM10]);
      near(page.trim, page.crop);
    }
    // One pixel per point: the rendering loses 2 × 28.35 points each way (pdftoppm rounds up).
    const before = renderPage(file('plain.pdf'), 1);
    const after = renderPage(file('all.pdf'), 2);
    expect([before.width, before.height]).toEqual([595, 842]);
    expect(after.width).toBeGreaterThanOrEqual(538);
    expect(after.width).toBeLessThanOrEqual(539);
    expect(after.height).toBeGreaterThanOrEqual(785);
    expect(after.height).toBeLessThanOrEqual(786);
    expect(text(file('all.pdf'))).toContain('Crop page 3');
  });

  it('crops only the pages of a custom range', async () => {
    const entry = await client.runTool(
      'document/cut',
      { file_id: plainId, margins: margins(0, 0, 25.4, 0), pages: '2-3' },
      file('range.pdf'),
    );
    expect(entry.status).toBe(0);
    const boxes = pageBoxes(file('range.pdf'));
    near(boxes[0]!.crop, [0, 0, 595, 842]);
    near(boxes[1]!.crop, [0, 72, 595, 842]);
    near(boxes[2]!.crop, [0, 72, 595, 842]);
  });

  it('applies the margins to the sides as the page is shown, whatever its rotation, inside an existing crop', async () => {
    // 10 mm off the top only, 20 mm off the left only.
    const entry = await client.runTool(
      'document/cut',
      { file_id: mixedId, margins: margins(10, 0, 0, 20), pages: 'all' },
      file('mixed-out.pdf'),
    );
    expect(entry.status).toBe(0);
    const [upright, cw, ccw, cropped] = pageBoxes(file('mixed-out.pdf'));
    near(upright!.crop, [2 * MM10, 0, 595, 842 - MM10]);
    // Turned 90° clockwise the unrotated left edge is on top and the bottom edge on the left.
    near(cw!.crop, [MM10, 2 * MM10, 595, 842]);
    // Turned 270° the unrotated right edge is on top and the top edge on the left.
    near(ccw!.crop, [0, 0, 595 - MM10, 842 - 2 * MM10]);
    near(cropped!.crop, [50 + 2 * MM10, 60, 545, 800 - MM10]);
    // The rendered page (as shown, 842 wide when turned) shrinks on the sides asked.
    const shown = renderPage(file('mixed-out.pdf'), 2);
    expect(shown.width).toBeGreaterThanOrEqual(842 - Math.ceil(2 * MM10));
    expect(shown.width).toBeLessThanOrEqual(842 - Math.floor(2 * MM10));
    expect(shown.height).toBeGreaterThanOrEqual(595 - Math.ceil(MM10));
    expect(shown.height).toBeLessThanOrEqual(595 - Math.floor(MM10));
  });

  it("gives the spec's messages for bad ranges, and 'Maximum number of pages exceeded' past the last page", async () => {
    const call = (pages: string) => client.post('document/cut', { file_id: plainId, margins: margins(5, 5, 5, 5), pages });
    expect(await call('1-')).toMatchObject({ code: ErrorCode.InvalidParams, msg: expect.stringContaining(pageRangeMessages.format) });
    expect(await call('2-4')).toMatchObject({ code: ErrorCode.InvalidParams, msg: pageRangeMessages.tooMany });
  });

  it('refuses margins that leave no page area, naming the page, and leaves no output', async () => {
    const entry = await client.runTool(
      'document/cut',
      { file_id: plainId, margins: margins(0, 110, 0, 100), pages: 'all' },
      file('none.pdf'),
    );
    expect(entry.status).toBe(ErrorCode.InvalidParams);
    expect(entry.msg).toBe('The margins leave no page area on page 1, which is 209.9 × 297.0 mm.');
    expect(entry.outputs).toEqual([]);
    expect(fs.existsSync(file('none.pdf'))).toBe(false);
    expect((await client.post('document/cut', { file_id: plainId, margins: margins(-1, 0, 0, 0) })).code).toBe(ErrorCode.InvalidParams);
  });

  it("words its refusals and a failed task's message in the language the caller asks for", async () => {
    const texts = (locale: string): Record<string, string> =>
      JSON.parse(fs.readFileSync(new URL(`../src/texts/locales/${locale}.json`, import.meta.url), 'utf8'));
    const [german, french] = [texts('de-de'), texts('fr-fr')];
    const inLanguage = (language: string) => ({ 'content-type': 'application/json', 'accept-language': language });
    const cut = (body: object, language: string) =>
      client.call('document/cut', { method: 'POST', headers: inLanguage(language), body: JSON.stringify(body) });
    // A constant of the contracts, found by its English; zod's own message in zod's German.
    expect(await cut({ file_id: plainId, margins: margins(5, 5, 5, 5), pages: '2-4' }, 'de-DE,de;q=0.9')).toMatchObject({
      code: ErrorCode.InvalidParams,
      msg: german['error.range.tooMany'],
    });
    expect((await cut({ file_id: plainId }, 'de')).msg).toMatch(/^Ungültige Eingabe/);
    // Words with numbers, said in MuPDF's worker, kept with the failed task, read in the reader's language.
    const made = await cut({ file_id: plainId, margins: margins(0, 110, 0, 100), pages: 'all' }, 'fr');
    const english = await client.waitTask(made.data.task_id);
    expect(english.msg).toBe('The margins leave no page area on page 1, which is 209.9 × 297.0 mm.');
    const read = await client.call(`get-task-result?task_id=${made.data.task_id}`, { headers: { 'accept-language': 'fr-FR' } });
    const wanted = french['error.crop.nothingLeft']!.replace('{page}', '1').replace('{width}', '209.9').replace('{height}', '297.0');
    expect(read.data[0].msg).toBe(wanted);
    expect(wanted).not.toBe(english.msg);
  });

  it('opens a password-protected file with its password and writes an unprotected result', async () => {
    encryptPdf(file('plain.pdf'), file('locked.pdf'), 'crop-secret');
    const id = await client.uploadId(file('locked.pdf'));
    expect((await client.post('document/cut', { file_id: id, margins: margins(10, 10, 10, 10) })).code).toBe(ErrorCode.Encrypted);
    expect((await client.post('document/cut', { file_id: id, passwd: 'nope', margins: margins(10, 10, 10, 10) })).code).toBe(
      ErrorCode.WrongPassword,
    );
    const entry = await client.runTool(
      'document/cut',
      { file_id: id, passwd: 'crop-secret', margins: margins(10, 10, 10, 10) },
      file('unlocked.pdf'),
    );
    expect(entry.status).toBe(0);
    near(pageBoxes(file('unlocked.pdf'))[0]!.crop, [MM10, MM10, 595 - MM10, 842 - MM10]);
  });
});
