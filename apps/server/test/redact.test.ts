// Redact through the HTTP API: marked areas and searched text are removed from the file, not
// covered. Checked with pdftotext (text gone), the decompressed file (no trace of the strings),
// pdfimages (image pixels blanked), pdftoppm (black boxes where the marks were), pdfinfo
// (metadata gone) and qpdf --json (annotations over or mentioning a mark gone).
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@quire/contracts';
import { quireForTests } from './harness.js';
import { encryptPdf, npages } from './fixtures.js';
import { annotations, firstImage, formFields, makeDoc, pdfinfo, qpdfCheckOk, rawContent, renderPage, text, words } from './editFixtures.js';

const { client, dir } = quireForTests('redact');
const file = (name: string) => path.join(dir, name);
let docId: string;

/** Where pdftotext finds `word` on the page, as a redaction area (points from the bottom left as shown). */
function areaOver(pdf: string, page: number, word: string, pad = 1) {
  const hit = words(pdf, page).find((w) => w.word === word);
  if (!hit) throw new Error(`${word} not on page ${page}`);
  const shownHeight = renderPage(pdf, page).height;
  const [x0, y0, x1, y1] = hit.box;
  return { page, x: x0 - pad, y: shownHeight - y1 - pad, width: x1 - x0 + 2 * pad, height: y1 - y0 + 2 * pad };
}

const hexOf = (s: string) => Buffer.from(s, 'latin1').toString('hex');

beforeAll(async () => {
  await makeDoc(file('doc.pdf'), {
    title: 'Report on Zanzibar',
    subject: 'Zanzibar',
    xmp: 'Operation Zanzibar',
    bookmark: 'Zanzibar section',
    pages: [
      {
        lines: [
          { text: 'Agent Zanzibar met the courier at noon.', x: 72, y: 760 },
          { text: 'Call 555-1234 or 555-9876 for details.', x: 72, y: 730 },
          { text: 'This line stays as it is.', x: 72, y: 700 },
          { text: 'classified', x: 300, y: 600 },
        ],
        image: { rect: [72, 300, 200, 200], color: [255, 0, 0] },
        notes: [
          { rect: [300, 590, 320, 610], contents: 'a note over the marked word' },
          { rect: [500, 100, 520, 120], contents: 'ZANZIBAR drop point' },
          { rect: [500, 200, 520, 220], contents: 'keep me' },
        ],
        fields: [
          { name: 'agent', value: 'Zanzibar', rect: [300, 100, 150, 20] },
          { name: 'desk', value: 'second floor', rect: [300, 60, 150, 20] },
        ],
      },
      {
        rotate: 90,
        lines: [
          { text: 'Rotated Zanzibar page', x: 72, y: 500 },
          { text: 'Rotated secret word', x: 72, y: 400 },
        ],
      },
    ],
  });
  docId = await client.uploadId(file('doc.pdf'));
});

describe('redact', () => {
  const imageArea = { page: 1, x: 100, y: 350, width: 50, height: 50 };

  it('removes marked areas and every hit of the searched texts, and whatever else carries them', async () => {
    const input = file('doc.pdf');
    const areas = [areaOver(input, 1, 'classified'), imageArea, areaOver(input, 2, 'secret')];
    const texts = [{ text: 'zanzibar' }, { text: '555-\\d{4}', regex: true }];
    const entry = await client.runTool(`document/redaction/${docId}/redaction`, { areas, texts }, file('out.pdf'));
    expect(entry.status).toBe(0);
    expect(entry.output_file_name).toBe('doc-redacted.pdf');
    expect(entry.outputs[0]!.note).toBe(
      "Removed 3 marked areas, 4 text matches, 3 annotations, 1 bookmark title and the document's metadata.",
    );
    // The note is said in the language of whoever reads the result.
    const german = JSON.parse(fs.readFileSync(new URL('../src/texts/locales/de-de.json', import.meta.url), 'utf8'));
    const read = await client.call(`get-task-result?task_id=${entry.task_id}`, { headers: { 'accept-language': 'de' } });
    const note = read.data[0].outputs[0].note as string;
    const [opening, closing] = (german['note.redact.removed'] as string).split('{list}');
    expect(note.startsWith(opening!) && note.endsWith(closing!)).toBe(true);
    expect(note).toContain('3 markierte Bereiche');
    expect(note).toContain('1 Lesezeichentitel');
    const out = file('out.pdf');
    expect(qpdfCheckOk(out)).toBe(true);
    expect(npages(out)).toBe(2);

    // The text is gone, the rest of it stays.
    const after = text(out);
    for (const gone of [/zanzibar/i, /555-/, /classified/, /secret/]) expect(after).not.toMatch(gone);
    for (const kept of ['Agent', 'met the courier at noon.', 'This line stays as it is.', 'Rotated', 'page', 'word', 'for details.'])
      expect(after).toContain(kept);

    // No trace anywhere in the file: not in content (hex strings), metadata, bookmarks or annotations.
    const raw = rawContent(out);
    for (const gone of ['Zanzibar', 'ZANZIBAR', 'classified', 'secret', '555-1234']) {
      expect(raw).not.toContain(gone);
      expect(raw.toLowerCase()).not.toContain(hexOf(gone).toLowerCase());
    }
    const info = pdfinfo(out);
    expect(info).not.toMatch(/^Title:/m);
    expect(info).not.toMatch(/^Subject:/m);
    expect(info).toMatch(/^Metadata Stream:\s+no/m);

    // The note over a mark, the one mentioning the text and the form field holding it are gone; the others stay.
    expect(annotations(out)).toEqual([
      { page: 1, subtype: '/Text', contents: 'keep me' },
      { page: 1, subtype: '/Widget', contents: '' },
    ]);
    expect(formFields(out)).toEqual([{ name: 'desk', value: 'second floor' }]);

    // The image keeps its size, with the pixels under the mark blanked and the others untouched.
    const before = firstImage(input, dir);
    const image = firstImage(out, dir);
    expect([image.width, image.height]).toEqual([64, 64]);
    // 64 pixels over 200 points: the mark covers image pixels 9–24 across and 32–48 down.
    expect(image.mean(11, 34, 23, 46)).not.toBeCloseTo(before.mean(11, 34, 23, 46), 0);
    expect(image.mean(0, 0, 8, 30)).toBeCloseTo(before.mean(0, 0, 8, 30), 0);
    expect(image.mean(30, 50, 64, 64)).toBeCloseTo(before.mean(30, 50, 64, 64), 0);

    // Black boxes show where: at the image mark (y from the top: 842 - 400 .. 842 - 350) and the word.
    const page = renderPage(out, 1);
    expect(page.mean(102, 444, 148, 490)).toBeLessThan(10);
    const word = areaOver(input, 1, 'classified', 0);
    expect(page.mean(word.x + 2, 842 - word.y - word.height + 2, word.x + word.width - 2, 842 - word.y - 2)).toBeLessThan(10);
    expect(page.mean(300, 650, 500, 690)).toBeGreaterThan(250);
  });

  it('takes the password in the path, as the spec shapes the call, or in the body', async () => {
    encryptPdf(file('doc.pdf'), file('locked.pdf'), 'red-pass');
    const id = await client.uploadId(file('locked.pdf'));
    const body = { texts: [{ text: 'Zanzibar' }] };
    expect((await client.post(`document/redaction/${id}/redaction`, body)).code).toBe(ErrorCode.Encrypted);
    expect((await client.post(`document/redaction/${id}/redaction/wrong-pass`, body)).code).toBe(ErrorCode.WrongPassword);
    const viaPath = await client.runTool(`document/redaction/${id}/redaction/red-pass`, body, file('path.pdf'));
    expect(viaPath.status).toBe(0);
    expect(text(file('path.pdf'))).not.toMatch(/zanzibar/i);
    const viaBody = await client.runTool(`document/redaction/${id}/redaction`, { ...body, passwd: 'red-pass' }, file('body.pdf'));
    expect(viaBody.status).toBe(0);
  });

  it('refuses a call with nothing marked, a mark off the document or a broken regular expression', async () => {
    const call = (body: object) => client.post(`document/redaction/${docId}/redaction`, body);
    expect(await call({ areas: [], texts: [] })).toMatchObject({
      code: ErrorCode.InvalidParams,
      msg: 'Mark at least one area or text to redact.',
    });
    expect(await call({ areas: [{ ...imageArea, page: 3 }] })).toMatchObject({
      code: ErrorCode.InvalidParams,
      msg: 'A marked area is on page 3, but the document has 2 pages.',
    });
    expect(await call({ texts: [{ text: '(unclosed', regex: true }] })).toMatchObject({
      code: ErrorCode.InvalidParams,
      msg: expect.stringMatching(/^Invalid regular expression: /),
    });
    expect(await call({ texts: [{ text: '   ' }] })).toMatchObject({
      code: ErrorCode.InvalidParams,
      msg: 'The text to redact cannot be blank.',
    });
    expect((await client.post(`document/redaction/not-a-file/redaction`, { texts: [{ text: 'x' }] })).code).toBe(ErrorCode.NoData);
  });

  it('succeeds when a search finds nothing, saying so', async () => {
    const entry = await client.runTool(`document/redaction/${docId}/redaction`, { texts: [{ text: 'Timbuktu' }] }, file('none.pdf'));
    expect(entry.status).toBe(0);
    expect(entry.outputs[0]!.note).toBe("Removed 0 text matches and the document's metadata.");
    expect(text(file('none.pdf'))).toContain('Agent Zanzibar met the courier');
  });

  it('removes the text the crop box hides, which the file still holds (pdf.js issue16316: a 60 × 9 pt window on a letter page)', async () => {
    const croppedPdf = path.join(import.meta.dirname, '../../../test-corpus/pdfjs/issue16316.pdf');
    const hidden = (text(croppedPdf).match(/\bthe\b/gi) ?? []).length;
    expect(hidden).toBeGreaterThan(10);
    const entry = await client.runTool(
      `document/redaction/${await client.uploadId(croppedPdf)}/redaction`,
      { texts: [{ text: 'the' }] },
      file('cropped.pdf'),
    );
    expect(entry.status).toBe(0);
    expect(text(file('cropped.pdf'))).not.toMatch(/the/i);
    expect(text(file('cropped.pdf'))).toMatch(/\w{4,}/);
  });

  it('finds characters past U+FFFF (mathematical italic), which MuPDF.js would cut to 16 bits', async () => {
    const mathsPdf = path.join(import.meta.dirname, '../../../test-corpus/pdfjs/bug1997343.pdf');
    const maths = await client.uploadId(mathsPdf);
    expect(text(mathsPdf)).toContain('mod \u{1D45D}');
    const entry = await client.runTool(`document/redaction/${maths}/redaction`, { texts: [{ text: 'mod \u{1D45D}' }] }, file('maths.pdf'));
    expect(entry.status).toBe(0);
    expect(entry.outputs[0]!.note).not.toMatch(/Removed 0 text matches/);
    expect(text(file('maths.pdf'))).not.toContain('mod \u{1D45D}');
  });
});
