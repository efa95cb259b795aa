// Replace text through the HTTP API: pdftotext shows the new text and not the old, at the old
// place (pdftotext -bbox), in the old size and colour (pdftoppm), in the old font where it has
// the glyphs (pdffonts) and in a standard font of its style where it does not.
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@quire/contracts';
import { quireForTests } from './harness.js';
import { encryptPdf, npages } from './fixtures.js';
import { colourIn, makeDoc, pdffonts, qpdfCheckOk, text, words } from './editFixtures.js';

const { client, dir } = quireForTests('replace');
const file = (name: string) => path.join(dir, name);
let docId: string;

const wordsOf = (pdf: string, page: number, word: string) => words(pdf, page).filter((w) => w.word === word);
const replace = (id: string, search: string, replacement: string, dest: string, extra: object = {}) =>
  client.runTool('document/replacetext', { file_id: id, search, replace: replacement, ...extra }, file(dest));

beforeAll(async () => {
  await makeDoc(file('doc.pdf'), {
    pages: [
      {
        lines: [
          { text: 'The agent met the courier.', x: 72, y: 760 },
          { text: 'Meet at the old mill.', x: 72, y: 700, size: 24, color: [0, 0, 1] },
        ],
      },
      { rotate: 90, lines: [{ text: 'Rotated the page', x: 72, y: 500 }] },
    ],
  });
  docId = await client.uploadId(file('doc.pdf'));
});

describe('replace text', () => {
  it('replaces every occurrence in place, keeping size, colour and font, and counts them', async () => {
    const entry = await replace(docId, 'the', 'THE', 'out.pdf');
    expect(entry.status).toBe(0);
    expect(entry.output_file_name).toBe('doc-replaced.pdf');
    expect(entry.outputs[0]!.note).toBe('3 replacements.');
    const [input, out] = [file('doc.pdf'), file('out.pdf')];
    expect(qpdfCheckOk(out)).toBe(true);
    expect(npages(out)).toBe(2);
    const after = text(out);
    expect(after).toMatch(/The agent met THE\s+courier\./);
    expect(after).toMatch(/Meet at THE\s+old mill\./);
    expect(after).toMatch(/Rotated THE\s+page/);
    expect(after).not.toMatch(/\bthe\b/);

    // Where the old word was, on each page and line (the rotated page too), in the same size.
    for (const [page, i] of [
      [1, 0],
      [1, 1],
      [2, 0],
    ] as const) {
      const was = wordsOf(input, page, 'the')[i]!.box;
      const now = wordsOf(out, page, 'THE')[i]!.box;
      expect(Math.abs(now[0] - was[0]) + Math.abs(now[1] - was[1])).toBeLessThan(1.5);
      expect(Math.abs(now[3] - now[1] - (was[3] - was[1]))).toBeLessThan(1);
    }
    // The 24 pt line is blue, as it was.
    const [r, g, b] = colourIn(out, 1, wordsOf(out, 1, 'THE')[1]!.box);
    expect(b).toBeGreaterThan(r + 60);
    expect(b).toBeGreaterThan(g + 60);
    // Helvetica had the glyphs: no other font was added.
    expect(new Set(pdffonts(out).match(/^\S+(?=\s+Type)/gm))).toEqual(new Set(['Helvetica']));
    expect(pdffonts(out)).not.toMatch(/Times|Courier|Nimbus/);
  });

  it('narrows a longer replacement to the old width rather than writing over the next word', async () => {
    // "visited" is about 1.7 times as wide as "met" in Helvetica.
    const entry = await replace(docId, 'met', 'visited', 'longer.pdf');
    expect(entry.status).toBe(0);
    const was = wordsOf(file('doc.pdf'), 1, 'met')[0]!.box;
    const now = wordsOf(file('longer.pdf'), 1, 'visited')[0]!.box;
    expect(now[0]).toBeCloseTo(was[0], 0);
    expect(now[2]).toBeCloseTo(was[2], 0);
    expect(text(file('longer.pdf'))).toMatch(/The agent visited\s+the courier\./);
  });

  it('falls back to a standard font of the same style where a font subset lacks the new glyphs, and says so', async () => {
    // Cairo rewrites the file with embedded font subsets holding only the glyphs used.
    execFileSync('pdftocairo', ['-pdf', file('doc.pdf'), file('subset.pdf')]);
    expect(pdffonts(file('subset.pdf'))).toMatch(/\+\S+\s+Type 1C.*yes\s+yes/);
    const id = await client.uploadId(file('subset.pdf'));

    const kept = await replace(id, 'agent', 'eta', 'subset-kept.pdf');
    expect(kept.outputs[0]!.note).toBe('1 replacement.');
    expect(text(file('subset-kept.pdf'))).toMatch(/The eta\s+met/);
    expect(pdffonts(file('subset-kept.pdf'))).not.toMatch(/Helvetica|Times|Courier/);

    const fallback = await replace(id, 'agent', 'Zyxwv', 'subset-new.pdf');
    expect(fallback.outputs[0]!.note).toBe(
      '1 replacement. The original font lacks some of the new characters, so Helvetica was used there.',
    );
    expect(text(file('subset-new.pdf'))).toMatch(/The Zyxwv\s+met/);
    expect(pdffonts(file('subset-new.pdf'))).toMatch(/^Helvetica\s+Type 1\s+WinAnsi\s+no/m);
  });

  it('succeeds with "0 replacements" when nothing matches, the text unchanged', async () => {
    const entry = await replace(docId, 'Timbuktu', 'Paris', 'none.pdf');
    expect(entry.status).toBe(0);
    expect(entry.outputs[0]!.note).toBe('0 replacements.');
    expect(text(file('none.pdf'))).toBe(text(file('doc.pdf')));
  });

  it('replaces in the text the crop box hides too, as pdftotext and copy-paste read it (pdf.js issue16316)', async () => {
    const croppedPdf = path.join(import.meta.dirname, '../../../test-corpus/pdfjs/issue16316.pdf');
    const before = (text(croppedPdf).match(/\bthe\b/g) ?? []).length;
    expect(before).toBeGreaterThan(10);
    const entry = await replace(await client.uploadId(croppedPdf), 'the', 'THE', 'cropped.pdf');
    expect(entry.status).toBe(0);
    expect(Number(entry.outputs[0]!.note!.match(/^(\d+) replacements/)![1])).toBeGreaterThanOrEqual(before);
    expect(text(file('cropped.pdf'))).not.toMatch(/the/);
  });

  it('refuses a blank search and opens a protected file with its password', async () => {
    expect((await client.post('document/replacetext', { file_id: docId, search: '', replace: 'x' })).code).toBe(ErrorCode.InvalidParams);
    expect(await client.post('document/replacetext', { file_id: docId, search: '  ', replace: 'x' })).toMatchObject({
      code: ErrorCode.InvalidParams,
      msg: 'The text to find cannot be blank.',
    });
    encryptPdf(file('doc.pdf'), file('locked.pdf'), 'swap-pass');
    const id = await client.uploadId(file('locked.pdf'));
    expect((await client.post('document/replacetext', { file_id: id, search: 'the', replace: 'a' })).code).toBe(ErrorCode.Encrypted);
    const entry = await replace(id, 'courier', 'messenger', 'unlocked.pdf', { passwd: 'swap-pass' });
    expect(entry.status).toBe(0);
    expect(text(file('unlocked.pdf'))).toMatch(/the messenger\./);
  });
});
