// Decompression and structure bombs, written in code: small files that declare or inflate to far
// more than any engine should be handed.
import fs from 'node:fs/promises';
import zlib from 'node:zlib';
import { pngFile } from './imageFixtures.js';

/** A PDF from numbered object bodies (object n is bodies[n - 1]; 1 is the catalog), with a correct xref. */
function writePdf(bodies: (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = parts[0]!.length;
  const offsets: number[] = [];
  bodies.forEach((body, i) => {
    offsets.push(offset);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.from(body as string), Buffer.from('\nendobj\n')]);
    parts.push(chunk);
    offset += chunk.length;
  });
  const xref = [`xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)];
  parts.push(Buffer.from(`${xref.join('')}trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`));
  return Buffer.concat(parts);
}

const stream = (dict: string, data: Buffer) =>
  Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')]);

/**
 * A zlib stream of `bytes` zero bytes, built from one fully flushed megabyte repeated, so making a
 * gigabyte costs nothing. Zero bytes are white space in a content stream, black in an image.
 */
function zeroFlate(bytes: number): Buffer {
  const flushed = (n: number) => zlib.deflateRawSync(Buffer.alloc(n), { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  const mb = Math.floor(bytes / (1024 * 1024));
  const adler = Buffer.alloc(4);
  // Adler-32 of n zero bytes: a stays 1, b is n mod 65521.
  adler.writeUInt32BE((bytes % 65521) * 0x10000 + 1);
  const rest = bytes - mb * 1024 * 1024;
  return Buffer.concat([
    Buffer.from([0x78, 0xda]),
    ...Array(mb).fill(flushed(1024 * 1024)),
    ...(rest > 0 ? [flushed(rest)] : []),
    Buffer.from([0x03, 0x00]),
    adler,
  ]);
}

const catalogAndOnePage = (resources: string) => [
  '<< /Type /Catalog /Pages 2 0 R >>',
  '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
  `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << ${resources} >> >>`,
];

/** One page whose content stream inflates to `mb` megabytes. */
export async function flateBomb(file: string, mb = 4096): Promise<string> {
  await fs.writeFile(file, writePdf([...catalogAndOnePage(''), stream('/Filter /FlateDecode', zeroFlate(mb * 1024 * 1024))]));
  return file;
}

/** One page drawing an image that declares `side` × `side` RGB pixels (its data a few bytes). */
export async function pixelBomb(file: string, side = 100_000): Promise<string> {
  const image = stream(
    `/Type /XObject /Subtype /Image /Width ${side} /Height ${side} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode`,
    zlib.deflateSync(Buffer.alloc(3 * side)),
  );
  const content = Buffer.from('q 595 0 0 842 0 0 cm /Im1 Do Q');
  await fs.writeFile(file, writePdf([...catalogAndOnePage('/XObject << /Im1 5 0 R >>'), stream('', content), image]));
  return file;
}

/**
 * A PNG of `side` × `side` black RGB pixels: some 800 KB for libvips' largest, 16383², which
 * inflates to 805 MB of rows.
 */
export async function pngBomb(file: string, side = 0x3fff): Promise<string> {
  await fs.writeFile(file, pngFile(side, side, 'rgb', zeroFlate((1 + 3 * side) * side)));
  return file;
}

/** A flat page tree of `pages` pages sharing one content stream. */
export async function manyPages(file: string, pages = 100_000): Promise<string> {
  const first = 4;
  const kids = Array.from({ length: pages }, (_, i) => `${first + i} 0 R`).join(' ');
  const bodies = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
    stream('', Buffer.from('BT /F1 12 Tf 72 720 Td (Page) Tj ET')),
  ];
  for (let i = 0; i < pages; i++) bodies.push('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 3 0 R >>');
  await fs.writeFile(file, writePdf(bodies));
  return file;
}

/** One page at the bottom of `depth` nested /Pages nodes. */
export async function deepPageTree(file: string, depth = 5000): Promise<string> {
  // Object 2 is the top /Pages node, 2 + depth - 1 the lowest, whose kid is the page.
  const page = depth + 2;
  const bodies: (string | Buffer)[] = ['<< /Type /Catalog /Pages 2 0 R >>'];
  for (let level = 0; level < depth; level++) {
    const self = level + 2;
    const parent = level === 0 ? '' : `/Parent ${self - 1} 0 R `;
    bodies.push(`<< /Type /Pages ${parent}/Kids [${self + 1} 0 R] /Count 1 >>`);
  }
  bodies.push(`<< /Type /Page /Parent ${page - 1} 0 R /MediaBox [0 0 595 842] /Contents ${page + 1} 0 R >>`);
  bodies.push(stream('', Buffer.from('0 0 m 100 100 l S')));
  await fs.writeFile(file, writePdf(bodies));
  return file;
}

/** A valid PDF with `junk` before its header, as some mail gateways and scanners write them. */
export async function junkPrefixed(source: string, file: string, junk = 'X-Scanner: copy 42\r\n\r\n'): Promise<string> {
  await fs.writeFile(file, Buffer.concat([Buffer.from(junk, 'latin1'), await fs.readFile(source)]));
  return file;
}

/** A zip entry: its bytes, or its data already deflated with the size and CRC it inflates to. */
type ZipPart = { name: string; data: Buffer } | { name: string; deflated: Buffer; size: number; crc: number };

/** A zip of `parts` (deflated unless given so), as OOXML, OpenDocument and EPUB packages are. */
function writeZip(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const [deflated, size, crc] =
      'data' in part ? [zlib.deflateRawSync(part.data), part.data.length, zlib.crc32(part.data)] : [part.deflated, part.size, part.crc];
    const name = Buffer.from(part.name);
    const fields = Buffer.alloc(26);
    fields.writeUInt16LE(20, 0); // version needed
    fields.writeUInt16LE(8, 4); // deflated
    fields.writeUInt32LE(crc >>> 0, 10);
    fields.writeUInt32LE(deflated.length, 14);
    fields.writeUInt32LE(size, 18);
    fields.writeUInt16LE(name.length, 22);
    const local = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), fields, name, deflated]);
    const central = Buffer.alloc(46);
    central.write('PK\x01\x02', 0, 'latin1');
    central.writeUInt16LE(20, 4);
    fields.copy(central, 6, 0, 26);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    locals.push(local);
    offset += local.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.write('PK\x05\x06', 0, 'latin1');
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * `head`, then `unit` repeated for `mb` megabytes, then `tail`, deflated: one megabyte of units is
 * deflated fully flushed and repeated, so a gigabyte costs milliseconds to make; with its true
 * size and CRC.
 */
function repeatedDeflate(head: string, unit: string, tail: string, mb: number): { deflated: Buffer; size: number; crc: number } {
  const flushed = (data: Buffer, last = false) =>
    zlib.deflateRawSync(data, { level: 9, finishFlush: last ? zlib.constants.Z_FINISH : zlib.constants.Z_FULL_FLUSH });
  const megabyte = Buffer.from(unit.repeat(Math.floor((1024 * 1024) / unit.length)));
  const chunk = flushed(megabyte);
  let crc = zlib.crc32(head);
  for (let i = 0; i < mb; i++) crc = zlib.crc32(megabyte, crc);
  crc = zlib.crc32(tail, crc);
  return {
    deflated: Buffer.concat([flushed(Buffer.from(head)), ...Array(mb).fill(chunk), flushed(Buffer.from(tail), true)]),
    size: head.length + megabyte.length * mb + tail.length,
    crc,
  };
}

const xml = (body: string) => Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${body}`);

/** A Word document whose body is `mb` megabytes of paragraphs (a 1 GB body zips to about 4 MB). */
export async function docxBomb(file: string, mb = 1024): Promise<string> {
  const w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
  const body = repeatedDeflate(
    `<?xml version="1.0" encoding="UTF-8"?><w:document ${w}><w:body>`,
    '<w:p><w:r><w:t>All work and no play makes a dull document.</w:t></w:r></w:p>',
    '</w:body></w:document>',
    mb,
  );
  await fs.writeFile(
    file,
    writeZip([
      {
        name: '[Content_Types].xml',
        data: xml(
          '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
        ),
      },
      {
        name: '_rels/.rels',
        data: xml(
          '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
        ),
      },
      { name: 'word/document.xml', ...body },
    ]),
  );
  return file;
}

/** A workbook of one sheet with at least `rows` rows of one number each (a million zip to about 100 kB). */
export async function xlsxManyRows(file: string, rows = 1_000_000): Promise<string> {
  // Rows may leave out their numbers (r): each follows the one before.
  const row = '<row><c><v>7</v></c></row>';
  const rowsPerMb = Math.floor((1024 * 1024) / row.length);
  const ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  await fs.writeFile(
    file,
    writeZip([
      {
        name: '[Content_Types].xml',
        data: xml(
          '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
        ),
      },
      {
        name: '_rels/.rels',
        data: xml(
          `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
        ),
      },
      {
        name: 'xl/workbook.xml',
        data: xml(`<workbook ${ns} xmlns:r="${rel}"><sheets><sheet name="Rows" sheetId="1" r:id="rId1"/></sheets></workbook>`),
      },
      {
        name: 'xl/_rels/workbook.xml.rels',
        data: xml(
          `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
        ),
      },
      {
        name: 'xl/worksheets/sheet1.xml',
        ...repeatedDeflate(
          `<?xml version="1.0" encoding="UTF-8"?><worksheet ${ns}><sheetData>`,
          row,
          '</sheetData></worksheet>',
          Math.ceil(rows / rowsPerMb),
        ),
      },
    ]),
  );
  return file;
}

/** An EPUB of one chapter whose XHTML is `mb` megabytes of paragraphs. */
export async function epubBomb(file: string, mb = 1024): Promise<string> {
  const chapter = repeatedDeflate(
    '<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>Bomb</title></head><body>',
    '<p>It was a dark and stormy night; the rain fell in torrents.</p>\n',
    '</body></html>',
    mb,
  );
  await fs.writeFile(
    file,
    writeZip([
      { name: 'mimetype', data: Buffer.from('application/epub+zip') },
      {
        name: 'META-INF/container.xml',
        data: xml(
          '<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
        ),
      },
      {
        name: 'book.opf',
        data: xml(
          '<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">bomb</dc:identifier><dc:title>Bomb</dc:title><dc:language>en</dc:language></metadata><manifest><item id="c1" href="chapter.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/></spine></package>',
        ),
      },
      { name: 'chapter.xhtml', ...chapter },
    ]),
  );
  return file;
}
