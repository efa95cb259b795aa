// The document model as RTF, written by hand: a style sheet with Heading 1–3, paragraphs, list
// items with their markers and hanging indents, tables with ruled cells, PNG and JPEG pictures,
// the text's faces (serif, sans serif, monospace) and colours.
import fs from 'node:fs';
import path from 'node:path';
import type { Block, DocModel, Run } from './model.js';
import { listMarkers } from './text.js';

const TWIPS_PER_POINT = 20;
const MARGIN_PT = 54;

/** RTF's own characters escaped, everything past ASCII as \uN? (signed 16-bit UTF-16 units). */
export function escapeRtf(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    const c = s[i]!;
    if (c === '\\' || c === '{' || c === '}') out += `\\${c}`;
    else if (c === '\t') out += '\\tab ';
    else if (code < 0x80) out += c;
    else out += `\\u${code > 0x7fff ? code - 0x10000 : code}?`;
  }
  return out;
}

const halfPoints = (pt: number) => Math.round(pt * 2);

/** Colours of the document's text, by RRGGBB: their index in the colour table (0 is the default). */
type Colors = Map<string, number>;

function runsRtf(runs: Run[], withSize: boolean, colors: Colors): string {
  return runs
    .map((r) => {
      const font = r.mono ? '\\f1' : r.serif ? '\\f0' : '\\f2';
      const color = r.color ? `\\cf${colors.get(r.color)}` : '';
      return `{${font}${r.bold ? '\\b' : ''}${r.italic ? '\\i' : ''}${color}${withSize ? `\\fs${halfPoints(r.size)}` : ''} ${escapeRtf(r.text)}}`;
    })
    .join('');
}

function colorsOf(model: DocModel): Colors {
  const colors: Colors = new Map();
  const add = (runs: Run[]) => {
    for (const r of runs) if (r.color && !colors.has(r.color)) colors.set(r.color, colors.size + 1);
  };
  for (const p of model.pages)
    for (const b of p.blocks) {
      if (b.kind === 'heading' || b.kind === 'paragraph') add(b.runs);
      else if (b.kind === 'list') for (const i of b.items) add(i.runs);
      else if (b.kind === 'table') for (const runs of b.rows.flat(2)) add(runs);
    }
  return colors;
}

function pictRtf(model: DocModel, b: Extract<Block, { kind: 'image' }>, maxWidth: number): string {
  const scale = Math.min(1, maxWidth / b.width);
  const hex = fs
    .readFileSync(path.join(model.imagesDir, b.file))
    .toString('hex')
    .replace(/(.{128})/g, '$1\n');
  const blip = b.mime === 'image/png' ? '\\pngblip' : '\\jpegblip';
  return `{\\pard\\sa120{\\pict${blip}\\picw${b.pixels[0]}\\pich${b.pixels[1]}\\picwgoal${Math.round(b.width * scale * TWIPS_PER_POINT)}\\pichgoal${Math.round(b.height * scale * TWIPS_PER_POINT)}\n${hex}}\\par}\n`;
}

function blockRtf(model: DocModel, b: Block, contentWidth: number, colors: Colors): string {
  switch (b.kind) {
    case 'heading':
      return `{\\pard\\s${b.level}\\keepn\\sb240\\sa120\\b ${runsRtf(b.runs, true, colors)}\\par}\n`;
    case 'paragraph':
      return `{\\pard\\sa120 ${runsRtf(b.runs, true, colors)}\\par}\n`;
    case 'list': {
      const markers = listMarkers(b.items, b.ordered, b.start);
      return b.items
        .map(
          (item, i) =>
            `{\\pard\\fi-360\\li${720 * (item.level + 1)}\\sa60 ${escapeRtf(markers[i]!)}\\tab ${runsRtf(item.runs, true, colors)}\\par}\n`,
        )
        .join('');
    }
    case 'image':
      return pictRtf(model, b, contentWidth);
    case 'table': {
      const columns = b.rows[0]?.length ?? 1;
      const cell = Math.floor((contentWidth * TWIPS_PER_POINT) / columns);
      const border = '\\clbrdrt\\brdrs\\brdrw10\\clbrdrl\\brdrs\\brdrw10\\clbrdrb\\brdrs\\brdrw10\\clbrdrr\\brdrs\\brdrw10';
      const defs = Array.from({ length: columns }, (_, c) => `${border}\\cellx${cell * (c + 1)}`).join('');
      const rows = b.rows.map(
        (row) =>
          `\\trowd\\trgaph108${defs}\n${row.map((paras) => `\\pard\\intbl ${paras.map((p) => runsRtf(p, true, colors)).join('\\par ')}\\cell`).join('\n')}\n\\row\n`,
      );
      return `${rows.join('')}\\pard\n`;
    }
  }
}

export function writeRtf(model: DocModel, out: string): void {
  const first = model.pages[0] ?? { width: 612, height: 792 };
  const contentWidth = first.width - 2 * MARGIN_PT;
  const body = halfPoints(model.bodySize);
  const colors = colorsOf(model);
  const head =
    `{\\rtf1\\ansi\\ansicpg1252\\deff${model.bodySerif ? 0 : 2}\\uc1\n{\\fonttbl{\\f0\\froman Times New Roman;}{\\f1\\fmodern Courier New;}{\\f2\\fswiss Arial;}}\n` +
    `{\\colortbl;${[...colors.keys()].map((c) => `\\red${parseInt(c.slice(0, 2), 16)}\\green${parseInt(c.slice(2, 4), 16)}\\blue${parseInt(c.slice(4, 6), 16)};`).join('')}}\n` +
    `{\\stylesheet{\\s0\\fs${body} Normal;}{\\s1\\sbasedon0\\snext0\\keepn\\b\\fs${halfPoints(model.bodySize * 1.6)} heading 1;}{\\s2\\sbasedon0\\snext0\\keepn\\b\\fs${halfPoints(model.bodySize * 1.4)} heading 2;}{\\s3\\sbasedon0\\snext0\\keepn\\b\\fs${halfPoints(model.bodySize * 1.2)} heading 3;}}\n` +
    `\\paperw${Math.round(first.width * TWIPS_PER_POINT)}\\paperh${Math.round(first.height * TWIPS_PER_POINT)}\\margl${MARGIN_PT * TWIPS_PER_POINT}\\margr${MARGIN_PT * TWIPS_PER_POINT}\\margt${MARGIN_PT * TWIPS_PER_POINT}\\margb${MARGIN_PT * TWIPS_PER_POINT}\\fs${body}\n`;
  const fd = fs.openSync(out, 'w');
  try {
    fs.writeSync(fd, head);
    for (const [i, page] of model.pages.entries()) {
      if (i > 0) fs.writeSync(fd, '\\page\n');
      for (const b of page.blocks) fs.writeSync(fd, blockRtf(model, b, contentWidth, colors));
    }
    fs.writeSync(fd, '}\n');
  } finally {
    fs.closeSync(fd);
  }
}
