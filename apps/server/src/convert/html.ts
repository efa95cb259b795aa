// The document model as HTML: h1–h3, p, ul/ol, table, img. The markup is also well-formed XML,
// so the EPUB writer uses the same body as XHTML.
import fs from 'node:fs';
import path from 'node:path';
import { spanLookup, type Block, type DocModel, type DocPage, type ListItem, type Run } from './model.js';

export const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function runsHtml(runs: Run[]): string {
  return runs
    .map((r) => {
      let t = escapeXml(r.text);
      if (r.mono) t = `<code>${t}</code>`;
      if (r.italic) t = `<em>${t}</em>`;
      if (r.bold) t = `<strong>${t}</strong>`;
      if (r.color) t = `<span style="color:#${r.color}">${t}</span>`;
      return t;
    })
    .join('');
}

/** Items as nested lists by level: a deeper item opens a list inside the item before it. */
function listHtml(items: ListItem[], tag: 'ul' | 'ol', start?: number): string {
  let html = '';
  let depth = -1;
  for (const item of items) {
    // A level deeper than the one before opens one list (a jump of two opens only one: lists nest in items).
    const level = Math.min(item.level, depth + 1);
    if (level > depth) html += depth < 0 && start ? `<${tag} start="${start}">` : `<${tag}>`;
    else {
      html += '</li>';
      for (let d = depth; d > level; d--) html += `</${tag}></li>`;
    }
    depth = level;
    html += `<li>${runsHtml(item.runs)}`;
  }
  html += '</li>';
  for (let d = depth; d > 0; d--) html += `</${tag}></li>`;
  return `${html}</${tag}>\n`;
}

export type ImageSource = (b: Extract<Block, { kind: 'image' }>) => string;

function blockHtml(b: Block, imageSrc: ImageSource): string {
  switch (b.kind) {
    case 'heading':
      // Headings are bold by themselves.
      return `<h${b.level}>${runsHtml(b.runs.map((r) => ({ ...r, bold: false })))}</h${b.level}>\n`;
    case 'paragraph':
      return `<p>${runsHtml(b.runs)}</p>\n`;
    case 'list':
      return listHtml(b.items, b.ordered ? 'ol' : 'ul', b.start);
    case 'image':
      return `<p><img src="${escapeXml(imageSrc(b))}" width="${Math.round(b.width)}" height="${Math.round(b.height)}" alt="" /></p>\n`;
    case 'table':
      return tableHtml(b);
  }
}

/** A table's rows; a merged cell takes colspan and rowspan, the cells it covers are left out. */
function tableHtml(b: Extract<Block, { kind: 'table' }>): string {
  const span = spanLookup(b.spans);
  const rows = b.rows.map((row, r) => {
    const cells = row.map((cell, c) => {
      const s = span(r, c);
      if (s && (s.row !== r || s.col !== c)) return '';
      const attrs = s ? `${s.colSpan > 1 ? ` colspan="${s.colSpan}"` : ''}${s.rowSpan > 1 ? ` rowspan="${s.rowSpan}"` : ''}` : '';
      return `<td${attrs}>${cell.map(runsHtml).join('<br />')}</td>`;
    });
    return `<tr>${cells.join('')}</tr>\n`;
  });
  return `<table>\n${rows.join('')}</table>\n`;
}

/** One page's blocks as markup. */
export function pageHtml(page: DocPage, imageSrc: ImageSource): string {
  return page.blocks.map((b) => blockHtml(b, imageSrc)).join('');
}

export const documentCss =
  'body{font-family:serif;max-width:50em;margin:2em auto;padding:0 1em;line-height:1.4}img{max-width:100%;height:auto}table{border-collapse:collapse;margin:1em 0}td{border:1px solid #999;padding:.2em .4em;vertical-align:top}hr.page{border:0;border-top:1px dashed #bbb;margin:2em 0}';

/** One self-contained file: images as data: URIs, a rule where each PDF page began. */
export function writeHtml(model: DocModel, title: string, out: string): void {
  const dataUri: ImageSource = (b) => `data:${b.mime};base64,${fs.readFileSync(path.join(model.imagesDir, b.file)).toString('base64')}`;
  const fd = fs.openSync(out, 'w');
  try {
    fs.writeSync(
      fd,
      `<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8" />\n<title>${escapeXml(title)}</title>\n<style>${documentCss}${model.bodySerif ? '' : 'body{font-family:sans-serif}'}</style>\n</head>\n<body>\n`,
    );
    for (const [i, page] of model.pages.entries()) fs.writeSync(fd, `${i > 0 ? '<hr class="page" />\n' : ''}${pageHtml(page, dataUri)}`);
    fs.writeSync(fd, '</body>\n</html>\n');
  } finally {
    fs.closeSync(fd);
  }
}
