// Conversions to PDF over HTTP against a real Quire: office documents through the LibreOffice
// listeners, EPUB through MuPDF, images through images_merge_pdf. Results are checked with poppler
// (pdfinfo, pdftotext, pdfimages, pdftoppm) and qpdf, never with the code under test.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, errorMessages, imageTooLargeMessage } from '@quire/contracts';
import { Client, quireForTests, startQuire } from './harness.js';
import { makePdf, npages } from './fixtures.js';
import { imagesOf, isRed, isWhite, makeBmp, makeImage, pageSizes, RED_SQUARE, renderPage, withExifOrientation } from './convertFixtures.js';

const office = path.resolve(import.meta.dirname, '../../../test-corpus/office');
const images = path.resolve(import.meta.dirname, '../../../test-corpus/images');

const served = quireForTests('convert');
const { client, dir } = served;
const file = (name: string) => path.join(dir, name);
const text = (pdf: string) => execFileSync('pdftotext', ['-enc', 'UTF-8', pdf, '-']).toString();
const qpdfCheck = (pdf: string) => execFileSync('qpdf', ['--check', pdf]).toString();

/** GET converter for an uploaded file, to the end; the PDF is saved as `dest`. */
async function convert(source: string, dest: string, passwd?: string) {
  const id = await client.uploadId(source);
  const created = await client.call(`converter?file_id=${id}&output_format=pdf${passwd ? `&passwd=${encodeURIComponent(passwd)}` : ''}`);
  if (created.code !== 0) return { status: created.code, msg: created.msg, outputs: [] };
  const entry = await client.waitTask(created.data.task_id);
  if (entry.status === 0) {
    const res = await client.raw(`/api/tools/v1/document/download-doc?task_id=${entry.task_id}`);
    fs.writeFileSync(dest, Buffer.from(await res.arrayBuffer()));
  }
  return entry;
}

describe('office documents to PDF', () => {
  // [corpus file, pages, words the PDF's text must hold]
  const cases: [string, number, string[]][] = [
    ['hdr-header-footer.docx', 2, ['Header for section-1', 'Footer for section 1']],
    ['Word95.doc', 1, ['The quick brown fox jumps over the lazy dog']],
    ['50299.xlsx', 17, ['10A', '図形１']],
    ['chinese-provinces.xls', 1, ['安徽省', 'Beijing']],
    ['with_japanese.pptx', 1, ['Suddenly some Japanese text', 'ゾルゲと尾崎']],
    ['54880_chinese.ppt', 1, ['カタカナ']],
    ['unicode.odt', 1, ['вбФШ']],
    ['table_error_codes.rtf', 2, ['PandocFailOnWarningError']],
    ['html-reader.html', 11, ['Pandoc Test Suite']],
    ['SampleBrochure.pub', 2, ['Contoso Art Gallery']],
    ['keynote5-file.key', 2, ['Title slide']],
    ['stress011.docx', 41, ['اتفاقيـة حقوق']],
  ];
  it.each(cases)('%s', async (name, pages, words) => {
    const out = file(`${name}.pdf`);
    const entry = await convert(path.join(office, name), out);
    expect(entry.status).toBe(0);
    expect(entry.outputs[0]!.name).toBe(`${path.parse(name).name}.pdf`);
    expect(npages(out)).toBe(pages);
    qpdfCheck(out);
    for (const word of words) expect(text(out)).toContain(word);
  });

  it('reads text in its own encoding: Shift_JIS, and UTF-16 without a byte-order mark', async () => {
    expect((await convert(path.join(office, '_ude_4.txt'), file('sjis.pdf'))).status).toBe(0);
    expect(text(file('sjis.pdf'))).toContain('マルチン・ルターの小信仰問答書');
    expect((await convert(path.join(office, 'nobom-utf16le.txt'), file('utf16.pdf'))).status).toBe(0);
    expect(text(file('utf16.pdf'))).toContain('07/19/2015 21:00:15.469,1.083,1.08332');
    // HTML in UTF-16 without a mark is rendered as HTML, not shown as its source.
    expect((await convert(path.join(office, 'plane1-utf-16le.html'), file('utf16-html.pdf'))).status).toBe(0);
    const html = text(file('utf16-html.pdf'));
    expect(html).toContain('Unicode Plane 1 Example');
    expect(html).not.toContain('<META');
  });

  it('lays out an EPUB, its text kept', async () => {
    const entry = await convert(path.join(office, 'features.epub'), file('book.pdf'));
    expect(entry.status).toBe(0);
    expect(npages(file('book.pdf'))).toBeGreaterThanOrEqual(5);
    expect(text(file('book.pdf'))).toContain('EPUB 3 Conformance Test Document');
  });

  it('refuses a damaged document with 3105 and keeps no output', async () => {
    // Its zip is sound, so the upload takes it (uploadChecks.test.ts); only LibreOffice finds its XML broken.
    const entry = await convert(path.join(office, 'broken-xlsx-corrupted.xlsx'), file('broken.pdf'));
    expect(entry).toMatchObject({ status: ErrorCode.Unreadable, msg: errorMessages[ErrorCode.Unreadable], outputs: [] });
  });

  it.each([0, -1, 99])('keeps the text of an RTF whose nested table says \\itap%i', async (itap) => {
    // Nested tables whose inner paragraph names a nesting level no table has: LibreOffice lost the text.
    const rtf = [
      '{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Times New Roman;}}',
      '\\pard\\plain Before the table: quick brown fox.\\par',
      '\\trowd\\cellx3000\\cellx6000',
      '\\pard\\intbl\\itap1 Outer cell one\\cell',
      `\\pard\\intbl\\itap${itap} Inner cell text\\nestcell{\\*\\nesttableprops\\trowd\\cellx2000\\nestrow}`,
      '\\pard\\intbl\\itap1 Outer cell two\\cell\\row',
      '\\pard\\plain After the table: lazy dog.\\par',
      '}',
    ].join('\n');
    fs.writeFileSync(file(`itap${itap}.rtf`), rtf);
    const entry = await convert(file(`itap${itap}.rtf`), file(`itap${itap}.pdf`));
    expect(entry.status, entry.msg).toBe(0);
    const words = text(file(`itap${itap}.pdf`)).replace(/\s+/g, ' ');
    for (const phrase of [
      'Before the table: quick brown fox.',
      'Outer cell one',
      'Inner cell text',
      'Outer cell two',
      'After the table: lazy dog.',
    ])
      expect(words).toContain(phrase);
  });

  it('asks for the password of an encrypted document, refuses a wrong one, converts with the right one', async () => {
    const xls = path.join(office, 'password.xls');
    // Known at upload, so the page asks at once; only LibreOffice can tell a wrong password.
    const uploaded = await client.upload(xls);
    expect(uploaded.data.encrypted).toBe(true);
    const info = (passwd = '') => client.call(`document/info?file_id=${uploaded.data.file_id}${passwd && `&passwd=${passwd}`}`);
    expect(await info()).toMatchObject({ code: ErrorCode.Encrypted, msg: errorMessages[ErrorCode.Encrypted] });
    expect((await info('anything')).code).toBe(0);
    expect((await client.call(`converter?file_id=${uploaded.data.file_id}`)).code).toBe(ErrorCode.Encrypted);
    expect((await convert(xls, file('locked.pdf'))).status).toBe(ErrorCode.Encrypted);
    expect((await convert(xls, file('locked.pdf'), 'not-it')).status).toBe(ErrorCode.WrongPassword);
    expect((await convert(xls, file('unlocked.pdf'), 'password')).status).toBe(0);
    expect(npages(file('unlocked.pdf'))).toBe(1);
    expect(text(file('unlocked.pdf'))).toContain('A ZIP bomb is a variant of mail-bombing.');
    // Encrypted OOXML that LibreOffice 7.4 does not even recognise: reported as encrypted, and
    // converted with its password (Quire decrypts it first).
    const docx = path.join(office, 'bug53475-password-is-pass.docx');
    expect((await convert(docx, file('x.pdf'))).status).toBe(ErrorCode.Encrypted);
    expect(await convert(docx, file('x.pdf'), 'not-it')).toMatchObject({ status: ErrorCode.WrongPassword, outputs: [] });
    expect((await convert(docx, file('docx.pdf'), 'pass')).status).toBe(0);
    expect(text(file('docx.pdf'))).toContain('The is a password protected document.');
    // Legacy PowerPoint under RC4 CryptoAPI (made by Apache POI: test-corpus/tools/MakeEncryptedPpt.java).
    const ppt = path.join(office, 'encrypted-password-is-slides.ppt');
    expect((await client.upload(ppt)).data.encrypted).toBe(true);
    expect(await convert(ppt, file('x.pdf'))).toMatchObject({ status: ErrorCode.Encrypted, outputs: [] });
    expect(await convert(ppt, file('x.pdf'), 'not-it')).toMatchObject({ status: ErrorCode.WrongPassword, outputs: [] });
    expect((await convert(ppt, file('ppt.pdf'), 'slides')).status).toBe(0);
    expect(npages(file('ppt.pdf'))).toBe(2);
    expect(text(file('ppt.pdf'))).toContain('Quire opens locked slides');
    expect(text(file('ppt.pdf'))).toContain('Second slide of the locked deck');
  });

  it('refuses what the converter does not take: a PDF, a WebP, and content no type claims', async () => {
    const pdf = await client.uploadId(await makePdf(file('in.pdf'), 1));
    expect((await client.call(`converter?file_id=${pdf}`)).code).toBe(ErrorCode.UnsupportedType);
    const webp = await client.uploadId(path.join(images, '4.webp'));
    expect((await client.call(`converter?file_id=${webp}`)).code).toBe(ErrorCode.UnsupportedType);
    fs.writeFileSync(file('random.docx'), Buffer.alloc(4096, 7));
    expect((await client.upload(file('random.docx'))).code).toBe(ErrorCode.UnsupportedType);
    expect((await client.call('converter?file_id=')).code).toBe(ErrorCode.InvalidParams);
  });

  it('describes the converter call in the OpenAPI document as a GET with its query', async () => {
    const doc = await (await fetch(`${served.quire.url}/api/docs`)).json();
    const params = doc.paths['/api/tools/v1/converter'].get.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(['file_id', 'passwd', 'multi_id', 'output_format', 'dpi', 'using_ocr', 'languages', 'force_ocr']);
    expect(doc.paths['/api/tools/v1/images_merge_pdf'].post.requestBody).toBeDefined();
  });
});

describe('no network, no local files, while rendering', () => {
  let server: http.Server;
  const requests: string[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      requests.push(req.url ?? '');
      res.end('body { color: red }');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('fetches nothing an HTML file links to, remote or local', async () => {
    const port = (server.address() as { port: number }).port;
    const remote = `http://127.0.0.1:${port}`;
    const local = await makeImage(file('local.png'), 120, 80);
    fs.writeFileSync(
      file('page.html'),
      `<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title>
<link rel="stylesheet" href="${remote}/style.css"><link rel="stylesheet" href="file:///etc/passwd">
</head><body><h1>Offline rendering</h1>
<p><img src="${remote}/remote.png" width="50" height="50"> <img src="file://${local}"> <img src="${local}"> <img src="local.png"></p>
<iframe src="file:///etc/passwd"></iframe><iframe src="${remote}/frame.html"></iframe>
<object data="file:///etc/passwd" type="text/plain"></object><embed src="${remote}/embed.txt">
<p><a href="file:///etc/passwd">a link</a></p></body></html>`,
    );
    const entry = await convert(file('page.html'), file('page.pdf'));
    expect(entry.status).toBe(0);
    expect(text(file('page.pdf'))).toContain('Offline rendering');
    expect(text(file('page.pdf'))).not.toMatch(/root:.*:0:0:/);
    // LibreOffice draws its small placeholder for each image it did not load; the local picture is not there.
    expect(imagesOf(file('page.pdf')).filter((i) => i.width === 120 && i.height === 80)).toEqual([]);
    expect(requests).toEqual([]);
  });

  it('fetches nothing for an EPUB either, and reads nothing outside the book', async () => {
    const port = (server.address() as { port: number }).port;
    const book = file('book');
    fs.rmSync(book, { recursive: true, force: true });
    fs.mkdirSync(path.join(book, 'META-INF'), { recursive: true });
    fs.writeFileSync(path.join(book, 'mimetype'), 'application/epub+zip');
    fs.writeFileSync(
      path.join(book, 'META-INF/container.xml'),
      '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    );
    fs.writeFileSync(
      path.join(book, 'book.opf'),
      '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">x</dc:identifier><dc:title>T</dc:title><dc:language>en</dc:language></metadata><manifest><item id="c" href="chapter.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c"/></spine></package>',
    );
    fs.writeFileSync(
      path.join(book, 'chapter.xhtml'),
      `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>c</title><link rel="stylesheet" href="http://127.0.0.1:${port}/book.css"/><link rel="stylesheet" href="../../../../../etc/passwd"/></head>
<body><h1>Chapter one</h1><p><img src="http://127.0.0.1:${port}/cover.png"/><img src="file:///etc/passwd"/><img src="${file('local.png')}"/><img src="../../../../../../etc/passwd"/></p></body></html>`,
    );
    fs.rmSync(file('book.epub'), { force: true });
    execFileSync('zip', ['-X0', file('book.epub'), 'mimetype'], { cwd: book });
    execFileSync('zip', ['-Xr', file('book.epub'), 'META-INF', 'book.opf', 'chapter.xhtml'], { cwd: book });
    const entry = await convert(file('book.epub'), file('book-out.pdf'));
    expect(entry.status).toBe(0);
    expect(text(file('book-out.pdf'))).toContain('Chapter one');
    expect(text(file('book-out.pdf'))).not.toMatch(/root:.*:0:0:/);
    expect(imagesOf(file('book-out.pdf'))).toEqual([]);
    expect(requests).toEqual([]);
  });
});

describe('images to PDF', () => {
  let ids: Record<string, string>;

  beforeAll(async () => {
    ids = {
      jpg: await client.uploadId(await makeImage(file('a.jpg'), 200, 100)),
      png: await client.uploadId(await makeImage(file('b.png'), 100, 300)),
      bmp: await client.uploadId(makeBmp(file('c.bmp'), 150, 150)),
      tif: await client.uploadId(await makeImage(file('d.tif'), 300, 60)),
      gif: await client.uploadId(path.join(images, 'test.colors.gif')),
    };
  });

  const merge = async (body: object, out: string) => {
    const entry = await client.runTool('images_merge_pdf', body, out);
    expect(entry.status).toBe(0);
    qpdfCheck(out);
    return out;
  };

  it('keeps the order chosen, one page per image, A4 turned to each image by default', async () => {
    const out = await merge({ file_ids: [ids.gif, ids.bmp, ids.jpg, ids.tif, ids.png] }, file('order.pdf'));
    expect(imagesOf(out).map((i) => [i.page, i.width, i.height])).toEqual([
      [1, 807, 606],
      [2, 150, 150],
      [3, 200, 100],
      [4, 300, 60],
      [5, 100, 300],
    ]);
    const [a4short, a4long] = [595.28, 841.89];
    expect(pageSizes(out).map(([w, h]) => w > h)).toEqual([true, false, true, true, false]);
    for (const [w, h] of pageSizes(out))
      expect([Math.min(w, h), Math.max(w, h)]).toEqual([expect.closeTo(a4short, 1), expect.closeTo(a4long, 1)]);
  });

  it('fits pages to images with margins, or uses Letter in the orientation asked for', async () => {
    const fit = await merge({ file_ids: [ids.jpg, ids.png], page_size: 'fit', margin: 'small' }, file('fit.pdf'));
    const m = (7 * 72) / 25.4;
    expect(pageSizes(fit)).toEqual([
      [expect.closeTo(200 + 2 * m, 1), expect.closeTo(100 + 2 * m, 1)],
      [expect.closeTo(100 + 2 * m, 1), expect.closeTo(300 + 2 * m, 1)],
    ]);
    const letter = await merge({ file_ids: [ids.jpg, ids.png], page_size: 'letter', orientation: 'landscape' }, file('letter.pdf'));
    expect(pageSizes(letter)).toEqual([
      [792, 612],
      [792, 612],
    ]);
    // Small images are never enlarged: drawn at their own 72 dpi.
    expect(imagesOf(letter).map((i) => Math.round(i.xppi))).toEqual([72, 72]);
  });

  it('shrinks a large image into the margins', async () => {
    const big = await client.uploadId(await makeImage(file('big.png'), 2000, 1000));
    const out = await merge({ file_ids: [big], page_size: 'a4', orientation: 'portrait', margin: 'large' }, file('big.pdf'));
    expect(pageSizes(out)).toEqual([[expect.closeTo(595.28, 1), expect.closeTo(841.89, 1)]]);
    const margin = (15 * 72) / 25.4;
    // The width fills the page inside both margins: 2000 pixels over that many points.
    expect(imagesOf(out)[0]!.xppi).toBeCloseTo((2000 * 72) / (595.28 - 2 * margin), 0);
  });

  it('turns a JPEG as its EXIF orientation says', async () => {
    const plain = await makeImage(file('o.jpg'), 200, 100);
    // Where the red corner must end up once the image is upright, on a page fitted to it.
    const expected: [orientation: number, width: number, height: number, corner: [number, number]][] = [
      [1, 200, 100, [5, 5]],
      [3, 200, 100, [195, 95]],
      [6, 100, 200, [95, 5]],
      [8, 100, 200, [5, 195]],
    ];
    for (const [orientation, width, height, [x, y]] of expected) {
      const id = await client.uploadId(withExifOrientation(plain, orientation, file(`o${orientation}.jpg`)));
      const out = await merge({ file_ids: [id], page_size: 'fit' }, file(`o${orientation}.pdf`));
      const page = renderPage(out);
      expect([page.width, page.height]).toEqual([width, height]);
      expect(isRed(page.rgb(x, y)), `orientation ${orientation}`).toBe(true);
      expect(isWhite(page.rgb(width - 1 - x, height - 1 - y))).toBe(true);
    }
    expect(RED_SQUARE).toBeGreaterThan(10);
  });

  it('takes real-world images: multi-page TIFF, CMYK JPEG, 16-bit PNG, palette BMP', async () => {
    const names = [
      'G31D_MULTI.TIF',
      'Channel_digital_image_CMYK_color_no_profile.jpg',
      '16-bit-grey-alpha.png',
      'pal8rle.bmp',
      'Landscape_5.jpg',
    ];
    const corpusIds = [];
    for (const n of names) corpusIds.push(await client.uploadId(path.join(images, n)));
    const out = await merge({ file_ids: corpusIds }, file('corpus.pdf'));
    expect(npages(out)).toBe(6);
    // Landscape_5 is stored 450 x 600 and shown turned: its page is landscape.
    expect(pageSizes(out)[5]![0]).toBeGreaterThan(pageSizes(out)[5]![1]);
  });

  it('refuses what is not an image it takes with 3102 and the spec message', async () => {
    const pdf = await client.uploadId(await makePdf(file('p.pdf'), 1));
    const docx = await client.uploadId(path.join(office, 'having-images.docx'));
    const webp = await client.uploadId(path.join(images, '4.webp'));
    for (const id of [pdf, docx, webp]) {
      expect(await client.post('images_merge_pdf', { file_ids: [ids.jpg, id] })).toMatchObject({
        code: ErrorCode.WrongType,
        msg: 'The file types allowed for uploads are JPG, JPEG, PNG, BMP, and GIF.',
      });
    }
    // And a PDF tool refuses an image the way it refuses any other non-PDF.
    expect((await client.post('split', { file_id: ids.png, mode: 'fixed', every: 1 })).code).toBe(ErrorCode.NotPdf);
  });

  it('refuses an image over 20 MB, and one declaring more pixels than a decoder can hold, before decoding', async () => {
    // A valid PNG of 21 MB: stored (uncompressed) deflate blocks of noise.
    const [w, h] = [2600, 2700];
    const raw = Buffer.alloc((w * 3 + 1) * h);
    for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24;
    const chunk = (type: string, data: Buffer) => {
      const len = Buffer.alloc(4);
      len.writeUInt32BE(data.length);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(zlib.crc32(Buffer.concat([Buffer.from(type), data])));
      return Buffer.concat([len, Buffer.from(type), data, crc]);
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(w, 0);
    ihdr.writeUInt32BE(h, 4);
    ihdr.set([8, 2, 0, 0, 0], 8);
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', zlib.deflateSync(raw, { level: 0 })),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    expect(png.length).toBeGreaterThan(20 * 1024 * 1024);
    fs.writeFileSync(file('huge.png'), png);
    const huge = await client.uploadId(file('huge.png'));
    expect(await client.post('images_merge_pdf', { file_ids: [huge] })).toMatchObject({
      code: ErrorCode.TooLarge,
      msg: imageTooLargeMessage,
    });
    const bomb = await client.uploadId(path.join(images, 'decompression_bomb.gif'));
    expect((await client.post('images_merge_pdf', { file_ids: [bomb] })).code).toBe(ErrorCode.TooLarge);
  });

  it('fails cleanly on an image that MuPDF does not decode', async () => {
    // A lossless JPEG (SOF3): libvips decodes it, so the upload takes it; MuPDF does not.
    const broken = await client.uploadId(path.join(images, 'testimgl.jpg'));
    const entry = await client.runTool('images_merge_pdf', { file_ids: [ids.jpg, broken] }, file('nope.pdf'));
    expect(entry).toMatchObject({ status: ErrorCode.Unreadable, outputs: [] });
  });

  it('converts a single image through the converter too', async () => {
    const entry = await convert(file('a.jpg'), file('one.pdf'));
    expect(entry.status).toBe(0);
    expect(imagesOf(file('one.pdf')).map((i) => [i.width, i.height])).toEqual([[200, 100]]);
  });
});

describe('a LibreOffice that dies or hangs', () => {
  /** A text long enough to keep LibreOffice busy for a few seconds. */
  function longText(name: string, lines: number) {
    const words = ['alpha', 'beta', 'gamma', 'delta', 'quire', 'office', 'listener'];
    const body = Array.from({ length: lines }, (_, i) =>
      Array.from({ length: 12 }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' '),
    ).join('\n');
    fs.writeFileSync(file(name), body);
    return file(name);
  }
  const officePids = () => {
    try {
      return execFileSync('pgrep', ['-f', `soffice.bin.*name=quire-${process.pid}-`])
        .toString()
        .trim()
        .split('\n')
        .map(Number);
    } catch {
      return [];
    }
  };

  it('is killed mid-job and started afresh: the job is retried, the next one succeeds', async () => {
    const job = await client.uploadId(longText('long.txt', 25_000));
    const created = await client.call(`converter?file_id=${job}`);
    // Wait until LibreOffice is working on it, then kill it.
    const end = Date.now() + 20_000;
    while (officePids().length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 1000));
    const killed = officePids();
    expect(killed.length).toBeGreaterThan(0);
    for (const pid of killed) process.kill(pid, 'SIGKILL');
    const entry = await client.waitTask(created.data.task_id);
    expect(entry.status).toBe(0);
    const next = await convert(path.join(office, 'Word95.doc'), file('after-kill.pdf'));
    expect(next.status).toBe(0);
    expect(officePids().some((pid) => killed.includes(pid))).toBe(false);
  });

  it('runs out of time: the task fails with 3125, the listener is replaced, the next job succeeds', async () => {
    const slow = await startQuire({ officeListeners: 1 });
    try {
      const c = new Client(slow.url);
      const warm = await c.uploadId(path.join(office, 'Word95.doc'));
      // The listener starts under the normal limit (a loaded machine takes tens of seconds to start
      // LibreOffice); only the long job runs under a 6 s one.
      expect((await c.waitTask((await c.call(`converter?file_id=${warm}`)).data.task_id)).status).toBe(0);
      const long = await c.uploadId(longText('longer.txt', 60_000));
      const normalTimeout = slow.ctx.toolLimits.timeoutMs;
      slow.ctx.toolLimits.timeoutMs = 6000;
      const entry = await c.waitTask((await c.call(`converter?file_id=${long}`)).data.task_id);
      slow.ctx.toolLimits.timeoutMs = normalTimeout;
      expect(entry).toMatchObject({ status: ErrorCode.TaskFailed, outputs: [] });
      const after = await c.waitTask((await c.call(`converter?file_id=${warm}`)).data.task_id);
      expect(after.status).toBe(0);
    } finally {
      await slow.stop();
    }
  });
});
