// The unread counts every bell shows: asked for when a bell first shows, when the window regains
// the focus and when the session changes, never on a timer; marking read sets them from the answer.
import type { UnreadCounts } from '@quire/contracts';
import { useEffect, useSyncExternalStore } from 'react';
import { fetchUnread } from '../api/messages';

const NONE: UnreadCounts = { total_unread_count: 0, unread_msg_count: 0, unread_system_count: 0 };
let counts = NONE;
const listeners = new Set<() => void>();
let asking: Promise<void> | undefined;

export function setUnreadCounts(next: UnreadCounts) {
  counts = next;
  for (const listener of listeners) listener();
}

/** Asks the server once, however many bells ask at the same moment. */
export function refreshUnread(): Promise<void> {
  asking ??= fetchUnread()
    .then(setUnreadCounts, () => undefined)
    .finally(() => {
      asking = undefined;
    });
  return asking;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The counts, kept fresh while mounted; `who` (the signed-in account, or none) asks again when it changes. */
export function useUnreadCounts(who: string | undefined): UnreadCounts {
  useEffect(() => {
    void who;
    void refreshUnread();
    const onFocus = () => void refreshUnread();
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [who]);
  return useSyncExternalStore(subscribe, () => counts);
}
