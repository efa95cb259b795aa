// PDF to Word fidelity: Quire's converter (MuPDF extraction + layout analysis + docx writer) against
// LibreOffice's own PDF import (`soffice --infilter=writer_pdf_import --convert-to docx`) on the
// same PDFs in the same run. For each output it counts what word/document.xml holds: paragraphs,
// text boxes and frames, tables, images, and how much of pdftotext's word order survives.
//
//   node --import tsx bench/pdfToOffice.ts
//
// See bench/README.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { tools } from '../apps/server/src/tools/registry.js';
import { makeReportPdf, soffice } from '../apps/server/test/pdfToDocsFixtures.js';

const pdfjs = path.resolve(import.meta.dirname, '../test-corpus/pdfjs');
const office = path.resolve(import.meta.dirname, '../test-corpus/office');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-bench-pdf2office-'));
const limits = { timeoutMs: 120_000, memoryMb: 2048 };

/** Office documents laid out to PDF by LibreOffice (what people most often convert back), then real-world PDFs. */
const OFFICE_SOURCES = ['ComplexNumberedLists.docx', 'table_header_rowspan.docx', 'having-images.docx', 'hdr-header-footer.docx'];
const PDFJS = ['issue840.pdf', '160F-2019.pdf', 'bug1997343.pdf', 'issue13201.pdf', 'canvas.pdf'];

interface Counts {
  paragraphs: number;
  textBoxes: number;
  tables: number;
  images: number;
  /** Share of pdftotext's word pairs (in its reading order) found as pairs in the document's text. */
  order: number;
  ms: number;
}

const pairs = (text: string) => {
  const words = text.toLowerCase().match(/\p{L}[\p{L}\p{N}]*/gu) ?? [];
  return words.slice(1).map((w, i) => `${words[i]} ${w}`);
};

function measure(docx: string, pdf: string, ms: number): Counts {
  const xml = execFileSync('unzip', ['-p', docx, 'word/document.xml'], { maxBuffer: 512 * 1024 * 1024 }).toString();
  const count = (re: RegExp) => (xml.match(re) ?? []).length;
  // Paragraphs by w:t runs joined; a text box's paragraphs are counted as paragraphs too.
  const text = [...xml.matchAll(/<w:p[ >].*?<\/w:p>/gs)]
    .map((p) => [...p[0].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((m) => m[1]).join(''))
    .join('\n');
  const reference = pairs(execFileSync('pdftotext', [pdf, '-']).toString());
  const got = new Set(pairs(text));
  return {
    paragraphs: count(/<w:p[ >]/g),
    textBoxes: count(/<w:txbxContent>/g) + count(/<w:framePr[ >]/g),
    tables: count(/<w:tbl>/g),
    images: count(/<pic:pic[ >]/g),
    order: reference.length ? reference.filter((p) => got.has(p)).length / reference.length : 1,
    ms,
  };
}

async function quire(pdf: string): Promise<Counts> {
  const workDir = fs.mkdtempSync(path.join(tmp, 'q-'));
  const pages = Number(execFileSync('qpdf', ['--show-npages', pdf]).toString().trim());
  const start = performance.now();
  const [out] = await tools.convert.run(
    { inputs: [{ path: pdf, name: path.basename(pdf), pages }], workDir, limits, progress: () => {} },
    { file_id: 'x', output_format: 'docx' },
  );
  return measure(out!.path, pdf, performance.now() - start);
}

function libreOffice(pdf: string): Counts {
  const outDir = fs.mkdtempSync(path.join(tmp, 'lo-'));
  const start = performance.now();
  soffice(['--infilter=writer_pdf_import', '--convert-to', 'docx:MS Word 2007 XML', '--outdir', outDir, pdf], tmp);
  const ms = performance.now() - start;
  return measure(path.join(outDir, `${path.basename(pdf, '.pdf')}.docx`), pdf, ms);
}

async function main() {
  const sources: string[] = [await makeReportPdf(tmp)];
  for (const name of OFFICE_SOURCES) {
    soffice(['--convert-to', 'pdf', '--outdir', tmp, path.join(office, name)], tmp);
    sources.push(path.join(tmp, name.replace(/\.\w+$/, '.pdf')));
  }
  sources.push(...PDFJS.map((f) => path.join(pdfjs, f)));
  // Both warm up once, so neither pays for a first start in the table.
  await quire(sources[0]!);
  libreOffice(sources[0]!);
  const header = '| PDF | engine | w:p | text boxes / frames | tables | images | word order kept | ms |';
  const rows = [header, header.replace(/[^|]+/g, ' --- ')];
  for (const pdf of sources) {
    for (const [engine, run] of [
      ['Quire', () => quire(pdf)],
      ['LibreOffice', async () => libreOffice(pdf)],
    ] as const) {
      try {
        const c = await run();
        rows.push(
          `| ${path.basename(pdf)} | ${engine} | ${c.paragraphs} | ${c.textBoxes} | ${c.tables} | ${c.images} | ${(c.order * 100).toFixed(0)}% | ${Math.round(c.ms)} |`,
        );
      } catch (e) {
        rows.push(`| ${path.basename(pdf)} | ${engine} | failed: ${(e as Error).message.split('\n')[0]} | | | | | |`);
      }
    }
  }
  console.log(rows.join('\n'));
}

try {
  await main();
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
