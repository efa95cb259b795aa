import { useState } from 'react';
import { Outlet } from 'react-router';
import { AccountControl, PhoneAvatar } from '../account/AccountControl';
import { useSession } from '../account/session';
import { useI18n, useT } from '../i18n/I18nProvider';
import { HeaderSearch } from '../search/ToolSearch';
import { Icon } from '../ui/Icon';
import { LocaleLink } from '../ui/LocaleLink';
import { CategoryMenu } from './CategoryMenu';
import { LanguageSwitcher } from './LanguageSwitcher';
import { useHoverMenu } from './useHoverMenu';

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

/** The marketing header above the page. */
export function MarketingLayout() {
  const t = useT();
  const session = useSession();
  const allTools = useHoverMenu();
  const [drawerOpen, setDrawerOpen] = useState(false);
  return (
    <div className="marketing">
      <header className="site-header">
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
          <LanguageSwitcher />
          <AccountControl placement="below" withRegister />
        </div>
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
      {drawerOpen && (
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
      <main className="marketing-main">
        <Outlet />
      </main>
      <footer className="site-footer">
        <Logo />
        <p>{t('footer.tagline')}</p>
      </footer>
    </div>
  );
}
