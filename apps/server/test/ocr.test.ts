// OCR over HTTP against a real Quire (OCRmyPDF and Tesseract): the test set is typeset from known
// text and scanned at test time (ocrFixtures.ts), and every result is read back with poppler's
// pdftotext, pdfinfo and pdftoppm, never with the engines that made it.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import { ErrorCode, OCR_LIMIT_MB, ocrTooLargeMessage, toolParams, type TaskEntry } from '@quire/contracts';
import { quireForTests } from './harness.js';
import { encryptPdf } from './fixtures.js';
import { charAccuracy, expectedText, makeScanImages, makeScannedPdf, ocrPages } from './ocrFixtures.js';
import { createHash } from 'node:crypto';
import { ocr } from '../src/tools/ocr.js';
import { runTool } from '../src/tools/tool.js';

const { client, dir } = quireForTests('ocr');
const file = (name: string) => path.join(dir, name);

const pdftotext = (pdf: string, page?: number, raw = false) =>
  execFileSync('pdftotext', [
    ...(page ? ['-f', String(page), '-l', String(page)] : []),
    ...(raw ? ['-raw'] : []),
    '-enc',
    'UTF-8',
    pdf,
    '-',
  ]).toString();
/** Whether each page, as a viewer shows it (its /Rotate applied), is taller than wide. */
function portrait(pdf: string): boolean[] {
  const info = execFileSync('pdfinfo', ['-f', '1', '-l', '99', pdf]).toString();
  const sizes = [...info.matchAll(/Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)/g)].map((m) => Number(m[2]) > Number(m[1]));
  const rots = [...info.matchAll(/Page\s+\d+ rot:\s+(\d+)/g)].map((m) => Number(m[1]) % 180 !== 0);
  return sizes.map((tall, i) => tall !== rots[i]);
}

/** A grey rendering of page 1 (PGM pixels). */
function greyPage(pdf: string, dpi = 40): { width: number; pixels: Buffer } {
  const pgm = execFileSync('pdftoppm', ['-f', '1', '-l', '1', '-r', String(dpi), '-gray', '-singlefile', pdf]);
  const header = pgm.toString('latin1', 0, 40).match(/^P5\s+(\d+)\s+\d+\s+255\s/)!;
  return { width: Number(header[1]), pixels: pgm.subarray(header[0].length) };
}
const greyPixels = (pdf: string) => greyPage(pdf).pixels;

/** How level the text lines are: the ink of each pixel row, squared and summed (lines across rows spread their ink thin). */
function rowSharpness(pdf: string): number {
  const { width, pixels } = greyPage(pdf, 50);
  let sum = 0;
  for (let row = 0; row < pixels.length / width; row++) {
    let ink = 0;
    for (let x = 0; x < width; x++) if (pixels[row * width + x]! < 128) ink++;
    sum += ink * ink;
  }
  return sum;
}

/** Each image the pages draw, as pdfimages lists it: page, size in pixels, encoding and bytes. */
const imageList = (pdf: string) =>
  execFileSync('pdfimages', ['-list', pdf])
    .toString()
    .split('\n')
    .slice(2)
    .filter(Boolean)
    .map((l) => l.trim().split(/\s+/))
    .map((c) => [c[0], c[3], c[4], c[8], c[14]].join(' '));

/** A hash of each image stream's stored bytes (undecoded, as qpdf reads them), sorted. */
function imageStreams(pdf: string): string[] {
  const json = JSON.parse(
    execFileSync('qpdf', ['--json', '--json-key=qpdf', '--json-stream-data=inline', '--decode-level=none', pdf], {
      maxBuffer: 1 << 28,
    }).toString(),
  ) as { qpdf: [unknown, Record<string, { stream?: { data: string; dict: Record<string, unknown> } }>] };
  return Object.values(json.qpdf[1])
    .filter((o) => o.stream?.dict['/Subtype'] === '/Image')
    .map((o) => createHash('sha256').update(o.stream!.data, 'base64').digest('hex'))
    .sort();
}

async function download(entry: TaskEntry, dest: string): Promise<string> {
  const res = await client.raw(`/api/tools/v1/document/download-doc?task_id=${entry.task_id}`);
  fs.writeFileSync(dest, Buffer.from(await res.arrayBuffer()));
  return dest;
}

/** The converter (a GET) to the end; the result saved to `dest`. */
async function convert(query: Record<string, string>, dest: string): Promise<TaskEntry> {
  const created = await client.call(`converter?${new URLSearchParams(query)}`);
  expect(created.code, created.msg).toBe(0);
  const entry = await client.waitTask(created.data.task_id, 180_000);
  expect(entry.status, entry.msg).toBe(0);
  await download(entry, dest);
  return entry;
}

async function runOcr(callPath: string, body: Record<string, unknown>, dest: string): Promise<TaskEntry> {
  const created = await client.post(callPath, body);
  expect(created.code, created.msg).toBe(0);
  expect(created.data).toMatchObject({ task_id: expect.any(String), multi_id: expect.any(String) });
  const entry = await client.waitTask(created.data.task_id, 180_000);
  expect(entry.status, entry.msg).toBe(0);
  await download(entry, dest);
  return entry;
}

/** A two-page PDF: page 1 born digital (real text), page 2 the first page of the test set scanned. */
async function mixedPdf(dest: string): Promise<string> {
  const scan = await PDFDocument.load(fs.readFileSync(await makeScannedPdf(file('one-scan.pdf'), [ocrPages[0]!])));
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText('Quarterly statement for Agnes Holloway', { x: 60, y: 760, size: 18, font });
  doc.addPage((await doc.copyPages(scan, [0]))[0]!);
  fs.writeFileSync(dest, await doc.save());
  return dest;
}

describe('searchable PDF from a scan', () => {
  let scanned: string;
  let output: string;

  beforeAll(async () => {
    scanned = await makeScannedPdf(file('scan.pdf'));
    const id = await client.uploadId(scanned);
    output = file('scan-ocr.pdf');
    await runOcr('image/images-ocr-merge-pdf', { file_ids: [id], languages: 'eng,deu,fra' }, output);
  }, 240_000);

  it('has the text pdftotext finds, per language above the accuracy floor', () => {
    const floor = { eng: 0.95, deu: 0.9, fra: 0.9 };
    const byLang = new Map<string, number[]>();
    ocrPages.forEach((p, i) => {
      // -raw: the text in the order it was laid down, which is Tesseract's reading order.
      const accuracy = charAccuracy(expectedText(p), pdftotext(output, i + 1, true));
      byLang.set(p.lang, [...(byLang.get(p.lang) ?? []), accuracy]);
    });
    for (const [lang, scores] of byLang) {
      const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
      console.log(`OCR character accuracy ${lang}: ${(mean * 100).toFixed(1)}% (${scores.map((s) => (s * 100).toFixed(1)).join(', ')})`);
      expect(mean).toBeGreaterThanOrEqual(floor[lang as keyof typeof floor]);
    }
    // Words with the language's own letters come back whole.
    expect(pdftotext(output)).toMatch(/Prüfung/);
    expect(pdftotext(output)).toMatch(/distinguées/);
  });

  it('turns the sideways page upright and leaves the others as they were', () => {
    expect(portrait(scanned)).toEqual([true, true, true, false]);
    expect(portrait(output)).toEqual([true, true, true, true]);
    expect(pdftotext(output, 4, true)).toMatch(/salutations/);
  });

  it('looks like the input: page 1 renders to nearly the same pixels', () => {
    const [before, after] = [greyPixels(scanned), greyPixels(output)];
    expect(after.length).toBe(before.length);
    let diff = 0;
    for (let i = 0; i < before.length; i++) diff += Math.abs(before[i]! - after[i]!);
    expect(diff / before.length).toBeLessThan(2);
    // Every page still draws its image exactly as it was; the text is invisible (render mode 3), adding no pixels.
    expect(imageList(output)).toEqual(imageList(scanned));
    expect(imageStreams(output)).toEqual(imageStreams(scanned));
  });

  it('lays the text of the sideways page where the page, turned upright, shows it', () => {
    // The first line starts at the typeset x = 60 pt, 82 pt from the top of the upright page.
    const first = execFileSync('pdftotext', ['-f', '4', '-l', '4', '-bbox', output, '-'])
      .toString()
      .match(/<word xMin="([\d.]+)" yMin="([\d.]+)"/)!;
    expect(Math.abs(Number(first[1]) - 60)).toBeLessThan(5);
    expect(Math.abs(Number(first[2]) - 70)).toBeLessThan(8);
  });
});

describe('an upside-down scan', () => {
  it('is turned upright by /Rotate, its text recognised', async () => {
    const [png] = await makeScanImages(path.join(dir, 'upside-down'), [ocrPages[0]!]);
    // The scan drawn half turned on an unrotated page: a sheet fed in upside down.
    const doc = await PDFDocument.create();
    const image = await doc.embedPng(fs.readFileSync(png!));
    doc.addPage([595, 842]).drawImage(image, { x: 595, y: 842, width: 595, height: 842, rotate: degrees(180) });
    const scanned = file('upside-down.pdf');
    fs.writeFileSync(scanned, await doc.save());
    const out = file('upside-down-ocr.pdf');
    await runOcr('image/images-ocr-merge-pdf', { file_ids: [await client.uploadId(scanned)], languages: 'eng' }, out);
    expect(execFileSync('pdfinfo', [out]).toString()).toMatch(/Page rot:\s+180/);
    expect(pdftotext(out, 1, true)).toMatch(/quick brown fox jumps over the lazy dog/);
    expect(imageStreams(out)).toEqual(imageStreams(scanned));
  }, 120_000);
});

describe('a skewed scan', () => {
  let skewed: string;
  let id: string;
  beforeAll(async () => {
    skewed = await makeScannedPdf(file('skewed.pdf'), [
      { ...ocrPages[0]!, lines: [...ocrPages[0]!.lines, ...ocrPages[0]!.lines], skew: 3 },
    ]);
    id = await client.uploadId(skewed);
  }, 60_000);

  it('is straightened when asked, its text recognised either way', async () => {
    const [kept, straight] = [file('skewed-kept.pdf'), file('skewed-straight.pdf')];
    await runOcr('image/images-ocr-merge-pdf', { file_ids: [id] }, kept);
    await runOcr('image/images-ocr-merge-pdf', { file_ids: [id], deskew: true }, straight);
    expect(imageList(kept)).toEqual(imageList(skewed));
    expect(rowSharpness(kept)).toBe(rowSharpness(skewed));
    console.log(`row sharpness, straightened / skewed: ${(rowSharpness(straight) / rowSharpness(skewed)).toFixed(2)}`);
    expect(rowSharpness(straight)).toBeGreaterThan(rowSharpness(skewed) * 1.5);
    for (const out of [kept, straight]) expect(pdftotext(out, 1, true)).toMatch(/quick brown fox jumps over the lazy dog/);
  }, 120_000);
});

describe('pages that already have text', () => {
  let mixed: string;
  let id: string;
  beforeAll(async () => {
    mixed = await mixedPdf(file('mixed.pdf'));
    id = await client.uploadId(mixed);
  }, 60_000);

  it('are left alone: their text unchanged and not doubled; scanned pages recognised', async () => {
    const out = file('mixed-ocr.pdf');
    await runOcr('image/images-ocr-merge-pdf', { file_ids: [id] }, out);
    expect(pdftotext(out, 1)).toBe(pdftotext(mixed, 1));
    expect(pdftotext(out, 2)).toMatch(/Invoice number 4711/);
  }, 120_000);

  it('give their own text in the text output, in page order with the recognised pages', async () => {
    const out = file('mixed.txt');
    await runOcr('image_ocr', { file_ids: [id], output_format: 'txt' }, out);
    const text = fs.readFileSync(out, 'utf8');
    expect(text.indexOf('Quarterly statement for Agnes Holloway')).toBe(0);
    expect(text.indexOf('Invoice number 4711')).toBeGreaterThan(0);
  }, 120_000);

  it('are recognised again when OCR is forced, with one text layer', async () => {
    const out = file('mixed-forced.pdf');
    await runOcr('image/images-ocr-merge-pdf', { file_ids: [id], force_ocr: true }, out);
    const page1 = pdftotext(out, 1);
    expect(page1.match(/Holloway/g)).toHaveLength(1);
    expect(page1).toMatch(/Quarterly statement/);
  }, 120_000);
});

describe('image to text and the two-stage image flow', () => {
  let images: string[];
  beforeAll(async () => {
    images = await makeScanImages(path.join(dir, 'images'), [ocrPages[0]!, ocrPages[2]!]);
  }, 60_000);

  it('gives the text of the images in reading order', async () => {
    const ids = [await client.uploadId(images[0]!), await client.uploadId(images[1]!)];
    const out = file('images.txt');
    await runOcr('image_ocr', { file_ids: ids, languages: 'langen,langde', output_format: 'txt' }, out);
    const text = fs.readFileSync(out, 'utf8');
    const order = ['Invoice number 4711', 'quick brown fox', 'receipt', 'Sehr geehrte', 'Unterlagen', 'Wochenende'].map((w) =>
      text.indexOf(w),
    );
    expect(order.every((at) => at >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  }, 120_000);

  it('makes a Word document of the images through the image OCR converter call', async () => {
    const ids = [await client.uploadId(images[0]!), await client.uploadId(images[1]!)];
    const out = file('images.docx');
    await runOcr('image/images-ocr-converter', { file_ids: ids, languages: 'eng,deu', output_format: 'docx' }, out);
    // The document's text, its runs joined.
    const text = execFileSync('unzip', ['-p', out, 'word/document.xml'])
      .toString()
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ');
    expect(text).toMatch(/quick brown fox.*Sehr geehrte Damen.*Wochenende/);
  }, 120_000);

  it('merges in the first half of the progress and recognises in the second', async () => {
    const workDir = fs.mkdtempSync(path.join(dir, 'run-'));
    const seen: number[] = [];
    const params = toolParams.ocr.parse({ file_ids: ['a', 'b'], languages: 'eng,deu' });
    const outputs = await runTool(
      ocr,
      {
        inputs: images.map((p) => ({ path: p, name: path.basename(p), pages: 1 })),
        workDir,
        limits: { timeoutMs: 120_000, memoryMb: 2048 },
        progress: (n) => seen.push(n),
      },
      params,
    );
    expect(seen.some((n) => n > 0 && n <= 50)).toBe(true);
    expect(seen.some((n) => n > 50 && n < 100)).toBe(true);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(execFileSync('pdfinfo', [outputs[0]!.path]).toString()).toMatch(/Pages:\s+2/);
    expect(pdftotext(outputs[0]!.path)).toMatch(/Grüße aus München/);
  }, 120_000);
});

describe('the converter with using_ocr', () => {
  let scan: string;
  beforeAll(async () => {
    scan = await makeScannedPdf(file('one.pdf'), [ocrPages[0]!]);
  }, 60_000);

  it('makes the searchable PDF of an encrypted scan given its password', async () => {
    const id = await client.uploadId(encryptPdf(scan, file('one-locked.pdf'), 'sesame12'));
    const out = file('converted.pdf');
    await convert({ file_id: id, passwd: 'sesame12', output_format: 'pdf', using_ocr: '1', languages: 'eng' }, out);
    expect(pdftotext(out)).toMatch(/quick brown fox/);
    expect(execFileSync('qpdf', ['--show-encryption', out]).toString()).toMatch(/not encrypted/);
  }, 120_000);

  it('gives plain text, and a Word document, of a scan', async () => {
    const id = await client.uploadId(scan);
    const txt = file('converted.txt');
    await convert({ file_id: id, output_format: 'txt', using_ocr: '1' }, txt);
    expect(charAccuracy(expectedText(ocrPages[0]!), fs.readFileSync(txt, 'utf8'))).toBeGreaterThan(0.95);
    const docx = file('converted.docx');
    await convert({ file_id: id, output_format: 'docx', using_ocr: '1', languages: 'eng' }, docx);
    expect(
      execFileSync('unzip', ['-p', docx, 'word/document.xml'])
        .toString()
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' '),
    ).toMatch(/keep this receipt/);
  }, 180_000);
});

describe('refusals', () => {
  it('answers catalogue codes for bad calls and inputs', async () => {
    const pdf = await client.uploadId(await makeScannedPdf(file('bad.pdf'), [ocrPages[0]!]));
    const none = await client.post('image/images-ocr-merge-pdf', { file_ids: [pdf], languages: '' });
    expect(none.code).toBe(ErrorCode.InvalidParams);
    expect(none.msg).toMatch(/at least one language/);
    // A language that is not installed fails the task with the catalogue's parameter code.
    const created = await client.post('image/images-ocr-merge-pdf', { file_ids: [pdf], languages: 'eng,xyz' });
    const entry = await client.waitTask(created.data.task_id);
    expect(entry.status).toBe(ErrorCode.InvalidParams);
    expect(entry.msg).toBe('OCR language not available: xyz');
    // Text files are not scans.
    fs.writeFileSync(file('notes.txt'), 'plain text');
    const txt = await client.uploadId(file('notes.txt'));
    expect((await client.post('image_ocr', { file_ids: [txt] })).code).toBe(ErrorCode.NotPdf);
    expect((await client.call(`converter?file_id=${txt}&output_format=txt&using_ocr=1`)).code).toBe(ErrorCode.NotPdf);
    // An encrypted scan without its password.
    const locked = await client.uploadId(encryptPdf(file('bad.pdf'), file('bad-locked.pdf'), 'sesame12'));
    expect((await client.post('image/images-ocr-merge-pdf', { file_ids: [locked] })).code).toBe(ErrorCode.Encrypted);
  }, 120_000);

  it('refuses a file over the OCR limit with 4012 and its message', async () => {
    // Sparse: the size is what the limit reads, nothing is written.
    const huge = file('huge.pdf');
    fs.writeFileSync(huge, '%PDF-1.7\n');
    fs.truncateSync(huge, (OCR_LIMIT_MB + 1) * 1024 * 1024);
    const run = runTool(
      ocr,
      {
        inputs: [{ path: huge, name: 'huge.pdf', pages: 1 }],
        workDir: fs.mkdtempSync(path.join(dir, 'run-')),
        limits: { timeoutMs: 60_000, memoryMb: 2048 },
        progress: () => {},
      },
      toolParams.ocr.parse({ file_ids: ['x'] }),
    );
    await expect(run).rejects.toMatchObject({ code: ErrorCode.TooLarge, message: ocrTooLargeMessage(OCR_LIMIT_MB) });
  });

  it('offers the installed languages in the config', async () => {
    const config = await client.call('config');
    expect(config.data.ocr_languages).toEqual(expect.arrayContaining(['eng', 'deu', 'fra', 'spa', 'por', 'jpn', 'chi_sim']));
    expect(config.data.ocr_languages).not.toContain('osd');
  });
});
