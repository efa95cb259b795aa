// Who is signed in, for the whole page: the account of the session cookie, asked for at load; the
// sign-in dialog, opened from the header or when an API call says the session is gone.
import type { UserInfo } from '@quire/contracts';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { adoptSession, fetchMe, signOut as endSession } from '../api/account';
import { onSessionLost } from '../api/client';
import { SignInDialog, type SignInView } from './SignInDialog';

type Status = 'loading' | 'signedOut' | 'signedIn';

interface Session {
  status: Status;
  user: UserInfo | null;
  /** Opens the sign-in dialog at one of its views. */
  openSignIn(view?: SignInView): void;
  /** Takes the user info of a new sign-in: the dialog's today, a sign-in frame's message later. */
  signedIn(user: UserInfo): void;
  /** Forgets the account here without asking the server (the server ended the session). */
  signedOut(): void;
  signOut(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

let atLoad: Promise<UserInfo> | undefined;

/**
 * Who is signed in when the page loads, asked once (React may start the effect twice). A product
 * link may carry a session's token in its `token` query: it leaves the address bar at once, so it
 * is neither bookmarked nor shared, and becomes this browser's session cookie.
 */
function sessionAtLoad(): Promise<UserInfo> {
  if (atLoad) return atLoad;
  const url = new URL(window.location.href);
  const token = url.searchParams.get('token');
  if (token === null) {
    atLoad = fetchMe();
    return atLoad;
  }
  url.searchParams.delete('token');
  window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
  // A token that opens no session leaves whatever session the cookie holds.
  atLoad = adoptSession(token).catch(() => fetchMe());
  return atLoad;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<UserInfo | null>(null);
  const [status, setStatus] = useState<Status>('loading');
  const [dialogView, setDialogView] = useState<SignInView | null>(null);
  const statusRef = useRef(status);
  statusRef.current = status;

  const signedIn = useCallback((next: UserInfo) => {
    setUser(next);
    setStatus('signedIn');
  }, []);
  const signedOut = useCallback(() => {
    setUser(null);
    setStatus('signedOut');
  }, []);

  useEffect(() => {
    let current = true;
    sessionAtLoad().then(
      (me) => current && signedIn(me),
      () => current && signedOut(),
    );
    return () => {
      current = false;
    };
  }, [signedIn, signedOut]);

  // 3001 or 1408 from any call: this page is no longer signed in. The question asked at load is
  // expected to answer so for a visitor, and opens nothing.
  useEffect(
    () =>
      onSessionLost(() => {
        if (statusRef.current === 'loading') return;
        signedOut();
        setDialogView('signIn');
      }),
    [signedOut],
  );

  const value = useMemo<Session>(
    () => ({
      status,
      user,
      openSignIn: (view = 'signIn') => setDialogView(view),
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
      {dialogView && (
        <SignInDialog
          initialView={dialogView}
          onSignedIn={(next) => {
            signedIn(next);
            setDialogView(null);
          }}
          onClose={() => setDialogView(null)}
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
