import { type RefObject, useLayoutEffect, useRef, useState } from 'react';
import { Outlet } from 'react-router';
import { AccountControl, PhoneAvatar } from '../account/AccountControl';
import { useSession } from '../account/session';
import { useI18n } from '../i18n/I18nProvider';
import { HeaderSearch } from '../search/ToolSearch';
import { Icon } from '../ui/Icon';
import { CONTENT_ID, SkipLink } from '../ui/SkipLink';
import { LocaleLink } from '../ui/LocaleLink';
import { MessageBell } from '../messages/MessageCentre';
import { CategoryMenu } from './CategoryMenu';
import { LanguageSwitcher } from './LanguageSwitcher';
import { useHoverMenu } from './useHoverMenu';
import { TopBanner } from './TopBanner';

export function Logo() {
  return (
    <LocaleLink to="/" className="logo" aria-label="Quire">
      <img src="/favicon.svg" alt="" width={30} height={30} />
      <span>Quire</span>
    </LocaleLink>
  );
}

/** The product opens its pricing in a new tab, keeping the page the visitor was on. */
function PricingLink() {
  const { t, localePath } = useI18n();
  return (
    <a href={localePath('/pricing')} target="_blank" rel="noopener" className="header-link" data-testid="pricing-link">
      {t('nav.pricing')}
    </a>
  );
}

/** Below a tablet's width, or wherever its links do not fit one line (German's and Russian's are longer than English's). */
const COMPACT_BELOW = 1024;

/**
 * Whether the header must put its links into the menu: measured with them shown, again whenever
 * the header's width, its language's texts or the account's state change (`account`: loading,
 * signed out with Log in and Free trial, or signed in with the avatar and the signed-in links).
 */
function useCompactHeader(header: RefObject<HTMLElement | null>, locale: string, account: string): boolean {
  const [compact, setCompact] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the language and the account's state change the links' and buttons' widths, so the header is measured again
  useLayoutEffect(() => {
    const element = header.current;
    if (!element) return;
    const measure = () => {
      const wasCompact = element.classList.contains('compact');
      element.classList.remove('compact');
      const overflows = element.scrollWidth > element.clientWidth;
      if (wasCompact) element.classList.add('compact');
      setCompact(window.innerWidth < COMPACT_BELOW || overflows);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [header, locale, account]);
  return compact;
}

/** The marketing header above the page. */
export function MarketingLayout() {
  const { t, locale } = useI18n();
  const session = useSession();
  const allTools = useHoverMenu();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const header = useRef<HTMLElement>(null);
  const compact = useCompactHeader(header, locale, session.status);
  return (
    <div className={compact ? 'marketing compact' : 'marketing'}>
      <SkipLink />
      <header className={compact ? 'site-header compact' : 'site-header'} ref={header}>
        <Logo />
        <nav className="header-nav">
          <div className="menu-anchor" {...allTools.hoverProps}>
            <button
              type="button"
              className="header-link"
              aria-expanded={allTools.open}
              data-testid="all-tools-menu"
              onClick={() => allTools.setOpen(!allTools.open)}
            >
              {t('nav.allTools')} <Icon name="chevronDown" size={16} />
            </button>
            {allTools.open && (
              <div className="mega-menu" data-testid="mega-menu">
                <CategoryMenu onNavigate={() => allTools.setOpen(false)} />
              </div>
            )}
          </div>
          {/* Signed in, the workspace is the user's home, and Documents their cloud. */}
          <LocaleLink to="/app/home" className="header-link" data-testid="header-home">
            {session.user ? t('nav.home') : t('nav.workspace')}
          </LocaleLink>
          {session.user && (
            <LocaleLink to="/app/document-cloud" className="header-link" data-testid="header-documents">
              {t('nav.documents')}
            </LocaleLink>
          )}
          <LocaleLink to="/template" className="header-link" data-testid="header-templates">
            {t('nav.template')}
          </LocaleLink>
          <PricingLink />
        </nav>
        <HeaderSearch />
        <div className="header-actions">
          <MessageBell />
          <LanguageSwitcher />
          <AccountControl placement="below" withRegister />
        </div>
        <MessageBell className="bell-phone" />
        <PhoneAvatar onOpen={() => setDrawerOpen(true)} />
        <button
          type="button"
          className="icon-button header-menu-button"
          aria-label={t('nav.menu')}
          aria-expanded={drawerOpen}
          onClick={() => setDrawerOpen(!drawerOpen)}
        >
          <Icon name={drawerOpen ? 'close' : 'menu'} />
        </button>
      </header>
      {compact && drawerOpen && (
        <div className="mobile-drawer">
          <HeaderSearch />
          <CategoryMenu onNavigate={() => setDrawerOpen(false)} />
          <LocaleLink to="/template" className="header-link" onClick={() => setDrawerOpen(false)}>
            {t('nav.template')}
          </LocaleLink>
          <PricingLink />
          <div className="drawer-foot">
            <LanguageSwitcher />
            <AccountControl placement="above" withRegister />
          </div>
        </div>
      )}
      <main id={CONTENT_ID} tabIndex={-1} className="marketing-main">
        <TopBanner />
        <Outlet />
      </main>
      <footer className="site-footer">
        <Logo />
        <p>{t('footer.tagline')}</p>
      </footer>
    </div>
  );
}
