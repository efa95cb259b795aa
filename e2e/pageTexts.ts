// What a reader meets on a page, and how to tell an untranslated text: shared by the language tests.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

/** The texts a reader meets: visible text nodes, and the labels, placeholders and titles of elements. The language picker names each language in its own. */
export function readerTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent?.trim();
      if (!parent || !text || parent.closest('script, style, select, [aria-hidden="true"]')) continue;
      if (parent.getClientRects().length > 0) texts.push(text);
    }
    for (const element of document.querySelectorAll('[aria-label], [placeholder], [title]'))
      for (const name of ['aria-label', 'placeholder', 'title']) {
        const value = element.getAttribute(name)?.trim();
        if (value) texts.push(value);
      }
    return texts;
  });
}

const localesDir = path.join(import.meta.dirname, '../apps/web/src/i18n/locales');
export const textsOf = (locale: string) =>
  JSON.parse(fs.readFileSync(path.join(localesDir, `${locale}.json`), 'utf8')) as Record<string, string>;

/** The texts a translation keeps as English writes them, by choice ("Edit PDF" in Indonesian): the unit test bounds how many. */
export function keptEnglish(locale: string): Set<string> {
  const english = textsOf('en-us');
  const translated = textsOf(locale);
  return new Set(
    Object.keys(english)
      .filter((key) => translated[key] === english[key])
      .map((key) => english[key]!),
  );
}

/** A text of English words (two or more of three letters or more): one a translated page must not show. */
export const englishSentence = (text: string) => (text.match(/\b[A-Za-z]{3,}\b/g) ?? []).length >= 2;
export const looksLikeKey = (text: string) => /^[a-z][A-Za-z]*(\.[A-Za-z_]+)+$/.test(text);
