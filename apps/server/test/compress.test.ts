// Compress through the HTTP API against real Ghostscript and qpdf; outputs checked with qpdf,
// pdfimages, pdftotext and file sizes.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { performance } from 'node:perf_hooks';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorCode, type TaskEntry } from '@quire/contracts';
import { corpusRoot } from './corpusSupport.js';
import { quireForTests } from './harness.js';
import { encryptPdf, makePdf, npages } from './fixtures.js';
import { compressLevels } from '../src/tools/compress.js';
import { drawnPages, resampledSimilarity, similarity } from '../src/engines/pageLikeness.js';
import { encodePng, makeBitonalScanPdf, makePhotoPdf, makeScannedPdf, photoRaster, screenshotRaster } from './imageFixtures.js';

const { client, dir } = quireForTests('compress');
const file = (name: string) => path.join(dir, name);
let photos: string; // 2 pages of 200 dpi photos, captioned "Photo 1", "Photo 2"
let scan: string;
let bitonal: string; // 2 pages scanned in black and white at 300 dpi, 1-bit Flate: a grey image, then a stencil mask

const size = (f: string) => fs.statSync(f).size;
const text = (f: string, password?: string) => execFileSync('pdftotext', [...(password ? ['-upw', password] : []), f, '-']).toString();
const qpdfCheck = (f: string) => execFileSync('qpdf', ['--check', f]).toString();
/** pdfimages -list's rows: each image as drawn, with its kind (image, smask), colour and resolution. */
const imageList = (f: string) =>
  execFileSync('pdfimages', ['-list', f])
    .toString()
    .split('\n')
    .slice(2)
    .filter((l) => l.trim())
    .map((l) => {
      const col = l.trim().split(/\s+/);
      return {
        type: col[2],
        width: Number(col[3]),
        height: Number(col[4]),
        color: col[5],
        enc: col[8],
        object: Number(col[10]),
        ppi: Number(col[12]),
      };
    });
/** Resolution of each image as drawn (pdfimages -list's x-ppi). */
const imagePpi = (f: string) => imageList(f).map((i) => i.ppi);
/** qpdf --requires-password: 0 a password is needed, 2 not encrypted, 3 encrypted but opens. */
const requiresPassword = (f: string) => {
  try {
    execFileSync('qpdf', ['--requires-password', f]);
    return 0;
  } catch (e) {
    return (e as { status: number }).status;
  }
};
/** Peak signal-to-noise ratio in dB (Infinity for the same pixels) of the first pages of two PDFs drawn grey at 72 dpi (ImageMagick's compare). */
function psnr(a: string, b: string): number {
  const drawn = [a, b].map((f, i) => {
    execFileSync('pdftoppm', ['-gray', '-r', '72', '-f', '1', '-l', '1', '-singlefile', f, file(`drawn-${i}`)]);
    return file(`drawn-${i}.pgm`);
  });
  const res = spawnSync('compare', ['-metric', 'PSNR', ...drawn, 'null:']);
  const db = res.stderr.toString();
  return db.startsWith('inf') ? Infinity : Number.parseFloat(db);
}
/**
 * How many pixels differ between two PDFs' pages drawn in colour at `dpi`, page by page, by
 * poppler (pdftoppm) and by MuPDF (mutool draw): ImageMagick's absolute error count.
 */
function differingPixels(a: string, b: string, pages: number, dpi: number): number[] {
  const counts: number[] = [];
  for (let page = 1; page <= pages; page++) {
    const drawn = [a, b].map((f, i) => {
      const prefix = file(`drawn-${page}-${i}`);
      execFileSync('pdftoppm', ['-r', String(dpi), '-f', String(page), '-l', String(page), '-singlefile', f, prefix]);
      execFileSync('mutool', ['draw', '-q', '-r', String(dpi), '-o', `${prefix}-mupdf.ppm`, f, String(page)]);
      return [`${prefix}.ppm`, `${prefix}-mupdf.ppm`];
    });
    for (const reader of [0, 1]) {
      const res = spawnSync('compare', ['-metric', 'AE', drawn[0]![reader]!, drawn[1]![reader]!, 'null:']);
      counts.push(Number.parseFloat(res.stderr.toString()));
    }
  }
  return counts;
}
const formFields = (f: string) =>
  (JSON.parse(execFileSync('qpdf', ['--json', '--json-key=acroform', f]).toString()) as { acroform: { fields: unknown[] } }).acroform.fields
    .length;

/** A JPEG (quality 92) of `side` × `side` pixels of colour Gaussian noise, as the bench's image pages hold. */
const noiseJpeg = (side: number) =>
  sharp({ create: { width: side, height: side, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 110, sigma: 60 } } })
    .jpeg({ quality: 92 })
    .toBuffer();
/** A 5-inch square page filled by `jpeg` (1500 pixels a side make 300 dpi). */
async function noisePdf(dest: string, jpeg: Buffer): Promise<string> {
  const doc = await PDFDocument.create();
  doc.addPage([360, 360]).drawImage(await doc.embedJpg(jpeg), { x: 0, y: 0, width: 360, height: 360 });
  fs.writeFileSync(dest, await doc.save());
  return dest;
}
const limits = { timeoutMs: 60_000, memoryMb: 1024 };

async function compress(fileId: string, level: string, dest: string, extra: object = {}): Promise<TaskEntry> {
  const entry = await client.runTool('compress', { file_id: fileId, level, ...extra }, file(dest));
  expect(entry.status, entry.msg).toBe(0);
  return entry;
}

beforeAll(async () => {
  photos = await makePhotoPdf(file('photos.pdf'), 2, 200);
  scan = await makeScannedPdf(file('scan.pdf'), 2, 300);
  bitonal = await makeBitonalScanPdf(file('bitonal.pdf'), 2, 300);
}, 60_000);

describe('compress', () => {
  it('shrinks photos at every level, high the most, low the least, keeping text and pages', async () => {
    const id = await client.uploadId(photos);
    const out: Record<string, number> = {};
    for (const level of ['high', 'medium', 'low']) {
      const entry = await compress(id, level, `photos-${level}.pdf`);
      expect(entry.output_file_name).toBe('photos-compressed.pdf');
      expect(entry.outputs[0]).toMatchObject({ input_size: size(photos), size: size(file(`photos-${level}.pdf`)) });
      expect(entry.outputs[0]!.unchanged).toBeUndefined();
      qpdfCheck(file(`photos-${level}.pdf`));
      expect(npages(file(`photos-${level}.pdf`))).toBe(2);
      expect(text(file(`photos-${level}.pdf`))).toMatch(/Photo 1[\s\S]*Photo 2/);
      out[level] = size(file(`photos-${level}.pdf`));
    }
    expect(out.high!).toBeLessThan(out.medium!);
    expect(out.medium!).toBeLessThan(out.low!);
    expect(out.low!).toBeLessThan(size(photos) * 0.7);
    // Images come down to the level's resolution (within rounding of the bicubic filter).
    expect(Math.max(...imagePpi(file('photos-high.pdf')))).toBeLessThanOrEqual(97);
    expect(Math.max(...imagePpi(file('photos-medium.pdf')))).toBeLessThanOrEqual(151);
    expect(Math.max(...imagePpi(file('photos-low.pdf')))).toBeLessThanOrEqual(200);
  });

  it('shrinks a scan by more than half at the default level (medium)', async () => {
    const id = await client.uploadId(scan);
    const entry = await client.runTool('compress', { file_id: id }, file('scan-out.pdf'));
    expect(entry.status).toBe(0);
    qpdfCheck(file('scan-out.pdf'));
    expect(size(file('scan-out.pdf'))).toBeLessThan(size(scan) / 2);
    expect(Math.max(...imagePpi(file('scan-out.pdf')))).toBeLessThanOrEqual(151);
  });

  it('stores a black-and-white scan as JBIG2 without loss: under half the size, every pixel and word kept', async () => {
    const entry = await compress(await client.uploadId(bitonal), 'medium', 'bitonal-out.pdf');
    const out = file('bitonal-out.pdf');
    qpdfCheck(out);
    expect(size(out)).toBeLessThan(size(bitonal) * 0.5);
    expect(imageList(out).map((i) => [i.type, i.enc, Math.round(i.ppi)])).toEqual([
      ['image', 'jbig2', 300],
      ['stencil', 'jbig2', 300],
    ]);
    expect(entry.outputs[0]!.note).toMatch(/^2 black-and-white images stored as JBIG2 without loss/);
    expect(text(out)).toBe(text(bitonal));
    // Every page at the scan's own resolution, as poppler and MuPDF draw it: not one pixel differs.
    expect(differingPixels(bitonal, out, 2, 300)).toEqual([0, 0, 0, 0]);
  });

  it('brings a black-and-white scan drawn above 1.5 times the mono resolution down to it, as JBIG2', async () => {
    const fine = await makeBitonalScanPdf(file('bitonal-600.pdf'), 1, 600);
    const entry = await compress(await client.uploadId(fine), 'medium', 'bitonal-600-out.pdf');
    const out = file('bitonal-600-out.pdf');
    qpdfCheck(out);
    expect(imageList(out).map((i) => [i.enc, Math.round(i.ppi)])).toEqual([['jbig2', 300]]);
    expect(entry.outputs[0]!.note).toMatch(/^1 black-and-white image stored as JBIG2 \(1 downsampled to 300 dpi\)/);
    expect(size(out)).toBeLessThan(size(fine) * 0.2);
    // Drawn grey at 300 dpi, only edges and specks of dust move: about 1% of the pixels by more than half.
    const drawn = [fine, out].map((f, i) => {
      execFileSync('pdftoppm', ['-r', '300', '-gray', '-singlefile', f, file(`bitonal-600-${i}`)]);
      return file(`bitonal-600-${i}.pgm`);
    });
    const moved = Number.parseFloat(spawnSync('compare', ['-metric', 'AE', '-fuzz', '50%', ...drawn, 'null:']).stderr.toString());
    expect(moved).toBeGreaterThan(0);
    expect(moved).toBeLessThan(0.02 * 2480 * 3509);
  });

  it('stores a scan coded as a fax (CCITT) as JBIG2 too, without loss', async () => {
    const ccitt = file('ccitt.pdf');
    execFileSync('gs', [
      '-q',
      '-dSAFER',
      '-dNOPAUSE',
      '-dBATCH',
      '-sDEVICE=pdfwrite',
      '-dDownsampleMonoImages=false',
      '-dMonoImageFilter=/CCITTFaxEncode',
      `-sOutputFile=${ccitt}`,
      bitonal,
    ]);
    expect(imageList(ccitt).map((i) => i.enc)).toEqual(['ccitt', 'ccitt']);
    await compress(await client.uploadId(ccitt), 'medium', 'ccitt-out.pdf');
    const out = file('ccitt-out.pdf');
    expect(imageList(out).map((i) => i.enc)).toEqual(['jbig2', 'jbig2']);
    expect(size(out)).toBeLessThan(size(ccitt) * 0.85);
    expect(differingPixels(ccitt, out, 2, 300)).toEqual([0, 0, 0, 0]);
  });

  it("stores an image's explicit black-and-white mask (/Mask) as JBIG2 too, without loss", async () => {
    // A two-colour image over a CCITT stencil that says where it shows; pdfimages lists the mask under its image.
    const original = path.join(corpusRoot, 'pdfjs/issue4379.pdf');
    expect(imageList(original).map((i) => [i.type, i.enc])).toEqual([
      ['image', 'image'],
      ['mask', 'ccitt'],
    ]);
    const entry = await compress(await client.uploadId(original), 'medium', 'mask-out.pdf');
    const out = file('mask-out.pdf');
    qpdfCheck(out);
    expect(imageList(out).map((i) => [i.type, i.enc])).toEqual([
      ['image', 'jbig2'],
      ['mask', 'jbig2'],
    ]);
    expect(entry.outputs[0]!.note).toMatch(/^2 black-and-white images stored as JBIG2 without loss/);
    expect(size(out)).toBeLessThan(size(original) * 0.8);
    expect(differingPixels(original, out, 1, 150)).toEqual([0, 0]);
  });

  it('returns the file unchanged, under its own name, when nothing can be gained', async () => {
    const id = await client.uploadId(file('photos-high.pdf'));
    const entry = await compress(id, 'high', 'again.pdf');
    expect(entry.output_file_name).toBe('photos-high.pdf');
    expect(entry.outputs[0]).toMatchObject({ unchanged: true, input_size: size(file('photos-high.pdf')) });
    expect(fs.readFileSync(file('again.pdf')).equals(fs.readFileSync(file('photos-high.pdf')))).toBe(true);
  });

  it('is never larger than its input, even for a small text-only file', async () => {
    const small = await makePdf(file('small.pdf'), 3, 'Small');
    const entry = await compress(await client.uploadId(small), 'low', 'small-out.pdf');
    expect(size(file('small-out.pdf'))).toBeLessThanOrEqual(size(small));
    expect(entry.outputs[0]!.size).toBe(size(file('small-out.pdf')));
    expect(text(file('small-out.pdf'))).toContain('Small Page 3');
  });

  it('is never larger than the upload a repair enlarged: the upload comes back, said unchanged', async () => {
    // A page tree whose node lists itself: the repair at upload writes the page anew, some 40 % larger.
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R 2 0 R] /Count 2 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>',
      '<< /Length 17 >>\nstream\n0 0 m 100 100 l S\nendstream',
    ];
    let pdf = '%PDF-1.4\n';
    const offsets = objects.map((body, i) => {
      const at = pdf.length;
      pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
      return at;
    });
    const xref = `xref\n0 5\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
    fs.writeFileSync(file('loop.pdf'), `${pdf}${xref}trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${pdf.length}\n%%EOF\n`);
    const up = await client.upload(file('loop.pdf'));
    expect(up.data).toMatchObject({ repaired: true, total_page: 1 });
    expect(up.data.file_size).toBeGreaterThan(size(file('loop.pdf')));
    for (const level of ['high', 'low']) {
      const entry = await compress(up.data.file_id, level, `loop-${level}.pdf`);
      expect(size(file(`loop-${level}.pdf`))).toBeLessThanOrEqual(size(file('loop.pdf')));
      expect(entry.outputs[0]).toMatchObject({ unchanged: true, input_size: size(file('loop.pdf')) });
      expect(fs.readFileSync(file(`loop-${level}.pdf`)).equals(fs.readFileSync(file('loop.pdf')))).toBe(true);
    }
  });

  it('keeps form fields, which Ghostscript would drop', async () => {
    const doc = await PDFDocument.load(fs.readFileSync(photos));
    doc.getForm().createTextField('name').addToPage(doc.getPage(0), { x: 60, y: 700, width: 200, height: 24 });
    fs.writeFileSync(file('form.pdf'), await doc.save({ useObjectStreams: false }));
    const entry = await compress(await client.uploadId(file('form.pdf')), 'high', 'form-out.pdf');
    expect(formFields(file('form-out.pdf'))).toBe(1);
    expect(entry.outputs[0]!.size).toBeLessThanOrEqual(size(file('form.pdf')));
    expect(text(file('form-out.pdf'))).toContain('Photo 1');
  });

  it('shrinks the pictures of a form in place, keeping its field, grey pictures grey and transparency', async () => {
    // 300 dpi pictures on one A4 page: a colour photo, a grey one and a transparent one, and a text field.
    const doc = await PDFDocument.create();
    const page = doc.addPage([595, 842]);
    const photo = photoRaster(2400, 1500, 3);
    const raw = { raw: { width: photo.width, height: photo.height, channels: 3 as const } };
    const jpeg = await sharp(photo.pixels, raw).jpeg({ quality: 92 }).toBuffer();
    page.drawImage(await doc.embedJpg(jpeg), { x: 10, y: 470, width: 576, height: 360 });
    const grey = await sharp(photo.pixels, raw).resize(1000, 750).toColourspace('b-w').jpeg({ quality: 92 }).toBuffer();
    page.drawImage(await doc.embedJpg(grey), { x: 10, y: 200, width: 240, height: 180 });
    const alpha = await sharp(photo.pixels, raw).resize(1000, 750).ensureAlpha(0.5).png().toBuffer();
    page.drawImage(await doc.embedPng(alpha), { x: 300, y: 200, width: 240, height: 180 });
    page.drawText('Signed by the applicant', { x: 60, y: 120, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
    doc.getForm().createTextField('applicant').addToPage(page, { x: 60, y: 60, width: 200, height: 24 });
    fs.writeFileSync(file('form-photos.pdf'), await doc.save());
    const before = imageList(file('form-photos.pdf'));
    expect(before.map((i) => [i.type, i.color, Math.round(i.ppi)])).toEqual([
      ['image', 'rgb', 300],
      ['image', 'gray', 300],
      ['image', 'rgb', 300],
      ['smask', 'gray', 300],
    ]);

    const entry = await compress(await client.uploadId(file('form-photos.pdf')), 'medium', 'form-photos-out.pdf');
    const out = file('form-photos-out.pdf');
    expect(formFields(out)).toBe(1);
    expect(size(out)).toBeLessThan(size(file('form-photos.pdf')) / 5);
    qpdfCheck(out);
    expect(text(out).replace(/\s+/g, ' ')).toBe(text(file('form-photos.pdf')).replace(/\s+/g, ' '));
    const after = imageList(out);
    // Down to medium's 150 dpi, as JPEG; the grey one still grey; the transparent one keeps its soft mask.
    expect(after.map((i) => [i.type, i.color])).toEqual([
      ['image', 'rgb'],
      ['image', 'gray'],
      ['image', 'rgb'],
      ['smask', 'gray'],
    ]);
    for (const i of after) expect(i.ppi).toBeGreaterThan(140);
    for (const i of after) expect(i.ppi).toBeLessThanOrEqual(151);
    expect(after.slice(0, 3).map((i) => i.enc)).toEqual(['jpeg', 'jpeg', 'jpeg']);
    // The downsampled soft mask holds one grey sample per pixel, as its dictionary says.
    const smask = /\/SMask (\d+) 0 R/.exec(execFileSync('qpdf', [`--show-object=${after[2]!.object}`, out]).toString())![1]!;
    expect(execFileSync('qpdf', [`--show-object=${smask}`, '--filtered-stream-data', out]).length).toBe(after[3]!.width * after[3]!.height);
    // The JPEGs themselves, as ImageMagick reads them: a grey image holds one channel, not three.
    execFileSync('pdfimages', ['-j', out, file('form-photos-img')]);
    const kinds = ['000', '001', '002'].map((n) =>
      execFileSync('identify', ['-format', '%[colorspace]', file(`form-photos-img-${n}.jpg`)]).toString(),
    );
    expect(kinds).toEqual(['sRGB', 'Gray', 'sRGB']);
    expect(entry.outputs[0]!.note).toMatch(/^3 images downsampled to 150 dpi \(JPEG, quality 75\)/);
  });

  it('stores a photo kept without loss as JPEG at its own resolution, and drawn art stays lossless', async () => {
    // Both drawn at 120 dpi, under medium's 150: nothing to downsample. The photo deflates to most of its samples, the screenshot to few.
    const doc = await PDFDocument.create();
    const page = doc.addPage([595, 842]);
    const [photo, screen] = [photoRaster(600, 400, 5), screenshotRaster(600, 400, 5)];
    page.drawImage(await doc.embedPng(encodePng(photo)), { x: 60, y: 460, width: 360, height: 240 });
    page.drawImage(await doc.embedPng(encodePng(screen)), { x: 60, y: 160, width: 360, height: 240 });
    page.drawText('Holiday snapshot and the booking page', { x: 60, y: 740, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
    // XMP metadata as editors write it: 2 KB of blank padding kept for editing it in place.
    const xmp = `<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Holiday</rdf:li></rdf:Alt></dc:title></rdf:Description>
</rdf:RDF></x:xmpmeta>
${`${' '.repeat(99)}\n`.repeat(20)}<?xpacket end="w"?>`;
    doc.catalog.set(PDFName.of('Metadata'), doc.context.register(doc.context.stream(xmp, { Type: 'Metadata', Subtype: 'XML' })));
    const input = file('lossless-photo.pdf');
    fs.writeFileSync(input, await doc.save());
    expect(imageList(input).map((i) => [i.enc, i.ppi])).toEqual([
      ['image', 120],
      ['image', 120],
    ]);

    const entry = await compress(await client.uploadId(input), 'medium', 'lossless-photo-out.pdf');
    const out = file('lossless-photo-out.pdf');
    qpdfCheck(out);
    expect(imageList(out).map((i) => [i.enc, i.width, i.height, i.ppi])).toEqual([
      ['jpeg', 600, 400, 120],
      ['image', 600, 400, 120],
    ]);
    expect(entry.outputs[0]!.note).toMatch(/^1 lossless photo stored as JPEG \(quality 75\), blank padding taken out of the metadata/);
    // The metadata packet as poppler reads it: the same but for its padding.
    const meta = (f: string) => execFileSync('pdfinfo', ['-meta', f]).toString();
    const [metaIn, metaOut] = [meta(input), meta(out)];
    expect(metaOut.length).toBeLessThan(metaIn.length - 1900);
    expect(metaOut.replace(/\s+/g, ' ')).toBe(metaIn.replace(/\s+/g, ' '));
    expect(metaOut).toContain('<?xpacket end="w"?>');
    expect(size(out)).toBeLessThan(size(input) / 3);
    expect(text(out)).toBe(text(input));
    // Drawn grey at 72 dpi, as a reader sees the page whole: what JPEG moved does not show.
    expect(psnr(input, out)).toBeGreaterThan(40);
  });

  // Ghostscript draws this file's JBIG2 smiley, which poppler (the reader here) leaves blank: a
  // rebuild that keeps every word and field can still change how pages look.
  it('refuses a smaller rewrite whose pages look different from the original', async () => {
    const original = path.join(corpusRoot, 'pdfjs/bitmap-symbol-symhuffuncompressed-texthuff.pdf');
    const entry = await compress(await client.uploadId(original), 'medium', 'looks-kept.pdf');
    expect(psnr(original, file('looks-kept.pdf'))).toBeGreaterThan(40);
    expect(entry.outputs[0]!.note ?? '').not.toMatch(/Ghostscript/);
  });

  // The bench's image pages are Gaussian noise: brought down to 150 dpi its pixels no longer line up
  // with the original's (SSIM 0.83), though the page looks the same.
  it('shrinks a page of photographic noise at medium, its look kept', async () => {
    const input = await noisePdf(file('noise.pdf'), await noiseJpeg(1500));
    const entry = await compress(await client.uploadId(input), 'medium', 'noise-out.pdf');
    const out = file('noise-out.pdf');
    qpdfCheck(out);
    expect(entry.outputs[0]!.note).toMatch(/^1 image downsampled to 150 dpi \(JPEG, quality 75\)/);
    expect(imagePpi(out)).toEqual([150]);
    expect(size(out)).toBeLessThan(size(input) / 2);
    expect(psnr(input, out)).toBeGreaterThan(30);
  });

  it('still finds a noise page different when its image is blanked, blurred, negated, mirrored or replaced', async () => {
    const original = await noiseJpeg(1500);
    const variant = async (name: string, jpeg: Buffer) =>
      (await drawnPages(await noisePdf(file(`${name}.pdf`), jpeg), [1], dir, limits))[0]!;
    const before = await variant('noise-before', original);
    const resampled = await variant('noise-150', await sharp(original).resize(750).jpeg({ quality: 75 }).toBuffer());
    expect(similarity(before, resampled)).toBeLessThan(compressLevels.medium.minLikeness);
    expect(resampledSimilarity(before, resampled)).toBeGreaterThanOrEqual(compressLevels.medium.minLikeness);
    const damaged = {
      blank: await sharp({ create: { width: 750, height: 750, channels: 3, background: { r: 110, g: 110, b: 110 } } })
        .jpeg()
        .toBuffer(),
      blurred: await sharp(original).resize(750).blur(3).jpeg({ quality: 75 }).toBuffer(),
      negated: await sharp(original).resize(750).negate().jpeg({ quality: 75 }).toBuffer(),
      mirrored: await sharp(original).resize(750).flop().jpeg({ quality: 75 }).toBuffer(),
      replaced: await noiseJpeg(750),
    };
    for (const [name, jpeg] of Object.entries(damaged))
      expect(resampledSimilarity(before, await variant(`noise-${name}`, jpeg)), name).toBeLessThan(compressLevels.high.minLikeness);
  });

  it('bounds a rewrite that loops on a tiny file: Ghostscript stops in seconds, the log says why, the others win', {
    timeout: 120_000,
  }, async () => {
    // 2.4 KB whose two Type 3 fonts draw each other: Ghostscript 10.00 loops on it until its time limit.
    const looping = path.join(corpusRoot, 'made/type3-fonts-drawing-each-other.pdf');
    const warned = vi.spyOn(console, 'warn');
    const started = performance.now();
    try {
      const entry = await compress(await client.uploadId(looping), 'medium', 'looping-out.pdf');
      expect((performance.now() - started) / 1000).toBeLessThan(30);
      expect(warned.mock.calls.flat().join('\n')).toMatch(
        /the Ghostscript candidate is dropped: Ghostscript ran out of its 10\.\d+ s time limit/,
      );
      expect(entry.outputs[0]!.size).toBeLessThanOrEqual(size(looping));
      qpdfCheck(file('looping-out.pdf'));
    } finally {
      warned.mockRestore();
    }
  });

  it('drops a rewrite Ghostscript crashed in mid-write, saying why, and never returns its truncated file', async () => {
    // Ghostscript 10.00 crashes on issue18117's page after writing the first page's objects.
    const crashing = file('crashing.pdf');
    execFileSync('qpdf', ['--empty', '--pages', photos, path.join(corpusRoot, 'pdfjs/issue18117.pdf'), '--', crashing]);
    const warned = vi.spyOn(console, 'warn');
    try {
      const entry = await compress(await client.uploadId(crashing), 'medium', 'crashing-out.pdf');
      expect(warned.mock.calls.flat().join('\n')).toMatch(/the Ghostscript candidate is dropped: Ghostscript ended on SIGSEGV/);
      expect(entry.outputs[0]!.note ?? '').not.toMatch(/Ghostscript/);
      qpdfCheck(file('crashing-out.pdf'));
      expect(npages(file('crashing-out.pdf'))).toBe(3);
      expect(size(file('crashing-out.pdf'))).toBeLessThan(size(crashing));
    } finally {
      warned.mockRestore();
    }
  });

  // Up to seven rewrites of each file (three at the level, three or four more towards the target).
  it('goes below the level for a target size, and says so when the target cannot be reached', { timeout: 300_000 }, async () => {
    const id = await client.uploadId(await makePhotoPdf(file('photo.pdf'), 1, 200));
    await compress(id, 'medium', 'target-level.pdf');
    const target = Math.round(size(file('target-level.pdf')) / 2);
    const entry = await compress(id, 'medium', 'target-met.pdf', { target_size: target });
    expect(size(file('target-met.pdf'))).toBeLessThanOrEqual(target);
    expect(entry.outputs[0]!.note).toMatch(/Images at \d+ dpi, JPEG quality \d+\.$/);
    expect(Math.max(...imagePpi(file('target-met.pdf')))).toBeLessThan(150);
    qpdfCheck(file('target-met.pdf'));
    expect(text(file('target-met.pdf'))).toContain('Photo 1');

    const missed = await compress(id, 'medium', 'target-missed.pdf', { target_size: 1000 });
    expect(missed.outputs[0]!.note).toMatch(/^1 KB cannot be reached without losing content or going below 50 dpi/);
    expect(size(file('target-missed.pdf'))).toBeLessThan(size(file('target-met.pdf')));
    expect(text(file('target-missed.pdf'))).toContain('Photo 1');
  });

  it('takes an encrypted file with its password (3122 without, 3123 wrong) and returns it unlocked', async () => {
    encryptPdf(photos, file('photos-locked.pdf'), 'hush-hush');
    const id = await client.uploadId(file('photos-locked.pdf'));
    expect((await client.post('compress', { file_id: id, level: 'medium' })).code).toBe(ErrorCode.Encrypted);
    expect((await client.post('compress', { file_id: id, level: 'medium', passwd: 'nope' })).code).toBe(ErrorCode.WrongPassword);
    await compress(id, 'medium', 'unlocked-out.pdf', { passwd: 'hush-hush' });
    expect(requiresPassword(file('unlocked-out.pdf'))).toBe(2);
    expect(size(file('unlocked-out.pdf'))).toBeLessThan(size(file('photos-locked.pdf')) / 2);
    expect(text(file('unlocked-out.pdf'))).toContain('Photo 2');
  });

  it('runs one task per file under one multi_id, downloadable together', async () => {
    const first = await client.post('compress', { file_id: await client.uploadId(photos), level: 'high' });
    const multi = first.data.multi_id as string;
    const second = await client.post('compress', { file_id: await client.uploadId(scan), level: 'high', multi_id: multi });
    expect(second.data.multi_id).toBe(multi);
    await client.waitTask(first.data.task_id);
    await client.waitTask(second.data.task_id);
    const entries = (await client.call<TaskEntry[]>(`get-task-result?multi_id=${multi}`)).data;
    expect(entries.map((e) => e.outputs[0]!.name)).toEqual(['photos-compressed.pdf', 'scan-compressed.pdf']);
    const zip = await client.raw(`/api/tools/v1/download-doc-bulk?multi_id=${multi}`);
    fs.writeFileSync(file('all.zip'), Buffer.from(await zip.arrayBuffer()));
    expect(
      execFileSync('unzip', ['-Z1', file('all.zip')])
        .toString()
        .trim()
        .split('\n'),
    ).toEqual(['photos-compressed.pdf', 'scan-compressed.pdf']);
  });

  it('refuses an unknown level', async () => {
    const id = await client.uploadId(file('small.pdf'));
    expect((await client.post('compress', { file_id: id, level: 'extreme' })).code).toBe(ErrorCode.InvalidParams);
  });
});
