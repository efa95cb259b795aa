import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { catalogueTexts } from './catalogueFiles.js';
import { ErrorCode, errorMessages } from './errors.js';
import { siteLanguages } from './languages.js';

const codes = Object.keys(errorMessages).filter((code) => code !== String(ErrorCode.Ok));

describe('the error catalogue in every language', () => {
  it('has a file for each site language but English, and no other', () => {
    const files = fs.readdirSync(new URL('./catalogue/', import.meta.url)).sort();
    expect(files).toEqual(
      siteLanguages
        .filter((l) => l.locale !== 'en-us')
        .map((l) => `${l.locale}.json`)
        .sort(),
    );
    expect(catalogueTexts('en-us')).toEqual({});
  });

  for (const { locale } of siteLanguages.filter((l) => l.locale !== 'en-us'))
    it(`${locale} words every code, and is not English`, () => {
      const texts = catalogueTexts(locale) as Record<string, string>;
      expect(Object.keys(texts).sort()).toEqual([...codes].sort());
      for (const code of codes) expect(texts[code]!.trim(), `${locale} ${code}`).not.toBe('');
      // A message or two may read the same ("OK"), not the catalogue.
      const same = codes.filter((code) => texts[code] === errorMessages[Number(code) as ErrorCode]);
      expect(same.length, same.join(', ')).toBeLessThanOrEqual(2);
    });
});
