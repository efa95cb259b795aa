// Calls of the Sign PDF page under /api/tools/v1/: the account's saved signatures (file/sign) and
// the date a date field shows (query-sign-date).
import {
  deleteSignatureRequest,
  type savedSignature,
  type savedSignatureList,
  type signDateAnswer,
  type SavedSignature,
  type SaveSignatureRequest,
} from '@quire/contracts';
import { apiUrl, getJson, postJson, type Answer } from './client';

export const listSignatures = async (): Promise<SavedSignature[]> =>
  (await getJson<Answer<typeof savedSignatureList>>(apiUrl('file/sign'))).signatures;

export const saveSignature = (request: SaveSignatureRequest): Promise<SavedSignature> =>
  postJson<Answer<typeof savedSignature>>(apiUrl('file/sign'), request);

export const deleteSignature = (id: string): Promise<null> =>
  postJson<null>(apiUrl('file/sign/delete'), deleteSignatureRequest.parse({ id }));

/** Today's date as the language writes it, on the user's clock. */
export const querySignDate = async (lang: string): Promise<string> =>
  (await getJson<Answer<typeof signDateAnswer>>(apiUrl('query-sign-date', { lang, tz_offset: -new Date().getTimezoneOffset() }))).date;
