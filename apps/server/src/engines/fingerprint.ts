// What a rewrite of a PDF must keep: its pages, its text, its annotations (links, notes, form
// widgets), its form fields, outlines and attachments. Comparing the fingerprints of a document
// before and after a rebuilding engine (Ghostscript) tells whether that engine dropped any of them.
// Each part comes from an independent reader, every call bounded by runEngine.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { optionalStep } from './optional.js';
import { boundFor, runEngine } from './run.js';
import type { EngineLimits } from './qpdf.js';

export interface Fingerprint {
  /** Pages as pdftotext reads them (one form feed each). */
  pages: number;
  /** sha256 of the text pdftotext extracts, whitespace removed (layout may move, words may not change). */
  text: string;
  /** Annotation subtypes and how many of each. */
  annotations: Record<string, number>;
  fields: number;
  outlines: number;
  attachments: number;
}

interface OutlineNode {
  kids?: OutlineNode[];
}

const countOutlines = (nodes: OutlineNode[]): number => nodes.reduce((n, node) => n + 1 + countOutlines(node.kids ?? []), 0);

async function readText(file: string, pages: number, limits: EngineLimits): Promise<{ pages: number; text: string } | null> {
  const txt = `${file}.txt`;
  try {
    const res = await runEngine('pdftotext', ['-q', '-enc', 'UTF-8', file, txt], boundFor('text', limits, pages));
    if (res.exitCode !== 0) return null;
    const text = await fs.readFile(txt, 'utf8');
    return { pages: text.split('\f').length - 1, text: crypto.createHash('sha256').update(text.replace(/\s+/g, '')).digest('hex') };
  } finally {
    await fs.rm(txt, { force: true });
  }
}

async function annotationCounts(file: string, limits: EngineLimits): Promise<Record<string, number> | null> {
  // One line per annotation's /Subtype, "null" for a page without annotations.
  const res = await runEngine('mutool', ['show', file, 'pages/*/Annots/*/Subtype'], boundFor('inspect', limits));
  if (res.exitCode !== 0) return null;
  const counts: Record<string, number> = {};
  for (const line of res.stdout.split('\n').map((l) => l.trim())) if (line && line !== 'null') counts[line] = (counts[line] ?? 0) + 1;
  return counts;
}

async function structureCounts(file: string, limits: EngineLimits) {
  const res = await runEngine(
    'qpdf',
    ['--json', '--json-key=acroform', '--json-key=outlines', '--json-key=attachments', file],
    boundFor('inspect', limits),
  );
  if (res.exitCode !== 0 && res.exitCode !== 3) return null;
  try {
    const json = JSON.parse(res.stdout) as {
      acroform: { fields: unknown[] };
      outlines: OutlineNode[];
      attachments: Record<string, unknown>;
    };
    return {
      fields: json.acroform.fields.length,
      outlines: countOutlines(json.outlines),
      attachments: Object.keys(json.attachments).length,
    };
  } catch {
    return null; // output beyond what runEngine keeps (a huge form) cannot be compared
  }
}

/** The fingerprint of an unencrypted PDF of `pages` pages, or null when a reader cannot take it (then nothing can be compared). */
export async function fingerprintOf(file: string, pages: number, limits: EngineLimits): Promise<Fingerprint | null> {
  return optionalStep(
    limits,
    async () => {
      const text = await readText(file, pages, limits);
      const annotations = await annotationCounts(file, limits);
      const structure = await structureCounts(file, limits);
      if (text === null || annotations === null || structure === null) return null;
      return { ...text, annotations, ...structure };
    },
    null,
  );
}

export const sameFingerprint = (a: Fingerprint, b: Fingerprint) => JSON.stringify(a) === JSON.stringify(b);
