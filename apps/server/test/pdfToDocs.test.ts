// PDF to documents (the converter with output_format docx, xlsx, html, rtf, txt, epub, pages) over
// HTTP against a real Quire. The source is a Word document laid out to PDF by LibreOffice; outputs
// are read back with independent tools: unzip, Python's XML parser, LibreOffice, pdftotext.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type TaskEntry } from '@quire/contracts';
import { quireForTests } from './harness.js';
import { encryptPdf } from './fixtures.js';
import { makeScannedPdf } from './imageFixtures.js';
import {
  BOLD_WORD,
  BULLETS,
  CLOSING,
  HEADING,
  ITALIC_WORD,
  LONG_PARAGRAPH,
  MERGED_TABLE,
  SHORT_PARAGRAPH,
  TABLE,
  longParagraph,
  makeLongPdf,
  makeMergedTablePdf,
  makeReportPdf,
  soffice,
} from './pdfToDocsFixtures.js';

const { client, dir } = quireForTests('todocs');
let report: string;
let reportId: string;
const file = (name: string) => path.join(dir, name);

beforeAll(async () => {
  report = await makeReportPdf(dir);
  reportId = await client.uploadId(report);
}, 120_000);

/** GET converter to the end of the task (or the refusal when it is made). */
async function convert(fileId: string, format: string, passwd?: string): Promise<TaskEntry> {
  const query = new URLSearchParams({ file_id: fileId, output_format: format, ...(passwd && { passwd }) });
  const created = await client.call(`converter?${query}`);
  if (created.code !== 0) return { status: created.code, msg: created.msg, outputs: [] } as unknown as TaskEntry;
  return client.waitTask(created.data.task_id);
}

async function download(entry: TaskEntry, name: string): Promise<string> {
  const res = await client.raw(`/api/tools/v1/document/download-doc?task_id=${entry.task_id}`);
  expect(res.status).toBe(200);
  fs.writeFileSync(file(name), Buffer.from(await res.arrayBuffer()));
  return file(name);
}

const unzipText = (zip: string, entry: string) => execFileSync('unzip', ['-p', zip, entry]).toString('utf8');
const zipEntries = (zip: string) => execFileSync('unzip', ['-Z1', zip]).toString().trim().split('\n');
/** Python's XML parser: throws on a file that is not well-formed. */
const parseXml = (xml: string) =>
  execFileSync('python3', ['-c', 'import sys, xml.etree.ElementTree as E; E.fromstring(sys.stdin.buffer.read())'], { input: xml });
const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const decode = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
/** The text of each w:p (or each table cell's paragraphs), in document order. */
const wordParagraphs = (xml: string) =>
  [...xml.matchAll(/<w:p[ >].*?<\/w:p>/gs)].map((m) => ({
    xml: m[0],
    text: decode([...m[0].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((t) => t[1]).join('')),
  }));

/** Asserts the texts appear in `text` in this order. */
function inOrder(text: string, parts: string[]) {
  let at = -1;
  for (const part of parts) {
    const i = text.indexOf(part, at + 1);
    expect(i, `"${part}" after position ${at}`).toBeGreaterThan(at);
    at = i;
  }
}

const allTexts = [HEADING, LONG_PARAGRAPH, SHORT_PARAGRAPH, ...BULLETS, ...TABLE.flat(), CLOSING];

describe('PDF to Word', () => {
  let docx: string;
  let xml: string;
  beforeAll(async () => {
    const entry = await convert(reportId, 'docx');
    expect(entry.status).toBe(0);
    expect(entry.output_file_name).toBe('report.docx');
    docx = await download(entry, 'report.docx');
    xml = unzipText(docx, 'word/document.xml');
  });

  it('writes a heading style, one paragraph per paragraph, real list items', () => {
    parseXml(xml);
    const paras = wordParagraphs(xml);
    expect(paras.find((p) => p.text === HEADING)?.xml).toContain('<w:pStyle w:val="Heading1"/>');
    // The two-line paragraph is one w:p, not a line each.
    expect(paras.filter((p) => p.text === LONG_PARAGRAPH)).toHaveLength(1);
    expect(paras.some((p) => p.text === SHORT_PARAGRAPH)).toBe(true);
    const items = paras.filter((p) => p.xml.includes('<w:numPr>'));
    expect(items.map((p) => p.text)).toEqual(BULLETS);
    expect(unzipText(docx, 'word/numbering.xml')).toContain('w:val="bullet"');
    // No frames or text boxes: everything flows.
    expect(xml).not.toMatch(/<w:framePr|<wps:txbx|<v:textbox/);
  });

  it('writes the table as a 3x3 w:tbl with the cells in place', () => {
    const tables = [...xml.matchAll(/<w:tbl>.*?<\/w:tbl>/gs)].map((m) => m[0]);
    expect(tables).toHaveLength(1);
    const rows = [...tables[0]!.matchAll(/<w:tr[ >].*?<\/w:tr>/gs)].map((r) =>
      [...r[0].matchAll(/<w:tc>.*?<\/w:tc>/gs)].map((c) =>
        wordParagraphs(c[0])
          .map((p) => p.text)
          .join(' '),
      ),
    );
    expect(rows).toEqual(TABLE);
  });

  it('embeds the image', () => {
    expect(xml).toContain('<w:drawing>');
    expect(zipEntries(docx).some((e) => /^word\/media\/.+\.png$/.test(e))).toBe(true);
  });

  it('opens in LibreOffice, whose PDF of it has the text in order', () => {
    soffice(['--convert-to', 'pdf', '--outdir', file('back'), docx], dir);
    const text = squash(execFileSync('pdftotext', [path.join(file('back'), 'report.pdf'), '-']).toString());
    inOrder(text, allTexts);
  });
});

describe('PDF to Excel', () => {
  it('puts the table cells in their rows and columns', async () => {
    const entry = await convert(reportId, 'xlsx');
    expect(entry.status).toBe(0);
    const xlsx = await download(entry, 'report.xlsx');
    const strings = [...unzipText(xlsx, 'xl/sharedStrings.xml').matchAll(/<si><t[^>]*>([^<]*)<\/t><\/si>/g)].map((m) => decode(m[1]!));
    const sheet = unzipText(xlsx, 'xl/worksheets/sheet1.xml');
    parseXml(sheet);
    const cells = new Map(
      [...sheet.matchAll(/<c r="([A-Z]+\d+)"( t="s")?><v>([^<]*)<\/v><\/c>/g)].map((m) => [
        m[1]!,
        m[2] ? strings[Number(m[3])] : Number(m[3]),
      ]),
    );
    expect(cells.get('A1')).toBe('Fruit');
    expect(cells.get('B2')).toBe('Red');
    expect(cells.get('C2')).toBe(12);
    expect(cells.get('A3')).toBe('Banana');
    expect(cells.get('C3')).toBe(7);
    expect(unzipText(xlsx, 'xl/workbook.xml')).toContain('name="Table 1 (p1)"');
  });

  it('a page without a table becomes a sheet of its lines', async () => {
    const scan = await makeScannedPdf(file('scan.pdf'), 1, 50);
    const entry = await convert(await client.uploadId(scan), 'xlsx');
    expect(entry.status).toBe(0);
    const xlsx = await download(entry, 'scan.xlsx');
    expect(unzipText(xlsx, 'xl/workbook.xml')).toContain('name="Page 1"');
  });
});

describe('merged table cells', () => {
  const { header, subheader, body } = MERGED_TABLE;
  let mergedId: string;
  beforeAll(async () => {
    mergedId = await client.uploadId(await makeMergedTablePdf(dir));
  }, 120_000);

  it('docx: the header cell over two columns has gridSpan 2, the one over two rows a vMerge restart and continue', async () => {
    const entry = await convert(mergedId, 'docx');
    expect(entry.status).toBe(0);
    const xml = unzipText(await download(entry, 'merged.docx'), 'word/document.xml');
    parseXml(xml);
    const rows = [...xml.matchAll(/<w:tr[ >].*?<\/w:tr>/gs)].map((r) =>
      [...r[0].matchAll(/<w:tc>.*?<\/w:tc>/gs)].map((c) => ({
        xml: c[0],
        text: wordParagraphs(c[0])
          .map((p) => p.text)
          .join(' '),
      })),
    );
    expect(rows.map((r) => r.map((c) => c.text))).toEqual([header, ['', ...subheader], ...body]);
    expect(rows[0]![0]!.xml).toContain('<w:vMerge w:val="restart"/>');
    expect(rows[1]![0]!.xml).toContain('<w:vMerge w:val="continue"/>');
    expect(rows[0]![1]!.xml).toContain('<w:gridSpan w:val="2"/>');
    expect(xml.match(/<w:gridSpan /g)).toHaveLength(1);
    expect(xml.match(/<w:vMerge /g)).toHaveLength(2);
  });

  it('xlsx: the merged cells are mergeCells, their text in the first cell', async () => {
    const entry = await convert(mergedId, 'xlsx');
    expect(entry.status).toBe(0);
    const xlsx = await download(entry, 'merged.xlsx');
    const sheet = unzipText(xlsx, 'xl/worksheets/sheet1.xml');
    parseXml(sheet);
    expect([...sheet.matchAll(/<mergeCell ref="([^"]+)"\/>/g)].map((m) => m[1])).toEqual(['A1:A2', 'B1:C1']);
    const strings = [...unzipText(xlsx, 'xl/sharedStrings.xml').matchAll(/<si><t[^>]*>([^<]*)<\/t><\/si>/g)].map((m) => decode(m[1]!));
    const cells = new Map([...sheet.matchAll(/<c r="([A-Z]+\d+)" t="s"><v>(\d+)<\/v><\/c>/g)].map((m) => [m[1]!, strings[Number(m[2])]]));
    expect([cells.get('A1'), cells.get('B1'), cells.get('B2'), cells.get('C2'), cells.get('A3')]).toEqual([
      ...header,
      ...subheader,
      body[0]![0],
    ]);
    expect(cells.has('A2') || cells.has('C1')).toBe(false);
  });

  it('html: rowspan and colspan on the merged cells, the covered cells left out', async () => {
    const entry = await convert(mergedId, 'html');
    expect(entry.status).toBe(0);
    const html = fs.readFileSync(await download(entry, 'merged.html'), 'utf8');
    expect(html).toContain(
      `<tr><td rowspan="2">${header[0]}</td><td colspan="2">${header[1]}</td></tr>\n<tr><td>${subheader[0]}</td><td>${subheader[1]}</td></tr>`,
    );
  });

  it('txt: the plain grid, the text of each merged cell once', async () => {
    const entry = await convert(mergedId, 'txt');
    expect(entry.status).toBe(0);
    const text = fs.readFileSync(await download(entry, 'merged.txt'), 'utf8');
    expect(text).toContain(`${header[0]}\t${header[1]}\t\n\t${subheader[0]}\t${subheader[1]}\n${body[0]!.join('\t')}`);
  });

  it('pages: the plain grid as LibreOffice imports it, the text of each merged cell once', async () => {
    const entry = await convert(mergedId, 'pages');
    expect(entry.status).toBe(0);
    soffice(['--convert-to', 'fodt', '--outdir', file('merged-back'), await download(entry, 'merged.pages')], dir);
    expect(odfTables(path.join(file('merged-back'), 'merged.fodt'))).toEqual([[[header[0], header[1], ''], ['', ...subheader], ...body]]);
  });
});

describe('PDF to HTML, text, RTF and EPUB', () => {
  it('html: one file, semantic markup, the image inline, the text in order', async () => {
    const entry = await convert(reportId, 'html');
    expect(entry.status).toBe(0);
    const html = fs.readFileSync(await download(entry, 'report.html'), 'utf8');
    expect(html).toMatch(/<h1>Quarterly Report<\/h1>/);
    expect(html).toMatch(/<ul><li>Apples are red<\/li>/);
    expect(html).toMatch(/<table>/);
    expect(html).toMatch(/<img src="data:image\/png;base64,[A-Za-z0-9+/]+=*"/);
    inOrder(decode(html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')), allTexts);
  });

  it('txt: UTF-8 in reading order, a blank line between paragraphs', async () => {
    const entry = await convert(reportId, 'txt');
    expect(entry.status).toBe(0);
    const text = fs.readFileSync(await download(entry, 'report.txt'), 'utf8');
    inOrder(text, allTexts);
    expect(text).toContain(`${LONG_PARAGRAPH}\n\n${SHORT_PARAGRAPH}\n\n`);
    expect(text).toContain('• Apples are red\n• Bananas are yellow');
  });

  it('rtf: LibreOffice reads it back with the text in order, accents and all', async () => {
    const entry = await convert(reportId, 'rtf');
    expect(entry.status).toBe(0);
    const rtf = await download(entry, 'report.rtf');
    expect(fs.readFileSync(rtf, 'latin1')).toMatch(/^\{\\rtf1/);
    soffice(['--convert-to', 'txt:Text (encoded):UTF8', '--outdir', file('rtf-back'), rtf], dir);
    inOrder(squash(fs.readFileSync(path.join(file('rtf-back'), 'report.txt'), 'utf8')), allTexts);
  });

  it('epub: mimetype first and stored, the package lists its pages, every XHTML well-formed', async () => {
    const entry = await convert(reportId, 'epub');
    expect(entry.status).toBe(0);
    const epub = await download(entry, 'report.epub');
    const entries = zipEntries(epub);
    expect(entries[0]).toBe('mimetype');
    expect(execFileSync('zipinfo', [epub, 'mimetype']).toString()).toMatch(/\bstor\b/);
    expect(unzipText(epub, 'mimetype')).toBe('application/epub+zip');
    expect(unzipText(epub, 'META-INF/container.xml')).toContain('full-path="OEBPS/content.opf"');
    const opf = unzipText(epub, 'OEBPS/content.opf');
    parseXml(opf);
    expect(opf).toContain('href="page-1.xhtml"');
    expect(opf).toContain('properties="nav"');
    for (const name of entries.filter((e) => e.endsWith('.xhtml'))) parseXml(unzipText(epub, name));
    const page = unzipText(epub, 'OEBPS/page-1.xhtml');
    inOrder(decode(page.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ')), allTexts);
    const img = /<img src="(images\/[^"]+)"/.exec(page)![1]!;
    expect(entries).toContain(`OEBPS/${img}`);
    expect(opf).toContain(`href="${img}"`);
  });
});

/** Words (letters and digits), lower case, in order. */
const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
/** The share of `expected`'s words that `actual` has too, each counted as often as both have it. */
function wordOverlap(expected: string[], actual: string[]): number {
  const left = new Map<string, number>();
  for (const w of actual) left.set(w, (left.get(w) ?? 0) + 1);
  let found = 0;
  for (const w of expected) {
    const n = left.get(w) ?? 0;
    if (n > 0) {
      found++;
      left.set(w, n - 1);
    }
  }
  return found / Math.max(1, expected.length);
}

interface OdfParagraph {
  text: string;
  bold: boolean;
  size: number;
  spans: { text: string; bold: boolean; italic: boolean }[];
}

/**
 * The paragraphs of a flat ODF text document, as Python's XML parser reads them: each paragraph's
 * text, weight and size, its spans' weight and slant.
 */
function odfParagraphs(fodt: string): OdfParagraph[] {
  const script = `
import json, sys, xml.etree.ElementTree as E
NS = {'office': 'urn:oasis:names:tc:opendocument:xmlns:office:1.0', 'text': 'urn:oasis:names:tc:opendocument:xmlns:text:1.0',
      'style': 'urn:oasis:names:tc:opendocument:xmlns:style:1.0', 'fo': 'urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0'}
q = lambda p, n: '{%s}%s' % (NS[p], n)
doc = E.parse(sys.argv[1])
looks = {}
for s in doc.iterfind('.//office:automatic-styles/style:style', NS):
    props = s.find('style:text-properties', NS)
    get = (lambda n: props.get(q('fo', n))) if props is not None else (lambda n: None)
    looks[s.get(q('style', 'name'))] = {'bold': get('font-weight') == 'bold', 'italic': get('font-style') == 'italic',
                                        'size': float((get('font-size') or '0pt')[:-2])}
plain = {'bold': False, 'italic': False, 'size': 0}
out = []
for p in doc.iterfind('.//office:body/office:text/text:p', NS):
    look = looks.get(p.get(q('text', 'style-name')), plain)
    spans = [dict(looks.get(s.get(q('text', 'style-name')), plain), text=''.join(s.itertext())) for s in p.iterfind('text:span', NS)]
    # LibreOffice puts the look on the paragraph's style or, when the paragraph has spans, on those.
    out.append({'text': ''.join(p.itertext()), 'bold': look['bold'] or (len(spans) > 0 and all(s['bold'] for s in spans)),
                'size': look['size'] or max([s['size'] for s in spans], default=0),
                'spans': [{'text': s['text'], 'bold': s['bold'], 'italic': s['italic']} for s in spans]})
print(json.dumps(out))
`;
  return JSON.parse(execFileSync('python3', ['-c', script, fodt]).toString()) as OdfParagraph[];
}

/** The tables of a flat ODF text document, as Python's XML parser reads them: each cell's text, row by row. */
function odfTables(fodt: string): string[][][] {
  const script = `
import json, sys, xml.etree.ElementTree as E
NS = {'office': 'urn:oasis:names:tc:opendocument:xmlns:office:1.0', 'table': 'urn:oasis:names:tc:opendocument:xmlns:table:1.0'}
doc = E.parse(sys.argv[1])
print(json.dumps([[[''.join(c.itertext()).strip() for c in r.iterfind('table:table-cell', NS)] for r in t.iterfind('table:table-row', NS)]
                  for t in doc.iterfind('.//office:body/office:text/table:table', NS)]))
`;
  return JSON.parse(execFileSync('python3', ['-c', script, fodt]).toString()) as string[][][];
}

describe('PDF to Pages', () => {
  let pages: string;
  /** The .pages as LibreOffice imports it, saved as flat ODF. */
  let fodt: string;
  beforeAll(async () => {
    const entry = await convert(reportId, 'pages');
    expect(entry.status).toBe(0);
    expect(entry.output_file_name).toBe('report.pages');
    expect(entry.outputs[0]!.note).toMatch(/pictures and tables/);
    pages = await download(entry, 'report.pages');
    soffice(['--convert-to', 'fodt', '--outdir', file('pages-back'), pages], dir);
    fodt = path.join(file('pages-back'), 'report.fodt');
  });

  it('is a zip of stored IWA archives, the image file and a document identifier', () => {
    expect(zipEntries(pages).sort()).toEqual([
      'Data/image-1.png',
      'Index/Document.iwa',
      'Index/Metadata.iwa',
      'Metadata/DocumentIdentifier',
    ]);
    const listing = execFileSync('zipinfo', [pages]).toString();
    expect(listing.match(/\bstor\b/g)).toHaveLength(4);
    expect(unzipText(pages, 'Metadata/DocumentIdentifier')).toMatch(/^[0-9A-F]{8}(-[0-9A-F]{4}){3}-[0-9A-F]{12}$/);
  });

  it("LibreOffice imports it as a Pages document with pdftotext's words of the PDF, in order", () => {
    soffice(['--convert-to', 'txt:Text (encoded):UTF8', '--outdir', file('pages-back'), pages], dir);
    const text = fs.readFileSync(path.join(file('pages-back'), 'report.txt'), 'utf8');
    const pdfWords = wordsOf(execFileSync('pdftotext', [report, '-']).toString());
    expect(pdfWords.length).toBeGreaterThan(50);
    expect(wordOverlap(pdfWords, wordsOf(text))).toBeGreaterThan(0.95);
    expect(wordOverlap(wordsOf(text), pdfWords)).toBeGreaterThan(0.95);
    inOrder(squash(text), allTexts);
  });

  it('keeps the heading a bold paragraph of its own, larger than the body, and the bold and italic runs', () => {
    const paragraphs = odfParagraphs(fodt);
    const heading = paragraphs.find((p) => p.text === HEADING);
    const body = paragraphs.find((p) => p.text === LONG_PARAGRAPH);
    expect(heading?.bold).toBe(true);
    expect(body?.bold).toBe(false);
    expect(heading!.size).toBeGreaterThan(body!.size * 1.3);
    expect(paragraphs.filter((p) => BULLETS.includes(p.text.replace(/^•\s*/, '')))).toHaveLength(BULLETS.length);
    const closing = paragraphs.find((p) => p.text === CLOSING)!;
    expect(closing.spans.filter((s) => s.bold).map((s) => s.text.trim())).toEqual([BOLD_WORD]);
    expect(closing.spans.filter((s) => s.italic).map((s) => s.text.trim())).toEqual([ITALIC_WORD]);
  });

  it('writes the table as a table of 3x3 cells with their text', () => {
    expect(odfTables(fodt)).toEqual([TABLE]);
  });

  it('places the image inline, at the size it was drawn', () => {
    const frames = [...fs.readFileSync(fodt, 'utf8').matchAll(/<draw:frame [^>]*>\s*<draw:image[^>]*>\s*<office:binary-data>/g)].map(
      (m) => m[0],
    );
    expect(frames).toHaveLength(1);
    expect(frames[0]).toContain('text:anchor-type="as-char"');
    // 160 x 120 pixels at 96 dpi in the Word document the PDF was made from: 120 points wide.
    expect(Number(/svg:width="([\d.]+)in"/.exec(frames[0]!)![1]) * 72).toBeCloseTo(120, 0);
  });

  it('a document longer than one Snappy chunk of its archive (64 KB) imports whole', async () => {
    const count = 700;
    const long = await client.uploadId(await makeLongPdf(dir, count));
    const entry = await convert(long, 'pages');
    expect(entry.status).toBe(0);
    const out = await download(entry, 'long.pages');
    // Walked by their 4-byte headers (type 0, 24-bit little-endian length), the chunks end where the file does.
    const iwa = execFileSync('unzip', ['-p', out, 'Index/Document.iwa'], { maxBuffer: 64 * 1024 * 1024 });
    let chunks = 0;
    let at = 0;
    for (; at + 4 <= iwa.length; chunks++) {
      expect(iwa[at]).toBe(0);
      at += 4 + iwa.readUIntLE(at + 1, 3);
    }
    expect(at).toBe(iwa.length);
    expect(chunks).toBeGreaterThan(1);
    soffice(['--convert-to', 'txt:Text (encoded):UTF8', '--outdir', file('long-back'), out], dir);
    inOrder(
      squash(fs.readFileSync(path.join(file('long-back'), 'long.txt'), 'utf8')),
      Array.from({ length: count }, (_, i) => longParagraph(i + 1)),
    );
  });

  it('a scan without text gives its page images, a page each', async () => {
    const scan = await client.uploadId(await makeScannedPdf(file('scan-pages.pdf'), 2, 50));
    const entry = await convert(scan, 'pages');
    expect(entry.status).toBe(0);
    const out = await download(entry, 'scan.pages');
    expect(zipEntries(out).filter((e) => e.startsWith('Data/'))).toHaveLength(2);
    soffice(['--convert-to', 'fodt', '--outdir', file('scan-back'), out], dir);
    const fodt = fs.readFileSync(path.join(file('scan-back'), 'scan.fodt'), 'utf8');
    expect(fodt.match(/<office:binary-data>/g)).toHaveLength(2);
    expect(fodt).toContain('fo:break-before="page"');
  });
});

describe('inputs', () => {
  it('an encrypted PDF converts with its password, and asks for it without', async () => {
    const locked = await client.uploadId(encryptPdf(report, file('locked.pdf'), 'secret1'));
    expect((await convert(locked, 'txt')).status).toBe(ErrorCode.Encrypted);
    expect((await convert(locked, 'txt', 'wrong12')).status).toBe(ErrorCode.WrongPassword);
    const entry = await convert(locked, 'txt', 'secret1');
    expect(entry.status).toBe(0);
    inOrder(fs.readFileSync(await download(entry, 'locked.txt'), 'utf8'), allTexts);
  });

  it('a damaged PDF is refused as damaged', async () => {
    const bytes = fs.readFileSync(report);
    fs.writeFileSync(file('damaged.pdf'), Buffer.concat([bytes.subarray(0, 400), Buffer.alloc(2000, 0x41)]));
    const up = await client.upload(file('damaged.pdf'));
    const code = up.code !== 0 ? up.code : (await convert(up.data.file_id, 'docx')).status;
    expect(code).toBe(ErrorCode.Damaged);
  });

  it('a scan without text still gives a document: its page image', async () => {
    const scan = await client.uploadId(await makeScannedPdf(file('scan2.pdf'), 2, 50));
    const entry = await convert(scan, 'docx');
    expect(entry.status).toBe(0);
    const docx = await download(entry, 'scan.docx');
    const xml = unzipText(docx, 'word/document.xml');
    expect(xml.match(/<w:drawing>/g)).toHaveLength(2);
    expect(xml).toContain('w:pageBreakBefore');
  });

  it('refuses a document that is not a PDF', async () => {
    fs.writeFileSync(file('note.txt'), 'hello');
    const id = await client.uploadId(file('note.txt'));
    expect((await convert(id, 'docx')).status).toBe(ErrorCode.NotPdf);
  });
});
