// GNU diction and style (Debian's diction package): diction flags wordy, misused and doubled
// phrases from its phrase tables (English, British English, German, Dutch), with plainer wording
// where it has one; `style -p` finds passive sentences (English). Both print the sentences they
// flag, whitespace folded; the spans are found again in the text given.
import fs from 'node:fs/promises';
import { ErrorCode, QuireError } from '@quire/contracts';
import { searchPattern } from '@quire/contracts/textSearch';
import type { EngineLimits } from '../qpdf.js';
import { boundFor, EngineTimeout, runEngine, tookTooLong } from '../run.js';

/** Where diction's phrase tables are, one file per language ("en", "en_GB", "de", "nl"). */
const DICTION_DIR = '/usr/share/diction';

/** The phrase tables installed, by language ("C" is diction's own default, the English one). */
export async function dictionLanguages(): Promise<string[]> {
  return (await fs.readdir(DICTION_DIR).catch(() => [] as string[])).filter((n) => n !== 'C').sort();
}

export interface Span {
  start: number;
  end: number;
}

/** A phrase diction flags: `replacement` where its table has plainer wording, else only `advice`. */
export interface DictionFinding extends Span {
  phrase: string;
  advice: string;
  replacement: string | null;
  doubled: boolean;
}

/** Where `needle` (whitespace folded, as the programs print it) is in `text`, from `from` on. */
function locate(text: string, needle: string, from: number): Span | null {
  if (!needle.trim()) return null;
  const pattern = searchPattern({ text: needle, ignoreCase: false });
  pattern.lastIndex = from;
  const hit = pattern.exec(text);
  return hit ? { start: hit.index, end: hit.index + hit[0].length } : null;
}

/** Start of each line of `text`: the programs number the line a sentence starts on from 1. */
const lineStarts = (text: string) => [0, ...[...text.matchAll(/\n/g)].map((m) => m.index + 1)];

/** The flagged sentences of an answer: "(stdin):3: the sentence", each with the line it starts on. */
function flaggedSentences(stdout: string): { line: number; sentence: string }[] {
  return [...stdout.matchAll(/^\(stdin\):(\d+): (.*)$/gm)].map((m) => ({ line: Number(m[1]), sentence: m[2]! }));
}

async function run(command: string, args: string[], text: string, limits: EngineLimits): Promise<string> {
  try {
    const result = await runEngine(command, args, { ...boundFor('text', limits), stdin: text });
    // diction answers 1 when it found nothing to flag.
    if (result.exitCode > 1) throw new QuireError(ErrorCode.TaskFailed, 'The style check failed.');
    return result.stdout;
  } catch (e) {
    if (e instanceof EngineTimeout) throw tookTooLong();
    throw e;
  }
}

const ANNOTATION = /\[([^\]]*?) -> ([^\]]*)\]/g;

/** diction's findings in `text`, by the phrase table of `language` (one of dictionLanguages()). */
export async function dictionFindings(language: string, text: string, limits: EngineLimits): Promise<DictionFinding[]> {
  const stdout = await run('diction', ['-s', '-L', language], text, limits);
  const starts = lineStarts(text);
  const findings: DictionFinding[] = [];
  for (const { line, sentence } of flaggedSentences(stdout)) {
    const plain = sentence.replace(ANNOTATION, '$1');
    const where = locate(text, plain, starts[line - 1] ?? 0);
    if (!where) continue;
    for (const m of sentence.matchAll(ANNOTATION)) {
      const [, phrase, advice] = m;
      // Past what comes before it in the sentence: a doubled word's own twin comes first.
      const before = sentence.slice(0, m.index).replace(ANNOTATION, '$1');
      const from = before.trim() ? (locate(text, before, where.start)?.end ?? where.start) : where.start;
      const span = locate(text, phrase!, from);
      if (!span || span.end > where.end) continue;
      const doubled = advice === 'Double word.';
      // Plain wording is a bare phrase; advice is a sentence or in parentheses.
      const replacement = doubled || /^\(|[.?!"]$/.test(advice!) ? null : advice!;
      findings.push({ ...span, phrase: phrase!, advice: advice!, replacement, doubled });
    }
  }
  return findings;
}

/** The passive sentences of English `text`, as `style -p` finds them. */
export async function passiveSentences(text: string, limits: EngineLimits): Promise<Span[]> {
  const stdout = await run('style', ['-p'], text, limits);
  const starts = lineStarts(text);
  return flaggedSentences(stdout)
    .map(({ line, sentence }) => locate(text, sentence, starts[line - 1] ?? 0))
    .filter((s): s is Span => s !== null);
}
