// The document model as a Word document: real Heading 1–3 styles, numbered and bulleted lists on
// Word numbering definitions, tables as tables, images inline, a page break where each PDF page began.
import fs from 'node:fs';
import path from 'node:path';
import {
  AlignmentType,
  Document,
  HeadingLevel,
  ImageRun,
  LevelFormat,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
  VerticalMergeType,
  WidthType,
  type ParagraphChild,
} from 'docx';
import { spanLookup, type Block, type DocModel, type Run } from './model.js';

const TWIPS_PER_POINT = 20;
const MARGIN_PT = 54;
/** ImageRun sizes are in pixels at 96 per inch. */
const PX_PER_POINT = 96 / 72;
const BULLETS = ['•', '◦', '▪'];
const NUMBER_FORMATS = [LevelFormat.DECIMAL, LevelFormat.LOWER_LETTER, LevelFormat.LOWER_ROMAN];

const headingStyle = [HeadingLevel.HEADING_1, HeadingLevel.HEADING_2, HeadingLevel.HEADING_3] as const;

const SERIF = 'Times New Roman';
const SANS = 'Arial';
const MONO = 'Courier New';

/**
 * Runs as Word runs. What equals the body text's (size, face) is left to the document defaults,
 * headings' sizes to their style.
 */
function textRuns(runs: Run[], body: { size: number | null; serif: boolean }): TextRun[] {
  return runs.map(
    (r) =>
      new TextRun({
        text: r.text,
        ...(r.bold && { bold: true }),
        ...(r.italic && { italics: true }),
        ...(r.mono ? { font: MONO } : !!r.serif !== body.serif && { font: r.serif ? SERIF : SANS }),
        ...(r.color && { color: r.color }),
        ...(body.size !== null && r.size !== body.size && { size: Math.round(r.size * 2) }),
      }),
  );
}

/** The largest size each heading level's text is set in, for the Heading styles. */
function headingSizes(model: DocModel): number[] {
  const sizes = [0, 0, 0];
  for (const p of model.pages)
    for (const b of p.blocks) if (b.kind === 'heading') for (const r of b.runs) sizes[b.level - 1] = Math.max(sizes[b.level - 1]!, r.size);
  return sizes.map((s, i) => s || model.bodySize * (1.6 - i * 0.2));
}

export async function writeDocx(model: DocModel, out: string): Promise<void> {
  const first = model.pages[0] ?? { width: 612, height: 792 };
  const contentWidth = first.width - 2 * MARGIN_PT;
  const body = { size: model.bodySize, serif: model.bodySerif };
  const children: (Paragraph | Table)[] = [];
  let lists = 0;
  /** A numbering definition per first number a list starts from. */
  const starts = new Set<number>([1]);
  const numbersFrom = (start: number) => {
    starts.add(start);
    return `numbers-${start}`;
  };
  let breakBefore = false;
  /** The page break goes on the page's first paragraph, or on an empty one before a table. */
  const paragraph = (opts: ConstructorParameters<typeof Paragraph>[0] & object) => {
    const p = new Paragraph({ ...opts, ...(breakBefore && { pageBreakBefore: true }) });
    breakBefore = false;
    return p;
  };
  const image = (b: Extract<Block, { kind: 'image' }>): ParagraphChild => {
    const scale = Math.min(1, contentWidth / b.width, (first.height - 2 * MARGIN_PT) / b.height);
    return new ImageRun({
      type: b.mime === 'image/png' ? 'png' : 'jpg',
      data: fs.readFileSync(path.join(model.imagesDir, b.file)),
      transformation: {
        width: Math.max(1, Math.round(b.width * scale * PX_PER_POINT)),
        height: Math.max(1, Math.round(b.height * scale * PX_PER_POINT)),
      },
    });
  };
  for (const [i, page] of model.pages.entries()) {
    if (i > 0) breakBefore = true;
    for (const b of page.blocks) {
      if (b.kind === 'heading')
        children.push(
          paragraph({ heading: headingStyle[b.level - 1], children: textRuns(b.runs, { size: null, serif: model.bodySerif }) }),
        );
      else if (b.kind === 'paragraph') children.push(paragraph({ children: textRuns(b.runs, body) }));
      else if (b.kind === 'image') children.push(paragraph({ children: [image(b)] }));
      else if (b.kind === 'list') {
        // Each numbered list is an instance of its own, so its numbers start again at 1.
        const instance = ++lists;
        for (const item of b.items) {
          children.push(
            paragraph({
              numbering: { reference: b.ordered ? numbersFrom(b.start ?? 1) : 'bullets', level: item.level, instance },
              children: textRuns(item.runs, body),
            }),
          );
        }
      } else {
        if (breakBefore) children.push(paragraph({ children: [] }));
        const columns = b.rows[0]?.length ?? 1;
        const cellWidth = Math.floor((contentWidth * TWIPS_PER_POINT) / columns);
        const span = spanLookup(b.spans);
        // A merged cell spans grid columns (gridSpan) and starts a vertical merge the rows below
        // go on with, in a cell of the same span (vMerge continue); the cells it covers are left out.
        const rowCells = (row: Run[][][], r: number) =>
          row.flatMap((cell, c) => {
            const s = span(r, c);
            if (s && s.col !== c) return [];
            if (s && s.row !== r) {
              return [
                new TableCell({
                  width: { size: cellWidth * s.colSpan, type: WidthType.DXA },
                  ...(s.colSpan > 1 && { columnSpan: s.colSpan }),
                  verticalMerge: VerticalMergeType.CONTINUE,
                  children: [new Paragraph({})],
                }),
              ];
            }
            return [
              new TableCell({
                width: { size: cellWidth * (s?.colSpan ?? 1), type: WidthType.DXA },
                ...(s && s.colSpan > 1 && { columnSpan: s.colSpan }),
                ...(s && s.rowSpan > 1 && { verticalMerge: VerticalMergeType.RESTART }),
                children: cell.length ? cell.map((runs) => new Paragraph({ children: textRuns(runs, body) })) : [new Paragraph({})],
              }),
            ];
          });
        children.push(
          new Table({
            width: { size: cellWidth * columns, type: WidthType.DXA },
            columnWidths: Array(columns).fill(cellWidth),
            rows: b.rows.map((row, r) => new TableRow({ children: rowCells(row, r) })),
          }),
        );
      }
    }
    // A page with nothing readable on it still takes its page.
    if (!page.blocks.length) children.push(paragraph({}));
  }
  const sizes = headingSizes(model);
  const level = (lvl: number, format: (typeof LevelFormat)[keyof typeof LevelFormat], text: string, start = 1) => ({
    level: lvl,
    format,
    text,
    start,
    alignment: AlignmentType.LEFT,
    style: { paragraph: { indent: { left: 720 * (lvl + 1), hanging: 360 } } },
  });
  const doc = new Document({
    creator: 'Quire',
    styles: {
      default: {
        document: {
          run: { size: Math.round(model.bodySize * 2), font: model.bodySerif ? SERIF : SANS },
          paragraph: { spacing: { after: 120 } },
        },
        ...Object.fromEntries(
          sizes.map((s, i) => [
            `heading${i + 1}`,
            { run: { size: Math.round(s * 2), bold: true }, paragraph: { spacing: { before: 240, after: 120 } } },
          ]),
        ),
      },
    },
    numbering: {
      config: [
        { reference: 'bullets', levels: [0, 1, 2].map((l) => level(l, LevelFormat.BULLET, BULLETS[l]!)) },
        ...[...starts].map((start) => ({
          reference: `numbers-${start}`,
          levels: [0, 1, 2].map((l) => level(l, NUMBER_FORMATS[l]!, `%${l + 1}.`, l === 0 ? start : 1)),
        })),
      ],
    },
    sections: [
      {
        properties: {
          page: {
            size: { width: Math.round(first.width * TWIPS_PER_POINT), height: Math.round(first.height * TWIPS_PER_POINT) },
            margin: {
              top: MARGIN_PT * TWIPS_PER_POINT,
              bottom: MARGIN_PT * TWIPS_PER_POINT,
              left: MARGIN_PT * TWIPS_PER_POINT,
              right: MARGIN_PT * TWIPS_PER_POINT,
            },
          },
        },
        children: children.length ? children : [new Paragraph({})],
      },
    ],
  });
  fs.writeFileSync(out, await Packer.toBuffer(doc));
}
