// WordNet (Debian's wordnet package), through its `wn` program: `wn <word> -over` prints every
// sense of the word for each part of speech it can be, after reducing an inflected form to its
// base ("geese" → goose, "running" → run), with the synonyms, the gloss and examples of each.
import { ErrorCode, QuireError } from '@quire/contracts';
import type { EngineLimits } from '../qpdf.js';
import { boundFor, EngineTimeout, runEngine, tookTooLong } from '../run.js';

const wordnetPartsOfSpeech = ['noun', 'verb', 'adj', 'adv'] as const;
export type WordnetPos = (typeof wordnetPartsOfSpeech)[number];

export interface WordSense {
  pos: WordnetPos;
  /** The base form WordNet looked up ("goose" for "geese"). */
  lemma: string;
  synonyms: string[];
  definition: string;
  examples: string[];
  /** Times the sense was seen in WordNet's tagged texts: its senses come most frequent first. */
  tagCount: number;
}

/** wn's longest word: longer ones it cuts, and no entry is that long. */
const MAX_WORD_CHARS = 80;

/** Every sense WordNet has for `word` (a word or a phrase: "take off"), for each part of speech. */
export async function wordSenses(word: string, limits: EngineLimits): Promise<WordSense[]> {
  const query = word.trim().toLowerCase().replace(/\s+/g, '_');
  if (!query || query.length > MAX_WORD_CHARS || query.startsWith('-')) return [];
  let stdout: string;
  try {
    // wn's exit status is the number of senses found (or of lookups made), not a failure.
    const result = await runEngine('wn', [query, '-over'], boundFor('inspect', limits));
    if (result.stderr && !result.stdout) throw new QuireError(ErrorCode.TaskFailed, 'The dictionary lookup failed.');
    stdout = result.stdout;
  } catch (e) {
    if (e instanceof EngineTimeout) throw tookTooLong();
    throw e;
  }
  const senses: WordSense[] = [];
  let pos: WordnetPos | null = null;
  let lemma = '';
  for (const line of stdout.split('\n')) {
    const heading = /^Overview of (noun|verb|adj|adv) (.+)$/.exec(line);
    if (heading) {
      pos = heading[1] as WordnetPos;
      lemma = heading[2]!.replace(/_/g, ' ');
      continue;
    }
    // "2. (16) promptly, quickly, quick -- (with little or no delay; "come here, quick!")"
    const sense = /^\d+\. (?:\((\d+)\) )?(.+?) -- \((.*)\)$/.exec(line);
    if (!sense || !pos) continue;
    const [definition, ...examples] = sense[3]!.split(/; (?=")/);
    senses.push({
      pos,
      lemma,
      synonyms: sense[2]!.split(', ').map((s) => s.replace(/_/g, ' ')),
      definition: definition!.trim(),
      examples: examples.map((e) => e.replace(/^"|"$/g, '')),
      tagCount: Number(sense[1] ?? 0),
    });
  }
  return senses;
}
