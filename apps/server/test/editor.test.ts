// The PDF editor's server through HTTP (document/runs, document/objects, document/form-fields and
// the save, document/content), each result checked with independent tools: pdftotext for text at its
// place, pdffonts for the fonts, pdfimages for images, qpdf --json for annotations and form values,
// pdfinfo for rotation, pdftoppm for what is drawn.
// Files from test-corpus/pdfjs (pdf.js's test suite, test-corpus/README.md): issue13201.pdf (the
// Bitcoin paper, iText, subset TrueType fonts), bug1883609.pdf (a form with text fields, check boxes
// and a combo box), 160F-2019.pdf (a Belgian tax form with a radio group).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type EditOperationInput, type FormFields, type PageObjects, type PageRuns } from '@quire/contracts';
import { Client, quireForTests } from './harness.js';
import { encryptPdf, npages, rotations } from './fixtures.js';
import { annotations, colourIn, formFields, pdffonts, qpdfCheckOk, text, words } from './editFixtures.js';

const served = quireForTests('editor');
const { client, dir } = served;
const file = (name: string) => path.join(dir, name);
const corpus = (name: string) => path.join(import.meta.dirname, '../../../test-corpus/pdfjs', name);

const bitcoin = corpus('issue13201.pdf');
let paperId: string;

const runsOf = async (fileId: string, page = 1, c = client) => {
  const res = await c.post<PageRuns>('document/runs', { file_id: fileId, page });
  expect(res.code, res.msg).toBe(0);
  return res.data.runs;
};
const objectsOf = async (fileId: string, page = 1) => {
  const res = await client.post<PageObjects>('document/objects', { file_id: fileId, page });
  expect(res.code, res.msg).toBe(0);
  return res.data;
};
const save = (fileId: string, operations: EditOperationInput[], dest: string, mode: 'edit' | 'annotate' = 'edit') =>
  client.runTool('document/content', { file_id: fileId, mode, operations }, file(dest));

/** A small PNG: a red square, drawn by ImageMagick. */
function redPng(): string {
  const png = file('red.png');
  execFileSync('convert', ['-size', '40x40', 'xc:#e00000', png]);
  return fs.readFileSync(png).toString('base64');
}
const pageText = (pdf: string) => execFileSync('pdftotext', ['-f', '1', '-l', '1', pdf, '-']).toString();
const imagesIn = (pdf: string) => execFileSync('pdfimages', ['-list', pdf]).toString().trim().split('\n').slice(2);

beforeAll(async () => {
  paperId = await client.uploadId(bitcoin);
});

describe('reading a page', () => {
  it('answers the text runs with font, size, colour and paragraph, with the same ids every time', async () => {
    const runs = await runsOf(paperId);
    const line = runs.find((r) => r.text.includes('financial institution'))!;
    expect(line).toBeDefined();
    expect(line.font).toBe('TimesNewRomanPSMT');
    expect(line.family).toBe('liberation-serif');
    expect(line.size).toBeGreaterThan(9);
    expect(line.color).toBe('#000000');
    expect(line.paragraph_bbox.width).toBeGreaterThan(line.bbox.width - 1);
    // The abstract's lines share their paragraph.
    expect(runs.filter((r) => r.paragraph === line.paragraph).length).toBeGreaterThan(5);
    expect((await runsOf(paperId)).map((r) => r.id)).toEqual(runs.map((r) => r.id));
  });

  it('answers 4202 for a page past the end and 2405 for another visitor’s file', async () => {
    expect((await client.post('document/runs', { file_id: paperId, page: 99 })).code).toBe(ErrorCode.EditPageMissing);
    const stranger = new Client(served.quire.url);
    for (const call of ['document/runs', 'document/objects', 'document/form-fields'])
      expect((await stranger.post(call, { file_id: paperId, page: 1 })).code).toBe(ErrorCode.NoData);
    const save = await stranger.post('document/content', {
      file_id: paperId,
      operations: [{ op: 'whiteout', page: 1, rect: rect(0, 0, 9, 9) }],
    });
    expect(save.code).toBe(ErrorCode.NoData);
  });

  it('asks for the password of an encrypted file, which travels in the body', async () => {
    const locked = await client.uploadId(encryptPdf(bitcoin, file('locked.pdf'), 'open-sesame'));
    expect((await client.post('document/runs', { file_id: locked, page: 1 })).code).toBe(ErrorCode.Encrypted);
    const res = await client.post<PageRuns>('document/runs', { file_id: locked, page: 1, passwd: 'open-sesame' });
    expect(res.code).toBe(0);
    expect(res.data.runs.some((r) => r.text.includes('Satoshi'))).toBe(true);
  });
});

const rect = (x: number, y: number, width: number, height: number) => ({ x, y, width, height });

describe('editing text in the content stream', () => {
  it('changes a word in its paragraph, in the run’s own font, at its place', async () => {
    const runs = await runsOf(paperId);
    const line = runs.find((r) => r.text.includes('financial institution'))!;
    const entry = await save(
      paperId,
      [{ op: 'replaceText', page: 1, run: line.id, text: line.text.replace('financial', 'banking') }],
      'word.pdf',
    );
    expect(entry.status, entry.msg).toBe(0);
    const out = file('word.pdf');
    expect(qpdfCheckOk(out)).toBe(true);
    const after = pageText(out);
    expect(after).toMatch(/banking institution/);
    expect(after).not.toMatch(/financial institution\./);
    // The page's two other "financial"s, in other paragraphs, stay.
    expect(after.match(/financial/g)).toHaveLength(2);
    // The rest of the paragraph is untouched.
    expect(after).toMatch(/Digital signatures provide part of the solution/);
    const was = words(bitcoin, 1).find((w) => w.word === 'financial')!.box;
    const now = words(out, 1).find((w) => w.word === 'banking')!.box;
    expect(Math.abs(now[0] - was[0])).toBeLessThan(1);
    expect(Math.abs(now[1] - was[1])).toBeLessThan(1);
    // The run's own font draws these glyphs already: it sets the new text, and no font was added.
    const fontsOf = (pdf: string) => pdffonts(pdf).split('\n').slice(2).filter(Boolean);
    expect(fontsOf(out).some((f) => f.startsWith('CAAAAA+TimesNewRomanPSMT'))).toBe(true);
    for (const font of fontsOf(out)) expect(fontsOf(bitcoin)).toContain(font);
    expect(entry.outputs[0]!.note).toBe('1 change saved.');
  });

  it('falls back to the nearest family where the run’s font lacks a glyph', async () => {
    const line = (await runsOf(paperId)).find((r) => r.text.includes('financial institution'))!;
    const entry = await save(paperId, [{ op: 'replaceText', page: 1, run: line.id, text: 'Ω payments to Zürich' }], 'fallback.pdf');
    expect(entry.status, entry.msg).toBe(0);
    expect(text(file('fallback.pdf'))).toMatch(/Ω payments to Zürich/);
    expect(pdffonts(file('fallback.pdf'))).toMatch(/LiberationSerif/);
    expect(entry.outputs[0]!.note).toMatch(/Liberation Serif was used/);
  });

  it('re-flows the paragraph when the line grows past its box', async () => {
    const runs = await runsOf(paperId);
    const line = runs.find((r) => r.text.includes('financial institution'))!;
    const para = line.paragraph_bbox;
    const longer = line.text.replace('financial institution', 'financial institution, a clearing house or any other middleman');
    const entry = await save(paperId, [{ op: 'replaceText', page: 1, run: line.id, text: longer }], 'reflow.pdf');
    expect(entry.status, entry.msg).toBe(0);
    const flat = text(file('reflow.pdf')).replace(/\s+/g, ' ');
    expect(flat).toMatch(/clearing house or any other middleman\. Digital signatures provide part of the solution/);
    // Every word of the paragraph stays within its box's width.
    const inPara = words(file('reflow.pdf'), 1).filter(
      (w) => w.box[1] > para.y - 1 && w.box[0] >= para.x - 1 && w.box[1] < para.y + para.height + 40,
    );
    expect(inPara.length).toBeGreaterThan(50);
    for (const w of inPara) expect(w.box[2]).toBeLessThan(para.x + para.width + 1.5);
    // Set in the paragraph's own fonts.
    expect(pdffonts(file('reflow.pdf'))).not.toMatch(/Liberation|DejaVu/i);
  });

  it('lets a one-line paragraph (a title, a cell) grow along its line, not down over the next one', async () => {
    const runs = await runsOf(paperId);
    const blockOf = (id: string) => id.split('.').slice(0, 2).join('.');
    const lineOf = (id: string) => id.split('.').slice(0, 3).join('.');
    // The title: a paragraph of one line, one run.
    const title = runs.find((r) => r.text.includes('Bitcoin: A Peer-to-Peer'))!;
    expect(runs.filter((r) => blockOf(r.id) === blockOf(title.id)).every((r) => lineOf(r.id) === lineOf(title.id))).toBe(true);
    const entry = await save(
      paperId,
      [{ op: 'replaceText', page: 1, run: title.id, text: title.text.replace('System', 'Systems') }],
      'title.pdf',
    );
    expect(entry.status, entry.msg).toBe(0);
    const placed = words(file('title.pdf'), 1);
    const last = placed.find((w) => w.word === 'Systems')!;
    const first = placed.find((w) => w.word === 'Bitcoin:')!;
    // Wider than its box was, and on the title's own line.
    expect(last.box[2]).toBeGreaterThan(title.paragraph_bbox.x + title.paragraph_bbox.width);
    expect(Math.abs(last.box[3] - first.box[3])).toBeLessThan(1);
  });
});

/** Lines of words (pdftotext -bbox) whose baselines lie between `top` and `bottom`, top down, each with its edges. */
function linesIn(pdf: string, top: number, bottom: number) {
  const lines: { words: string[]; left: number; right: number; baseline: number }[] = [];
  const placed = words(pdf, 1)
    .filter((w) => w.box[3] > top && w.box[3] < bottom)
    .sort((a, b) => a.box[3] - b.box[3] || a.box[0] - b.box[0]);
  for (const w of placed) {
    const line = lines.find((l) => Math.abs(l.baseline - w.box[3]) < 2);
    if (line) {
      line.words.push(w.word);
      [line.left, line.right] = [Math.min(line.left, w.box[0]), Math.max(line.right, w.box[2])];
    } else lines.push({ words: [w.word], left: w.box[0], right: w.box[2], baseline: w.box[3] });
  }
  return lines;
}

/** Whether any two words' boxes on the page overlap (by more than a hair: neighbours may touch). */
function overlapping(pdf: string): string[] {
  const placed = words(pdf, 1);
  const clashes: string[] = [];
  placed.forEach((a, i) => {
    for (const b of placed.slice(i + 1))
      if (
        Math.min(a.box[2], b.box[2]) - Math.max(a.box[0], b.box[0]) > 0.5 &&
        Math.min(a.box[3], b.box[3]) - Math.max(a.box[1], b.box[1]) > 0.5
      )
        clashes.push(`${a.word} × ${b.word}`);
  });
  return clashes;
}

const allWords = (pdf: string) =>
  words(pdf, 1)
    .map((w) => w.word)
    .sort();
/** The page's text as pdftotext reads it, white space made single spaces. */
const flatText = (pdf: string) => execFileSync('pdftotext', [pdf, '-']).toString().replace(/\s+/g, ' ');

describe('setting paragraphs again: alignment, several edits in one', () => {
  // justified-runs.pdf (test-corpus/made, LibreOffice's PDF of justified-runs.html): a justified
  // paragraph with bold and italic words inside its lines, a centred one and a flush-right one.
  const made = path.join(import.meta.dirname, '../../../test-corpus/made/justified-runs.pdf');
  let madeId: string;
  beforeAll(async () => {
    madeId = await client.uploadId(made);
  });
  /** Saves `operations` on that file: the output, its text, and the save's note. */
  const saveMade = async (operations: EditOperationInput[], name: string) => {
    const entry = await save(madeId, operations, name);
    expect(entry.status, entry.msg).toBe(0);
    return { out: file(name), flat: flatText(file(name)), note: entry.outputs[0]!.note };
  };
  /** The file's words with `gone` taken out (once each) and `added` put in, sorted. */
  const madeWords = (gone: string[], added: string[]) => {
    const expected = allWords(made);
    for (const w of gone) expected.splice(expected.indexOf(w), 1);
    return [...expected, ...added].sort();
  };

  it('keeps a justified paragraph justified when it re-flows, its last line ragged', async () => {
    const runs = await runsOf(paperId);
    const line = runs.find((r) => r.text.startsWith('payments to be sent directly'))!;
    const para = line.paragraph_bbox;
    const longer = line.text.replace('from one party to another', 'from any one party to any other party, wherever they are,');
    const entry = await save(paperId, [{ op: 'replaceText', page: 1, run: line.id, text: longer }], 'justified.pdf');
    expect(entry.status, entry.msg).toBe(0);
    const out = file('justified.pdf');
    const flat = flatText(out);
    expect(flat).toContain('from any one party to any other party, wherever they are, without going through');
    expect(flat).not.toContain('from one party to another');
    expect(qpdfCheckOk(out)).toBe(true);
    // Set in the paper's own fonts, no other embedded.
    const fontNames = (pdf: string) =>
      pdffonts(pdf)
        .split('\n')
        .slice(2)
        .filter(Boolean)
        .map((l) => l.split(' ')[0]);
    for (const font of fontNames(out)) expect(fontNames(bitcoin)).toContain(font);
    const before = linesIn(bitcoin, para.y, para.y + para.height + 1);
    const after = linesIn(out, para.y, para.y + para.height + 14);
    expect(after.length).toBe(before.length + 1);
    // Every line but the last ends at the paragraph's right edge, as the file's own lines did.
    const edge = Math.max(...before.map((l) => l.right));
    for (const l of after.slice(0, -1)) expect(Math.abs(l.right - edge), l.words.join(' ')).toBeLessThan(1);
    expect(after.at(-1)!.right).toBeLessThan(edge - 20);
    for (const l of after.slice(1)) expect(Math.abs(l.left - para.x)).toBeLessThan(1);
    expect(overlapping(out)).toEqual([]);

    // Saved again (the editor's next save starts from this file): its lines are read back as one
    // paragraph, still justified, and an emptied line's words flow up from the next.
    const savedId = await client.uploadId(out);
    const again = (await runsOf(savedId)).find((r) => r.text.startsWith('are, without going through'))!;
    expect(again.paragraph_bbox.height).toBeGreaterThan(para.height);
    const emptied = await save(savedId, [{ op: 'replaceText', page: 1, run: again.id, text: '' }], 'justified-again.pdf');
    expect(emptied.status, emptied.msg).toBe(0);
    const twice = linesIn(file('justified-again.pdf'), para.y, para.y + para.height + 14);
    expect(twice.length).toBe(before.length);
    for (const l of twice.slice(0, -1)) expect(Math.abs(l.right - edge), l.words.join(' ')).toBeLessThan(1);
    expect(overlapping(file('justified-again.pdf'))).toEqual([]);
  });

  it('sets several edits of one paragraph together: both appear, nothing overlaps, nothing is lost', async () => {
    const runs = await runsOf(madeId);
    const bold = runs.find((r) => r.text === 'cold Tuesday')!;
    const italic = runs.find((r) => r.text === 'questions about the budget')!;
    expect(bold.paragraph).toBe(italic.paragraph);
    expect(bold.line).not.toBe(italic.line);
    const operations: EditOperationInput[] = [
      { op: 'replaceText', page: 1, run: bold.id, text: 'cold and wet Tuesday' },
      { op: 'replaceText', page: 1, run: italic.id, text: 'doubts' },
    ];
    const { out, flat, note } = await saveMade(operations, 'two-edits.pdf');
    expect(flat).toContain('met on a cold and wet Tuesday morning');
    expect(flat).toContain('raised doubts, the timetable');
    expect(overlapping(out)).toEqual([]);
    expect(allWords(out)).toEqual(madeWords(['questions', 'about', 'the', 'budget,'], ['and', 'wet', 'doubts,']));
    // Still justified: the paragraph's full lines end together, its last is ragged.
    const para = bold.paragraph_bbox;
    const lines = linesIn(out, para.y, para.y + para.height + 4);
    expect(lines).toHaveLength(5);
    const edge = Math.max(...linesIn(made, para.y, para.y + para.height + 4).map((l) => l.right));
    for (const l of lines.slice(0, -1)) expect(Math.abs(l.right - edge), l.words.join(' ')).toBeLessThan(1);
    expect(note).toMatch(/^2 changes saved\./);
  });

  it('takes three edits on one line, and an edit that empties a run', async () => {
    const runs = await runsOf(madeId);
    const first = runs.find((r) => r.text.startsWith('The committee met'))!;
    const onLine = runs.filter((r) => r.line === first.line);
    expect(onLine.length).toBe(3);
    const italic = runs.find((r) => r.text === 'questions about the budget')!;
    const operations: EditOperationInput[] = [
      { op: 'replaceText', page: 1, run: onLine[0]!.id, text: onLine[0]!.text.replace('committee', 'board') },
      { op: 'replaceText', page: 1, run: onLine[1]!.id, text: 'wet Monday' },
      { op: 'replaceText', page: 1, run: onLine[2]!.id, text: onLine[2]!.text.replace('proposal', 'plan') },
      { op: 'replaceText', page: 1, run: italic.id, text: '' },
    ];
    const { out, flat } = await saveMade(operations, 'three-edits.pdf');
    expect(flat).toContain('The board met on a wet Monday morning to review the plan for the new library wing.');
    expect(flat).toContain('Several members raised , the timetable');
    expect(flat).not.toMatch(/committee|proposal|Tuesday|questions/);
    expect(overlapping(out)).toEqual([]);
    const gone = ['committee', 'cold', 'Tuesday', 'proposal', 'questions', 'about', 'the', 'budget,'];
    expect(allWords(out)).toEqual(madeWords(gone, ['board', 'wet', 'Monday', 'plan', ',']));
  });

  it('keeps a centred paragraph centred', async () => {
    const runs = await runsOf(madeId);
    const line = runs.find((r) => r.text === 'This line is centred on the page')!;
    const { out } = await saveMade(
      [{ op: 'replaceText', page: 1, run: line.id, text: 'This line is centred on the whole page' }],
      'centred.pdf',
    );
    const para = line.paragraph_bbox;
    const [was] = linesIn(made, para.y, para.y + para.height);
    const [now] = linesIn(out, para.y, para.y + para.height);
    expect(now!.words.join(' ')).toBe('This line is centred on the whole page');
    expect(now!.right - now!.left).toBeGreaterThan(was!.right - was!.left + 20);
    expect(Math.abs((now!.left + now!.right) / 2 - (was!.left + was!.right) / 2)).toBeLessThan(1);
  });
});

describe('adding and changing content', () => {
  let withImageId: string;

  it('adds text, an image, a white-out and shapes', async () => {
    // A noisy 700x700 PNG of about 1.5 MB: over the server's usual 1 MB body, within the editor's.
    const noise = file('noise.png');
    execFileSync('convert', ['-size', '700x700', 'xc:', '+noise', 'Random', noise]);
    expect(fs.statSync(noise).size).toBeGreaterThan(1024 * 1024);
    const ops: EditOperationInput[] = [
      { op: 'addImage', page: 1, rect: rect(72, 420, 100, 100), image: fs.readFileSync(noise).toString('base64') },
      {
        op: 'addText',
        page: 1,
        rect: rect(72, 20, 300, 40),
        text: 'Reviewed by Quire',
        font: 'dejavu-sans',
        size: 14,
        color: '#0000ff',
        bold: true,
      },
      { op: 'addImage', page: 1, rect: rect(450, 20, 60, 60), image: redPng() },
      { op: 'whiteout', page: 1, rect: rect(72, 680, 200, 30) },
      { op: 'shape', page: 1, kind: 'rect', rect: rect(400, 700, 100, 50), stroke: '#000000', fill: '#00c000', width: 2 },
      { op: 'shape', page: 1, kind: 'ellipse', rect: rect(400, 600, 100, 50), stroke: null, fill: '#0000e0' },
      {
        op: 'shape',
        page: 1,
        kind: 'arrow',
        points: [
          [100, 760],
          [300, 760],
        ],
        stroke: '#e00000',
        width: 3,
      },
    ];
    const entry = await save(paperId, ops, 'added.pdf');
    expect(entry.status, entry.msg).toBe(0);
    const out = file('added.pdf');
    expect(text(out)).toMatch(/Reviewed by Quire/);
    expect(pdffonts(out)).toMatch(/DejaVuSans-Bold/);
    expect(imagesIn(out)).toHaveLength(2);
    const green = colourIn(out, 1, [420, 710, 480, 740]);
    expect(green[1]).toBeGreaterThan(150);
    expect(green[0]).toBeLessThan(60);
    const blue = colourIn(out, 1, [440, 615, 460, 635]);
    expect(blue[2]).toBeGreaterThan(150);
    expect(colourIn(out, 1, [200, 758, 240, 762])[0]).toBeGreaterThan(150);
    expect(colourIn(out, 1, [455, 25, 505, 75])[0]).toBeGreaterThan(180);
    // The white-out covers the lines that were there.
    const covered = colourIn(out, 1, [72, 680, 272, 710]);
    expect(Math.min(...covered)).toBeGreaterThan(250);
    withImageId = await client.uploadId(out);
  });

  it('lists images and moves, resizes and deletes them', async () => {
    const { images } = await objectsOf(withImageId);
    expect(images).toHaveLength(2);
    const red = images.find((i) => Math.abs(i.bbox.x - 450) < 1)!;
    expect(red.width_px).toBe(40);
    const moved = await save(withImageId, [{ op: 'moveImage', page: 1, image: red.id, rect: rect(100, 300, 120, 80) }], 'moved.pdf');
    expect(moved.status, moved.msg).toBe(0);
    expect(imagesIn(file('moved.pdf'))).toHaveLength(2);
    expect(colourIn(file('moved.pdf'), 1, [110, 310, 210, 370])[0]).toBeGreaterThan(180);
    expect(Math.min(...colourIn(file('moved.pdf'), 1, [455, 25, 505, 75]))).toBeGreaterThan(250);
    const deleted = await save(withImageId, [{ op: 'deleteImage', page: 1, image: red.id }], 'noimage.pdf');
    expect(deleted.status, deleted.msg).toBe(0);
    expect(imagesIn(file('noimage.pdf'))).toHaveLength(1);
    expect(Math.min(...colourIn(file('noimage.pdf'), 1, [455, 25, 505, 75]))).toBeGreaterThan(250);
    // The text around it stays.
    expect(text(file('noimage.pdf'))).toMatch(/Reviewed by Quire/);
  });

  it('reorders, rotates, deletes and adds pages', async () => {
    // canvas.pdf (pdf.js's test suite): two pages, "HTML5 Canvas Cheat Sheet" on the first.
    const canvas = corpus('canvas.pdf');
    const twoPages = await client.uploadId(canvas);
    const order = [{ from: 2 }, { from: 'blank' as const }, { from: 1, rotate: 90 as const }];
    // The other operations count pages in the new order: the blank page is page 2, wherever the pages operation stands.
    const onBlank: EditOperationInput = { op: 'addText', page: 2, rect: rect(72, 72, 300, 40), text: 'A page of its own' };
    const entry = await save(twoPages, [onBlank, { op: 'pages', order }], 'pages.pdf');
    expect(entry.status, entry.msg).toBe(0);
    const out = file('pages.pdf');
    expect(npages(canvas)).toBe(2);
    expect(npages(out)).toBe(3);
    expect(rotations(out)).toEqual([0, 0, 90]);
    const pages = text(out).split('\f');
    expect(pages[2]).toMatch(/HTML5 Canvas Cheat Sheet/);
    expect(pages[0]).not.toMatch(/HTML5 Canvas Cheat Sheet/);
    expect(pages[1]!.trim()).toBe('A page of its own');
  });
});

describe('annotations', () => {
  let annotatedId: string;
  let kindsMade: string[];

  it('adds real PDF annotations of every kind', async () => {
    const line = (await runsOf(paperId)).find((r) => r.text.includes('financial institution'))!;
    const ops: EditOperationInput[] = [
      { op: 'annotate', page: 1, type: 'highlight', quads: [line.bbox], color: '#ffff00', author: 'Ada' },
      { op: 'annotate', page: 1, type: 'underline', quads: [line.bbox], color: '#00a000' },
      { op: 'annotate', page: 1, type: 'strikeout', quads: [line.bbox], color: '#ff0000' },
      { op: 'annotate', page: 1, type: 'note', rect: rect(520, 100, 20, 20), contents: 'Check this claim', author: 'Ada' },
      {
        op: 'annotate',
        page: 1,
        type: 'ink',
        ink: [
          [
            [100, 100],
            [150, 130],
            [200, 100],
          ],
        ],
        color: '#0000ff',
        width: 2,
      },
      { op: 'annotate', page: 1, type: 'square', rect: rect(60, 600, 100, 40), color: '#ff00ff' },
      { op: 'annotate', page: 1, type: 'circle', rect: rect(200, 600, 60, 40), color: '#00ffff' },
      {
        op: 'annotate',
        page: 1,
        type: 'line',
        points: [
          [60, 650],
          [260, 650],
        ],
        color: '#000000',
      },
      { op: 'annotate', page: 1, type: 'freetext', rect: rect(300, 600, 200, 30), contents: 'A typed comment', color: '#000000' },
      { op: 'annotate', page: 1, type: 'stamp', rect: rect(350, 660, 150, 50), contents: 'Approved', color: '#00a000' },
      // A signature: a stamp whose appearance is a picture.
      { op: 'annotate', page: 1, type: 'stamp', rect: rect(60, 700, 120, 40), image: redPng(), author: 'Ada' },
    ];
    kindsMade = ops.map((o) => (o.op === 'annotate' ? o.type : ''));
    const entry = await save(paperId, ops, 'annotated.pdf', 'annotate');
    expect(entry.status, entry.msg).toBe(0);
    const out = file('annotated.pdf');
    // The note's popup comes with it.
    expect(
      annotations(out)
        .map((a) => a.subtype)
        .filter((s) => s !== '/Popup'),
    ).toEqual(['/Highlight', '/Underline', '/StrikeOut', '/Text', '/Ink', '/Square', '/Circle', '/Line', '/FreeText', '/Stamp', '/Stamp']);
    expect(imagesIn(out)).toHaveLength(1);
    expect(colourIn(out, 1, [80, 710, 160, 730])[0]).toBeGreaterThan(180);
    expect(annotations(out).find((a) => a.subtype === '/Text')!.contents).toBe('Check this claim');
    // Each has an appearance, which pdftoppm draws: the ink stroke is blue.
    const ink = colourIn(out, 1, [148, 126, 152, 131]);
    expect(ink[2]).toBeGreaterThan(ink[0] + 60);
    annotatedId = await client.uploadId(out);
  });

  it('lists annotations and edits and deletes them', async () => {
    const { annotations: listed } = await objectsOf(annotatedId);
    // Every kind the save made, in its order (the note's popup is not listed: it is the note's).
    expect(listed.map((a) => a.type)).toEqual(kindsMade);
    const note = listed.find((a) => a.type === 'note')!;
    expect(note.contents).toBe('Check this claim');
    expect(note.author).toBe('Ada');
    const square = listed.find((a) => a.type === 'square')!;
    const entry = await save(
      annotatedId,
      [
        { op: 'editAnnotation', page: 1, annotation: note.id, contents: 'Checked: fine' },
        { op: 'deleteAnnotation', page: 1, annotation: square.id },
      ],
      'reannotated.pdf',
      'annotate',
    );
    expect(entry.status, entry.msg).toBe(0);
    const after = annotations(file('reannotated.pdf')).filter((a) => a.subtype !== '/Popup');
    expect(after.map((a) => a.subtype)).not.toContain('/Square');
    expect(after).toHaveLength(10);
    expect(after.find((a) => a.subtype === '/Text')!.contents).toBe('Checked: fine');
  });
});

describe('forms', () => {
  it('lists the fields, fills text, check boxes, choices and radio buttons, and flattens them', async () => {
    const formId = await client.uploadId(corpus('bug1883609.pdf'));
    const listed = await client.post<FormFields>('document/form-fields', { file_id: formId });
    expect(listed.code).toBe(0);
    const types = new Set(listed.data.fields.map((f) => f.type));
    expect(types).toEqual(new Set(['text', 'checkbox', 'combobox']));
    const box = listed.data.fields.find((f) => f.type === 'checkbox')!;
    const combo = listed.data.fields.find((f) => f.type === 'combobox')!;
    expect(combo.options).toContain('Belgium');
    const fields = { 'Given Name Text Box': 'Grace', [box.name]: true, [combo.name]: 'Belgium' };
    const filled = await save(formId, [{ op: 'fillForm', fields }], 'filled.pdf');
    expect(filled.status, filled.msg).toBe(0);
    const values = new Map(formFields(file('filled.pdf')).map((f) => [f.name, f.value]));
    expect(values.get('Given Name Text Box')).toBe('Grace');
    expect(values.get(box.name)).toBe(`/${box.options[0]}`);
    expect(values.get(combo.name)).toBe('Belgium');

    const flat = await save(formId, [{ op: 'fillForm', fields }, { op: 'flatten' }], 'flat.pdf');
    expect(flat.status, flat.msg).toBe(0);
    expect(formFields(file('flat.pdf'))).toHaveLength(0);
    expect(text(file('flat.pdf'))).toMatch(/Grace/);
    expect(text(file('flat.pdf'))).toMatch(/Belgium/);

    const radioForm = await client.uploadId(corpus('160F-2019.pdf'));
    const radios = (await client.post<FormFields>('document/form-fields', { file_id: radioForm })).data.fields.filter(
      (f) => f.type === 'radio',
    );
    expect(radios.length).toBeGreaterThan(1);
    const option = radios[1]!.options[0]!;
    const chosen = await save(radioForm, [{ op: 'fillForm', fields: { [radios[1]!.name]: option } }], 'radio.pdf');
    expect(chosen.status, chosen.msg).toBe(0);
    expect(new Map(formFields(file('radio.pdf')).map((f) => [f.name, f.value])).get(radios[1]!.name)).toBe(`/${option}`);
  });

  it('keeps the form, filled, through a change of pages in the same save', async () => {
    const formId = await client.uploadId(corpus('bug1883609.pdf'));
    const before = formFields(corpus('bug1883609.pdf')).length;
    const operations: EditOperationInput[] = [
      { op: 'pages', order: [{ from: 'blank' }, { from: 1, rotate: 90 }] },
      { op: 'fillForm', fields: { 'Given Name Text Box': 'Ada' } },
    ];
    const saved = await save(formId, operations, 'paged-form.pdf');
    expect(saved.status, saved.msg).toBe(0);
    const fields = formFields(file('paged-form.pdf'));
    expect(fields).toHaveLength(before);
    expect(new Map(fields.map((f) => [f.name, f.value])).get('Given Name Text Box')).toBe('Ada');
    expect(npages(file('paged-form.pdf'))).toBe(2);
  });
});

describe('the fonts of the page', () => {
  it("serves a family's style as the file the save embeds, cached by the browser, and refuses a family not in the list", async () => {
    const url = (query: string) => `${served.quire.url}/api/tools/v1/document/font?${query}`;
    for (const [query, family, style] of [
      ['family=carlito&style=bold', 'Carlito', 'Bold'],
      ['family=nimbus-roman&style=italic', 'Nimbus Roman', 'Italic'],
      ['family=liberation-sans', 'Liberation Sans', 'Regular'],
    ] as const) {
      const res = await fetch(url(query));
      expect(res.status, query).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^font\/(ttf|otf)$/);
      expect(res.headers.get('cache-control')).toMatch(/^public, max-age=\d{4,}$/);
      // fontconfig reads the bytes served: the family and style asked for.
      const fontFile = file(`font-${family}-${style}`);
      fs.writeFileSync(fontFile, Buffer.from(await res.arrayBuffer()));
      const [families = '', styles = ''] = execFileSync('fc-scan', ['--format', '%{family}|%{style}', fontFile]).toString().split('|');
      expect(families.split(','), query).toContain(family);
      expect(styles.split(','), query).toContain(style);
    }
    const refused = await fetch(url('family=comic-sans'));
    expect(((await refused.json()) as { code: number }).code).toBe(ErrorCode.InvalidParams);
  });
});

describe('refusals', () => {
  it('refuses bad calls with their catalogue codes', async () => {
    const post = (operations: unknown) => client.post('document/content', { file_id: paperId, operations });
    expect((await post([])).code).toBe(ErrorCode.InvalidParams);
    const inAnnotateMode = await client.post('document/content', {
      file_id: paperId,
      mode: 'annotate',
      operations: [{ op: 'whiteout', page: 1, rect: rect(0, 0, 9, 9) }],
    });
    expect(inAnnotateMode.msg).toMatch(/switch to edit mode/);
    expect((await post([{ op: 'whiteout', page: 20, rect: rect(0, 0, 9, 9) }])).code).toBe(ErrorCode.EditPageMissing);
    expect((await post([{ op: 'addImage', page: 1, rect: rect(0, 0, 9, 9), image: 'data:image/png;base64,AAAA' }])).code).toBe(
      ErrorCode.InvalidParams,
    );
    expect((await post([{ op: 'addText', page: 1, rect: rect(0, 0, 9, 9), text: 'x'.repeat(5001) }])).code).toBe(ErrorCode.InvalidParams);
    expect((await post([{ op: 'pages', order: [{ from: 10 }] }])).code).toBe(ErrorCode.EditPageMissing);
    const failed = async (operations: EditOperationInput[]) => (await save(paperId, operations, 'refused.pdf')).status;
    expect(await failed([{ op: 'replaceText', page: 1, run: '1.999.0.0', text: 'x' }])).toBe(ErrorCode.EditTargetGone);
    expect(
      await failed([{ op: 'addImage', page: 1, rect: rect(0, 0, 9, 9), image: Buffer.from('GIF89a not an image').toString('base64') }]),
    ).toBe(ErrorCode.EditImageUnreadable);
    expect(await failed([{ op: 'fillForm', fields: { nothing: 'x' } }])).toBe(ErrorCode.EditFieldUnknown);
  });
});
