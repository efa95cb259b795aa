// The account centre: the profile and plan, the password and the address, sessions, shares, API keys, deleting the account.
import type { UserInfo } from '@quire/contracts';
import { useState, type FormEvent } from 'react';
import { changeEmail, changePassword, deleteAccount } from '../api/account';
import { useT } from '../i18n/I18nProvider';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { useToast } from '../ui/Toast';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import { Address, Avatar, PlanBadge } from './AccountControl';
import { displayName, emailProblem, passwordProblem } from './accountForms';
import { ApiKeysSection } from './ApiKeysSection';
import { SessionsSection } from './SessionsSection';
import { SharesSection } from './SharesSection';
import { EmailField, FormError, PasswordField, Section, SubmitRow, useRequest } from './formParts';
import { useSession } from './session';

export function AccountPage() {
  const t = useT();
  const session = useSession();
  useDocumentTitle(t('account.centreTitle'));
  return (
    <div className="page account-page">
      <header className="page-header">
        <h1>{t('account.centreTitle')}</h1>
      </header>
      {session.status === 'loading' ? null : session.user ? (
        <AccountSections user={session.user} />
      ) : (
        <section className="card account-section" data-testid="account-signed-out">
          <p>{t('account.signInToSee')}</p>
          <div className="button-row">
            <button type="button" className="button button-primary" onClick={() => session.openSignIn('signIn')}>
              {t('account.signIn')}
            </button>
          </div>
        </section>
      )}
    </div>
  );
}

function AccountSections({ user }: { user: UserInfo }) {
  const t = useT();
  const session = useSession();
  return (
    <div className="account-sections">
      <Section title={t('account.profile')} testId="account-profile">
        <div className="account-profile">
          <Avatar user={user} large />
          <dl>
            {displayName(user) !== user.email && (
              <>
                <dt>{t('account.name')}</dt>
                <dd>{displayName(user)}</dd>
              </>
            )}
            <dt>{t('account.email')}</dt>
            <dd data-testid="profile-email">
              <Address email={user.email} />
            </dd>
            <dt>{t('account.idLabel')}</dt>
            <dd>{user.ws_id}</dd>
            <dt>{t('account.plan')}</dt>
            <dd>
              <PlanBadge user={user} />
            </dd>
          </dl>
        </div>
        <div className="button-row">
          <button type="button" className="button button-outline" data-testid="page-logout" onClick={() => void session.signOut()}>
            {t('account.logOut')}
          </button>
        </div>
      </Section>
      <PasswordSection />
      <EmailSection />
      <SessionsSection />
      <SharesSection />
      <ApiKeysSection />
      <DeleteSection />
    </div>
  );
}

function PasswordSection() {
  const t = useT();
  const session = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [checked, setChecked] = useState(false);
  const [done, setDone] = useState(false);
  const request = useRequest();
  const problems = { current: passwordProblem(current, true), next: passwordProblem(next) };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    setDone(false);
    if (problems.current || problems.next) return;
    void request.run(async () => {
      // The change ends every session and signs this page in anew.
      session.signedIn(await changePassword(current, next));
      setCurrent('');
      setNext('');
      setChecked(false);
      setDone(true);
    });
  };
  return (
    <Section title={t('account.changePassword')} testId="account-password">
      <form className="account-form" noValidate onSubmit={submit}>
        <PasswordField
          label={t('account.currentPassword')}
          value={current}
          onValue={setCurrent}
          problem={problems.current}
          shown={checked}
        />
        <PasswordField label={t('account.newPassword')} value={next} onValue={setNext} problem={problems.next} shown={checked} chosen />
        <FormError error={request.error} />
        {done && (
          <p className="form-done" role="status">
            {t('account.passwordChanged')}
          </p>
        )}
        <SubmitRow label={t('account.changePassword')} busy={request.busy} />
      </form>
    </Section>
  );
}

function EmailSection() {
  const t = useT();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [checked, setChecked] = useState(false);
  const [mailedTo, setMailedTo] = useState<string>();
  const request = useRequest();
  const problems = { email: emailProblem(email), password: passwordProblem(password, true) };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    setMailedTo(undefined);
    if (problems.email || problems.password) return;
    void request.run(async () => {
      setMailedTo((await changeEmail(password, email.trim())).email);
      setPassword('');
      setChecked(false);
    });
  };
  return (
    <Section title={t('account.changeEmail')} testId="account-email">
      <form className="account-form" noValidate onSubmit={submit}>
        <EmailField label={t('account.newEmail')} value={email} onValue={setEmail} problem={problems.email} shown={checked} />
        <PasswordField
          label={t('account.currentPassword')}
          value={password}
          onValue={setPassword}
          problem={problems.password}
          shown={checked}
        />
        <FormError error={request.error} />
        {mailedTo && (
          <p className="form-done" role="status">
            {t('account.changeEmailMailed', { email: mailedTo })}
          </p>
        )}
        <SubmitRow label={t('account.changeEmail')} busy={request.busy} />
      </form>
    </Section>
  );
}

function DeleteSection() {
  const t = useT();
  const session = useSession();
  const toast = useToast();
  const [password, setPassword] = useState('');
  const [checked, setChecked] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const request = useRequest();
  const problem = passwordProblem(password, true);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setChecked(true);
    if (!problem) setConfirming(true);
  };
  const remove = () => {
    setConfirming(false);
    void request.run(async () => {
      await deleteAccount(password);
      session.signedOut();
      toast(t('account.deleted'), { kind: 'success' });
    });
  };
  return (
    <Section title={t('account.deleteTitle')} testId="account-delete">
      <form className="account-form" noValidate onSubmit={submit}>
        <p className="muted">{t('account.deleteNote')}</p>
        <PasswordField label={t('account.currentPassword')} value={password} onValue={setPassword} problem={problem} shown={checked} />
        <FormError error={request.error} />
        <SubmitRow label={t('account.deleteButton')} busy={request.busy} danger testId="delete-account" />
      </form>
      {confirming && (
        <ConfirmDialog
          title={t('account.deleteConfirmTitle')}
          message={t('account.deleteNote')}
          confirmLabel={t('account.deleteButton')}
          cancelLabel={t('account.keepAccount')}
          onConfirm={remove}
          onCancel={() => setConfirming(false)}
        />
      )}
    </Section>
  );
}
