// Apertium, rule-based machine translation (Debian's apertium and its language-pair packages).
// Each installed pair leaves a mode file per direction in MODES_DIR; a direction is offered only
// where its mode is there. Text goes in as a file and comes back translated on standard output,
// with blank lines and line breaks where they were (they are "superblanks" to Apertium).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ErrorCode, QuireError } from '@quire/contracts';
import type { EngineLimits } from '../qpdf.js';
import { boundFor, EngineTimeout, runEngine, tookTooLong } from '../run.js';

/** Where Debian's pair packages install their modes ("eng-spa.mode", "es-pt.mode"). */
const MODES_DIR = '/usr/share/apertium/modes';

/** Pair packages name languages by ISO 639-1 or 639-3 codes; the app speaks 639-1. */
const ISO_639_1: Record<string, string> = {
  eng: 'en',
  spa: 'es',
  cat: 'ca',
  ita: 'it',
  por: 'pt',
  fra: 'fr',
  glg: 'gl',
  deu: 'de',
  nld: 'nl',
  epo: 'eo',
  oci: 'oc',
  eus: 'eu',
  ron: 'ro',
};
const shortCode = (code: string) => ISO_639_1[code] ?? code;

/** One installed direction: from → to, run by the mode of that name. */
export interface ApertiumDirection {
  from: string;
  to: string;
  mode: string;
}

/**
 * The directions installed, one per language pair and direction. Variants ("eng-cat_valencia",
 * "es-pt_BR") and chained modes ("eco-es-fr") are left out: the plain mode is the pair's standard.
 */
export async function installedDirections(): Promise<ApertiumDirection[]> {
  const names = await fs.readdir(MODES_DIR).catch(() => [] as string[]);
  const directions = new Map<string, ApertiumDirection>();
  for (const name of names) {
    const match = /^([a-z]{2,3})-([a-z]{2,3})\.mode$/.exec(name);
    if (!match) continue;
    const direction = { from: shortCode(match[1]!), to: shortCode(match[2]!), mode: name.slice(0, -'.mode'.length) };
    directions.set(`${direction.from}-${direction.to}`, direction);
  }
  return [...directions.values()].sort((a, b) => a.mode.localeCompare(b.mode));
}

/**
 * `text` translated by one mode. `-u` asks for no marks on unknown words: Apertium would write
 * `*word` (not in the source dictionary), `@word` (not in the bilingual one) and `#word` (no
 * surface form), and the reader wants the word itself, left as it was.
 */
export async function apertium(mode: string, text: string, workDir: string, limits: EngineLimits): Promise<string> {
  // A file, not standard input: the apertium script reads /dev/stdin, which cannot be opened on
  // the socket pair Node gives a child for its input.
  const input = path.join(workDir, `apertium-${randomUUID()}.txt`);
  await fs.writeFile(input, text);
  try {
    const result = await runEngine('apertium', ['-u', '-f', 'txt', mode, input], boundFor('text', limits));
    if (result.exitCode !== 0) throw new QuireError(ErrorCode.TaskFailed, 'The translation failed.');
    return result.stdout;
  } catch (e) {
    if (e instanceof EngineTimeout) throw tookTooLong();
    throw e;
  } finally {
    await fs.rm(input, { force: true });
  }
}

/**
 * The directions to run, in turn, to take text from `from` to `to`: the direct one, else the
 * shortest chain through other installed languages (fr → pt as fr → es → pt), of at most
 * `maxHops` directions; null when none is installed.
 */
export function routeOf(directions: readonly ApertiumDirection[], from: string, to: string, maxHops: number): ApertiumDirection[] | null {
  if (from === to) return null;
  // Breadth first: the first route found to a language is a shortest one.
  const reached = new Map<string, ApertiumDirection[]>([[from, []]]);
  let frontier = [from];
  for (let hop = 1; hop <= maxHops && frontier.length; hop++) {
    const next: string[] = [];
    for (const language of frontier)
      for (const d of directions) {
        if (d.from !== language || reached.has(d.to)) continue;
        const route = [...reached.get(language)!, d];
        if (d.to === to) return route;
        reached.set(d.to, route);
        next.push(d.to);
      }
    frontier = next;
  }
  return null;
}

/** `text` run through each direction of `route` in turn; 11021 for an empty route. */
export async function translateAlong(
  route: readonly ApertiumDirection[] | null,
  text: string,
  workDir: string,
  limits: EngineLimits,
): Promise<string> {
  if (!route?.length) throw new QuireError(ErrorCode.LanguageUnavailable);
  let current = text;
  for (const direction of route) current = await apertium(direction.mode, current, workDir, limits);
  return current;
}
