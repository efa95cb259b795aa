// PDF to PowerPoint: one slide per page, the slide the page's size. Each page's text becomes
// editable text boxes, one per line, in its position, size, style and colour; each picture drawn
// upright and whole, with nothing over it, a picture of its own at its full resolution; everything
// else the page draws (vector graphics, other images, annotations) is the slide's background
// picture, drawn by MuPDF without that text and those pictures, so the slide looks like the page.
// Written as OOXML with yazl.
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import type { PageGeometry, TextLine, TextRun } from './geometryTypes.js';

const EMU_PER_POINT = 12700;
/** The slide sizes PowerPoint takes (1 to 56 inches a side); a page outside them is scaled to fit. */
const MIN_SIDE = 914400;
const MAX_SIDE = 51206400;
/**
 * Where a line's baseline sits below the top of its box, and the box's height, in ems of its size:
 * PowerPoint (and LibreOffice, measured) put the first baseline about an em below the top of a box
 * without insets.
 */
const ASCENT = 0.98;
const LINE_HEIGHT = 1.2;

const NS =
  'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** Text as XML character data: escaped, characters XML 1.0 cannot hold dropped. */
export function xmlText(s: string): string {
  return s
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

const hex = (rgb: number[]) =>
  rgb
    .map((v) => v.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
const emu = (v: number) => Math.round(v);

function relationships(rels: [string, string, string][]): string {
  return `${DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`).join('')}</Relationships>`;
}

function runXml(run: TextRun, scale: number, invisible: boolean): string {
  const sz = Math.max(100, Math.min(400000, Math.round(run.size * scale * 100)));
  const fill = invisible ? '<a:noFill/>' : `<a:solidFill><a:srgbClr val="${hex(run.color)}"/></a:solidFill>`;
  const face = xmlText(run.font);
  return `<a:r><a:rPr lang="en-US" sz="${sz}" b="${run.bold ? 1 : 0}" i="${run.italic ? 1 : 0}" dirty="0">${fill}<a:latin typeface="${face}"/><a:ea typeface="${face}"/><a:cs typeface="${face}"/></a:rPr><a:t>${xmlText(run.text)}</a:t></a:r>`;
}

/** Where a page lands on its slide: points to EMU, times `scale`, plus an offset (a page centred on a slide of another shape). */
export interface Placement {
  scale: number;
  dx: number;
  dy: number;
}

/** A text box whose first baseline, turned by the line's angle about the box's centre, lands on the line's origin. */
export function textBoxXml(line: TextLine, id: number, { scale, dx, dy }: Placement): string {
  const k = EMU_PER_POINT * scale;
  const w = Math.max(line.width * 1.02, line.size) * k;
  const h = line.size * LINE_HEIGHT * k;
  const asc = line.size * ASCENT * k;
  const t = (line.angle * Math.PI) / 180;
  const [ox, oy] = [-w / 2, asc - h / 2];
  const cx = dx + line.x * k - (ox * Math.cos(t) - oy * Math.sin(t));
  const cy = dy + line.y * k - (ox * Math.sin(t) + oy * Math.cos(t));
  const rot = Math.round((((line.angle % 360) + 360) % 360) * 60000) % 21600000;
  return (
    `<p:sp><p:nvSpPr><p:cNvPr id="${id}" name="Text ${id}"/><p:cNvSpPr txBox="1"/><p:nvPr/></p:nvSpPr>` +
    `<p:spPr><a:xfrm${rot ? ` rot="${rot}"` : ''}><a:off x="${emu(cx - w / 2)}" y="${emu(cy - h / 2)}"/><a:ext cx="${emu(w)}" cy="${emu(h)}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:noFill/></p:spPr>` +
    `<p:txBody><a:bodyPr wrap="none" lIns="0" tIns="0" rIns="0" bIns="0" rtlCol="0" anchor="t"><a:noAutofit/></a:bodyPr><a:lstStyle/>` +
    `<a:p>${line.runs.map((r) => runXml(r, scale, line.invisible)).join('')}</a:p></p:txBody></p:sp>`
  );
}

const blipFill = (rId: string) => `<a:blip r:embed="${rId}"/><a:srcRect/><a:stretch><a:fillRect/></a:stretch>`;

/** A picture shape over the box (EMU); `locked` keeps it where it is (a page's picture). */
function pictureXml(id: number, name: string, rId: string, [x, y, w, h]: number[], locked: boolean): string {
  const locks = locked ? '<a:picLocks noGrp="1" noMove="1" noResize="1" noChangeAspect="1"/>' : '<a:picLocks noChangeAspect="1"/>';
  return (
    `<p:pic><p:nvPicPr><p:cNvPr id="${id}" name="${name}"/><p:cNvPicPr>${locks}</p:cNvPicPr><p:nvPr/></p:nvPicPr><p:blipFill>${blipFill(rId)}</p:blipFill>` +
    `<p:spPr><a:xfrm><a:off x="${emu(x!)}" y="${emu(y!)}"/><a:ext cx="${emu(w!)}" cy="${emu(h!)}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></p:spPr></p:pic>`
  );
}

/**
 * The page's picture is the slide's background where the page has the slide's shape; on a slide
 * of another shape it is a picture at the back, locked, the page's size and centred. Its
 * relationship is rId2; the separate pictures' are rId3 onwards.
 */
function slideXml(page: PageGeometry, at: Placement, size: { cx: number; cy: number }): string {
  const fits = Math.abs(at.dx) < EMU_PER_POINT && Math.abs(at.dy) < EMU_PER_POINT;
  const bg =
    page.background && fits
      ? `<p:bg><p:bgPr><a:blipFill dpi="0" rotWithShape="1">${blipFill('rId2')}</a:blipFill><a:effectLst/></p:bgPr></p:bg>`
      : '';
  const pagePicture =
    page.background && !fits ? pictureXml(2, 'Page', 'rId2', [at.dx, at.dy, size.cx - 2 * at.dx, size.cy - 2 * at.dy], true) : '';
  const k = EMU_PER_POINT * at.scale;
  const pictures = page.images
    .map((im, i) =>
      pictureXml(3 + i, `Picture ${i + 1}`, `rId${3 + i}`, [at.dx + im.x * k, at.dy + im.y * k, im.width * k, im.height * k], false),
    )
    .join('');
  const boxes = page.lines.map((line, i) => textBoxXml(line, 3 + page.images.length + i, at)).join('');
  return (
    `${DECL}<p:sld ${NS}><p:cSld>${bg}<p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr>` +
    `<p:grpSpPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/><a:chOff x="0" y="0"/><a:chExt cx="0" cy="0"/></a:xfrm></p:grpSpPr>${pagePicture}${pictures}${boxes}</p:spTree></p:cSld>` +
    '<p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sld>'
  );
}

const EMPTY_TREE = '<p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/></p:spTree>';

const MASTER = `${DECL}<p:sldMaster ${NS}><p:cSld><p:bg><p:bgRef idx="1001"><a:schemeClr val="bg1"/></p:bgRef></p:bg>${EMPTY_TREE}</p:cSld><p:clrMap bg1="lt1" tx1="dk1" bg2="lt2" tx2="dk2" accent1="accent1" accent2="accent2" accent3="accent3" accent4="accent4" accent5="accent5" accent6="accent6" hlink="hlink" folHlink="folHlink"/><p:sldLayoutIdLst><p:sldLayoutId id="2147483649" r:id="rId1"/></p:sldLayoutIdLst></p:sldMaster>`;

const LAYOUT = `${DECL}<p:sldLayout ${NS} type="blank" preserve="1"><p:cSld name="Blank">${EMPTY_TREE}</p:cSld><p:clrMapOvr><a:masterClrMapping/></p:clrMapOvr></p:sldLayout>`;

const solid = (c: string) => `<a:solidFill><a:schemeClr val="${c}"/></a:solidFill>`;
const line = (w: number) =>
  `<a:ln w="${w}" cap="flat" cmpd="sng" algn="ctr">${solid('phClr')}<a:prstDash val="solid"/><a:miter lim="800000"/></a:ln>`;
const colors: [string, string][] = [
  ['accent1', '4472C4'],
  ['accent2', 'ED7D31'],
  ['accent3', 'A5A5A5'],
  ['accent4', 'FFC000'],
  ['accent5', '5B9BD5'],
  ['accent6', '70AD47'],
  ['hlink', '0563C1'],
  ['folHlink', '954F72'],
];
const fontSet = (face: string) => `<a:latin typeface="${face}"/><a:ea typeface=""/><a:cs typeface=""/>`;

const THEME =
  `${DECL}<a:theme xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" name="Office Theme"><a:themeElements>` +
  `<a:clrScheme name="Office"><a:dk1><a:sysClr val="windowText" lastClr="000000"/></a:dk1><a:lt1><a:sysClr val="window" lastClr="FFFFFF"/></a:lt1><a:dk2><a:srgbClr val="44546A"/></a:dk2><a:lt2><a:srgbClr val="E7E6E6"/></a:lt2>` +
  `${colors.map(([n, v]) => `<a:${n}><a:srgbClr val="${v}"/></a:${n}>`).join('')}</a:clrScheme>` +
  `<a:fontScheme name="Office"><a:majorFont>${fontSet('Calibri Light')}</a:majorFont><a:minorFont>${fontSet('Calibri')}</a:minorFont></a:fontScheme>` +
  `<a:fmtScheme name="Office"><a:fillStyleLst>${solid('phClr').repeat(3)}</a:fillStyleLst><a:lnStyleLst>${line(6350)}${line(12700)}${line(19050)}</a:lnStyleLst>` +
  `<a:effectStyleLst>${'<a:effectStyle><a:effectLst/></a:effectStyle>'.repeat(3)}</a:effectStyleLst><a:bgFillStyleLst>${solid('phClr').repeat(3)}</a:bgFillStyleLst></a:fmtScheme>` +
  '</a:themeElements><a:objectDefaults/><a:extraClrSchemeLst/></a:theme>';

function contentTypes(slides: number): string {
  const over = (part: string, type: string) =>
    `<Override PartName="/${part}" ContentType="application/vnd.openxmlformats-officedocument.${type}+xml"/>`;
  const slideParts = Array.from({ length: slides }, (_, i) => over(`ppt/slides/slide${i + 1}.xml`, 'presentationml.slide')).join('');
  return (
    `${DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
    '<Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/><Default Extension="jpg" ContentType="image/jpeg"/>' +
    `${over('ppt/presentation.xml', 'presentationml.presentation.main')}${over('ppt/slideMasters/slideMaster1.xml', 'presentationml.slideMaster')}` +
    `${over('ppt/slideLayouts/slideLayout1.xml', 'presentationml.slideLayout')}${over('ppt/theme/theme1.xml', 'theme')}${slideParts}</Types>`
  );
}

/** One scale for the whole deck (slides share one size in PowerPoint): the first page's, fitted to the limits. */
export function slideSize(page: Pick<PageGeometry, 'width' | 'height'>): { cx: number; cy: number; scale: number } {
  const [w, h] = [page.width * EMU_PER_POINT, page.height * EMU_PER_POINT];
  let scale = Math.min(1, MAX_SIDE / w, MAX_SIDE / h);
  if (Math.min(w, h) * scale < MIN_SIDE) scale = Math.min(MAX_SIDE / Math.max(w, h), MIN_SIDE / Math.min(w, h));
  return {
    cx: Math.max(MIN_SIDE, Math.min(MAX_SIDE, Math.round(w * scale))),
    cy: Math.max(MIN_SIDE, Math.min(MAX_SIDE, Math.round(h * scale))),
    scale,
  };
}

/** Writes the deck to `out`. PowerPoint has one slide size per deck: the first page's; later pages of other sizes are scaled to fit it. */
export async function writePptx(pages: PageGeometry[], out: string): Promise<void> {
  const zip = new yazl.ZipFile();
  const add = (name: string, text: string) => zip.addBuffer(Buffer.from(text, 'utf8'), name);
  const size = slideSize(pages[0]!);
  add('[Content_Types].xml', contentTypes(pages.length));
  add('_rels/.rels', relationships([['rId1', 'officeDocument', 'ppt/presentation.xml']]));
  const slideIds = pages.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 3}"/>`).join('');
  add(
    'ppt/presentation.xml',
    `${DECL}<p:presentation ${NS} saveSubsetFonts="1"><p:sldMasterIdLst><p:sldMasterId id="2147483648" r:id="rId1"/></p:sldMasterIdLst><p:sldIdLst>${slideIds}</p:sldIdLst>` +
      `<p:sldSz cx="${size.cx}" cy="${size.cy}"/><p:notesSz cx="6858000" cy="9144000"/></p:presentation>`,
  );
  add(
    'ppt/_rels/presentation.xml.rels',
    relationships([
      ['rId1', 'slideMaster', 'slideMasters/slideMaster1.xml'],
      ['rId2', 'theme', 'theme/theme1.xml'],
      ...pages.map((_, i): [string, string, string] => [`rId${i + 3}`, 'slide', `slides/slide${i + 1}.xml`]),
    ]),
  );
  add('ppt/slideMasters/slideMaster1.xml', MASTER);
  add(
    'ppt/slideMasters/_rels/slideMaster1.xml.rels',
    relationships([
      ['rId1', 'slideLayout', '../slideLayouts/slideLayout1.xml'],
      ['rId2', 'theme', '../theme/theme1.xml'],
    ]),
  );
  add('ppt/slideLayouts/slideLayout1.xml', LAYOUT);
  add('ppt/slideLayouts/_rels/slideLayout1.xml.rels', relationships([['rId1', 'slideMaster', '../slideMasters/slideMaster1.xml']]));
  add('ppt/theme/theme1.xml', THEME);
  pages.forEach((page, i) => {
    const n = i + 1;
    // A page of another size than the first is scaled to fit the slide, keeping its proportions, and centred.
    const scale = Math.min(size.cx / (page.width * EMU_PER_POINT), size.cy / (page.height * EMU_PER_POINT));
    const at = { scale, dx: (size.cx - page.width * EMU_PER_POINT * scale) / 2, dy: (size.cy - page.height * EMU_PER_POINT * scale) / 2 };
    add(`ppt/slides/slide${n}.xml`, slideXml(page, at, size));
    const rels: [string, string, string][] = [['rId1', 'slideLayout', '../slideLayouts/slideLayout1.xml']];
    // Pictures are compressed already: stored as they are.
    if (page.background) {
      const media = `page${n}${path.extname(page.background)}`;
      zip.addFile(page.background, `ppt/media/${media}`, { compress: false });
      rels.push(['rId2', 'image', `../media/${media}`]);
    }
    page.images.forEach((im, k) => {
      const media = `page${n}-image${k + 1}${path.extname(im.file)}`;
      zip.addFile(im.file, `ppt/media/${media}`, { compress: false });
      rels.push([`rId${3 + k}`, 'image', `../media/${media}`]);
    });
    add(`ppt/slides/_rels/slide${n}.xml.rels`, relationships(rels));
  });
  zip.end();
  await pipeline(zip.outputStream, fs.createWriteStream(out));
}
