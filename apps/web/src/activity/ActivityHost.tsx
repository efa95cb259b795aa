// The activity dialog's host on every page: keeps the code of an invite link for the sign-up, shows
// the floating activity box (not on the AI pages and the editor), pops the operator's event up at
// most once in 7 days, and opens the free kind on ai-read?activity=free.
import type { AdInfo } from '@quire/contracts';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { fetchAdInfo, fetchReferral } from '../api/activity';
import { useSession } from '../account/session';
import { useT } from '../i18n/I18nProvider';
import { splitLocalePrefix } from '../i18n/locales';
import { Icon } from '../ui/Icon';
import { useInterruption } from '../ui/interruptions';
import { ActivityDialog, type ActivityKind } from './ActivityDialog';
import { activityBoxShown, eventPopUpDue, eventShownAt, keepInviteFrom, rememberEventShown } from './activityRules';
import './activity.css';

const NO_EVENT: AdInfo = { adv_popshow: 0, adv_url: '', adv_img: '' };

export function ActivityHost() {
  const t = useT();
  const { pathname, search } = useLocation();
  const path = splitLocalePrefix(pathname).rest;
  const { user } = useSession();
  const [ad, setAd] = useState<AdInfo>();
  const [freeOffered, setFreeOffered] = useState(false);
  const [open, setOpen] = useState<ActivityKind>();
  const boxShown = activityBoxShown(path);
  // The event may pop up until its settings are in, and the gift waits behind every other interruption.
  useInterruption('event', ad === undefined || open !== undefined);
  const giftShown = useInterruption('gift', boxShown);
  const userId = user?.user_id;
  const isVip = user?.isVip;

  useEffect(() => keepInviteFrom(search), [search]);

  useEffect(() => {
    fetchAdInfo().then(setAd, () => setAd(NO_EVENT));
  }, []);

  // The free kind is for signed-in accounts without VIP, while the operator rewards invites.
  useEffect(() => {
    setFreeOffered(false);
    if (!userId || isVip) return;
    fetchReferral().then(
      (r) => setFreeOffered(r.reward_tokens > 0),
      () => undefined,
    );
  }, [userId, isVip]);

  useEffect(() => {
    if (!ad || !boxShown || !eventPopUpDue(ad, eventShownAt(), Date.now())) return;
    rememberEventShown(Date.now());
    setOpen('event');
  }, [ad, boxShown]);

  useEffect(() => {
    if (freeOffered && path === '/app/ai-read' && new URLSearchParams(search).get('activity') === 'free') setOpen('free');
  }, [freeOffered, path, search]);

  return (
    <>
      {giftShown && (
        <button
          type="button"
          className="activity-box"
          aria-label={t('activity.open')}
          title={t('activity.open')}
          onClick={() => setOpen(freeOffered ? 'free' : 'event')}
          data-testid="activity-box"
        >
          <Icon name="gift" size={26} />
        </button>
      )}
      {open && (
        <ActivityDialog kind={open} freeOffered={freeOffered} ad={ad ?? NO_EVENT} onKind={setOpen} onClose={() => setOpen(undefined)} />
      )}
    </>
  );
}
