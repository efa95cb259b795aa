// Builds the AI detector's labelled set (test-corpus/ai-detect/): human text from this machine's
// Debian documentation, licences, manual pages and the test corpus's PDFs, machine text from this
// project's own documents, which a language model wrote. Sources, not passages, are split between
// training and test, so the test measures text of kinds the model never saw.
//
//   node --import tsx scripts/ai-detect-corpus.ts
//
// Writes test-corpus/ai-detect/passages.jsonl (one {text, label, source, split} a line) and
// apps/server/src/classic/detector/human.txt (the manual pages' text the n-gram model learns).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';

const root = path.join(import.meta.dirname, '..');
const outDir = path.join(root, 'test-corpus/ai-detect');

type Label = 'human' | 'machine';
type Split = 'train' | 'test';
interface Passage {
  text: string;
  label: Label;
  source: string;
  split: Split;
}

/** Passages are whole paragraphs joined up to about this length; a detector sees a few sentences at least. */
const PASSAGE_MIN = 400;
const PASSAGE_MAX = 2000;
/** At most this many passages of one class in one split, and of one source file, so no file dominates. */
const PER_CLASS_SPLIT = 320;
const PER_FILE = 20;
/** Text of manual pages the n-gram model learns from (bytes). */
const LM_BYTES = 900_000;

/** A reproducible shuffle (mulberry32), so that the set is rebuilt the same. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  let s = seed >>> 0;
  const rand = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Markdown reduced to its prose: code blocks, tables, headings and link targets left out. */
function markdownProse(md: string): string {
  return md
    .replace(/```[\s\S]*?```/g, '\n\n')
    .split('\n')
    .filter((line) => !/^\s*(\||#|<|---|===)/.test(line))
    .join('\n')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_]/g, '')
    .replace(/^\s*(?:[-+]|\d+\.)\s+/gm, '');
}

/** Paragraphs of prose: lines joined, and those that look like code, lists of names or tables dropped. */
function paragraphs(text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .map((p) =>
      p
        .replace(/\s*\n\s*/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((p) => {
      if (p.length < 80) return false;
      const letters = (p.match(/\p{L}/gu) ?? []).length;
      const words = p.split(' ').length;
      // Prose is mostly letters, in words of ordinary length, with sentences ending in a full stop.
      return letters / p.length > 0.68 && p.length / words < 9 && /[.!?]["')]?$/.test(p) && !/[{};]\s*$|\$\(|=>|::/.test(p);
    });
}

function passagesOf(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  // A paragraph longer than a passage is cut at its sentence ends.
  const pieces = paragraphs(text).flatMap((p) =>
    p.length <= PASSAGE_MAX ? [p] : (p.match(new RegExp(`.{1,${PASSAGE_MAX}}[.!?](?= [A-Z]|$)`, 'g')) ?? []).map((s) => s.trim()),
  );
  for (const p of pieces) {
    cur = cur ? `${cur}\n\n${p}` : p;
    if (cur.length >= PASSAGE_MIN) {
      if (cur.length <= PASSAGE_MAX) out.push(cur);
      cur = '';
    }
  }
  return out;
}

const readText = (file: string) => (file.endsWith('.gz') ? zlib.gunzipSync(fs.readFileSync(file)) : fs.readFileSync(file)).toString('utf8');
const listFiles = (dir: string, match: RegExp): string[] =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile() && match.test(e.name))
        .map((e) => path.join(e.parentPath, e.name))
        .sort()
    : [];

/** A manual page as man shows it on a terminal, without its formatting. */
function manText(file: string): string {
  try {
    return (
      execFileSync('man', ['-l', file], {
        encoding: 'utf8',
        env: { ...process.env, MANWIDTH: '2000', MAN_KEEP_FORMATTING: '', GROFF_NO_SGR: '1', LANG: 'C.UTF-8' },
        stdio: ['ignore', 'pipe', 'ignore'],
        maxBuffer: 16 * 1024 * 1024,
      })
        // biome-ignore lint/suspicious/noControlCharactersInRegex: nroff overstrikes bold and underline as character, backspace
        .replace(/.\x08/g, '')
        .replace(/^[ \t]+/gm, '')
    );
  } catch {
    return '';
  }
}

function pdfText(file: string): string {
  try {
    return execFileSync('pdftotext', ['-q', '-enc', 'UTF-8', file, '-'], {
      encoding: 'utf8',
      timeout: 20_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return '';
  }
}

interface Source {
  name: string;
  label: Label;
  split: Split;
  files: string[];
  read: (file: string) => string;
}

const sources: Source[] = [
  // Machine text: everything under docs/ and the specification was written by a language model.
  {
    name: 'quire-adr',
    label: 'machine',
    split: 'train',
    files: listFiles(path.join(root, 'docs/adr'), /\.md$/),
    read: (f) => markdownProse(readText(f)),
  },
  {
    name: 'quire-docs-and-spec',
    label: 'machine',
    split: 'test',
    files: [
      ...listFiles(path.join(root, 'docs'), /^[^/]*\.md$/).filter((f) => path.dirname(f) === path.join(root, 'docs')),
      ...listFiles('/work/shared/spec', /\.md$/),
      ...['CODE_STYLE.md', 'CONTRIBUTING.md', 'bench/README.md', 'test-corpus/README.md', 'templates/README.md'].map((f) =>
        path.join(root, f),
      ),
    ].filter((f) => fs.existsSync(f)),
    read: (f) => markdownProse(readText(f)),
  },
  // Machine text written for this set by the language model that built the detector, asked for
  // general expository prose on everyday subjects: other subjects and another register than the docs.
  { name: 'assistant-essays', label: 'machine', split: 'train', files: [path.join(outDir, 'machine/general-train.txt')], read: readText },
  { name: 'assistant-essays', label: 'machine', split: 'test', files: [path.join(outDir, 'machine/general-test.txt')], read: readText },
  // Human text: the documentation of Perl's modules (POD), articles among them.
  { name: 'perl-pod', label: 'human', split: 'train', files: listFiles('/usr/share/perl', /\.pod$/), read: readText },
  // Human text: Debian's package documentation (Debian 12, written by the packages' authors and maintainers).
  {
    name: 'debian-doc',
    label: 'human',
    split: 'train',
    files: listFiles('/usr/share/doc', /^(README|NEWS|FAQ|TODO|AUTHORS|THANKS|HACKING|INSTALL)[^/]*$|\.txt(\.gz)?$/i).filter(
      (f) => !/changelog|copyright/i.test(f),
    ),
    read: (f) => markdownProse(readText(f)),
  },
  { name: 'licences', label: 'human', split: 'test', files: listFiles('/usr/share/common-licenses', /./), read: readText },
  { name: 'pdf-corpus', label: 'human', split: 'test', files: listFiles(path.join(root, 'test-corpus/pdfjs'), /\.pdf$/i), read: pdfText },
];

const passages: Passage[] = [];
for (const split of ['train', 'test'] as const) {
  for (const label of ['human', 'machine'] as const) {
    const pool: Passage[] = [];
    for (const src of sources.filter((s) => s.split === split && s.label === label)) {
      for (const file of src.files) {
        const mine = shuffled(passagesOf(src.read(file)), file.length).slice(0, PER_FILE);
        pool.push(...mine.map((text) => ({ text, label, source: `${src.name}:${path.relative('/', file)}`, split })));
      }
    }
    passages.push(...shuffled(pool, 13).slice(0, PER_CLASS_SPLIT));
  }
}

// The n-gram model's text: manual pages (section 1 and 8), none of which is in the passages; the
// Google Cloud SDK's thousands of generated pages are left out.
let lm = '';
// SKIP_LM=1 keeps the model's text as it is (rendering the pages takes minutes).
if (process.env.SKIP_LM) lm = fs.readFileSync(path.join(root, 'apps/server/src/classic/detector/human.txt'), 'utf8');
const manPages = listFiles('/usr/share/man/man1', /\.gz$/)
  .concat(listFiles('/usr/share/man/man8', /\.gz$/))
  .filter((f) => !path.basename(f).startsWith('gcloud'));
for (const file of process.env.SKIP_LM ? [] : shuffled(manPages, 7)) {
  if (lm.length >= LM_BYTES) break;
  lm += paragraphs(manText(file)).join('\n');
  lm += '\n';
}

fs.mkdirSync(outDir, { recursive: true });
fs.writeFileSync(path.join(outDir, 'passages.jsonl'), `${passages.map((p) => JSON.stringify(p)).join('\n')}\n`);
fs.writeFileSync(path.join(root, 'apps/server/src/classic/detector/human.txt'), lm.slice(0, LM_BYTES));
const tally = new Map<string, number>();
for (const p of passages) tally.set(`${p.split} ${p.label}`, (tally.get(`${p.split} ${p.label}`) ?? 0) + 1);
console.log([...tally].map(([k, v]) => `${k}: ${v}`).join('\n'));
