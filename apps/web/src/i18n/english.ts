// English, every language's fallback: the shell's texts come with the page, the others with the
// first page that needs them (ADR 0544), the way another language's texts come.
import shellTexts from './locales/en-us.json?shell';
import type { Messages } from './translate';

/** The English texts in so far; the rest joins them once loaded. */
export const english: Messages = { ...shellTexts };

let rest: Promise<void> | undefined;

/** Loads the English texts the shell does not carry (once; again after a failure). */
export function loadEnglishRest(): Promise<void> {
  rest ??= import('./locales/en-us.json?rest').then(
    (texts) => {
      Object.assign(english, texts.default);
    },
    (error: unknown) => {
      rest = undefined;
      throw error;
    },
  );
  return rest;
}
