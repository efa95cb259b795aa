// The translator's and the proofreader's calls (classic: Apertium, Hunspell and style rules).
import {
  proofreadAnswer,
  proofreadLanguages as proofreadLanguagesAnswer,
  translateTextAnswer,
  translationLanguages,
  type ProofreadAnswer,
  type ProofreadLanguages,
  type TranslateTextAnswer,
  type TranslationLanguages,
} from '@quire/contracts';
import { aiGet, aiPost, aiUrl } from './ai';

export const translationPairs = (): Promise<TranslationLanguages> => aiGet('translate/languages', {}, translationLanguages);

export const translateText = (text: string, from: string, to: string): Promise<TranslateTextAnswer> =>
  aiPost('translate/text', { text, from, to }, translateTextAnswer);

/** The task call that translates a PDF into a new PDF (run and followed as the tools' tasks are). */
export const TRANSLATE_FILE_CALL = aiUrl('translate/file');

export const proofreadLanguages = (): Promise<ProofreadLanguages> => aiGet('proofread/languages', {}, proofreadLanguagesAnswer);

export const proofreadText = (text: string, lang: string): Promise<ProofreadAnswer> =>
  aiPost('proofread/text', { text, lang }, proofreadAnswer);

export const proofreadFile = (fileId: string, lang: string): Promise<ProofreadAnswer> =>
  aiPost('proofread/file', { file_id: fileId, lang }, proofreadAnswer);
