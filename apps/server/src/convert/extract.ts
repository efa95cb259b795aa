// Reads each page of a PDF with MuPDF into RawPages (model.ts): text lines with their fonts,
// images (written as PNG or JPEG files) and the tables MuPDF's table hunt finds. Runs inside the
// MuPDF child program (programs/mupdf.ts), so under its time limit and memory bound.
import fs from 'node:fs';
import path from 'node:path';
import * as mupdf from 'mupdf';
import { walkWithAstralChars } from '../engines/mupdf/pageText.js';
import { analyze } from './analyze.js';
import type { Box, DocModel, RawBlock, RawImage, RawLine, RawPage, RawSpan, RawTable } from './model.js';

/** Images past these are left out: tiling patterns can draw thousands, and a huge one would not fit in memory. */
const MAX_IMAGES_PER_PAGE = 200;
const MAX_IMAGE_PIXELS = 25_000_000;
/** Smaller than this on the page (points) is decoration or a stray pixel, not a picture. */
const MIN_IMAGE_SIDE = 4;
/** Vector boxes kept per page: enough to see a table's rules, bounded for pages of line art. */
const MAX_RULES_PER_PAGE = 5000;

// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters XML cannot hold, so they are matched on purpose
const UNWRITABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|^[\ud800-\udfff]$/;

const SANS_NAME = /sans|arial|helvet|verdana|calibri|carlito|gothic|grotesk|futura|tahoma|segoe|roboto|frutiger|univers|myriad/i;
const SERIF_NAME = /serif|times|roman|georgia|garamond|cambria|caladea|caslon|minion|palatino|baskerville|bodoni|century|book/i;

interface FontStyle {
  bold: boolean;
  italic: boolean;
  mono: boolean;
  serif: boolean;
}

/** Styles by font, for one page: MuPDF may reuse a dropped font's pointer for another on a later page. */
const fontStyles = new Map<number, FontStyle>();

function styleOf(font: mupdf.Font): FontStyle {
  let style = fontStyles.get(font.pointer);
  if (!style) {
    // Subset fonts often lack the style flags their names still carry ("ABCDEF+Arial-BoldItalic").
    const name = font.getName();
    style = {
      bold: font.isBold() || /bold|black|heavy|semibold|demi/i.test(name),
      italic: font.isItalic() || /italic|oblique/i.test(name),
      mono: font.isMono() || /mono|courier|consol/i.test(name),
      // The name first: embedded fonts often carry a wrong serif flag (LibreOffice marks Liberation Sans serif).
      serif: SANS_NAME.test(name) ? false : SERIF_NAME.test(name) || font.isSerif(),
    };
    fontStyles.set(font.pointer, style);
  }
  return style;
}

const rect = (r: mupdf.Rect): Box => [r[0], r[1], r[2], r[3]];

/** The page's image as a PNG (line art, transparency, bilevel scans) or a JPEG (photos), or null if it cannot be stored. */
function encodeImage(image: mupdf.Image): { data: Uint8Array; mime: RawImage['mime']; pixels: [number, number] } | null {
  if (image.getImageMask() || image.getWidth() * image.getHeight() > MAX_IMAGE_PIXELS) return null;
  let pix = image.toPixmap();
  const cs = pix.getColorSpace();
  if (!cs || !(cs.isRGB() || cs.isGray())) pix = pix.convertToColorSpace(mupdf.ColorSpace.DeviceRGB, !!pix.getAlpha());
  const pixels: [number, number] = [pix.getWidth(), pix.getHeight()];
  const photo = !pix.getAlpha() && image.getBitsPerComponent() >= 8 && pixels[0] * pixels[1] > 100_000;
  return photo ? { data: pix.asJPEG(85), mime: 'image/jpeg', pixels } : { data: pix.asPNG(), mime: 'image/png', pixels };
}

interface JsonBlock {
  type: string;
  std?: string;
  xpos?: number[];
  ypos?: number[];
  contents?: JsonBlock[];
}

/** The grids of the tables MuPDF's table hunt finds on the page (it needs the page segmented first; its walker does not enter them, its JSON does). */
function huntTables(list: mupdf.DisplayList): RawTable[] {
  const stext = list.toStructuredText('segment,table-hunt');
  const json = JSON.parse(stext.asJSON()) as { blocks: JsonBlock[] };
  stext.destroy();
  const tables: RawTable[] = [];
  const visit = (blocks: JsonBlock[]) => {
    for (const b of blocks) {
      const grid = b.type === 'structure' && b.std === 'Table' ? b.contents?.find((c) => c.type === 'grid') : undefined;
      if (grid?.xpos && grid.ypos && grid.xpos.length > 2 && grid.ypos.length > 2) tables.push({ xs: grid.xpos, ys: grid.ypos });
      else if (b.contents) visit(b.contents);
    }
  };
  visit(json.blocks);
  return tables;
}

/** One page: its text blocks and lines with spans by font, its images (written to `imagesDir`), its tables. */
export function extractPage(page: mupdf.Page, pageNumber: number, imagesDir: string): RawPage {
  const bounds = page.getBounds();
  fontStyles.clear();
  const blocks: RawBlock[] = [];
  const images: RawImage[] = [];
  const rules: Box[] = [];
  let block: RawBlock | null = null;
  let line: RawLine | null = null;
  let span: RawSpan | null = null;
  // Read from the page as drawn with its annotations and form fields: a signature's or a filled
  // field's text is part of what the reader sees.
  const list = page.toDisplayList(true);
  const stext = list.toStructuredText('preserve-whitespace,preserve-images,vectors');
  walkWithAstralChars(stext, {
    beginTextBlock(bbox) {
      block = { bbox: rect(bbox), lines: [] };
    },
    beginLine(bbox, _wmode, dir) {
      line = { bbox: rect(bbox), baseline: bbox[3], sideways: Math.abs(dir[1]) > 0.1 || dir[0] < 0, spans: [] };
      span = null;
    },
    onChar(c, origin, font, size, quad, color) {
      // Characters XML cannot carry (controls, unpaired surrogates) would make every writer's output invalid.
      if (!line || UNWRITABLE.test(c)) return;
      const style = styleOf(font);
      const s = Math.round(size * 2) / 2;
      const x0 = Math.min(quad[0], quad[4]);
      const x1 = Math.max(quad[2], quad[6]);
      const hex = (color as number[])
        .map((v) =>
          Math.round(v * 255)
            .toString(16)
            .padStart(2, '0'),
        )
        .join('');
      if (line.spans.length === 0) line.baseline = origin[1];
      if (
        span &&
        span.size === s &&
        span.color === hex &&
        (['bold', 'italic', 'mono', 'serif'] as const).every((k) => span![k] === style[k])
      ) {
        span.text += c;
        span.x1 = Math.max(span.x1, x1);
      } else {
        span = { text: c, size: s, ...style, color: hex, x0, x1 };
        line.spans.push(span);
      }
    },
    endLine() {
      if (line && block && line.spans.some((s) => s.text.trim())) block.lines.push(line);
      line = null;
    },
    endTextBlock() {
      if (block?.lines.length) blocks.push(block);
      block = null;
    },
    onVector(bbox, flags) {
      // Thin strokes and fills are rules; wide fills are shading. Both can outline a table's cells.
      if (rules.length < MAX_RULES_PER_PAGE && (flags.isRectangle || flags.isStroked)) rules.push(rect(bbox));
    },
    onImageBlock(bbox, _transform, image) {
      const [x0, y0, x1, y1] = rect(bbox);
      if (images.length >= MAX_IMAGES_PER_PAGE || x1 - x0 < MIN_IMAGE_SIDE || y1 - y0 < MIN_IMAGE_SIDE) return;
      let encoded: ReturnType<typeof encodeImage>;
      try {
        encoded = encodeImage(image);
      } catch (e) {
        // An image MuPDF cannot decode is left out; the text around it still converts.
        process.stderr.write(`image on page ${pageNumber} skipped: ${(e as Error).message}\n`);
        return;
      }
      if (!encoded) return;
      const file = `p${pageNumber}-${images.length + 1}.${encoded.mime === 'image/png' ? 'png' : 'jpg'}`;
      fs.writeFileSync(path.join(imagesDir, file), encoded.data);
      // Clipped to the page: a picture bleeding off the edge is shown only as far as the page goes.
      const box: Box = [Math.max(x0, bounds[0]), Math.max(y0, bounds[1]), Math.min(x1, bounds[2]), Math.min(y1, bounds[3])];
      if (box[2] - box[0] >= MIN_IMAGE_SIDE && box[3] - box[1] >= MIN_IMAGE_SIDE)
        images.push({ bbox: box, file, mime: encoded.mime, pixels: encoded.pixels });
    },
  });
  stext.destroy();
  const tables = huntTables(list);
  list.destroy();
  return { width: bounds[2] - bounds[0], height: bounds[3] - bounds[1], blocks, images, tables, rules };
}

/** The document model of every page of `doc`, its images written to `imagesDir`. */
export function extractModel(doc: mupdf.Document, imagesDir: string, progress: (done: number, total: number) => void): DocModel {
  const count = doc.countPages();
  const pages: RawPage[] = [];
  for (let i = 0; i < count; i++) {
    let page: mupdf.Page | undefined;
    try {
      page = doc.loadPage(i);
      pages.push(extractPage(page, i + 1, imagesDir));
    } catch (e) {
      // A page whose content MuPDF cannot read stays in the document, empty, rather than failing it.
      process.stderr.write(`page ${i + 1} unreadable: ${(e as Error).message}\n`);
      const b = page?.getBounds() ?? [0, 0, 612, 792];
      pages.push({ width: b[2] - b[0], height: b[3] - b[1], blocks: [], images: [], tables: [], rules: [] });
    } finally {
      page?.destroy();
    }
    progress(i + 1, count);
  }
  return analyze(pages, imagesDir);
}
