// The operator's activity settings: the referral reward and cap, and the event (spec §2). Kept as
// site settings by name; a setting never saved has its default (the programme off, no event).
import type { ActivitySettings } from '@quire/contracts';
import type { AppContext } from '../context.js';
import { saveSiteSettings, siteSettings } from '../db/siteSettingsRepo.js';

const DEFAULTS: ActivitySettings = { reward_tokens: 0, invite_cap: 0, adv_popshow: 0, adv_url: '', adv_img: '' };
const NAMES = Object.keys(DEFAULTS) as (keyof ActivitySettings)[];
const PREFIX = 'activity.';

export async function activitySettingsOf(ctx: AppContext): Promise<ActivitySettings> {
  const saved = await siteSettings(
    ctx.db,
    NAMES.map((n) => PREFIX + n),
  );
  const value = (name: keyof ActivitySettings) => saved.get(PREFIX + name);
  const count = (name: 'reward_tokens' | 'invite_cap') => Number(value(name) ?? DEFAULTS[name]);
  return {
    reward_tokens: count('reward_tokens'),
    invite_cap: count('invite_cap'),
    adv_popshow: value('adv_popshow') === '1' ? 1 : 0,
    adv_url: value('adv_url') ?? DEFAULTS.adv_url,
    adv_img: value('adv_img') ?? DEFAULTS.adv_img,
  };
}

export async function storeActivitySettings(ctx: AppContext, settings: ActivitySettings): Promise<void> {
  await saveSiteSettings(ctx.db, Object.fromEntries(NAMES.map((n) => [PREFIX + n, String(settings[n])])));
}
