// The pages the account mails link to: each reads the token from the fragment, clears it from the
// address bar (so it is not bookmarked or shared) and hands it to the account service.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ErrorCode } from '@quire/contracts';
import { confirmEmail, fetchMe, resendConfirmation, resetPassword, verifyEmail } from '../api/account';
import { ApiError } from '../api/client';
import { useT } from '../i18n/I18nProvider';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import { emailProblem, linkToken, passwordProblem } from './accountForms';
import { EmailField, FormError, PasswordField, useRequest } from './formParts';
import { useSession } from './session';

export type LinkKind = 'verify-email' | 'reset-password' | 'confirm-email';

/** The token, read once and then removed from the address bar. */
function useLinkToken(): string | undefined {
  const [token] = useState(() => linkToken(window.location.hash));
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
  }, []);
  return token;
}

export function LinkPage({ kind }: { kind: LinkKind }) {
  const t = useT();
  const token = useLinkToken();
  const title =
    kind === 'verify-email' ? t('account.verifyTitle') : kind === 'confirm-email' ? t('account.confirmTitle') : t('account.resetTitle');
  useDocumentTitle(title);
  return (
    <div className="link-page">
      <div className="card link-card" data-testid="link-page">
        <h1>{title}</h1>
        {!token ? (
          <FormError error={t('account.linkIncomplete')} />
        ) : kind === 'reset-password' ? (
          <ResetForm token={token} />
        ) : (
          <AddressConfirmation token={token} kind={kind} />
        )}
      </div>
    </div>
  );
}

function AddressConfirmation({ token, kind }: { token: string; kind: 'verify-email' | 'confirm-email' }) {
  const t = useT();
  const session = useSession();
  const [confirmed, setConfirmed] = useState<string>();
  const request = useRequest();
  // A link works once: React's development double start must not post it twice.
  const posted = useRef(false);
  useEffect(() => {
    if (posted.current) return;
    posted.current = true;
    void request.run(async () => setConfirmed((await (kind === 'verify-email' ? verifyEmail(token) : confirmEmail(token))).email));
  }, [kind, token, request.run]);
  const { status, signedIn } = session;
  // A signed-in page shows the new address at once; a confirmed sign-up signed a signed-out
  // browser in, which the page learns once (a sign-out later must not ask again).
  const askedWho = useRef(false);
  useEffect(() => {
    if (!confirmed || askedWho.current) return;
    if (kind === 'confirm-email' ? status !== 'signedIn' : status !== 'signedOut') return;
    askedWho.current = true;
    void fetchMe().then(signedIn, () => undefined);
  }, [confirmed, kind, status, signedIn]);

  if (request.error) {
    const expired = kind === 'verify-email' && request.error instanceof ApiError && request.error.code === ErrorCode.LinkExpired;
    return (
      <>
        <FormError error={request.error} />
        {expired && status !== 'signedIn' && <NewConfirmationLink />}
      </>
    );
  }
  if (!confirmed) return <p className="muted">{t('account.checking')}</p>;
  return (
    <div className="link-result" data-testid="link-done">
      <p>
        {kind === 'confirm-email'
          ? t('account.emailChanged', { email: confirmed })
          : status === 'signedIn'
            ? t('account.verifiedSignedIn', { email: confirmed })
            : t('account.verified', { email: confirmed })}
      </p>
      {session.status === 'signedOut' && (
        <button type="button" className="button button-primary" data-testid="link-signin" onClick={() => session.openSignIn('signIn')}>
          {t('account.signIn')}
        </button>
      )}
    </div>
  );
}

/** The way on from an expired or used confirmation link: a new one mailed to the address typed. */
function NewConfirmationLink() {
  const t = useT();
  const [email, setEmail] = useState('');
  const [checked, setChecked] = useState(false);
  const [mailedTo, setMailedTo] = useState<string>();
  const request = useRequest();
  const problem = emailProblem(email);
  if (mailedTo) {
    return (
      <p className="link-result" data-testid="resend-done">
        {t('account.newLinkMailed', { email: mailedTo })}
      </p>
    );
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (problem) return;
    void request.run(async () => setMailedTo((await resendConfirmation(email.trim())).email));
  };
  return (
    <form className="auth-form" noValidate onSubmit={submit} data-testid="resend-form">
      <p>{t('account.newLinkOffer')}</p>
      <EmailField label={t('account.email')} value={email} onValue={setEmail} problem={problem} shown={checked} />
      <FormError error={request.error} />
      <button type="submit" className="button button-primary button-large" disabled={request.busy} data-testid="resend-submit">
        {t('account.sendNewLink')}
      </button>
    </form>
  );
}

function ResetForm({ token }: { token: string }) {
  const t = useT();
  const session = useSession();
  const [password, setPassword] = useState('');
  const [checked, setChecked] = useState(false);
  const [done, setDone] = useState(false);
  const request = useRequest();
  const problem = passwordProblem(password);

  if (done) {
    return (
      <div className="link-result" data-testid="link-done">
        <p>{t('account.passwordReset')}</p>
        <button type="button" className="button button-primary" data-testid="link-signin" onClick={() => session.openSignIn('signIn')}>
          {t('account.signIn')}
        </button>
      </div>
    );
  }
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (problem) return;
    void request.run(async () => {
      await resetPassword(token, password);
      // Every session of the account ended with the reset, this page's too.
      session.signedOut();
      setDone(true);
    });
  };
  return (
    <form className="auth-form" noValidate onSubmit={submit} data-testid="reset-form">
      <PasswordField label={t('account.newPassword')} value={password} onValue={setPassword} problem={problem} shown={checked} chosen />
      <FormError error={request.error} />
      <button type="submit" className="button button-primary button-large" disabled={request.busy} data-testid="reset-submit">
        {t('account.setPassword')}
      </button>
    </form>
  );
}
