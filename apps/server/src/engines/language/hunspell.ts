// Hunspell spelling (Debian's hunspell and hunspell-<lang> dictionaries), through its ispell pipe
// mode (`-a`): one answer line per misspelt word, with its offset and the dictionary's suggestions.
import fs from 'node:fs/promises';
import { ErrorCode, QuireError } from '@quire/contracts';
import type { EngineLimits } from '../qpdf.js';
import { boundFor, EngineTimeout, runEngine, tookTooLong } from '../run.js';

/** Where Debian's hunspell-* packages put their dictionaries ("en_US.dic" and "en_US.aff"). */
const DICTIONARIES_DIR = '/usr/share/hunspell';

/** The dictionaries installed, by their file names ("de_DE", "en_US", "nl"). */
export async function installedDictionaries(): Promise<string[]> {
  const names = await fs.readdir(DICTIONARIES_DIR).catch(() => [] as string[]);
  const has = new Set(names);
  return names
    .filter((n) => n.endsWith('.dic') && has.has(`${n.slice(0, -4)}.aff`))
    .map((n) => n.slice(0, -4))
    .sort();
}

/** A word the dictionary does not know; start and end index the checked text (UTF-16, as JavaScript does). */
export interface Misspelling {
  word: string;
  start: number;
  end: number;
  suggestions: string[];
}

/** Offsets in Hunspell's answers count characters (code points) from the start of the line. */
function utf16Offset(line: string, codePoints: number): number {
  let units = 0;
  let seen = 0;
  for (const ch of line) {
    if (seen === codePoints) break;
    units += ch.length;
    seen++;
  }
  return units;
}

/** Edits (insert, delete, substitute, swap of neighbours) from `a` to `b`, ignoring case. */
export function editDistance(a: string, b: string): number {
  const x = [...a.toLowerCase()];
  const y = [...b.toLowerCase()];
  const d = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= x.length; i++)
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  return d[x.length]![y.length]!;
}

/** The misspellings of `text` by the dictionary `dictionary` ("en_US"). */
export async function misspellings(dictionary: string, text: string, limits: EngineLimits): Promise<Misspelling[]> {
  const lines = text.split('\n');
  // "^" before each line: in pipe mode a line starting with a command character (*, &, @, #, …)
  // would be read as a command; "^" says "check the rest" and counts as the offset's column 0.
  const stdin = lines.map((l) => `^${l}\n`).join('');
  let result: Awaited<ReturnType<typeof runEngine>>;
  try {
    result = await runEngine('hunspell', ['-a', '-i', 'utf-8', '-d', dictionary], { ...boundFor('text', limits), stdin });
  } catch (e) {
    if (e instanceof EngineTimeout) throw tookTooLong();
    throw e;
  }
  if (result.exitCode !== 0) throw new QuireError(ErrorCode.TaskFailed, 'The spelling check failed.');
  const found: Misspelling[] = [];
  // The answer: a banner line, then per input line one line per word and a blank line to end it.
  const answers = result.stdout.split('\n').slice(1);
  let lineIndex = 0;
  let lineStart = 0;
  for (const answer of answers) {
    if (answer === '') {
      lineStart += (lines[lineIndex]?.length ?? 0) + 1;
      lineIndex++;
      continue;
    }
    // "& word count offset: s1, s2" (with suggestions) or "# word offset" (none).
    const match = /^[&#] (\S+) (?:\d+ )?(\d+)(?:: (.*))?$/.exec(answer);
    if (!match) continue;
    const line = lines[lineIndex] ?? '';
    // Some dictionaries (de_DE) count a final full stop as part of a word ("Wörtt."): the sentence keeps it.
    const word = match[1]!.replace(/\.+$/, '') || match[1]!;
    const start = lineStart + utf16Offset(line, Number(match[2]) - 1);
    // Hunspell orders by its own n-gram scores ("err" before "error" for "eror", "Th" before "This"
    // for "Ths"). The fewest edits come first here; among those a plain word before one with an
    // apostrophe or a space the typo lacks, and a longer word before one as long, before a shorter:
    // a letter left out is the commonest slip, a letter too many the rarest.
    const joined = (s: string) => (/[\s'’-]/.test(s) && !/[\s'’-]/.test(word) ? 1 : 0);
    const lengthRank = (s: string) => Math.sign(word.length - s.length);
    const suggestions = (match[3] ? match[3].split(', ').filter(Boolean) : [])
      .map((s, i) => ({ s, rank: [editDistance(word, s), joined(s), lengthRank(s), i] }))
      .sort((a, b) => a.rank.map((r, k) => r - b.rank[k]!).find((d) => d !== 0) ?? 0)
      .map((x) => x.s);
    found.push({ word, start, end: start + word.length, suggestions });
  }
  return found;
}
