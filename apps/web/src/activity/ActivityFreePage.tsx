// The referral page the activity dialog embeds (outside the app's shell): the account's invite link
// with Copy, the friends who joined and the tokens earned, and how it works. It tells the dialog
// once it has loaded, and its Close asks the dialog to close.
import { ACTIVITY_CLOSE_MESSAGE, ACTIVITY_LOADED_MESSAGE, type ReferralInfo } from '@quire/contracts';
import { useEffect, useRef, useState } from 'react';
import { fetchReferral } from '../api/activity';
import { useSession } from '../account/session';
import { useI18n } from '../i18n/I18nProvider';
import { Icon } from '../ui/Icon';
import { useToast } from '../ui/Toast';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import './activity.css';

const embedded = window.parent !== window;
/** To the dialog of this site only: another site framing the page hears nothing. */
const tellDialog = (message: string) => window.parent.postMessage(message, window.location.origin);

export function ActivityFreePage() {
  const { t, locale } = useI18n();
  const toast = useToast();
  const session = useSession();
  const [info, setInfo] = useState<ReferralInfo>();
  const [failed, setFailed] = useState(false);
  const linkField = useRef<HTMLInputElement>(null);
  useDocumentTitle(t('activity.freeTitle'));
  const signedIn = session.status === 'signedIn';

  useEffect(() => {
    if (signedIn) fetchReferral().then(setInfo, () => setFailed(true));
  }, [signedIn]);

  const ready = info !== undefined || failed || session.status === 'signedOut';
  useEffect(() => {
    if (ready && embedded) tellDialog(ACTIVITY_LOADED_MESSAGE);
  }, [ready]);

  const copy = () => {
    if (!info) return;
    navigator.clipboard.writeText(info.invite_link).then(
      () => toast(t('activity.copied'), { kind: 'success' }),
      // Without the clipboard the link is selected, to copy by hand.
      () => linkField.current?.select(),
    );
  };
  const count = (n: number) => n.toLocaleString(locale);
  const tokens = count(info?.reward_tokens ?? 0);

  return (
    <main className="activity-page" data-testid="activity-free-page">
      <div className="activity-page-head">
        <span className="activity-page-icon" aria-hidden="true">
          <Icon name="gift" size={28} />
        </span>
        <h1>{t('activity.freeTitle')}</h1>
      </div>
      {!signedIn || failed ? (
        <p className="activity-page-note">{failed ? t('activity.unavailable') : t('activity.signInNeeded')}</p>
      ) : info ? (
        <>
          <p className="activity-page-lead">{info.reward_tokens > 0 ? t('activity.freeLead', { tokens }) : t('activity.programmeOff')}</p>
          <label className="activity-link-label" htmlFor="activity-invite-link">
            {t('activity.inviteLink')}
          </label>
          <div className="activity-link-row">
            <input
              ref={linkField}
              id="activity-invite-link"
              className="activity-link"
              readOnly
              value={info.invite_link}
              dir="ltr"
              onFocus={(e) => e.target.select()}
              data-testid="activity-invite-link"
            />
            <button type="button" className="button button-primary" onClick={copy} data-testid="activity-copy">
              <Icon name="copy" size={16} />
              {t('activity.copy')}
            </button>
          </div>
          <dl className="activity-stats">
            <div>
              <dt>{t('activity.friendsJoined')}</dt>
              <dd data-testid="activity-friends">{count(info.friends_joined)}</dd>
            </div>
            <div>
              <dt>{t('activity.tokensEarned')}</dt>
              <dd data-testid="activity-earned">{count(info.tokens_earned)}</dd>
            </div>
          </dl>
          <h2 className="activity-how">{t('activity.howTitle')}</h2>
          <ol className="activity-steps">
            <li>{t('activity.step1')}</li>
            <li>{t('activity.step2')}</li>
            <li>{t('activity.step3', { tokens })}</li>
          </ol>
        </>
      ) : null}
      {embedded && (
        <div className="activity-page-foot">
          <button
            type="button"
            className="button button-ghost"
            onClick={() => tellDialog(ACTIVITY_CLOSE_MESSAGE)}
            data-testid="activity-page-close"
          >
            {t('account.close')}
          </button>
        </div>
      )}
    </main>
  );
}
