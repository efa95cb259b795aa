// The activity dialog's two kinds. Free: the referral page embedded (a page of this site), with a
// loading state until it says it has loaded, closed by the close message it posts. Event: the
// operator's image as a link, or "No Events Currently".
import { ACTIVITY_CLOSE_MESSAGE, ACTIVITY_FREE_PATH, ACTIVITY_LOADED_MESSAGE, isSiteLink, type AdInfo } from '@quire/contracts';
import { useEffect, useRef, useState } from 'react';
import { useI18n } from '../i18n/I18nProvider';
import { Icon } from '../ui/Icon';
import { useModal } from '../ui/useModal';

export type ActivityKind = 'free' | 'event';

interface Props {
  kind: ActivityKind;
  /** The free kind is offered (a signed-in account without VIP, invites rewarded): its tab shows. */
  freeOffered: boolean;
  ad: AdInfo;
  onKind(kind: ActivityKind): void;
  onClose(): void;
}

export function ActivityDialog({ kind, freeOffered, ad, onKind, onClose }: Props) {
  const { t } = useI18n();
  const modal = useModal(onClose);
  const tabs: [ActivityKind, string][] = [
    ['free', t('activity.freeTab')],
    ['event', t('activity.eventTab')],
  ];
  return (
    <dialog {...modal} className="activity-dialog" aria-labelledby="activity-title" data-testid="activity-dialog">
      <div className="activity-head">
        <h2 id="activity-title">{t('activity.open')}</h2>
        <button type="button" className="icon-button" aria-label={t('account.close')} onClick={onClose} data-testid="activity-close">
          <Icon name="close" />
        </button>
      </div>
      {freeOffered && (
        <div className="activity-tabs" role="tablist" aria-label={t('activity.open')}>
          {tabs.map(([tab, label]) => (
            <button
              key={tab}
              type="button"
              role="tab"
              aria-selected={kind === tab}
              className={`activity-tab${kind === tab ? ' active' : ''}`}
              onClick={() => onKind(tab)}
              data-testid={`activity-tab-${tab}`}
            >
              {label}
            </button>
          ))}
        </div>
      )}
      {kind === 'free' ? <ReferralFrame onClose={onClose} /> : <EventAd ad={ad} />}
    </dialog>
  );
}

function ReferralFrame({ onClose }: { onClose(): void }) {
  const { t, localePath } = useI18n();
  const frame = useRef<HTMLIFrameElement>(null);
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    const listen = (e: MessageEvent) => {
      // Only the embedded page of this site speaks to the dialog.
      if (e.origin !== window.location.origin || e.source !== frame.current?.contentWindow) return;
      if (e.data === ACTIVITY_LOADED_MESSAGE) setLoaded(true);
      if (e.data === ACTIVITY_CLOSE_MESSAGE) onClose();
    };
    window.addEventListener('message', listen);
    return () => window.removeEventListener('message', listen);
  }, [onClose]);

  return (
    <div className="activity-frame-box">
      {!loaded && (
        <div className="activity-loading" role="status" data-testid="activity-loading">
          <span className="activity-spinner" aria-hidden="true" />
          {t('activity.loading')}
        </div>
      )}
      <iframe
        ref={frame}
        className={`activity-frame${loaded ? '' : ' loading'}`}
        src={localePath(ACTIVITY_FREE_PATH)}
        title={t('activity.freeTitle')}
        data-testid="activity-frame"
      />
    </div>
  );
}

function EventAd({ ad }: { ad: AdInfo }) {
  const { t } = useI18n();
  if (!ad.adv_img)
    return (
      <p className="activity-empty" data-testid="activity-no-events">
        {t('activity.noEvents')}
      </p>
    );
  const image = <img src={ad.adv_img} alt={t('activity.eventImage')} className="activity-ad-image" data-testid="activity-ad-image" />;
  if (!isSiteLink(ad.adv_url)) return image;
  return (
    <a href={ad.adv_url} target="_blank" rel="noopener" className="activity-ad" data-testid="activity-ad">
      {image}
    </a>
  );
}
