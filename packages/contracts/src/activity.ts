// The activity dialog (spec §2): its free kind is the referral programme — each account's invite
// link, and a friend who signs up through it earns both accounts the operator's AI tokens — and its
// event kind is the operator's advertisement image (the ad info of GET get-ad-list).
import { z } from 'zod';
import { siteLink } from './banners.js';

/** The invite code sign-up carries: one no account has is ignored, so sign-up still works. */
export const inviteCode = z.string().trim().max(64).describe("The code of an inviter's link");

/** GET /api/tools/v1/get-ad-list: the operator's event (spec: adv_popshow, adv_url, adv_img). */
export const adInfo = z.object({
  adv_popshow: z.union([z.literal(0), z.literal(1)]).describe('1: the event pop-up opens by itself (once per 7 days)'),
  adv_url: z.string().describe('Where a click on the image goes; empty for none'),
  adv_img: z.string().describe('The advertisement image; empty when there is no event'),
});
export type AdInfo = z.infer<typeof adInfo>;

/** GET /api/account/v1/referral: the signed-in account's invite link and what it earned. */
export const referralInfo = z.object({
  invite_code: z.string(),
  invite_link: z.string(),
  friends_joined: z.number().int().describe('Friends whose accounts were created (and confirmed) through the link'),
  tokens_earned: z.number().int(),
  reward_tokens: z.number().int().describe('AI tokens each side earns per friend now; 0: the programme is off'),
});
export type ReferralInfo = z.infer<typeof referralInfo>;

const imageAddress = z
  .string()
  .trim()
  .max(2000)
  .refine(
    (u) => u === '' || /^\/(?!\/)/.test(u) || /^https?:\/\/[^\s]+$/i.test(u),
    'An image is a path of the site or an http(s) address.',
  );

/** GET and PUT /api/account/v1/admin/activity: the operator's referral reward and event. */
export const activitySettings = z.object({
  reward_tokens: z
    .number()
    .int()
    .min(0)
    .max(100_000_000)
    .describe('AI tokens the inviter and the friend each earn; 0 turns the programme off'),
  invite_cap: z.number().int().min(0).max(1_000_000).describe('The most rewarded invites per account; 0: no cap'),
  adv_popshow: z.union([z.literal(0), z.literal(1)]),
  adv_url: z.union([z.literal(''), siteLink]),
  adv_img: imageAddress,
});
export type ActivitySettings = z.infer<typeof activitySettings>;
