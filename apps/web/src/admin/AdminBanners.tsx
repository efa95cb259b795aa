// The operator's top banners: publish a title and a link for a time window, see each one's state
// (live, scheduled, over) and withdraw it. Visitors' pages show a live one at the top.
import type { BannerResource } from '@quire/contracts';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { fetchBanners, publishBanner, withdrawBanner } from '../api/account';
import { FormError } from '../account/formParts';
import { useI18n } from '../i18n/I18nProvider';
import { Icon } from '../ui/Icon';

const WEEK_MS = 7 * 24 * 3600 * 1000;
/** A datetime-local field's value for epoch ms, in the operator's own time zone. */
const fieldValue = (ms: number) => {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
};
const seconds = (field: string) => Math.floor(new Date(field).getTime() / 1000);

export function AdminBanners() {
  const { t, locale } = useI18n();
  const [banners, setBanners] = useState<BannerResource[]>([]);
  const [title, setTitle] = useState('');
  const [link, setLink] = useState('');
  const [start, setStart] = useState(() => fieldValue(Date.now()));
  const [end, setEnd] = useState(() => fieldValue(Date.now() + WEEK_MS));
  const [error, setError] = useState<unknown>();

  const reload = useCallback(() => fetchBanners().then(setBanners, setError), []);
  useEffect(() => {
    void reload();
  }, [reload]);

  const publish = async (e: FormEvent) => {
    e.preventDefault();
    setError(undefined);
    try {
      await publishBanner({ title, jump_url: link, display_start_time: seconds(start), display_end_time: seconds(end) });
      setTitle('');
      setLink('');
      await reload();
    } catch (err) {
      setError(err);
    }
  };
  const withdraw = async (id: string) => {
    try {
      await withdrawBanner(id);
      await reload();
    } catch (err) {
      setError(err);
    }
  };

  const now = Date.now() / 1000;
  const when = (s: number) => new Date(s * 1000).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const state = (b: BannerResource) =>
    now < b.display_start_time ? t('admin.bannerScheduled') : now < b.display_end_time ? t('admin.bannerLive') : t('admin.bannerOver');
  return (
    <section className="card admin-banners" data-testid="admin-banners">
      <h2>{t('admin.banners')}</h2>
      <p className="ai-hint">{t('admin.bannersHint')}</p>
      <form className="admin-banner-form" onSubmit={(e) => void publish(e)}>
        <label className="field">
          <span className="field-label">{t('admin.bannerTitle')}</span>
          <input value={title} maxLength={200} required onChange={(e) => setTitle(e.target.value)} data-testid="banner-title" />
        </label>
        <label className="field">
          <span className="field-label">{t('admin.bannerLink')}</span>
          <input
            value={link}
            maxLength={2000}
            required
            placeholder="/pricing"
            onChange={(e) => setLink(e.target.value)}
            data-testid="banner-link"
          />
        </label>
        <label className="field">
          <span className="field-label">{t('admin.bannerStart')}</span>
          <input type="datetime-local" value={start} required onChange={(e) => setStart(e.target.value)} data-testid="banner-start" />
        </label>
        <label className="field">
          <span className="field-label">{t('admin.bannerEnd')}</span>
          <input type="datetime-local" value={end} required onChange={(e) => setEnd(e.target.value)} data-testid="banner-end" />
        </label>
        <button type="submit" className="button button-primary" data-testid="banner-publish">
          {t('admin.bannerPublish')}
        </button>
      </form>
      <FormError error={error} />
      {banners.length > 0 && (
        <ul className="admin-banner-list">
          {banners.map((b) => (
            <li key={b.resource_id} data-testid="admin-banner">
              <span className="admin-banner-state">{state(b)}</span>
              <span className="admin-banner-title">{b.title}</span>
              <span className="admin-banner-link">{b.jump_url}</span>
              <span className="admin-banner-window">
                {when(b.display_start_time)} – {when(b.display_end_time)}
              </span>
              <button
                type="button"
                className="icon-button"
                aria-label={t('admin.bannerWithdraw')}
                title={t('admin.bannerWithdraw')}
                onClick={() => void withdraw(b.resource_id)}
                data-testid="banner-withdraw"
              >
                <Icon name="trash" size={16} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
