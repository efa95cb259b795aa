// OCR languages and limits. The API names languages by
// Tesseract's codes ("eng", "deu", "chi_sim"); the older form ("langen", the default) is
// accepted too. Which ones are offered is whatever the server has installed (GET config).
import { z } from 'zod';

/** Tesseract code -> the language's BCP 47 tag, for its name in the user's language and the older "lang.." form. */
export const ocrLanguageTags: Record<string, string> = {
  eng: 'en',
  deu: 'de',
  fra: 'fr',
  spa: 'es',
  por: 'pt',
  jpn: 'ja',
  chi_sim: 'zh-Hans',
  chi_tra: 'zh-Hant',
  ita: 'it',
  nld: 'nl',
  rus: 'ru',
  kor: 'ko',
};

/** The default, "langen": English. */
export const DEFAULT_OCR_LANGUAGE = 'langen';
/** More languages than this make recognition slow enough to warn about. */
export const OCR_SLOW_LANGUAGES = 3;
/** pdfConvert.ocrLimit: the largest file OCR takes, in MB. */
export const OCR_LIMIT_MB = 100;
export const ocrTooLargeMessage = (mb: number) => `The file is too large for OCR. Please choose a file under ${mb} MB.`;
export const ocrNoLanguageMessage = 'Please select at least one language.';

/** A language code as the API gives it -> Tesseract's code ("langen" -> "eng", "langzh" -> "chi_sim"). */
export function tesseractCode(code: string): string {
  if (!code.startsWith('lang')) return code;
  const tag = code.slice(4).toLowerCase();
  return Object.keys(ocrLanguageTags).find((k) => ocrLanguageTags[k]!.split('-')[0]!.toLowerCase() === tag) ?? code;
}

/** "eng,deu" or "langen" -> ["eng", "deu"], without repeats. */
export const parseOcrLanguages = (list: string): string[] => [
  ...new Set(
    list
      .split(/[,+]/)
      .map((s) => s.trim())
      .filter(Boolean)
      .map(tesseractCode),
  ),
];

export const ocrLanguagesParam = z
  .string()
  .max(300)
  .regex(/^[\w,+ ]*$/, 'Language codes are letters, digits and underscores, separated by commas')
  .refine((s) => parseOcrLanguages(s).length > 0, ocrNoLanguageMessage)
  .describe(
    `OCR languages, comma-separated Tesseract codes (eng,deu) or the spec form (langen); those offered are listed by GET config; ${DEFAULT_OCR_LANGUAGE} unless given`,
  );

/** The converter's OCR options, in its query string. */
// A query flag ("1", "true"), or already a boolean when a parsed call is checked again.
const flag = z.union([z.boolean(), z.stringbool()]);

export const converterOcrOptions = {
  using_ocr: flag.optional().describe('1: recognise the text of a scanned PDF or image first (pdf: the output is the searchable PDF)'),
  languages: ocrLanguagesParam.optional(),
  force_ocr: flag.optional().describe('1: recognise pages that already have text too (their text is replaced)'),
};

/** Outputs of the OCR tool: the searchable PDF, its text, or a Word or Excel document made from it. */
export const ocrOutputFormats = ['pdf', 'txt', 'docx', 'xlsx'] as const;
