// The frame of an AI page: its title and introduction, and its tool for a signed-in account only —
// a visitor is asked to sign in at once (the AI tools spend the account's allowance).
import type { ReactNode } from 'react';
import { useEffect } from 'react';
import { useSession } from '../account/session';
import { useI18n } from '../i18n/I18nProvider';
import { Icon } from '../ui/Icon';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import './ai.css';

export function AiPage({ title, intro, signInText, children }: { title: string; intro: string; signInText: string; children: ReactNode }) {
  const { t } = useI18n();
  const session = useSession();
  useDocumentTitle(title);
  const { status, requireSignIn } = session;
  // Signed in from the dialog, the page goes on where it is.
  useEffect(() => {
    if (status === 'signedOut') void requireSignIn({ kind: 'ai' });
  }, [status, requireSignIn]);
  return (
    <div className="page ai-page">
      <header className="page-header">
        <h1>{title}</h1>
        <p>{intro}</p>
      </header>
      {status === 'loading' ? null : session.user ? (
        children
      ) : (
        <section className="card ai-signed-out" data-testid="ai-signed-out">
          <Icon name="ai" size={40} />
          <p>{signInText}</p>
          <button type="button" className="button button-primary" onClick={() => void requireSignIn({ kind: 'ai' })}>
            {t('account.signIn')}
          </button>
        </section>
      )}
    </div>
  );
}
