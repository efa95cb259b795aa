// The activity dialog's calls: the event for every page (the tools' GET get-ad-list) and the
// signed-in account's invite link and earnings (the referral programme).
import { adInfo as adInfoAnswer, referralInfo as referralInfoAnswer } from '@quire/contracts';
import { adInfo } from '../services/activity.js';
import { referralInfo } from '../services/referrals.js';
import { currentSession } from './account.js';
import type { Call } from './calls.js';

export function activityCalls(): Call[] {
  return [
    {
      method: 'GET',
      path: '/api/tools/v1/get-ad-list',
      summary:
        "The operator's event for the activity dialog: adv_img (empty: no event), adv_url its link, adv_popshow 1 when it pops up by itself (at most once in 7 days)",
      response: adInfoAnswer,
      session: 'ignored',
      handler: (_, c) => adInfo(c.ctx),
    },
    {
      method: 'GET',
      path: '/api/account/v1/referral',
      summary:
        "The account's invite link (the same ever after), the friends who joined through it and the AI tokens they earned it; reward_tokens is what each side earns per friend now (0: the programme is off)",
      response: referralInfoAnswer,
      session: 'required',
      handler: (_, c) => referralInfo(c.ctx, currentSession(c).account),
    },
  ];
}
