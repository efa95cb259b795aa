// The operator's activity settings: the AI tokens an invite earns the inviter and the friend each
// (0 turns the referral programme off), the cap of rewarded invites per account, and the event the
// activity dialog shows (image, link, pop-up on or off).
import type { ActivitySettings } from '@quire/contracts';
import { type FormEvent, useEffect, useState } from 'react';
import { fetchActivitySettings, saveActivitySettings } from '../api/activity';
import { FormError } from '../account/formParts';
import { useI18n } from '../i18n/I18nProvider';
import { useToast } from '../ui/Toast';

export function AdminActivity() {
  const { t } = useI18n();
  const toast = useToast();
  const [settings, setSettings] = useState<ActivitySettings>();
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    fetchActivitySettings().then(setSettings, setError);
  }, []);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!settings) return;
    setError(undefined);
    try {
      setSettings(await saveActivitySettings(settings));
      toast(t('admin.activitySaved'), { kind: 'success' });
    } catch (err) {
      setError(err);
    }
  };
  const change = (part: Partial<ActivitySettings>) => setSettings((s) => s && { ...s, ...part });
  const whole = (value: string) => Math.max(0, Math.floor(Number(value) || 0));

  return (
    <section className="card admin-activity" data-testid="admin-activity">
      <h2>{t('admin.activity')}</h2>
      <p className="ai-hint">{t('admin.activityHint')}</p>
      {settings && (
        <form className="admin-banner-form" onSubmit={(e) => void save(e)}>
          <label className="field">
            <span className="field-label">{t('admin.rewardTokens')}</span>
            <input
              type="number"
              min={0}
              value={settings.reward_tokens}
              onChange={(e) => change({ reward_tokens: whole(e.target.value) })}
              data-testid="activity-reward"
            />
          </label>
          <label className="field">
            <span className="field-label">{t('admin.inviteCap')}</span>
            <input
              type="number"
              min={0}
              value={settings.invite_cap}
              onChange={(e) => change({ invite_cap: whole(e.target.value) })}
              data-testid="activity-cap"
            />
          </label>
          <label className="field">
            <span className="field-label">{t('admin.eventImage')}</span>
            <input
              value={settings.adv_img}
              maxLength={2000}
              placeholder="https://"
              onChange={(e) => change({ adv_img: e.target.value })}
              data-testid="activity-image"
            />
          </label>
          <label className="field">
            <span className="field-label">{t('admin.eventLink')}</span>
            <input
              value={settings.adv_url}
              maxLength={2000}
              placeholder="/pricing"
              onChange={(e) => change({ adv_url: e.target.value })}
              data-testid="activity-link"
            />
          </label>
          <label className="admin-activity-check">
            <input
              type="checkbox"
              checked={settings.adv_popshow === 1}
              onChange={(e) => change({ adv_popshow: e.target.checked ? 1 : 0 })}
              data-testid="activity-popshow"
            />
            {t('admin.eventPopup')}
          </label>
          <button type="submit" className="button button-primary" data-testid="activity-save">
            {t('admin.activitySave')}
          </button>
        </form>
      )}
      <FormError error={error} />
    </section>
  );
}
