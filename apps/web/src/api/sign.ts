// Calls of the Sign PDF page under /api/tools/v1/: the account's saved signatures (file/sign) and
// the date a date field shows (query-sign-date).
import {
  deleteSignatureRequest,
  savedSignature,
  savedSignatureList,
  signDateAnswer,
  type SavedSignature,
  type SaveSignatureRequest,
} from '@quire/contracts';
import { apiUrl, getJson, noData, postJson } from './client';

export const listSignatures = async (): Promise<SavedSignature[]> => (await getJson(apiUrl('file/sign'), savedSignatureList)).signatures;

export const saveSignature = (request: SaveSignatureRequest): Promise<SavedSignature> =>
  postJson(apiUrl('file/sign'), request, savedSignature);

export const deleteSignature = (id: string): Promise<null> =>
  postJson(apiUrl('file/sign/delete'), deleteSignatureRequest.parse({ id }), noData);

/** Today's date as the language writes it, on the user's clock. */
export const querySignDate = async (lang: string): Promise<string> =>
  (await getJson(apiUrl('query-sign-date', { lang, tz_offset: -new Date().getTimezoneOffset() }), signDateAnswer)).date;
