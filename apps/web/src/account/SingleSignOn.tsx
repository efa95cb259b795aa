// Single sign-on in the page: the dialog's "Continue with …" button opens the provider in a popup
// window; the window comes back to the callback page, which tells every Quire page of this origin
// (`loginSuccessed`, or `loginFailed` with a code) and closes. A blocked popup falls back to
// taking this page itself to the provider and back.
import { SSO_CALLBACK_PAGE, SSO_CHANNEL, SSO_ERROR_PARAM } from '@quire/contracts';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { ssoStartUrl } from '../api/account';
import { keptInvite } from '../activity/activityRules';
import { ApiError } from '../api/client';
import { useI18n, useT } from '../i18n/I18nProvider';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import { FormError } from './formParts';

/** How long the dialog waits for the provider's window, sign-in and consent included. */
const SSO_WAIT_MS = 5 * 60_000;
/** How often the dialog looks whether that window is still open. */
const SSO_POLL_MS = 400;

/**
 * Calls back when a callback page of this origin says a single sign-on succeeded or failed. A
 * BroadcastChannel, not the opener: a provider that isolates its pages
 * (Cross-Origin-Opener-Policy) cuts the popup off from its opener, but never from its origin.
 */
export function useSsoMessages(onSucceeded: () => void, onFailed: (code: number) => void, listening: boolean) {
  useEffect(() => {
    if (!listening) return;
    const channel = new BroadcastChannel(SSO_CHANNEL);
    channel.onmessage = async (e) => {
      // The message's schema (zod) is fetched when one comes, not with every page (ADR 0542).
      const { ssoMessage } = await import('@quire/contracts/ssoMessage');
      const message = ssoMessage.safeParse(e.data);
      if (!message.success) return;
      if (message.data.type === 'loginSuccessed') onSucceeded();
      else onFailed(message.data.code);
    };
    return () => channel.close();
  }, [onSucceeded, onFailed, listening]);
}

/** The code of a failed single sign-on brought back in the address's query (`?sso_error=`). */
export const ssoErrorIn = (search: string) => Number(new URLSearchParams(search).get(SSO_ERROR_PARAM)) || undefined;

/** Takes that code out of the address bar, so a reload or a bookmark does not show it again. */
export function clearSsoError() {
  const url = new URL(window.location.href);
  if (!url.searchParams.has(SSO_ERROR_PARAM)) return;
  url.searchParams.delete(SSO_ERROR_PARAM);
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
}

interface SsoButtonProps {
  /** The provider, as the operator named it. */
  name: string;
  /** The code of the last single sign-on, if it failed. */
  failedWith: number | undefined;
  /** A new attempt starts: the last one's failure is old news. */
  onStart(): void;
}

/**
 * Opens the provider in a popup and says it is waiting while that window is open (up to five
 * minutes, and never after the dialog closed); the callback page's message signs the page in.
 */
export function SsoButton({ name, failedWith, onStart }: SsoButtonProps) {
  const t = useT();
  const { localePath } = useI18n();
  const [popup, setPopup] = useState<Window | null>(null);
  useEffect(() => {
    if (!popup) return;
    const started = Date.now();
    const timer = setInterval(() => {
      if (popup.closed || Date.now() - started > SSO_WAIT_MS) setPopup(null);
    }, SSO_POLL_MS);
    return () => clearInterval(timer);
  }, [popup]);

  const start = () => {
    onStart();
    // A new account made by the sign-in is the friend of the invite link this browser came with.
    const invite = keptInvite();
    const opened = window.open(ssoStartUrl(localePath(SSO_CALLBACK_PAGE), invite), 'quire-sso', 'popup,width=520,height=680');
    if (opened) setPopup(opened);
    else window.location.assign(ssoStartUrl(window.location.pathname + window.location.search, invite));
  };
  return (
    <div className="auth-sso">
      <p className="auth-divider">
        <span>{t('account.or')}</span>
      </p>
      <button type="button" className="button button-outline button-large" onClick={start} data-testid="sso-button">
        {t('account.continueWith', { name })}
      </button>
      {popup && (
        <p className="auth-note auth-sso-waiting" role="status" data-testid="sso-waiting">
          {t('account.ssoWaiting', { name })}
        </p>
      )}
      <FormError error={failedWith && new ApiError(failedWith)} />
    </div>
  );
}

/** Where the provider's popup comes back to: it tells the page that waits, then closes. */
export function SsoCallbackPage() {
  const t = useT();
  const { localePath } = useI18n();
  const [failedWith] = useState(() => ssoErrorIn(window.location.search));
  useDocumentTitle(t('account.signIn'));
  useEffect(() => {
    const channel = new BroadcastChannel(SSO_CHANNEL);
    channel.postMessage(failedWith ? { type: 'loginFailed', code: failedWith } : { type: 'loginSuccessed' });
    channel.close();
    // Closes only a window a script opened, the popup; reached otherwise, the page stays and says what happened.
    window.close();
  }, [failedWith]);
  return (
    <div className="link-page">
      <div className="card link-card" data-testid="sso-callback">
        <h1>{t('account.signIn')}</h1>
        {failedWith ? <FormError error={new ApiError(failedWith)} /> : <p className="auth-note">{t('account.ssoDone')}</p>}
        <Link className="button button-primary" to={localePath('/app/home')}>
          {t('account.ssoContinue')}
        </Link>
      </div>
    </div>
  );
}
