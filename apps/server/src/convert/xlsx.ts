// The document model as an Excel workbook, written as SpreadsheetML by hand: each table is a sheet
// of its cells; each page without a table is a sheet of its text lines, split into columns where
// the lines' pieces start at the same place. Plain numbers become numeric cells.
import fs from 'node:fs';
import { once } from 'node:events';
import yazl from 'yazl';
import { escapeXml } from './html.js';
import { runsText, type CellSpan, type DocModel, type PlacedText } from './model.js';

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
/** Excel's limit for the text of one cell. */
const MAX_CELL_CHARS = 32_767;
/** Pieces starting within this many points of each other are one column. */
const COLUMN_SLACK = 8;
const NUMBER = /^-?(0|[1-9]\d{0,14})(\.\d+)?$/;

interface Sheet {
  name: string;
  rows: string[][];
  /** A table's merged cells. */
  spans?: CellSpan[];
}

/** A page's lines as rows of cells: the pieces' starting points clustered into columns. */
export function linesToRows(lines: PlacedText[][]): string[][] {
  const starts: number[] = [];
  for (const x of lines
    .flat()
    .map((p) => p.x)
    .sort((a, b) => a - b))
    if (!starts.length || x - starts.at(-1)! > COLUMN_SLACK) starts.push(x);
  return lines.map((line) => {
    const row: string[] = [];
    for (const piece of line) {
      const col = Math.max(0, starts.filter((s) => s <= piece.x + COLUMN_SLACK / 2).length - 1);
      row[col] = row[col] ? `${row[col]} ${piece.text}` : piece.text;
    }
    return Array.from(row, (c) => c ?? '');
  });
}

export function sheetsOf(model: DocModel): Sheet[] {
  const sheets: Sheet[] = [];
  for (const [i, page] of model.pages.entries()) {
    const tables = page.blocks.filter((b) => b.kind === 'table');
    for (const t of tables) {
      const name = `Table ${sheets.filter((s) => s.name.startsWith('Table')).length + 1} (p${i + 1})`;
      sheets.push({ name, rows: t.rows.map((r) => r.map((cell) => cell.map(runsText).join('\n'))), ...(t.spans && { spans: t.spans }) });
    }
    if (!tables.length && page.lines.length) sheets.push({ name: `Page ${i + 1}`, rows: linesToRows(page.lines) });
  }
  return sheets.length ? sheets : [{ name: 'Page 1', rows: [] }];
}

const column = (n: number): string =>
  n < 26 ? String.fromCharCode(65 + n) : column(Math.floor(n / 26) - 1) + String.fromCharCode(65 + (n % 26));

export async function writeXlsx(model: DocModel, out: string): Promise<void> {
  const sheets = sheetsOf(model);
  const strings = new Map<string, number>();
  const zip = new yazl.ZipFile();
  const add = (name: string, xml: string) =>
    zip.addBuffer(Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${xml}`), name);
  for (const [s, sheet] of sheets.entries()) {
    const rows = sheet.rows.map((row, r) => {
      const cells = row.map((raw, c) => {
        const text = raw.slice(0, MAX_CELL_CHARS);
        if (!text) return '';
        const ref = `${column(c)}${r + 1}`;
        if (NUMBER.test(text)) return `<c r="${ref}"><v>${text}</v></c>`;
        if (!strings.has(text)) strings.set(text, strings.size);
        return `<c r="${ref}" t="s"><v>${strings.get(text)}</v></c>`;
      });
      return `<row r="${r + 1}">${cells.join('')}</row>`;
    });
    const spans = sheet.spans ?? [];
    const refs = spans.map((m) => `<mergeCell ref="${column(m.col)}${m.row + 1}:${column(m.col + m.colSpan - 1)}${m.row + m.rowSpan}"/>`);
    const merges = refs.length ? `<mergeCells count="${refs.length}">${refs.join('')}</mergeCells>` : '';
    add(`xl/worksheets/sheet${s + 1}.xml`, `<worksheet xmlns="${NS}"><sheetData>${rows.join('\n')}</sheetData>${merges}</worksheet>`);
  }
  const shared = [...strings.keys()].map((t) => `<si><t xml:space="preserve">${escapeXml(t)}</t></si>`).join('');
  add('xl/sharedStrings.xml', `<sst xmlns="${NS}" count="${strings.size}" uniqueCount="${strings.size}">${shared}</sst>`);
  add(
    'xl/styles.xml',
    `<styleSheet xmlns="${NS}"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`,
  );
  add(
    'xl/workbook.xml',
    `<workbook xmlns="${NS}" xmlns:r="${REL_NS}"><sheets>${sheets.map((s, i) => `<sheet name="${escapeXml(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`,
  );
  const rel = (id: string, type: string, target: string) => `<Relationship Id="${id}" Type="${REL_NS}/${type}" Target="${target}"/>`;
  add(
    'xl/_rels/workbook.xml.rels',
    `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets.map((_, i) => rel(`rId${i + 1}`, 'worksheet', `worksheets/sheet${i + 1}.xml`)).join('')}${rel('rIdS', 'sharedStrings', 'sharedStrings.xml')}${rel('rIdY', 'styles', 'styles.xml')}</Relationships>`,
  );
  add(
    '_rels/.rels',
    `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rel('rId1', 'officeDocument', 'xl/workbook.xml')}</Relationships>`,
  );
  const ct = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
  add(
    '[Content_Types].xml',
    `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="${ct}.sheet.main+xml"/>${sheets.map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="${ct}.worksheet+xml"/>`).join('')}<Override PartName="/xl/sharedStrings.xml" ContentType="${ct}.sharedStrings+xml"/><Override PartName="/xl/styles.xml" ContentType="${ct}.styles+xml"/></Types>`,
  );
  zip.end();
  const stream = fs.createWriteStream(out);
  zip.outputStream.pipe(stream);
  await once(stream, 'finish');
}
