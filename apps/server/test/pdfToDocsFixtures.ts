// The PDF the PDF-to-document tests convert: a Word document built here (heading, two paragraphs,
// a bulleted list, a 3x3 table, an image) laid out to PDF by LibreOffice, as a real office PDF is.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { Document, HeadingLevel, ImageRun, LevelFormat, Packer, Paragraph, Table, TableCell, TableRow, TextRun, WidthType } from 'docx';
import { makeImage } from './convertFixtures.js';

export const HEADING = 'Quarterly Report';
/** Long enough to wrap onto a second line at 11 pt on A4: one paragraph, two lines. */
export const LONG_PARAGRAPH =
  'The first paragraph explains the results of the quarter in enough words to run over two lines of the page, so that a converter has to join them again into one paragraph.';
export const SHORT_PARAGRAPH = 'A second paragraph follows the first one: naïve café, 5 €.';
export const BULLETS = ['Apples are red', 'Bananas are yellow', 'Cherries are dark'];
export const TABLE = [
  ['Fruit', 'Colour', 'Price'],
  ['Apple', 'Red', '12'],
  ['Banana', 'Yellow', '7'],
];
export const CLOSING = 'The picture above closes the report.';
/** Words of CLOSING set in bold and in italic: runs a converter must keep. */
export const BOLD_WORD = 'closes';
export const ITALIC_WORD = 'picture';

/** soffice --convert-to with a profile of its own, so it never meets a running LibreOffice. */
export function soffice(args: string[], dir: string) {
  const profile = path.join(dir, `lo-profile-${process.pid}`);
  execFileSync('soffice', [`-env:UserInstallation=file://${profile}`, '--headless', ...args], {
    cwd: dir,
    timeout: 120_000,
    stdio: 'pipe',
  });
}

export async function makeReportDocx(dir: string): Promise<string> {
  const png = await makeImage(path.join(dir, 'picture.png'), 160, 120);
  const cell = (text: string) => new TableCell({ width: { size: 3000, type: WidthType.DXA }, children: [new Paragraph(text)] });
  const doc = new Document({
    numbering: {
      config: [
        {
          reference: 'bullets',
          levels: [{ level: 0, format: LevelFormat.BULLET, text: '•', style: { paragraph: { indent: { left: 720, hanging: 360 } } } }],
        },
      ],
    },
    styles: { default: { document: { run: { size: 22, font: 'Liberation Serif' } }, heading1: { run: { size: 36, bold: true } } } },
    sections: [
      {
        children: [
          new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun(HEADING)] }),
          new Paragraph({ spacing: { after: 200 }, children: [new TextRun(LONG_PARAGRAPH)] }),
          new Paragraph({ spacing: { after: 200 }, children: [new TextRun(SHORT_PARAGRAPH)] }),
          ...BULLETS.map((b) => new Paragraph({ numbering: { reference: 'bullets', level: 0 }, children: [new TextRun(b)] })),
          new Paragraph({ spacing: { after: 200 }, children: [] }),
          new Table({ columnWidths: [3000, 3000, 3000], rows: TABLE.map((r) => new TableRow({ children: r.map(cell) })) }),
          new Paragraph({
            spacing: { before: 200 },
            children: [new ImageRun({ type: 'png', data: fs.readFileSync(png), transformation: { width: 160, height: 120 } })],
          }),
          new Paragraph({
            children: [
              new TextRun('The '),
              new TextRun({ text: ITALIC_WORD, italics: true }),
              new TextRun(' above '),
              new TextRun({ text: BOLD_WORD, bold: true }),
              new TextRun(' the report.'),
            ],
          }),
        ],
      },
    ],
  });
  const file = path.join(dir, 'report.docx');
  fs.writeFileSync(file, await Packer.toBuffer(doc));
  return file;
}

/** A table whose header has a cell over two rows (Region) and one over two columns (Sales). */
export const MERGED_TABLE = {
  header: ['Region', 'Sales'],
  subheader: ['Spring', 'Autumn'],
  body: [
    ['North', '10', '20'],
    ['South', '30', '40'],
  ],
};

/** merged.pdf in `dir`: MERGED_TABLE in a Word document laid out by LibreOffice. */
export async function makeMergedTablePdf(dir: string): Promise<string> {
  const cell = (text: string, span: { rowSpan?: number; columnSpan?: number } = {}) =>
    new TableCell({ ...span, width: { size: 3000 * (span.columnSpan ?? 1), type: WidthType.DXA }, children: [new Paragraph(text)] });
  const { header, subheader, body } = MERGED_TABLE;
  const rows = [
    new TableRow({ children: [cell(header[0]!, { rowSpan: 2 }), cell(header[1]!, { columnSpan: 2 })] }),
    new TableRow({ children: subheader.map((t) => cell(t)) }),
    ...body.map((r) => new TableRow({ children: r.map((t) => cell(t)) })),
  ];
  const doc = new Document({
    sections: [{ children: [new Paragraph('Sales by region'), new Table({ columnWidths: [3000, 3000, 3000], rows })] }],
  });
  fs.writeFileSync(path.join(dir, 'merged.docx'), await Packer.toBuffer(doc));
  soffice(['--convert-to', 'pdf', '--outdir', dir, path.join(dir, 'merged.docx')], dir);
  return path.join(dir, 'merged.pdf');
}

/** The text of paragraph `n` (from 1) of the long document. */
export const longParagraph = (n: number) =>
  `Paragraph ${n} of the long document carries enough ordinary words to fill most of a line, and then some more.`;

/** long.pdf in `dir`: `count` paragraphs of longParagraph laid out by LibreOffice. */
export async function makeLongPdf(dir: string, count: number): Promise<string> {
  const doc = new Document({ sections: [{ children: Array.from({ length: count }, (_, i) => new Paragraph(longParagraph(i + 1))) }] });
  fs.writeFileSync(path.join(dir, 'long.docx'), await Packer.toBuffer(doc));
  soffice(['--convert-to', 'pdf', '--outdir', dir, path.join(dir, 'long.docx')], dir);
  return path.join(dir, 'long.pdf');
}

/** report.pdf in `dir`: the report laid out by LibreOffice. */
export async function makeReportPdf(dir: string): Promise<string> {
  await makeReportDocx(dir);
  soffice(['--convert-to', 'pdf', '--outdir', dir, path.join(dir, 'report.docx')], dir);
  return path.join(dir, 'report.pdf');
}
