// Translation keys come from the source: every key used must exist in en-us and de-de, and no
// locale may carry keys or placeholders that en-us does not have.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLAN_NAMES } from '../account/accountForms';
import { TOOL_LOOK } from '../editor/tools';
import { appPages, sidebarItems } from '../layout/navigation';
import { PLAN_FEATURES } from '../pricing/prices';
import { sortKeys, templateCategoryKeys } from '../templates/templateModel';
import { toolPages } from '../tool/toolPages';
import deDe from './locales/de-de.json';
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
  for (const item of sidebarItems) {
    keys.add(item.labelKey);
    if (item.kind === 'group') for (const child of item.children) if (child.kind === 'soon') keys.add(child.labelKey);
  }
  return keys;
}

const placeholders = (text: string) => [...new Set(text.match(/\{\w+\}/g) ?? [])].sort();
const locales = readdirSync(localesDir).filter((f) => f.endsWith('.json'));

describe('translation keys', () => {
  const keys = usedKeys();

  it('finds the keys in the source', () => {
    expect(keys.size).toBeGreaterThan(50);
    expect(keys).toContain('upload.selectFiles');
  });

  for (const [name, messages] of [
    ['en-us', enUs],
    ['de-de', deDe],
  ] as const) {
    it(`${name} has every key the source uses`, () => {
      const missing = [...keys].filter((k) => !(k in messages));
      expect(missing).toEqual([]);
    });
  }

  it('en-us has no keys the source no longer uses', () => {
    expect(Object.keys(enUs).filter((k) => !keys.has(k))).toEqual([]);
  });

  for (const file of locales) {
    it(`${file} has only en-us keys, with the same placeholders`, () => {
      const messages = JSON.parse(readFileSync(join(localesDir, file), 'utf8')) as Record<string, string>;
      const english = enUs as Record<string, string>;
      expect(Object.keys(messages).filter((k) => !(k in english))).toEqual([]);
      for (const [key, text] of Object.entries(messages)) {
        expect(placeholders(text), `${file} ${key}`).toEqual(placeholders(english[key]!));
      }
    });
  }
});
