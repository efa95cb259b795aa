// The account's shares: each file shared, how (link, QR code, email and to whom), when it was made
// and ends, how often it was opened; its link copied, or the share revoked after a question.
import { ShareType, type ShareEntry } from '@quire/contracts';
import { useEffect, useState } from 'react';
import { listShares, revokeShare } from '../api/share';
import { useI18n } from '../i18n/I18nProvider';
import { formatShareDate } from '../share/shareForm';
import { useCopyLink } from '../share/useCopyLink';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { useToast } from '../ui/Toast';
import { FormError, Section, useRequest } from './formParts';

export function SharesSection() {
  const { t, locale } = useI18n();
  const toast = useToast();
  const [shares, setShares] = useState<ShareEntry[]>();
  const [revoking, setRevoking] = useState<ShareEntry>();
  const request = useRequest();
  const { run } = request;
  const date = (ms: number) => formatShareDate(ms, locale);
  // An expired share stays listed, to be told from a live one and removed; its link no longer opens.
  const ended = (share: ShareEntry) => share.expires_at !== null && share.expires_at <= Date.now();
  const kind = (share: ShareEntry) =>
    share.share_type === ShareType.Email
      ? t('account.shareKindEmail')
      : share.share_type === ShareType.QrCode
        ? t('account.shareKindQr')
        : t('account.shareKindLink');

  useEffect(() => {
    void run(async () => setShares(await listShares()));
  }, [run]);

  const copyLink = useCopyLink();
  const revoke = (share: ShareEntry) => {
    setRevoking(undefined);
    void run(async () => {
      await revokeShare(share.share_id);
      setShares(await listShares());
      toast(t('account.shareRevoked', { name: share.file_name }), { kind: 'success' });
    });
  };

  return (
    <Section title={t('account.shares')} testId="account-shares">
      <p className="muted">{t('account.sharesNote')}</p>
      {shares?.length === 0 && (
        <p className="muted" data-testid="shares-empty">
          {t('account.sharesEmpty')}
        </p>
      )}
      {shares && shares.length > 0 && (
        <ul className="entry-list" data-testid="share-list">
          {shares.map((s) => (
            <li key={s.share_id} className="entry-item" data-testid="share-item">
              <div className="entry-info">
                <span className="entry-name">
                  <strong className="share-entry-file">{s.file_name}</strong>
                  <span className="share-kind" data-testid="share-kind">
                    {kind(s)}
                  </span>
                </span>
                {s.recipients.length > 0 && (
                  <span className="muted share-recipients" data-testid="share-recipients">
                    {t('account.shareRecipients', { list: s.recipients.join(', ') })}
                  </span>
                )}
                <span className="muted session-dates">
                  <span>{t('account.shareCreated', { date: date(s.created_at) })}</span> ·{' '}
                  <span data-testid="share-expires">
                    {s.expires_at === null
                      ? t('account.sharePermanent')
                      : ended(s)
                        ? t('account.shareExpired', { date: date(s.expires_at) })
                        : t('account.shareExpires', { date: date(s.expires_at) })}
                  </span>{' '}
                  · <span data-testid="share-opened">{t('account.shareOpened', { count: s.opened })}</span>
                </span>
              </div>
              <div className="button-row share-entry-actions">
                {!ended(s) && (
                  <button
                    type="button"
                    className="button button-outline button-small"
                    data-testid="share-copy"
                    onClick={() => void copyLink(s.share_url)}
                  >
                    {t('share.copyLink')}
                  </button>
                )}
                <button
                  type="button"
                  className="button button-outline button-small"
                  data-testid="share-revoke"
                  aria-label={t('account.revokeShareLabel', { name: s.file_name })}
                  onClick={() => setRevoking(s)}
                >
                  {t('account.revokeShare')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <FormError error={request.error} />
      {revoking && (
        <ConfirmDialog
          title={t('account.revokeShareTitle', { name: revoking.file_name })}
          message={t('account.revokeShareNote')}
          confirmLabel={t('account.revokeShare')}
          cancelLabel={t('account.keepShare')}
          onConfirm={() => revoke(revoking)}
          onCancel={() => setRevoking(undefined)}
        />
      )}
    </Section>
  );
}
