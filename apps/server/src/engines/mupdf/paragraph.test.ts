// Paragraph alignment as read from real files (the Bitcoin paper, set justified by iText; a LibreOffice
// PDF with justified and centred paragraphs), and lines set in a real font to each alignment.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as mupdf from 'mupdf';
import { describe, expect, it } from 'vitest';
import { identityFont } from './contentText.js';
import { readRuns } from './pageObjects.js';
import { aligned, alignmentOf, lineWidth, wrap } from './paragraph.js';

const corpus = path.join(import.meta.dirname, '../../../../../test-corpus');
const blocksOf = (file: string) => {
  const doc = new mupdf.PDFDocument(fs.readFileSync(path.join(corpus, file)));
  const runs = readRuns(doc.loadPage(0), 1);
  return (text: string) => {
    const block = runs.find((r) => r.text.includes(text))!.block;
    return runs.filter((r) => r.block === block);
  };
};

describe('alignmentOf', () => {
  it('sees justified paragraphs, their ends inside a block, centred lines, and a title it cannot judge', () => {
    const bitcoin = blocksOf('pdfjs/issue13201.pdf');
    const abstract = alignmentOf(bitcoin('A purely peer-to-peer'));
    expect(abstract).toMatchObject({ kind: 'justify', ends: new Set() });
    // pdftotext -bbox puts the abstract's longest line's end at 461.77.
    expect(abstract.kind === 'justify' && abstract.right).toBeCloseTo(461.8, 0);
    // The introduction's two paragraphs (MuPDF makes two blocks of them; other files' blocks hold
    // several): the first's short last line ends one, the second's first line is indented.
    const intro = [...bitcoin('Commerce on the Internet'), ...bitcoin('What is needed')];
    const shortLine = intro.find((r) => r.text.startsWith('over a communications channel'))!.line;
    expect(alignmentOf(intro)).toMatchObject({ kind: 'justify', ends: new Set([shortLine]) });
    expect(alignmentOf(bitcoin('Bitcoin: A Peer-to-Peer'))).toEqual({ kind: 'left' });

    const made = blocksOf('made/justified-runs.pdf');
    expect(alignmentOf(made('Residents who wish')).kind).toBe('justify');
    const centred = alignmentOf(made('This line is centred'));
    expect(centred.kind).toBe('center');
    // Centred on the page's text area, 56.7 to 566.
    expect(centred.kind === 'center' && centred.center).toBeCloseTo(311, -0.5);
  });
});

describe('aligned', () => {
  const doc = new mupdf.PDFDocument();
  const file = execFileSync('fc-match', ['-f', '%{file}', 'Liberation Serif']).toString();
  const font = identityFont(doc, new mupdf.Font('LiberationSerif', fs.readFileSync(file)))!;
  const piece = { text: 'A few words to set on one line', font, size: 12, color: [0] };
  const [line] = wrap([piece], [[100, 200]], [Number.POSITIVE_INFINITY], 14, [1, 0]);
  const width = lineWidth(line!);

  it('spreads a justified line’s words to the right edge, the first and the spaces ending it in place', () => {
    const justified = aligned({ ...line!, paragraphEnd: false }, { kind: 'justify', right: 400, ends: new Set() });
    const words = justified.parts.map((p) => p.piece.text.trim());
    expect(words).toEqual(['A', 'few', 'words', 'to', 'set', 'on', 'one', 'line']);
    expect(justified.parts[0]!.at).toBe(0);
    expect(100 + lineWidth(justified)).toBeCloseTo(400, 6);
    // Every gap between words grew by the same amount.
    const gaps = justified.parts.slice(1).map((p, i) => p.at - justified.parts[i]!.at);
    const natural = line!.parts[0]!.piece.text.match(/\S+\s*/g)!.map((w) => font.show(w).advance * 12);
    const grown = gaps.map((g, i) => g - natural[i]!);
    for (const g of grown) expect(g).toBeCloseTo(grown[0]!, 6);
    expect(grown[0]).toBeGreaterThan(10);
  });

  it('leaves a paragraph’s last line ragged, and moves centred and flush-right lines along the baseline', () => {
    expect(aligned(line!, { kind: 'justify', right: 400, ends: new Set() })).toEqual(line);
    expect(aligned(line!, { kind: 'right', right: 400 }).origin).toEqual([400 - width, 200]);
    expect(aligned(line!, { kind: 'center', center: 300 }).origin).toEqual([300 - width / 2, 200]);
  });
});
