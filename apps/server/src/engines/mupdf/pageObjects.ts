// What the editor sees on a page, as MuPDF reads it: text in runs (one font, size and colour within
// a line) grouped in paragraphs, images, annotations, and the form's fields. Ids are derived from the
// file's structure only, so an unchanged file gives the same ids every time it is read.
import type * as mupdf from 'mupdf';
import type { EditRect, FormFields, PageObjects, PageRuns } from '@quire/contracts';
import { nearestFamily } from '@quire/contracts/fonts';
import { type Char, walkWithAstralChars } from './pageText.js';
import { quadBounds } from './pageText.js';
import { baseName } from './replace.js';

export interface Run {
  id: string;
  text: string;
  chars: Char[];
  font: mupdf.Font;
  size: number;
  color: number[];
  /** Line and paragraph (text block) numbers within the page. */
  line: number;
  block: number;
  blockBbox: mupdf.Rect;
}

export interface PageImage {
  id: string;
  bbox: mupdf.Rect;
  image: mupdf.Image;
}

export const toEditRect = (r: mupdf.Rect): EditRect => ({ x: r[0], y: r[1], width: r[2] - r[0], height: r[3] - r[1] });
export const fromEditRect = (r: EditRect): mupdf.Rect => [r.x, r.y, r.x + r.width, r.y + r.height];

const sameStyle = (run: Run, font: mupdf.Font, size: number, color: number[]) =>
  run.font.pointer === font.pointer && Math.abs(run.size - size) < 0.01 && run.color.every((c, i) => Math.abs(c - (color[i] ?? 0)) < 0.002);

/** The page's text runs, in reading order; `pageNumber` (1-based, the file as uploaded) prefixes their ids. */
export function readRuns(page: mupdf.PDFPage, pageNumber: number): Run[] {
  const runs: Run[] = [];
  let block = -1;
  let blockBbox: mupdf.Rect = [0, 0, 0, 0];
  let line = -1;
  let lineInBlock = -1;
  let runInLine = 0;
  let dir: mupdf.Point = [1, 0];
  let current: Run | null = null;
  const stext = page.toStructuredText('');
  walkWithAstralChars(stext, {
    beginTextBlock(bbox) {
      block++;
      blockBbox = bbox;
      lineInBlock = -1;
    },
    beginLine(_bbox, _wmode, direction) {
      line++;
      lineInBlock++;
      runInLine = 0;
      dir = direction;
      current = null;
    },
    onChar(c, origin, font, size, quad, color) {
      const char: Char = { quad, origin, font, size, color: [...color], dir, line, block };
      if (!current || !sameStyle(current, font, size, char.color)) {
        current = {
          id: `${pageNumber}.${block}.${lineInBlock}.${runInLine++}`,
          text: '',
          chars: [],
          font,
          size,
          color: char.color,
          line,
          block,
          blockBbox,
        };
        runs.push(current);
      }
      current.text += c;
      current.chars.push(char);
    },
  });
  stext.destroy();
  return runs;
}

/** The page's images, as drawn, in the order they are drawn. */
export function readImages(page: mupdf.PDFPage, pageNumber: number): PageImage[] {
  const images: PageImage[] = [];
  const stext = page.toStructuredText('preserve-images');
  stext.walk({
    onImageBlock(bbox, _transform, image) {
      images.push({ id: `${pageNumber}.i${images.length}`, bbox, image });
    },
  });
  stext.destroy();
  return images;
}

export const annotationId = (annot: mupdf.PDFAnnotation) => `a${annot.getObject().asIndirect()}`;

const annotationKind: Partial<Record<mupdf.PDFAnnotationType, PageObjects['annotations'][number]['type']>> = {
  Highlight: 'highlight',
  Underline: 'underline',
  StrikeOut: 'strikeout',
  Text: 'note',
  Ink: 'ink',
  Square: 'square',
  Circle: 'circle',
  Line: 'line',
  FreeText: 'freetext',
  Stamp: 'stamp',
};

const channel = (v: number) =>
  Math.round(Math.min(1, Math.max(0, v)) * 255)
    .toString(16)
    .padStart(2, '0');

/** Gray, RGB or CMYK components (0–1) as #rrggbb. */
export function hexColor(color: readonly number[]): string {
  const [a = 0, b = 0, c = 0, k = 0] = color;
  const rgb = color.length === 1 ? [a, a, a] : color.length === 4 ? [(1 - a) * (1 - k), (1 - b) * (1 - k), (1 - c) * (1 - k)] : [a, b, c];
  return `#${rgb.map(channel).join('')}`;
}

const pageSize = (page: mupdf.PDFPage) => {
  const [x0, y0, x1, y1] = page.getBounds();
  return { width: x1 - x0, height: y1 - y0 };
};

export function runsAnswer(page: mupdf.PDFPage, pageNumber: number): PageRuns {
  return {
    page: pageNumber,
    ...pageSize(page),
    runs: readRuns(page, pageNumber).map((r) => {
      const first = r.chars[0]!;
      const name = baseName(r.font);
      return {
        id: r.id,
        text: r.text,
        bbox: toEditRect(quadBounds(r.chars.map((c) => c.quad))),
        origin: [first.origin[0], first.origin[1]],
        font: name,
        family: nearestFamily({ name, serif: r.font.isSerif(), mono: r.font.isMono() }),
        size: r.size,
        color: hexColor(r.color),
        bold: r.font.isBold() || /bold|black|heavy/i.test(name),
        italic: r.font.isItalic() || /italic|oblique/i.test(name),
        line: r.line,
        paragraph: r.block,
        paragraph_bbox: toEditRect(r.blockBbox),
      };
    }),
  };
}

export function objectsAnswer(page: mupdf.PDFPage, pageNumber: number): PageObjects {
  return {
    page: pageNumber,
    ...pageSize(page),
    images: readImages(page, pageNumber).map((i) => ({
      id: i.id,
      bbox: toEditRect(i.bbox),
      width_px: i.image.getWidth(),
      height_px: i.image.getHeight(),
    })),
    annotations: page.getAnnotations().map((a) => {
      const color = a.getColor();
      return {
        id: annotationId(a),
        type: annotationKind[a.getType()] ?? 'other',
        subtype: a.getType(),
        rect: toEditRect(a.getBounds()),
        contents: a.getContents(),
        author: a.hasAuthor() ? a.getAuthor() : '',
        color: color.length ? hexColor(color) : null,
      };
    }),
  };
}

const fieldTypes: Record<string, FormFields['fields'][number]['type']> = {
  text: 'text',
  checkbox: 'checkbox',
  radiobutton: 'radio',
  combobox: 'combobox',
  listbox: 'listbox',
  signature: 'signature',
  button: 'button',
};

/** The names of a check box's or radio button's on states (the keys of its normal appearance other than Off). */
export function onStates(widget: mupdf.PDFWidget): string[] {
  const states: string[] = [];
  const normal = widget.getObject().get('AP').get('N');
  if (normal.isDictionary())
    normal.forEach((_, key) => {
      if (String(key) !== 'Off') states.push(String(key));
    });
  return states;
}

export function fieldsAnswer(doc: mupdf.PDFDocument): FormFields {
  const fields: FormFields['fields'] = [];
  for (let i = 0; i < doc.countPages(); i++) {
    const page = doc.loadPage(i);
    for (const w of page.getWidgets()) {
      const type = fieldTypes[w.getFieldType()] ?? 'text';
      fields.push({
        name: w.getName(),
        type,
        value: w.getValue(),
        options: type === 'checkbox' || type === 'radio' ? onStates(w) : w.isChoice() ? w.getOptions() : [],
        page: i + 1,
        rect: toEditRect(w.getBounds()),
        read_only: w.isReadOnly(),
      });
    }
    page.destroy();
  }
  return { fields };
}
