// The occupation survey's call, among the product calls under /api/ai/v2/ (a signed-in account's;
// 3001 for a visitor).
import { occupationRequest, occupationSaved } from '@quire/contracts';
import { collectOccupation } from '../services/survey.js';
import { aiCall } from './ai.js';
import type { Call } from './calls.js';

export function surveyCalls(): Call[] {
  return [
    aiCall({
      method: 'POST',
      path: 'user-ext-info/collect',
      summary:
        "The account's occupation from the survey, kept as its career (the user info's career); 3100 for a choice not listed or Other without its 1–48 characters",
      body: occupationRequest,
      response: occupationSaved,
      handler: ({ body }, c) => collectOccupation(c.ctx, c.identity, body.occupation),
    }),
  ];
}
