// Leaving a tool page with files in the list asks first: a link in the app through the router's
// blocker, closing or reloading the tab through the browser's own beforeunload question.
import { useEffect } from 'react';
import { NavigationType, useBlocker } from 'react-router';
import { splitLocalePrefix } from '../i18n/locales';

/**
 * `active`: there is work to lose. Back and Forward are not held up: the list is kept in the
 * session and shows again on return. Switching language stays on the same page, so it is let through.
 */
export function useLeaveConfirm(active: boolean) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation, historyAction }) =>
      active &&
      historyAction !== NavigationType.Pop &&
      splitLocalePrefix(currentLocation.pathname).rest !== splitLocalePrefix(nextLocation.pathname).rest,
  );

  useEffect(() => {
    if (!active) return;
    const ask = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [active]);

  return blocker.state === 'blocked' ? { proceed: blocker.proceed, stay: blocker.reset } : null;
}
