// The operator's calls under /api/account/v1/admin/: 3001 without a session, 3015 for an account
// that is not an operator's.
import { adminPlanRequest, adminUsersPage, adminUsersQuery, plan, selfCheckRequest, selfCheckResult } from '@quire/contracts';
import { z } from 'zod';
import { changePlan, listAccounts } from '../services/operators.js';
import { runSelfCheck } from '../services/selfCheck.js';
import { currentSession } from './account.js';
import type { Call } from './calls.js';

const base = '/api/account/v1/admin/';

export function adminCalls(): Call[] {
  return [
    {
      method: 'GET',
      path: `${base}users`,
      summary: 'Operators: a page of the accounts (newest first) whose address contains q, with what each holds now',
      query: adminUsersQuery,
      response: adminUsersPage,
      session: 'operator',
      handler: ({ query }, c) => listAccounts(c.ctx, currentSession(c), query.q, query.page),
    },
    {
      method: 'POST',
      path: `${base}plan`,
      summary: "Operators: change an account's plan, at once (2405 for an unknown account)",
      body: adminPlanRequest,
      session: 'operator',
      response: z.object({ user_id: z.string(), plan }),
      handler: ({ body }, c) => changePlan(c.ctx, currentSession(c), body.user_id, body.plan),
    },
    {
      method: 'POST',
      path: `${base}self-check`,
      summary:
        "Operators: one check of the instance's engines (/app/automated-test): a sample made, uploaded and run as a task through the queue and a worker, its output verified, all of it deleted after; a failure is answered as ok false with its reason",
      body: selfCheckRequest,
      session: 'operator',
      response: selfCheckResult,
      handler: ({ body }, c) => runSelfCheck(c.ctx, c.ownerId, currentSession(c), body.check),
    },
  ];
}
