// The operator's calls under /api/account/v1/admin/: 3001 without a session, 3015 for an account
// that is not an operator's.
import {
  activitySettings,
  adminPlanRequest,
  adminUsersPage,
  adminUsersQuery,
  bannerCreateRequest,
  bannerList,
  bannerRef,
  bannerResource,
  messageRef,
  messageSendRequest,
  sentMessage,
  sentMessageList,
  plan,
  selfCheckRequest,
  selfCheckResult,
} from '@quire/contracts';
import { z } from 'zod';
import { activitySettingsFor, changeActivitySettings } from '../services/activity.js';
import { listBanners, publishBanner, withdrawBanner } from '../services/banners.js';
import { operatorSends, sentMessages, withdrawMessage } from '../services/messages.js';
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
    {
      method: 'GET',
      path: `${base}banners`,
      summary: 'Operators: every top banner, the latest window first',
      response: bannerList,
      session: 'operator',
      handler: (_, c) => listBanners(c.ctx, currentSession(c)),
    },
    {
      method: 'POST',
      path: `${base}banners`,
      summary: 'Operators: publish a top banner (title, link, display window in epoch seconds) to every visitor and account',
      body: bannerCreateRequest,
      response: bannerResource,
      session: 'operator',
      handler: ({ body }, c) => publishBanner(c.ctx, currentSession(c), body),
    },
    {
      method: 'DELETE',
      path: `${base}banners`,
      summary: 'Operators: withdraw a top banner at once (2405 for an unknown one)',
      query: bannerRef,
      response: z.null(),
      session: 'operator',
      handler: async ({ query }, c) => {
        await withdrawBanner(c.ctx, currentSession(c), query.resource_id);
        return null;
      },
    },
    {
      method: 'GET',
      path: `${base}activity`,
      summary: "Operators: the referral programme's reward and cap, and the activity dialog's event",
      response: activitySettings,
      session: 'operator',
      handler: (_, c) => activitySettingsFor(c.ctx, currentSession(c)),
    },
    {
      method: 'PUT',
      path: `${base}activity`,
      summary:
        'Operators: set the AI tokens the inviter and the friend each earn per invite (0: the programme is off), the most rewarded invites per account (0: no cap), and the event (image, link, pop-up on or off)',
      body: activitySettings,
      response: activitySettings,
      session: 'operator',
      handler: ({ body }, c) => changeActivitySettings(c.ctx, currentSession(c), body),
    },
    {
      method: 'GET',
      path: `${base}messages`,
      summary: 'Operators: every message and system notice sent, newest first, with how many recipients have read each',
      response: sentMessageList,
      session: 'operator',
      handler: (_, c) => sentMessages(c.ctx, currentSession(c)),
    },
    {
      method: 'POST',
      path: `${base}messages`,
      summary:
        'Operators: send a message (template_type 1) or system notice (2) to everyone, the accounts on a plan or one account by its address (2405 for an unknown one)',
      body: messageSendRequest,
      response: sentMessage,
      session: 'operator',
      handler: ({ body }, c) => operatorSends(c.ctx, currentSession(c), body),
    },
    {
      method: 'DELETE',
      path: `${base}messages`,
      summary: 'Operators: delete a message with its read marks (2405 for an unknown one)',
      query: messageRef,
      response: z.null(),
      session: 'operator',
      handler: async ({ query }, c) => {
        await withdrawMessage(c.ctx, currentSession(c), query.message_id);
        return null;
      },
    },
  ];
}
