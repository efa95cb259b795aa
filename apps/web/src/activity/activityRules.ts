// The activity dialog's rules: where the floating box shows, when the event pops up by itself, and
// the invite code a link brought, kept until this browser signs up.
import { ACTIVITY_REPEAT_DAYS, type AdInfo, INVITE_PARAM } from '@quire/contracts';

/** The pages of the AI tools and the editor keep their corner free: no floating activity box. */
const BOX_HIDDEN_ON = ['chat-pdf', 'ai-read', 'ai-proofread', 'ai-translator', 'pdf-editor'];
const REPEAT_MS = ACTIVITY_REPEAT_DAYS * 24 * 3600_000;
const SHOWN_KEY = 'quire.activityShownAt';
const INVITE_KEY = 'quire.invite';

/** `path` is the page's path without its language prefix. */
export const activityBoxShown = (path: string) => !BOX_HIDDEN_ON.some((page) => path === `/app/${page}`);

/** The event pops up by itself when the operator turned it on and it did not in the last 7 days here. */
export function eventPopUpDue(ad: AdInfo, shownAt: number | undefined, now: number): boolean {
  return ad.adv_popshow === 1 && (shownAt === undefined || now - shownAt > REPEAT_MS);
}

function stored(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function store(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // No storage: the pop-up may show again, an invite is forgotten at the next page.
  }
}

export function eventShownAt(): number | undefined {
  const kept = Number(stored(SHOWN_KEY));
  return kept > 0 ? kept : undefined;
}
export const rememberEventShown = (at: number) => store(SHOWN_KEY, String(at));

/** Keeps the code of an invite link (`?invite=`) the page was opened with, for the sign-up to carry. */
export function keepInviteFrom(search: string): void {
  const code = new URLSearchParams(search).get(INVITE_PARAM)?.trim();
  if (code) store(INVITE_KEY, code.slice(0, 64));
}
export const keptInvite = (): string | undefined => stored(INVITE_KEY) ?? undefined;
/** Signed up: the invite has been used. */
export const forgetInvite = () => store(INVITE_KEY, null);
