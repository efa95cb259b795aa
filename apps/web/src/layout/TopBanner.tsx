// The top message banner: the operator's title and link while its window holds the present, with
// a close button; a closed one (its key plus resource id, kept in local storage) stays closed.
import { BANNER_KEY, isSiteLink, type BannerResource } from '@quire/contracts';
import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { topBanners } from '../api/site';
import { useI18n } from '../i18n/I18nProvider';
import { Icon } from '../ui/Icon';
import { useInterruption } from '../ui/interruptions';
import { LocaleLink } from '../ui/LocaleLink';

const dismissKey = (b: BannerResource) => `${BANNER_KEY}${b.resource_id}`;

function dismissed(b: BannerResource): boolean {
  try {
    return localStorage.getItem(dismissKey(b)) === '1';
  } catch {
    return false;
  }
}

/** The first banner whose window holds `nowMs` and that was not closed here. */
export function bannerToShow(banners: readonly BannerResource[], nowMs: number, closed: (b: BannerResource) => boolean) {
  const now = nowMs / 1000;
  return banners.find((b) => b.display_start_time <= now && now < b.display_end_time && !closed(b));
}

/** The banner's height, as --banner-height on the page, while it shows: what sticks to the window's top makes room for it. */
function useBannerHeight(section: RefObject<HTMLElement | null>, shown: boolean) {
  useLayoutEffect(() => {
    const element = section.current;
    if (!shown || !element) return;
    const root = document.documentElement.style;
    const observer = new ResizeObserver(() => root.setProperty('--banner-height', `${element.offsetHeight}px`));
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.removeProperty('--banner-height');
    };
  }, [section, shown]);
}

export function TopBanner() {
  const { t } = useI18n();
  // Undefined while the list loads, null once there is none to show.
  const [banner, setBanner] = useState<BannerResource | null>();
  // Asked for while loading too: what waits behind it does not flash up and away again.
  const shown = useInterruption('banner', banner !== null);
  const section = useRef<HTMLElement>(null);
  useBannerHeight(section, shown && !!banner);

  useEffect(() => {
    const stop = new AbortController();
    topBanners(stop.signal).then(
      (banners) => setBanner(bannerToShow(banners, Date.now(), dismissed) ?? null),
      () => setBanner(null),
    );
    return () => stop.abort();
  }, []);

  if (!banner || !shown) return null;
  const close = () => {
    setBanner(null);
    try {
      localStorage.setItem(dismissKey(banner), '1');
    } catch {
      // Storage refused: closed for this page only.
    }
  };
  const external = /^https?:/i.test(banner.jump_url);
  return (
    <section ref={section} className="top-banner" aria-label={t('banner.label')} data-testid="top-banner">
      {/* A link stored before links were checked, which a browser would read as another site's, is shown as text. */}
      {!isSiteLink(banner.jump_url) ? (
        <span className="top-banner-link">{banner.title}</span>
      ) : external ? (
        <a href={banner.jump_url} target="_blank" rel="noopener noreferrer" className="top-banner-link">
          {banner.title}
          <Icon name="arrowRight" size={16} />
        </a>
      ) : (
        <LocaleLink to={banner.jump_url} className="top-banner-link">
          {banner.title}
          <Icon name="arrowRight" size={16} />
        </LocaleLink>
      )}
      <button type="button" className="icon-button" aria-label={t('banner.close')} onClick={close} data-testid="top-banner-close">
        <Icon name="close" size={16} />
      </button>
    </section>
  );
}
