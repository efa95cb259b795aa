// Translation keys come from the source: every key used must exist in en-us, en-us may hold no
// key the source does not use, and every other language translates every en-us text.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { marketingTextKeys, siteLanguages } from '@quire/contracts';
import { describe, expect, it } from 'vitest';
import { PLAN_NAMES } from '../account/accountForms';
import { TOOL_LOOK } from '../editor/tools';
import { appPages, sidebarItems } from '../layout/navigation';
import { PLAN_FEATURES } from '../pricing/prices';
import { sortKeys, templateCategoryKeys } from '../templates/templateModel';
import { toolPages } from '../tool/toolPages';
import enUs from './locales/en-us.json';

const srcDir = join(import.meta.dirname, '..');
const localesDir = join(import.meta.dirname, 'locales');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

function usedKeys(): Set<string> {
  const keys = new Set<string>();
  for (const file of sourceFiles(srcDir)) {
    for (const m of readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([^']+)'/g)) keys.add(m[1]!);
  }
  // Keys built from data rather than written out.
  for (const { texts } of Object.values(toolPages)) for (const key of Object.values(texts)) keys.add(key);
  for (const list of Object.values(PLAN_FEATURES)) for (const key of list) keys.add(key);
  for (const key of Object.values(PLAN_NAMES)) keys.add(key);
  for (const key of [...Object.values(templateCategoryKeys), ...Object.values(sortKeys)]) keys.add(key);
  for (const { label } of Object.values(TOOL_LOOK)) keys.add(label);
  for (const page of Object.values(appPages)) keys.add(page.title).add(page.description);
  for (const item of sidebarItems) keys.add(item.labelKey);
  // The marketing pages' texts, named by the contracts' catalogue (the server writes them into the pages' HTML too).
  for (const key of marketingTextKeys()) keys.add(key);
  // A failure that never reached the server (api/client.ts); the catalogue's own are the contracts'.
  keys.add('error.network');
  return keys;
}

const placeholders = (text: string) => [...new Set(text.match(/\{\w+\}/g) ?? [])].sort();
/** How many forms a text has ("{count} page | {count} pages" has two: singular and plural). */
const pluralForms = (text: string) => text.split(' | ').length;
/** Texts a translation may leave as they are in English: French, with many words spelt the same (Page, Document, Options, Message, OCR…), leaves 49. */
const MAX_SAME_AS_ENGLISH = 60;
const locales = readdirSync(localesDir).filter((f) => f.endsWith('.json'));

describe('translation keys', () => {
  const keys = usedKeys();

  it('finds the keys in the source', () => {
    expect(keys.size).toBeGreaterThan(50);
    expect(keys).toContain('upload.selectFiles');
  });

  it('en-us has every key the source uses', () => {
    expect([...keys].filter((k) => !(k in enUs))).toEqual([]);
  });

  it('en-us has no keys the source no longer uses', () => {
    expect(Object.keys(enUs).filter((k) => !keys.has(k))).toEqual([]);
  });

  for (const { locale } of siteLanguages.filter((l) => l.locale !== 'en-us')) {
    it(`${locale} translates every en-us text, with the same placeholders and plural forms`, () => {
      const file = `${locale}.json`;
      expect(locales).toContain(file);
      const messages = JSON.parse(readFileSync(join(localesDir, file), 'utf8')) as Record<string, string>;
      const english = enUs as Record<string, string>;
      expect(Object.keys(messages)).toEqual(Object.keys(english));
      for (const [key, text] of Object.entries(messages)) {
        expect(placeholders(text), `${file} ${key}`).toEqual(placeholders(english[key]!));
        expect(pluralForms(text), `${file} ${key}`).toBe(pluralForms(english[key]!));
      }
      // A few texts are the same in other languages (OCR, A4, "{s} s", Menu); many more means English was left in.
      const same = Object.keys(english).filter((k) => messages[k] === english[k]);
      expect(same.length, same.join(', ')).toBeLessThanOrEqual(MAX_SAME_AS_ENGLISH);
    });
  }

  it('has a file for each site language and no other', () => {
    expect(locales.sort()).toEqual(siteLanguages.map((l) => `${l.locale}.json`).sort());
  });
});
