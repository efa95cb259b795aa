// Who is signed in, for the whole page: the account of the session cookie, asked for at load; the
// sign-in dialog, opened from the header, when an API call says the session is gone, or when a
// visitor's work needs an account (its download, a task past the day's allowance).
import { SSO_CALLBACK_PAGE, type UserInfo } from '@quire/contracts';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { adoptSession, fetchMe, signOut as endSession } from '../api/account';
import { onSessionLost, QUIET_SESSION_LOST_CODES } from '../api/client';
import { forgetServerConfig } from '../api/files';
import { useLocation } from 'react-router';
import { splitLocalePrefix } from '../i18n/locales';
import { useT } from '../i18n/I18nProvider';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { SignInDialog, type SignInReason, type SignInView } from './SignInDialog';
import { clearSsoError, ssoErrorIn, useSsoMessages } from './SingleSignOn';

type Status = 'loading' | 'signedOut' | 'signedIn';

interface Session {
  status: Status;
  user: UserInfo | null;
  /** Opens the sign-in dialog at one of its views. */
  openSignIn(view?: SignInView): void;
  /** Opens the dialog headed by why it is asked; true once signed in (and `onSignIn` work done), false if closed. */
  requireSignIn(reason: SignInReason): Promise<boolean>;
  /**
   * Adds work done as a sign-in in the dialog completes, before anything waiting for it resumes
   * (moving the visitor's files and tasks to the account); returns the removal.
   */
  onSignIn(work: () => Promise<unknown>): () => void;
  /** Takes the user info of a new sign-in: the dialog's today, a sign-in frame's message later. */
  signedIn(user: UserInfo): void;
  /** Forgets the account here without asking the server (the server ended the session). */
  signedOut(): void;
  signOut(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

/** Who is signed in at load, and a session link's token the address brought over a live session, to ask about. */
interface AtLoad {
  user: UserInfo | null;
  offered?: string;
}

let atLoad: Promise<AtLoad> | undefined;

/**
 * Who is signed in when the page loads, asked once (React may start the effect twice). A product
 * link may carry a session link's token in its `token` query: it leaves the address bar at once,
 * so it is neither bookmarked nor shared. A browser signed in to no account is signed in with it;
 * one signed in already is asked first, since any site can link here with a token of its own.
 */
function sessionAtLoad(): Promise<AtLoad> {
  if (atLoad) return atLoad;
  const url = new URL(window.location.href);
  const token = url.searchParams.get('token');
  if (token !== null) {
    url.searchParams.delete('token');
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
  }
  atLoad = fetchMe().then(
    (user) => (token === null ? { user } : { user, offered: token }),
    // A token that opens no session leaves the browser signed out.
    () =>
      token === null
        ? { user: null }
        : adoptSession(token).then(
            (user) => ({ user }),
            () => ({ user: null }),
          ),
  );
  return atLoad;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const t = useT();
  const [user, setUser] = useState<UserInfo | null>(null);
  const [status, setStatus] = useState<Status>('loading');
  // The single sign-on callback page speaks for the sign-in; every other page listens to it.
  const [ssoCallback] = useState(() => splitLocalePrefix(window.location.pathname).rest === SSO_CALLBACK_PAGE);
  // A single sign-on that failed came back to this page: the dialog opens saying why.
  const [ssoError, setSsoError] = useState(() => (ssoCallback ? undefined : ssoErrorIn(window.location.search)));
  useEffect(() => {
    if (!ssoCallback) clearSsoError();
  }, [ssoCallback]);
  // The dialog belongs to the page it was opened on (`on`, its path): moving to another one closes it.
  const [dialog, setDialog] = useState<{ view: SignInView; reason?: SignInReason; on: string } | null>(
    ssoError ? { view: 'signIn', on: window.location.pathname } : null,
  );
  const statusRef = useRef(status);
  statusRef.current = status;
  const waiting = useRef<((signedIn: boolean) => void)[]>([]);
  const signInWork = useRef(new Set<() => Promise<unknown>>());

  // The limits the page checks files against are the plan's: asked again for the new one.
  const signedIn = useCallback((next: UserInfo) => {
    forgetServerConfig();
    setUser(next);
    setStatus('signedIn');
  }, []);
  const signedOut = useCallback(() => {
    forgetServerConfig();
    setUser(null);
    setStatus('signedOut');
  }, []);

  // A session link opened while signed in: the account to switch to, once the user says so.
  const [offered, setOffered] = useState<string>();
  useEffect(() => {
    let current = true;
    void sessionAtLoad().then(({ user: me, offered: token }) => {
      if (!current) return;
      if (me) signedIn(me);
      else signedOut();
      setOffered(token);
    });
    return () => {
      current = false;
    };
  }, [signedIn, signedOut]);
  const switchAccount = useCallback(
    (token: string) => {
      setOffered(undefined);
      // A link used or expired meanwhile leaves the account signed in as it was.
      adoptSession(token).then(signedIn, () => undefined);
    },
    [signedIn],
  );

  // 3001 or 1408 from any call: this page is no longer signed in, and is offered to sign in again
  // (1401 and 3011 sign it out without the offer). The question asked at load is expected to answer
  // so for a visitor, and opens nothing.
  useEffect(
    () =>
      onSessionLost((code) => {
        if (statusRef.current === 'loading') return;
        signedOut();
        if (!QUIET_SESSION_LOST_CODES.includes(code)) setDialog({ view: 'signIn', on: window.location.pathname });
      }),
    [signedOut],
  );

  const closeDialog = useCallback((signedInNow: boolean) => {
    setDialog(null);
    setSsoError(undefined);
    for (const resolve of waiting.current.splice(0)) resolve(signedInNow);
  }, []);
  // However the sign-in came (password or single sign-on), the visitor's work moves first.
  const completeSignIn = useCallback(
    async (next: UserInfo) => {
      // A failure here leaves that work the visitor's: its download then says what is missing.
      await Promise.allSettled([...signInWork.current].map((work) => work()));
      signedIn(next);
      closeDialog(true);
    },
    [signedIn, closeDialog],
  );
  const ssoSucceeded = useCallback(() => {
    fetchMe().then(completeSignIn, () => undefined);
  }, [completeSignIn]);
  const ssoFailed = useCallback((code: number) => {
    setSsoError(code);
    setDialog((open) => open ?? { view: 'signIn', on: window.location.pathname });
  }, []);
  useSsoMessages(ssoSucceeded, ssoFailed, !ssoCallback);

  // The browser's Back from an AI page, say: its sign-in dialog does not follow to the next page.
  const { pathname } = useLocation();
  useEffect(() => {
    if (dialog && dialog.on !== pathname) closeDialog(false);
  }, [dialog, pathname, closeDialog]);

  const value = useMemo<Session>(
    () => ({
      status,
      user,
      openSignIn: (view = 'signIn') => setDialog({ view, on: window.location.pathname }),
      requireSignIn: (reason) =>
        new Promise((resolve) => {
          waiting.current.push(resolve);
          setDialog({ view: 'signIn', reason, on: window.location.pathname });
        }),
      onSignIn(work) {
        signInWork.current.add(work);
        return () => signInWork.current.delete(work);
      },
      signedIn,
      signedOut,
      async signOut() {
        await endSession();
        signedOut();
      },
    }),
    [status, user, signedIn, signedOut],
  );

  return (
    <SessionContext.Provider value={value}>
      {children}
      {offered && user && (
        <ConfirmDialog
          title={t('account.switchTitle')}
          message={t('account.switchText', { email: user.email })}
          confirmLabel={t('account.switchConfirm')}
          cancelLabel={t('account.switchStay')}
          onConfirm={() => switchAccount(offered)}
          onCancel={() => setOffered(undefined)}
        />
      )}
      {dialog && (
        <SignInDialog
          initialView={dialog.view}
          {...(dialog.reason && { reason: dialog.reason })}
          ssoError={ssoError}
          onSsoStart={() => setSsoError(undefined)}
          onSignedIn={completeSignIn}
          onClose={() => closeDialog(false)}
        />
      )}
    </SessionContext.Provider>
  );
}

export function useSession(): Session {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}
