// The account's sessions: each browser signed in, with when it signed in and was last active, this
// one marked; any other signed out after a question, or all others at once.
import type { SessionEntry } from '@quire/contracts';
import { useEffect, useState } from 'react';
import { listSessions, revokeOtherSessions, revokeSession } from '../api/account';
import { useI18n } from '../i18n/I18nProvider';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { useToast } from '../ui/Toast';
import { FormError, Section, useRequest } from './formParts';

/** What the question asks before signing out: one other session, or all of them. */
type Ending = { session: SessionEntry } | { others: true };

export function SessionsSection() {
  const { t, locale } = useI18n();
  const toast = useToast();
  const [sessions, setSessions] = useState<SessionEntry[]>();
  const [ending, setEnding] = useState<Ending>();
  const request = useRequest();
  const { run } = request;
  // Last activity is known to the minute.
  const minute = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const deviceName = (s: SessionEntry) => s.device || t('account.unknownDevice');
  const others = sessions?.filter((s) => !s.current) ?? [];

  useEffect(() => {
    void run(async () => setSessions(await listSessions()));
  }, [run]);

  const end = (what: Ending) => {
    setEnding(undefined);
    void run(async () => {
      if ('session' in what) await revokeSession(what.session.session_id);
      else await revokeOtherSessions();
      setSessions(await listSessions());
      toast('session' in what ? t('account.sessionSignedOut', { device: deviceName(what.session) }) : t('account.othersSignedOut'), {
        kind: 'success',
      });
    });
  };

  return (
    <Section title={t('account.sessions')} testId="account-sessions">
      <p className="muted">{t('account.sessionsNote')}</p>
      {sessions && (
        <ul className="entry-list" data-testid="session-list">
          {sessions.map((s) => (
            <li key={s.session_id} className="entry-item" data-testid="session-item">
              <div className="entry-info">
                <span className="entry-name">
                  <strong>{deviceName(s)}</strong>
                  {s.current && (
                    <span className="this-device" data-testid="this-device">
                      {t('account.thisDevice')}
                    </span>
                  )}
                </span>
                <span className="muted session-dates">
                  <span>{t('account.sessionSignedIn', { date: minute.format(s.created_at) })}</span> ·{' '}
                  <span>
                    {s.current ? t('account.sessionActiveNow') : t('account.sessionLastActive', { date: minute.format(s.last_used_at) })}
                  </span>
                </span>
              </div>
              {!s.current && (
                <button
                  type="button"
                  className="button button-outline button-small"
                  aria-label={t('account.signOutSessionLabel', { device: deviceName(s) })}
                  onClick={() => setEnding({ session: s })}
                >
                  {t('account.signOutSession')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {others.length > 0 && (
        <div className="button-row">
          <button
            type="button"
            className="button button-outline sign-out-others"
            data-testid="sign-out-others"
            onClick={() => setEnding({ others: true })}
          >
            {t('account.signOutOthers')}
          </button>
        </div>
      )}
      <FormError error={request.error} />
      {ending && (
        <ConfirmDialog
          title={
            'session' in ending ? t('account.signOutSessionTitle', { device: deviceName(ending.session) }) : t('account.signOutOthersTitle')
          }
          message={'session' in ending ? t('account.signOutSessionNote') : t('account.signOutOthersNote')}
          confirmLabel={'session' in ending ? t('account.signOutSession') : t('account.signOutOthers')}
          cancelLabel={t('account.keepSession')}
          onConfirm={() => end(ending)}
          onCancel={() => setEnding(undefined)}
        />
      )}
    </Section>
  );
}
