// The document model as an EPUB 3 book: one XHTML file per PDF page (the HTML writer's markup),
// images as files of their own, a navigation document listing the headings (or the pages).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import yazl from 'yazl';
import { documentCss, escapeXml, pageHtml } from './html.js';
import { runsText, type DocModel } from './model.js';

const xhtml = (title: string, body: string, extra = '') =>
  `<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"${extra}>\n<head>\n<meta charset="utf-8" />\n<title>${escapeXml(title)}</title>\n<link rel="stylesheet" type="text/css" href="style.css" />\n</head>\n<body>\n${body}</body>\n</html>\n`;

export async function writeEpub(model: DocModel, title: string, out: string): Promise<void> {
  const zip = new yazl.ZipFile();
  // The mimetype entry comes first and uncompressed, so the file identifies itself (OCF).
  zip.addBuffer(Buffer.from('application/epub+zip'), 'mimetype', { compress: false });
  zip.addBuffer(
    Buffer.from(
      `<?xml version="1.0" encoding="utf-8"?>\n<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">\n<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>\n</container>\n`,
    ),
    'META-INF/container.xml',
  );
  zip.addBuffer(Buffer.from(documentCss), 'OEBPS/style.css');
  const manifest: string[] = [
    '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>',
    '<item id="css" href="style.css" media-type="text/css"/>',
  ];
  const spine: string[] = [];
  const toc: string[] = [];
  const images = new Set<string>();
  for (const [i, page] of model.pages.entries()) {
    const name = `page-${i + 1}.xhtml`;
    const body = pageHtml(page, (b) => {
      if (!images.has(b.file)) {
        images.add(b.file);
        zip.addFile(path.join(model.imagesDir, b.file), `OEBPS/images/${b.file}`, { compress: b.mime !== 'image/jpeg' });
        manifest.push(`<item id="img-${images.size}" href="images/${b.file}" media-type="${b.mime}"/>`);
      }
      return `images/${b.file}`;
    });
    // Headings get ids so the table of contents can point at them.
    let n = 0;
    const withIds = body.replace(
      /<h([1-3])>(.*?)<\/h\1>/g,
      (_, level: string, inner: string) => `<h${level} id="h${++n}">${inner}</h${level}>`,
    );
    zip.addBuffer(Buffer.from(xhtml(`${title} ${i + 1}`, withIds)), `OEBPS/${name}`);
    manifest.push(`<item id="p${i + 1}" href="${name}" media-type="application/xhtml+xml"/>`);
    spine.push(`<itemref idref="p${i + 1}"/>`);
    n = 0;
    for (const b of page.blocks)
      if (b.kind === 'heading') toc.push(`<li><a href="${name}#h${++n}">${escapeXml(runsText(b.runs))}</a></li>`);
  }
  // Without headings, the pages are the table of contents.
  const entries = toc.length ? toc : model.pages.map((_, i) => `<li><a href="page-${i + 1}.xhtml">${i + 1}</a></li>`);
  zip.addBuffer(
    Buffer.from(xhtml(title, `<nav epub:type="toc" id="toc"><h1>${escapeXml(title)}</h1><ol>${entries.join('\n')}</ol></nav>\n`)),
    'OEBPS/nav.xhtml',
  );
  const modified = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  zip.addBuffer(
    Buffer.from(
      `<?xml version="1.0" encoding="utf-8"?>\n<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid">\n<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">\n<dc:identifier id="uid">urn:uuid:${crypto.randomUUID()}</dc:identifier>\n<dc:title>${escapeXml(title)}</dc:title>\n<dc:language>und</dc:language>\n<meta property="dcterms:modified">${modified}</meta>\n</metadata>\n<manifest>\n${manifest.join('\n')}\n</manifest>\n<spine>\n${spine.join('\n')}\n</spine>\n</package>\n`,
    ),
    'OEBPS/content.opf',
  );
  zip.end();
  const stream = fs.createWriteStream(out);
  zip.outputStream.pipe(stream);
  await once(stream, 'finish');
}
