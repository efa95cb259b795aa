// The activity dialog's constants, without zod: the page's shell imports them (ADR 0542).

/** The query parameter of an invite link: `/?invite=CODE`. */
export const INVITE_PARAM = 'invite';
/** The event pop-up opens by itself again only after this many days (spec §4). */
export const ACTIVITY_REPEAT_DAYS = 7;
/** The referral page the activity dialog embeds (under the page's language prefix). */
export const ACTIVITY_FREE_PATH = '/app/activity/free';
/** The message the embedded referral page posts to its dialog to be closed (spec §2). */
export const ACTIVITY_CLOSE_MESSAGE = 'quire:activity-close';
/** The message the embedded referral page posts once it shows its content. */
export const ACTIVITY_LOADED_MESSAGE = 'quire:activity-loaded';
