// The layout analysis on pages built by hand (RawPage), and on PDFs drawn with pdf-lib read by MuPDF.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as mupdf from 'mupdf';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { analyze, listMarker, markerValue, readingOrder, withoutProseRows } from './analyze.js';
import { extractPage } from './extract.js';
import { runsText, type Block, type Box, type RawLine, type RawPage } from './model.js';
import { ruledGrids } from './rules.js';
import { linesToRows } from './xlsx.js';
import { escapeRtf } from './rtf.js';
import { pageHtml } from './html.js';

/** A one-span line whose text starts at x on baseline y, 0.5 points per character wide. */
function line(text: string, x: number, y: number, size = 10, style: { bold?: boolean } = {}): RawLine {
  const x1 = x + text.length * size * 0.5;
  return {
    bbox: [x, y - size, x1, y + size * 0.2],
    baseline: y,
    sideways: false,
    spans: [{ text, size, bold: !!style.bold, italic: false, mono: false, serif: false, color: '000000', x0: x, x1 }],
  };
}

const block = (...lines: RawLine[]) => ({ bbox: [0, 0, 0, 0] as Box, lines });
const page = (blocks: ReturnType<typeof block>[], extra: Partial<RawPage> = {}): RawPage => ({
  width: 600,
  height: 800,
  blocks,
  images: [],
  tables: [],
  rules: [],
  ...extra,
});

function describeBlocks(blocks: Block[]): string[] {
  return blocks.map((b) => {
    if (b.kind === 'heading') return `h${b.level}: ${runsText(b.runs)}`;
    if (b.kind === 'paragraph') return `p: ${runsText(b.runs)}`;
    if (b.kind === 'list') return `${b.ordered ? 'ol' : 'ul'}: ${b.items.map((i) => `${i.level}:${runsText(i.runs)}`).join(' | ')}`;
    if (b.kind === 'table') return `table: ${b.rows.map((r) => r.map((c) => c.map(runsText).join('/')).join(',')).join(' ; ')}`;
    return `image ${b.file}`;
  });
}

describe('paragraphs and headings', () => {
  it('joins the lines of a paragraph, undoes hyphenation, and splits where a short line ends a sentence', () => {
    const body = block(
      line('The quick brown fox jumps over the lazy dog and keeps on run-', 50, 100),
      line('ning until the end of the line is reached by it.', 50, 112),
      line('A new paragraph starts after a short last line and it goes on', 50, 124),
      line('to the end.', 50, 136),
    );
    const model = analyze([page([block(line('Title of it all', 50, 60, 20)), body])], '/tmp');
    expect(describeBlocks(model.pages[0]!.blocks)).toEqual([
      'h1: Title of it all',
      'p: The quick brown fox jumps over the lazy dog and keeps on running until the end of the line is reached by it.',
      'p: A new paragraph starts after a short last line and it goes on to the end.',
    ]);
    expect(model.bodySize).toBe(10);
  });

  it('goes on with a paragraph the end of a column cut, hyphenated or not', () => {
    const left = block(
      line('A paragraph that runs down the left column and is contin-', 50, 100),
      line('ued in the right column, where it goes on and', 50, 112),
    );
    const right = block(line('ends at last.', 320, 100), line('A new one starts here.', 320, 124));
    const model = analyze([page([left, right])], '/tmp');
    expect(describeBlocks(model.pages[0]!.blocks)).toEqual([
      'p: A paragraph that runs down the left column and is continued in the right column, where it goes on and ends at last.',
      'p: A new one starts here.',
    ]);
  });

  it('ranks heading sizes into levels across the document', () => {
    const text = 'Body text that is long enough to be the most common size of all here.';
    const model = analyze(
      [
        page([
          block(line('Chapter', 50, 60, 24)),
          block(line('Section', 50, 100, 16)),
          block(line(text, 50, 130)),
          block(line('Subsection', 50, 160, 13)),
          block(line(text, 50, 190)),
        ]),
      ],
      '/tmp',
    );
    expect(describeBlocks(model.pages[0]!.blocks).filter((b) => b.startsWith('h'))).toEqual([
      'h1: Chapter',
      'h2: Section',
      'h3: Subsection',
    ]);
  });

  it('keeps bold runs inside a paragraph', () => {
    const l = line('Plain ', 50, 100);
    const bold = line('bold', 80, 100, 10, { bold: true });
    const joined: RawLine = { ...l, spans: [...l.spans, ...bold.spans], bbox: [50, 90, 100, 102] };
    const model = analyze([page([block(joined)])], '/tmp');
    const p = model.pages[0]!.blocks[0]!;
    expect(p.kind === 'paragraph' && p.runs).toEqual([
      { text: 'Plain ', size: 10 },
      { text: 'bold', size: 10, bold: true },
    ]);
  });
});

describe('lists', () => {
  it('recognises bullet and number markers, not numbers in prose', () => {
    expect(listMarker('• Apples')).toEqual({ length: 2, ordered: false });
    expect(listMarker('- item')).toEqual({ length: 2, ordered: false });
    expect(listMarker('12. Twelfth')).toEqual({ length: 4, ordered: true, value: 12 });
    expect(listMarker('b) second')).toEqual({ length: 3, ordered: true, value: 2 });
    expect(listMarker('2019. That year')).toBeNull();
    expect(listMarker('-5 degrees')).toBeNull();
    expect(listMarker('•')).toBeNull();
  });

  it('groups items into one list with levels from their indents, the marker taken off', () => {
    const model = analyze(
      [
        page([
          block(line('1. First', 50, 100), line('2. Second', 50, 112), line('a. Inner', 70, 124), line('3. Third', 50, 136)),
          block(line('After the list comes prose.', 50, 170)),
        ]),
      ],
      '/tmp',
    );
    expect(describeBlocks(model.pages[0]!.blocks)).toEqual([
      'ol: 0:First | 0:Second | 1:Inner | 0:Third',
      'p: After the list comes prose.',
    ]);
  });

  it('starts a new list where the numbers start again or jump, from that number', () => {
    const items = ['1. One', '2. Two', '1. Again', '2. Again two', '10. Ten', '11. Eleven'].map((t, i) => line(t, 50, 100 + i * 12));
    const blocks = analyze([page([block(...items)])], '/tmp').pages[0]!.blocks;
    expect(describeBlocks(blocks)).toEqual(['ol: 0:One | 0:Two', 'ol: 0:Again | 0:Again two', 'ol: 0:Ten | 0:Eleven']);
    expect(blocks.map((b) => b.kind === 'list' && b.start)).toEqual([undefined, undefined, 10]);
    expect([markerValue('12'), markerValue('c'), markerValue('iv'), markerValue('xii')]).toEqual([12, 3, 4, 12]);
  });

  it('joins a marker MuPDF reads as a line of its own to its text', () => {
    const model = analyze([page([block(line('•', 50, 100), line('Apples', 68, 100), line('•', 50, 112), line('Pears', 68, 112))])], '/tmp');
    expect(describeBlocks(model.pages[0]!.blocks)).toEqual(['ul: 0:Apples | 0:Pears']);
  });
});

describe('reading order and tables', () => {
  it('reads a heading over two columns, then the left column, then the right', () => {
    const boxes: [string, Box][] = [
      ['right1', [320, 100, 550, 200]],
      ['title', [50, 40, 550, 70]],
      ['left2', [50, 210, 280, 300]],
      ['left1', [50, 100, 280, 200]],
      ['right2', [320, 210, 550, 300]],
    ];
    expect(readingOrder(boxes, (b) => b[1]).map((b) => b[0])).toEqual(['title', 'left1', 'left2', 'right1', 'right2']);
  });

  it('finds a ruled grid, and takes its lines as cells', () => {
    const rules: Box[] = [
      [50, 100, 350, 101],
      [50, 120, 350, 121],
      [50, 140, 350, 141],
      [50, 100, 51, 141],
      [150, 100, 151, 141],
      [250, 100, 251, 141],
      [349, 100, 350, 141],
    ];
    const lines = [
      line('Name', 55, 115),
      line('Colour', 155, 115),
      line('Price', 255, 115),
      line('Apple', 55, 135),
      line('Red', 155, 135),
      line('12', 255, 135),
    ];
    const grids = ruledGrids(rules, lines).map((g) => ({ xs: g.xs.map(Math.round), ys: g.ys.map(Math.round) }));
    expect(grids).toEqual([{ xs: [50, 151, 251, 350], ys: [100, 121, 141] }]);
    const model = analyze(
      [page([block(line('Before the table.', 50, 80)), block(...lines), block(line('After it.', 50, 170))], { rules })],
      '/tmp',
    );
    expect(describeBlocks(model.pages[0]!.blocks)).toEqual([
      'p: Before the table.',
      'table: Name,Colour,Price ; Apple,Red,12',
      'p: After it.',
    ]);
  });

  it('finds cells spanning two columns and two rows where the rules leave a boundary out, and puts their text in the first cell', () => {
    // "Name" covers two rows (no rule under it), "Sales" two columns (no rule between Q1 and Q2 above them).
    const rules: Box[] = [
      [50, 100, 350, 101],
      [150, 120, 350, 121],
      [50, 140, 350, 141],
      [50, 160, 350, 161],
      [50, 100, 51, 161],
      [150, 100, 151, 161],
      [250, 120, 251, 161],
      [349, 100, 350, 161],
    ];
    // Name sits low in its cell, Sales right of the middle: where each starts is not the first grid cell of its merged cell.
    const lines = [
      line('Name', 55, 128),
      line('Sales', 255, 115),
      line('Q1', 155, 135),
      line('Q2', 255, 135),
      line('Apple', 55, 155),
      line('3', 155, 155),
      line('4', 255, 155),
    ];
    const model = analyze([page([block(...lines)], { rules })], '/tmp');
    const blocks = model.pages[0]!.blocks;
    expect(describeBlocks(blocks)).toEqual(['table: Name,Sales, ; ,Q1,Q2 ; Apple,3,4']);
    expect(blocks[0]!.kind === 'table' && blocks[0]!.spans).toEqual([
      { row: 0, col: 0, rowSpan: 2, colSpan: 1 },
      { row: 0, col: 1, rowSpan: 1, colSpan: 2 },
    ]);
    expect(pageHtml(model.pages[0]!, () => '')).toBe(
      '<table>\n<tr><td rowspan="2">Name</td><td colspan="2">Sales</td></tr>\n<tr><td>Q1</td><td>Q2</td></tr>\n<tr><td>Apple</td><td>3</td><td>4</td></tr>\n</table>\n',
    );
  });

  it('keeps the labels on a header bar without rules down it in their columns, not one merged cell', () => {
    const rules: Box[] = [
      [50, 100, 350, 120],
      [50, 140, 350, 141],
      [50, 160, 350, 161],
      [50, 120, 51, 161],
      [150, 120, 151, 161],
      [250, 120, 251, 161],
      [349, 120, 350, 161],
    ];
    const lines = [
      line('Name', 55, 115),
      line('Colour', 155, 115),
      line('Price', 255, 115),
      line('Apple', 55, 135),
      line('Red', 155, 135),
      line('12', 255, 135),
      line('Pear', 55, 155),
      line('Green', 155, 155),
      line('7', 255, 155),
    ];
    const blocks = analyze([page([block(...lines)], { rules })], '/tmp').pages[0]!.blocks;
    expect(describeBlocks(blocks)).toEqual(['table: Name,Colour,Price ; Apple,Red,12 ; Pear,Green,7']);
    expect(blocks[0]!.kind === 'table' && blocks[0]!.spans).toBeUndefined();
  });

  it('gets the columns of a table ruled only across from the gaps in its text', () => {
    const rules: Box[] = [
      [50, 100, 350, 101],
      [50, 120, 350, 121],
      [50, 160, 350, 161],
    ];
    const lines = [
      line('Name', 55, 115),
      line('Price', 255, 115),
      line('Apple', 55, 135),
      line('12', 255, 135),
      line('Pear', 55, 150),
      line('7', 255, 150),
    ];
    const model = analyze([page([block(...lines)], { rules })], '/tmp');
    expect(describeBlocks(model.pages[0]!.blocks)).toEqual(['table: Name,Price ; Apple Pear,12 7']);
  });

  it('does not take a list found as a grid by the table hunt for a table', () => {
    const lines = [
      line('1.', 50, 100),
      line('First', 70, 100),
      line('2.', 50, 112),
      line('Second', 70, 112),
      line('3.', 50, 124),
      line('Third', 70, 124),
    ];
    const model = analyze([page([block(...lines)], { tables: [{ xs: [49, 65, 120], ys: [88, 102, 114, 126] }] })], '/tmp');
    expect(describeBlocks(model.pages[0]!.blocks)).toEqual(['ol: 0:First | 0:Second | 0:Third']);
  });

  it('splits a page into spreadsheet columns where its pieces start together', () => {
    expect(
      linesToRows([
        [
          { x: 50, text: 'Item' },
          { x: 200, text: 'Cost' },
        ],
        [
          { x: 51, text: 'Tea' },
          { x: 203, text: '4' },
        ],
        [{ x: 200, text: 'only cost' }],
      ]),
    ).toEqual([
      ['Item', 'Cost'],
      ['Tea', '4'],
      ['', 'only cost'],
    ]);
  });
});

describe('prose in a grid of the table hunt', () => {
  // Two columns split at x 200; rows at 100, 120, 140, 160, 180.
  const grid = { xs: [50, 200, 400], ys: [100, 120, 140, 160, 180] };
  const prose = line('A paragraph of running text that goes right across the column boundary.', 50, 115);
  const cells = [line('Name:', 50, 135), line('Ann', 210, 135), line('Age:', 50, 155), line('40', 210, 155)];

  it('cuts the grid at a row whose line runs across a column over half its width', () => {
    expect(withoutProseRows(grid, [prose, ...cells])).toEqual([{ xs: grid.xs, ys: [120, 140, 160, 180] }]);
    const pageWithProse = page([block(prose), block(...cells)], { tables: [grid] });
    expect(describeBlocks(analyze([pageWithProse], '/tmp').pages[0]!.blocks)[0]).toBe(`p: ${runsText(prose.spans)}`);
  });

  it('keeps a short label over two columns, a merged cell', () => {
    expect(withoutProseRows(grid, [line('Monday', 170, 115), ...cells])).toEqual([grid]);
  });
});

describe('writers', () => {
  it('nests list levels in HTML as lists inside items, closing each', () => {
    const runs = (text: string) => [{ text, size: 10 }];
    const html = pageHtml(
      {
        width: 600,
        height: 800,
        lines: [],
        blocks: [
          {
            kind: 'list',
            ordered: true,
            items: [
              { runs: runs('a'), level: 0 },
              { runs: runs('b'), level: 2 },
              { runs: runs('c'), level: 1 },
              { runs: runs('d'), level: 0 },
            ],
          },
        ],
      },
      () => '',
    );
    expect(html).toBe('<ol><li>a<ol><li>b</li><li>c</li></ol></li><li>d</li></ol>\n');
  });

  it('escapes RTF specials and writes non-ASCII as signed UTF-16 units', () => {
    expect(escapeRtf('a{b}\\c é €')).toBe('a\\{b\\}\\\\c \\u233? \\u8364?');
    expect(escapeRtf('😀')).toBe('\\u-10179?\\u-8704?');
  });
});

describe('extraction from a real PDF', () => {
  it('reads a two-column page with a heading in reading order, with the bold red run in its sans serif face', async () => {
    const doc = await PDFDocument.create();
    const p = doc.addPage([600, 800]);
    const regular = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    p.drawText('Two Columns', { x: 50, y: 740, size: 22, font: bold });
    const left = ['Left column text starts here and', 'it continues down the column for', 'a few lines of words.'];
    const right = ['Right column text comes after the', 'whole left column has been read', 'from its top to its bottom.'];
    for (const [i, t] of left.entries()) p.drawText(t, { x: 50, y: 700 - i * 14, size: 11, font: regular });
    for (const [i, t] of right.entries()) p.drawText(t, { x: 320, y: 700 - i * 14, size: 11, font: regular });
    // Under the right column: the last thing read.
    p.drawText('Plain then', { x: 320, y: 640, size: 11, font: regular });
    p.drawText('bold words', {
      x: 320 + regular.widthOfTextAtSize('Plain then ', 11),
      y: 640,
      size: 11,
      font: bold,
      color: rgb(0.8, 0, 0),
    });
    const bytes = await doc.save();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-extract-'));
    try {
      const pdf = mupdf.Document.openDocument(bytes, 'application/pdf');
      const raw = extractPage(pdf.loadPage(0), 1, dir);
      const blocks = analyze([raw], dir).pages[0]!.blocks;
      expect(describeBlocks(blocks)).toEqual([
        'h1: Two Columns',
        `p: ${left.join(' ')}`,
        `p: ${right.join(' ')}`,
        'p: Plain then bold words',
      ]);
      const last = blocks[3]!;
      expect(last.kind === 'paragraph' && last.runs.map((r) => [r.text.trim(), !!r.bold, r.color, !!r.serif])).toEqual([
        ['Plain then', false, undefined, false],
        ['bold words', true, 'cc0000', false],
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
