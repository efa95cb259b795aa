// Decompression and structure bombs, written in code: small files that declare or inflate to far
// more than any engine should be handed.
import fs from 'node:fs/promises';
import zlib from 'node:zlib';

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
 * A zlib stream of `mb` megabytes of zero bytes, built from one fully flushed megabyte repeated,
 * so making a gigabyte costs nothing. Zero bytes are white space in a content stream.
 */
export function zeroFlate(mb: number): Buffer {
  const megabyte = zlib.deflateRawSync(Buffer.alloc(1024 * 1024), { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  const adler = Buffer.alloc(4);
  // Adler-32 of n zero bytes: a stays 1, b is n mod 65521.
  adler.writeUInt32BE(((((mb * 1024 * 1024) % 65521) << 16) >>> 0) | 1);
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array(mb).fill(megabyte), Buffer.from([0x03, 0x00]), adler]);
}

const catalogAndOnePage = (resources: string) => [
  '<< /Type /Catalog /Pages 2 0 R >>',
  '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
  `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << ${resources} >> >>`,
];

/** One page whose content stream inflates to `mb` megabytes. */
export async function flateBomb(file: string, mb = 4096): Promise<string> {
  await fs.writeFile(file, writePdf([...catalogAndOnePage(''), stream('/Filter /FlateDecode', zeroFlate(mb))]));
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
