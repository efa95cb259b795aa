// The classic language engines against Debian's programs themselves: Apertium, Hunspell, diction
// and style, WordNet. Each expectation is what the program's own data says (the dictionaries'
// entries, the pairs' translations), checked through the adapters' parsing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { apertium, installedDirections, routeOf, translateAlong } from './apertium.js';
import { dictionFindings, passiveSentences } from './diction.js';
import { editDistance, installedDictionaries, misspellings } from './hunspell.js';
import { wordSenses } from './wordnet.js';

const limits = { timeoutMs: 30_000, memoryMb: 512 };
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-language-'));
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

describe('apertium', () => {
  it('finds the installed directions under the app’s two-letter codes', async () => {
    const directions = await installedDirections();
    const pairs = directions.map((d) => `${d.from}-${d.to}`);
    expect(pairs).toEqual(expect.arrayContaining(['en-es', 'es-en', 'fr-es', 'es-fr', 'es-pt', 'pt-es']));
    // Variants of a pair are not offered as pairs of their own.
    expect(directions.every((d) => !d.mode.includes('_'))).toBe(true);
  });

  it('routes through a pivot where no direct pair is installed, and nowhere past the hop limit', async () => {
    const directions = await installedDirections();
    expect(routeOf(directions, 'en', 'es', 2)?.map((d) => d.mode)).toEqual(['eng-spa']);
    expect(routeOf(directions, 'fr', 'pt', 2)?.map((d) => `${d.from}-${d.to}`)).toEqual(['fr-es', 'es-pt']);
    expect(routeOf(directions, 'fr', 'pt', 1)).toBeNull();
    expect(routeOf(directions, 'en', 'ja', 2)).toBeNull();
    expect(routeOf(directions, 'en', 'en', 2)).toBeNull();
  });

  it('translates without marking unknown words, keeping line breaks and the user’s own # and @', async () => {
    const out = await apertium('eng-spa', 'The house is big.\n\nRead item #1 xyzzyfoo.', workDir, limits);
    expect(fs.readdirSync(workDir)).toEqual([]);
    expect(out).toContain('La casa es grande.');
    expect(out.split('\n\n')).toHaveLength(2);
    expect(out).toContain('xyzzyfoo');
    expect(out).not.toMatch(/[*@]\p{L}/u);
    expect(out).toContain('#1');
  });

  it('answers 11021 for no route', async () => {
    await expect(translateAlong(null, 'text', workDir, limits)).rejects.toMatchObject({ code: 11021 });
  });
});

describe('hunspell', () => {
  it('has the dictionaries setup.sh installs', async () => {
    expect(await installedDictionaries()).toEqual(expect.arrayContaining(['en_US', 'en_GB', 'de_DE', 'fr_FR', 'es_ES', 'pt_BR', 'it_IT']));
  });

  it('finds misspellings with their spans (UTF-16, across lines) and suggestions', async () => {
    // An emoji is one code point (Hunspell's count) but two UTF-16 units (JavaScript's).
    const text = 'Owners 😀 — “all” — recieve\n*many* visitors every mornign.';
    const found = await misspellings('en_US', text, limits);
    expect(found.map((m) => m.word)).toEqual(['recieve', 'mornign']);
    for (const m of found) expect(text.slice(m.start, m.end)).toBe(m.word);
    expect(found[0]!.suggestions[0]).toBe('receive');
    expect(found[1]!.suggestions).toContain('morning');
  });

  it('puts the suggestions of fewest edits first, and a letter left out before one too many', async () => {
    expect(editDistance('eror', 'error')).toBe(1);
    expect(editDistance('teh', 'the')).toBe(1);
    expect(editDistance('Sentense', 'sentence')).toBe(1);
    expect(editDistance('recieve', 'receive')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    // Hunspell itself answers "err" first for both.
    const [eror] = await misspellings('en_GB', 'An eror.', limits);
    expect(eror!.suggestions[0]).toBe('error');
    expect(eror!.suggestions).toContain('err');
    const [ths] = await misspellings('en_US', 'Ths one.', limits);
    expect(ths!.suggestions[0]).toBe('This');
  });

  it('checks German, keeping a sentence’s full stop out of the word', async () => {
    const text = 'Über die Brücke gehen wir. Das ist ein Fehlr.';
    const [m] = await misspellings('de_DE', text, limits);
    expect(m?.word).toBe('Fehlr');
    expect(text.slice(m!.start, m!.end)).toBe('Fehlr');
    expect(m!.suggestions).toContain('Fehler');
  });
});

describe('diction and style', () => {
  it('flags wordy phrases with plainer wording and doubled words, at their places', async () => {
    const text = 'We will meet\nin order to utilize the the data.';
    const findings = await dictionFindings('en', text, limits);
    const byPhrase = Object.fromEntries(findings.map((f) => [f.phrase, f]));
    expect(byPhrase['in order to']?.replacement).toBe('to');
    expect(byPhrase.utilize?.replacement).toBe('use');
    expect(text.slice(byPhrase.utilize!.start, byPhrase.utilize!.end)).toBe('utilize');
    const doubled = findings.find((f) => f.doubled)!;
    expect(doubled.phrase).toBe('the');
    expect(doubled.start).toBe(text.lastIndexOf('the the') + 4);
  });

  it('finds passive sentences', async () => {
    const text = 'We wrote the code. The report was written by the committee. It works.';
    const [passive, ...rest] = await passiveSentences(text, limits);
    expect(rest).toEqual([]);
    expect(text.slice(passive!.start, passive!.end)).toBe('The report was written by the committee.');
  });
});

describe('wordnet', () => {
  it('defines a word in each part of speech, from its inflected form', async () => {
    const senses = await wordSenses('Banks', limits);
    expect(senses.some((s) => s.pos === 'noun' && /financial institution/.test(s.definition))).toBe(true);
    expect(senses.some((s) => s.pos === 'verb')).toBe(true);
    expect(new Set(senses.map((s) => s.lemma))).toEqual(new Set(['banks', 'bank']));
    expect((await wordSenses('geese', limits))[0]?.lemma).toBe('goose');
  });

  it('has nothing for a non-word, and refuses what looks like an option', async () => {
    expect(await wordSenses('xyzzyfoo', limits)).toEqual([]);
    expect(await wordSenses('-over', limits)).toEqual([]);
  });
});
