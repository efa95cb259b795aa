// Signatures: an account's saved signatures (file/sign, signed-in accounts only: 3001 for a
// visitor), the date a date field shows, and how many signatures an account applied. The signing
// itself is the sign tool's call (document/content/:file_id/sign), declared with the other tools.
import {
  deleteSignatureRequest,
  savedSignature,
  savedSignatureList,
  saveSignatureRequest,
  signDateAnswer,
  signDateQuery,
  signTimesAnswer,
} from '@quire/contracts';
import { MAX_SIGNATURE_BYTES } from '@quire/contracts';
import { deleteSignature, listSignatures, saveSignature, signDate, signTimes } from '../services/signatures.js';
import type { Call } from './calls.js';

const base = '/api/tools/v1/';
/** One image as base64 in JSON, with room for the rest of the body. */
const SAVE_SIGNATURE_BODY_BYTES = Math.ceil((MAX_SIGNATURE_BYTES * 4) / 3) + 64 * 1024;
const deleteSummary = "Delete one of the account's saved signatures; 2405 for an id that is not one of them";

export function signCalls(): Call[] {
  return [
    {
      method: 'GET',
      path: `${base}file/sign`,
      summary: "The account's saved signatures (PNG data URLs), newest first",
      response: savedSignatureList,
      session: 'account',
      handler: (_, c) => listSignatures(c.ctx, c.ownerId),
    },
    {
      method: 'POST',
      path: `${base}file/sign`,
      summary: 'Save a signature (a PNG, or an SVG stored as a PNG): 4212 for another image or one too large, 4211 past 20 an account',
      body: saveSignatureRequest,
      response: savedSignature,
      session: 'account',
      bodyLimit: SAVE_SIGNATURE_BODY_BYTES,
      handler: ({ body }, c) => saveSignature(c.ctx, c.ownerId, body),
    },
    {
      method: 'DELETE',
      path: `${base}file/sign`,
      summary: deleteSummary,
      query: deleteSignatureRequest,
      session: 'account',
      handler: ({ query }, c) => deleteSignature(c.ctx, c.ownerId, query.id),
    },
    {
      method: 'POST',
      path: `${base}file/sign/delete`,
      summary: `${deleteSummary} (the same as DELETE file/sign)`,
      body: deleteSignatureRequest,
      session: 'account',
      handler: ({ body }, c) => deleteSignature(c.ctx, c.ownerId, body.id),
    },
    {
      method: 'GET',
      path: `${base}query-sign-date`,
      summary: "Today's date in the format of the user's language (MM/dd/yyyy in English, dd.MM.yyyy in German…)",
      query: signDateQuery,
      response: signDateAnswer,
      handler: async ({ query }) => signDate(query),
    },
    {
      method: 'GET',
      path: `${base}sign-times`,
      summary: 'How many signing tasks the account finished, and the signatures, names and dates they placed',
      response: signTimesAnswer,
      session: 'account',
      handler: (_, c) => signTimes(c.ctx, c.ownerId),
    },
  ];
}
