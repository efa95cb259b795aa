// The sign-in dialog: sign in, create an account, or ask for a link to choose a new password.
import type { UserInfo } from '@quire/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { forgetInvite, keptInvite } from '../activity/activityRules';
import { fetchSignInOptions, forgotPassword, register, signIn } from '../api/account';
import { useT } from '../i18n/I18nProvider';
import { Icon } from '../ui/Icon';
import { useModal } from '../ui/useModal';
import { emailProblem, passwordProblem } from './accountForms';
import { EmailField, FormError, PasswordField, useRequest } from './formParts';
import { SsoButton } from './SingleSignOn';

export type SignInView = 'signIn' | 'register' | 'forgot';
/** Why the page asks for a sign-in, said at the top of the dialog. */
export type SignInReason =
  | { kind: 'download' }
  | { kind: 'cloud' }
  | { kind: 'ai' }
  | { kind: 'sharedFile' }
  | { kind: 'taskLimit'; tasksPerDay: number };

interface SignInDialogProps {
  initialView: SignInView;
  reason?: SignInReason;
  /** The code of the last single sign-on, if it failed. */
  ssoError: number | undefined;
  onSsoStart(): void;
  onSignedIn(user: UserInfo): Promise<void>;
  onClose(): void;
}

export function SignInDialog({ initialView, reason, ssoError, onSsoStart, onSignedIn, onClose }: SignInDialogProps) {
  const t = useT();
  const [view, setView] = useState(initialView);
  const [ssoName, setSsoName] = useState<string>();
  useEffect(() => {
    // Without the answer the dialog offers passwords only.
    void fetchSignInOptions().then(
      (options) => setSsoName(options.sso?.name),
      () => undefined,
    );
  }, []);
  // The address carries over between the views, so switching never asks for it twice.
  const [email, setEmail] = useState('');
  // showModal focuses the first control, a tab; the address field is where typing starts.
  const modal = useModal(onClose, 'input');

  return (
    <dialog {...modal} className="auth-dialog" aria-labelledby={reason ? 'auth-reason' : 'auth-title'} data-testid="signin-dialog">
      <aside className="auth-aside">
        <h2>{t('account.asideTitle')}</h2>
        <ul>
          {[t('account.featureTools'), t('account.featureBatch'), t('account.featureTokens'), t('account.featureAi')].map((text) => (
            <li key={text}>
              <Icon name="check" size={18} />
              {text}
            </li>
          ))}
        </ul>
      </aside>
      <div className="auth-main">
        <button type="button" className="icon-button auth-close" aria-label={t('account.close')} onClick={onClose}>
          <Icon name="close" />
        </button>
        {reason && <ReasonNote reason={reason} />}
        {view === 'forgot' ? (
          <ForgotForm email={email} onEmail={setEmail} onBack={() => setView('signIn')} />
        ) : (
          <>
            <div className="auth-tabs" role="tablist">
              {(['signIn', 'register'] as const).map((tab) => (
                <button
                  key={tab}
                  type="button"
                  role="tab"
                  aria-selected={view === tab}
                  className="auth-tab"
                  data-testid={`auth-tab-${tab}`}
                  onClick={() => setView(tab)}
                >
                  {tab === 'signIn' ? t('account.signIn') : t('account.createAccount')}
                </button>
              ))}
            </div>
            {view === 'signIn' ? (
              <SignInForm email={email} onEmail={setEmail} onSignedIn={onSignedIn} onForgot={() => setView('forgot')} />
            ) : (
              <RegisterForm key="register" email={email} onEmail={setEmail} onDone={() => setView('signIn')} />
            )}
            {ssoName && <SsoButton name={ssoName} failedWith={ssoError} onStart={onSsoStart} />}
          </>
        )}
      </div>
    </dialog>
  );
}

function ReasonNote({ reason }: { reason: SignInReason }) {
  const t = useT();
  const [title, text] =
    reason.kind === 'download'
      ? [t('account.reasonDownloadTitle'), t('account.reasonDownloadText')]
      : reason.kind === 'cloud'
        ? [t('account.reasonCloudTitle'), t('account.reasonCloudText')]
        : reason.kind === 'ai'
          ? [t('account.reasonAiTitle'), t('account.reasonAiText')]
          : reason.kind === 'sharedFile'
            ? [t('account.reasonSharedFileTitle'), t('account.reasonSharedFileText')]
            : [
                t('account.reasonTaskLimitTitle', { count: reason.tasksPerDay }),
                t('account.reasonTaskLimitText', { count: reason.tasksPerDay }),
              ];
  const icon = { download: 'download', cloud: 'cloud', ai: 'ai', sharedFile: 'file', taskLimit: 'lock' } as const;
  return (
    <div className="auth-reason" data-testid="signin-reason">
      <Icon name={icon[reason.kind]} size={22} />
      <div>
        <h2 id="auth-reason">{title}</h2>
        <p>{text}</p>
      </div>
    </div>
  );
}

interface EmailState {
  email: string;
  onEmail(email: string): void;
}

function SignInForm({
  email,
  onEmail,
  onSignedIn,
  onForgot,
}: EmailState & { onSignedIn(user: UserInfo): Promise<void>; onForgot(): void }) {
  const t = useT();
  const [password, setPassword] = useState('');
  const [checked, setChecked] = useState(false);
  const request = useRequest();
  const problems = { email: emailProblem(email), password: passwordProblem(password, true) };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (problems.email || problems.password) return;
    void request.run(async () => await onSignedIn(await signIn(email.trim(), password)));
  };
  return (
    <form className="auth-form" noValidate onSubmit={submit} data-testid="signin-form">
      <h2 id="auth-title">{t('account.signInTitle')}</h2>
      <EmailField label={t('account.email')} value={email} onValue={onEmail} problem={problems.email} shown={checked} />
      <PasswordField label={t('account.password')} value={password} onValue={setPassword} problem={problems.password} shown={checked} />
      <button type="button" className="link-button auth-forgot" data-testid="auth-forgot" onClick={onForgot}>
        {t('account.forgotPassword')}
      </button>
      <FormError error={request.error} />
      <button type="submit" className="button button-primary button-large" disabled={request.busy} data-testid="signin-submit">
        {t('account.signIn')}
      </button>
    </form>
  );
}

function RegisterForm({ email, onEmail, onDone }: EmailState & { onDone(): void }) {
  const t = useT();
  const [password, setPassword] = useState('');
  const [checked, setChecked] = useState(false);
  const [mailedTo, setMailedTo] = useState<string>();
  const request = useRequest();
  const problems = { email: emailProblem(email), password: passwordProblem(password) };

  if (mailedTo) return <Mailed title={t('account.checkInbox')} text={t('account.registerMailed', { email: mailedTo })} onBack={onDone} />;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (problems.email || problems.password) return;
    void request.run(async () => {
      setMailedTo((await register(email.trim(), password, keptInvite())).email);
      forgetInvite();
    });
  };
  return (
    <form className="auth-form" noValidate onSubmit={submit} data-testid="register-form">
      <h2 id="auth-title">{t('account.registerTitle')}</h2>
      <EmailField label={t('account.email')} value={email} onValue={onEmail} problem={problems.email} shown={checked} />
      <PasswordField
        label={t('account.password')}
        value={password}
        onValue={setPassword}
        problem={problems.password}
        shown={checked}
        chosen
      />
      <FormError error={request.error} />
      <button type="submit" className="button button-primary button-large" disabled={request.busy} data-testid="register-submit">
        {t('account.createAccount')}
      </button>
    </form>
  );
}

function ForgotForm({ email, onEmail, onBack }: EmailState & { onBack(): void }) {
  const t = useT();
  const [checked, setChecked] = useState(false);
  const [mailedTo, setMailedTo] = useState<string>();
  const request = useRequest();
  const problem = emailProblem(email);

  if (mailedTo) return <Mailed title={t('account.checkInbox')} text={t('account.resetMailed', { email: mailedTo })} onBack={onBack} />;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (problem) return;
    void request.run(async () => setMailedTo((await forgotPassword(email.trim())).email));
  };
  return (
    <form className="auth-form" noValidate onSubmit={submit} data-testid="forgot-form">
      <h2 id="auth-title">{t('account.forgotTitle')}</h2>
      <p className="auth-note">{t('account.forgotNote')}</p>
      <EmailField label={t('account.email')} value={email} onValue={onEmail} problem={problem} shown={checked} />
      <FormError error={request.error} />
      <button type="submit" className="button button-primary button-large" disabled={request.busy} data-testid="forgot-submit">
        {t('account.sendLink')}
      </button>
      <button type="button" className="link-button" onClick={onBack}>
        {t('account.backToSignIn')}
      </button>
    </form>
  );
}

function Mailed({ title, text, onBack }: { title: string; text: string; onBack(): void }) {
  const t = useT();
  return (
    <div className="auth-form" data-testid="auth-mailed">
      <h2 id="auth-title">{title}</h2>
      <p className="auth-note">{text}</p>
      <button type="button" className="button button-primary button-large" onClick={onBack}>
        {t('account.backToSignIn')}
      </button>
    </div>
  );
}
