// The activity dialog's event (GET get-ad-list) and the operator's activity settings (/admin).
import type { ActivitySettings, AdInfo } from '@quire/contracts';
import type { AppContext } from '../context.js';
import type { Session } from './accounts.js';
import { activitySettingsOf, storeActivitySettings } from './activitySettings.js';
import { operatorOf } from './operators.js';

/** The event for every page; without an image there is no event, so it never pops up by itself. */
export async function adInfo(ctx: AppContext): Promise<AdInfo> {
  const { adv_popshow, adv_url, adv_img } = await activitySettingsOf(ctx);
  return { adv_popshow: adv_img ? adv_popshow : 0, adv_url, adv_img };
}

export async function activitySettingsFor(ctx: AppContext, session: Session): Promise<ActivitySettings> {
  operatorOf(session);
  return activitySettingsOf(ctx);
}

export async function changeActivitySettings(ctx: AppContext, session: Session, settings: ActivitySettings): Promise<ActivitySettings> {
  const operator = operatorOf(session);
  await storeActivitySettings(ctx, settings);
  console.info(
    `Operator ${operator.email} (${operator.id}) set the referral reward to ${settings.reward_tokens} tokens (cap ${settings.invite_cap}) and the event ${settings.adv_popshow ? 'on' : 'off'}.`,
  );
  return settings;
}
