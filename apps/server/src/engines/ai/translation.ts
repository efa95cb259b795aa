// What a model is asked when it translates: the languages it is offered between and its prompt
// for one text. Pasted text (services/aiLanguage.ts) and a PDF's paragraphs (tools/translatePdf.ts)
// are translated alike.
import { ErrorCode, QuireError } from '@quire/contracts';

/** The languages a model translates between: the product's, any direction. */
export const MODEL_LANGUAGES = [
  'ar',
  'cs',
  'de',
  'en',
  'es',
  'fr',
  'hi',
  'id',
  'it',
  'ja',
  'ko',
  'nl',
  'pl',
  'pt',
  'ru',
  'sv',
  'th',
  'tr',
  'uk',
  'vi',
  'zh',
];

/** 11021 unless a model translates from → to: from one of its languages into another. */
export function checkModelPair(from: string, to: string): void {
  if (from === to || !MODEL_LANGUAGES.includes(from) || !MODEL_LANGUAGES.includes(to)) throw new QuireError(ErrorCode.LanguageUnavailable);
}

/** "German" for "de": a model is told languages by their English names. */
export const englishName = (code: string) => new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;

/** The system prompt for one text (the user's message) to translate. */
export const translationSystem = (from: string, to: string) =>
  `Translate the text below from ${englishName(from)} into ${englishName(to)}. Answer with the translation only.`;
