// Every tool page of the registry has exactly one web record, and its texts are translated.
import { toolDefinitions } from '@quire/contracts';
import { describe, expect, it } from 'vitest';
import enUs from '../i18n/locales/en-us.json';
import { toolPageOf, toolPages } from './toolPages';

const registrySlugs = toolDefinitions.map((tool) => tool.slug);

describe('tool page records', () => {
  it('exist for every page of the registry', () => {
    expect(registrySlugs.filter((slug) => !(slug in toolPages))).toEqual([]);
  });

  it('belong to a page of the registry', () => {
    expect(Object.keys(toolPages).filter((slug) => !registrySlugs.includes(slug))).toEqual([]);
  });

  it('name texts that en-us has', () => {
    const missing = Object.entries(toolPages).flatMap(([slug, { texts }]) =>
      Object.values(texts)
        .filter((key) => !(key in enUs))
        .map((key) => `${slug}: ${key}`),
    );
    expect(missing).toEqual([]);
  });

  it('are found by slug, and a page without one is an error', () => {
    expect(toolPageOf({ slug: 'pdf-to-jpg' }).texts.title).toBe('tools.pdf_to_jpg.title');
    expect(() => toolPageOf({ slug: 'no-such-page' })).toThrow(/no-such-page/);
  });
});
