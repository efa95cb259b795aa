// The document model as plain UTF-8 text in reading order: a blank line between paragraphs, list
// items with their markers, table cells separated by tabs, a form feed where each PDF page began.
import fs from 'node:fs';
import { runsText, type Block, type DocModel } from './model.js';

/** "1." for numbered items (counted per level, the outer level from `start`), a bullet otherwise. */
export function listMarkers(items: { level: number }[], ordered: boolean, start = 1): string[] {
  const counters = [start - 1, 0, 0];
  return items.map((item) => {
    counters[item.level]!++;
    for (let l = item.level + 1; l < counters.length; l++) counters[l] = 0;
    return ordered ? `${numberLabel(counters[item.level]!, item.level)}.` : '•';
  });
}

const ROMAN: [number, string][] = [
  [1000, 'm'],
  [900, 'cm'],
  [500, 'd'],
  [400, 'cd'],
  [100, 'c'],
  [90, 'xc'],
  [50, 'l'],
  [40, 'xl'],
  [10, 'x'],
  [9, 'ix'],
  [5, 'v'],
  [4, 'iv'],
  [1, 'i'],
];

/** As Word numbers the levels (docx.ts): 1, 2… then a, b… then i, ii… */
function numberLabel(n: number, level: number): string {
  if (level === 0 || n < 1) return String(n);
  if (level === 1) return n <= 26 ? String.fromCharCode(96 + n) : String(n);
  let roman = '';
  for (const [value, digits] of ROMAN) while (n >= value) [roman, n] = [roman + digits, n - value];
  return roman;
}

function blockText(b: Block): string {
  switch (b.kind) {
    case 'heading':
    case 'paragraph':
      return runsText(b.runs);
    case 'list': {
      const markers = listMarkers(b.items, b.ordered, b.start);
      return b.items.map((item, i) => `${'  '.repeat(item.level)}${markers[i]} ${runsText(item.runs)}`).join('\n');
    }
    case 'table':
      return b.rows.map((row) => row.map((cell) => cell.map(runsText).join(' ')).join('\t')).join('\n');
    case 'image':
      return '';
  }
}

export function writeText(model: DocModel, out: string): void {
  const pages = model.pages.map((p) =>
    p.blocks
      .map(blockText)
      .filter((t) => t)
      .join('\n\n'),
  );
  fs.writeFileSync(out, `${pages.join('\n\f\n')}\n`);
}
