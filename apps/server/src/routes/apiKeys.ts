// The account's personal API keys: made, listed and revoked by a session signed in with the
// password, never by a key (a stolen key must not be able to mint more).
import { apiKeyCreated, apiKeyList, createApiKeyRequest, revokeApiKeyRequest } from '@quire/contracts';
import { createApiKey, listApiKeys, revokeApiKey } from '../services/apiKeys.js';
import type { Call, CallContext } from './calls.js';
import { requireSession } from './identity.js';

const base = '/api/account/v1/api-keys';
const accountOf = (c: CallContext) => requireSession(c.identity).account;

export function apiKeyCalls(): Call[] {
  return [
    {
      method: 'GET',
      path: base,
      summary: "The account's API keys: name, first characters, when made and last used (never the key itself)",
      response: apiKeyList,
      session: 'required',
      handler: (_, c) => listApiKeys(c.ctx, accountOf(c)),
    },
    {
      method: 'POST',
      path: base,
      summary: 'Make an API key: it calls the tools API as this account until revoked. The answer is the only time the key is shown',
      body: createApiKeyRequest,
      response: apiKeyCreated,
      session: 'required',
      handler: ({ body }, c) => createApiKey(c.ctx, accountOf(c), body.name),
    },
    {
      method: 'POST',
      path: `${base}/revoke`,
      summary: 'Revoke an API key: it stops working at once; 2405 for an id that is not one of your keys',
      body: revokeApiKeyRequest,
      session: 'required',
      handler: async ({ body }, c) => {
        await revokeApiKey(c.ctx, accountOf(c), body.key_id);
        return null;
      },
    },
  ];
}
