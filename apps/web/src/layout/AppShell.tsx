import { useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { splitLocalePrefix } from '../i18n/locales';
import { useI18n } from '../i18n/I18nProvider';
import { AccountControl, PhoneAvatar } from '../account/AccountControl';
import { Icon } from '../ui/Icon';
import { CONTENT_ID, SkipLink } from '../ui/SkipLink';
import { LocaleNavLink } from '../ui/LocaleLink';
import { MessageBell } from '../messages/MessageCentre';
import { IconTile } from '../ui/ToolIcon';
import { LanguageSwitcher } from './LanguageSwitcher';
import { Logo } from './MarketingLayout';
import { linkedPage, pagePath, sidebarItems, type NavGroup } from './navigation';
import { TopBanner } from './TopBanner';

/** The group holding the tool (or page) of the current page, open from the start. */
function groupOfPath(pathname: string): string | undefined {
  const slug = /^\/app\/([^/]+)/.exec(splitLocalePrefix(pathname).rest)?.[1];
  return sidebarItems.find((item) => item.kind === 'group' && item.children.some((c) => linkedPage(c).slug === slug))?.id;
}

/** The app layout: the sidebar beside the page; a top bar with a drawer on phones. */
export function AppShell() {
  const { t } = useI18n();
  const { pathname } = useLocation();
  const [drawerOpen, setDrawerOpen] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the drawer closes whenever the route changes, so pathname is the trigger
  useEffect(() => setDrawerOpen(false), [pathname]);

  return (
    <div className={`app-shell ${drawerOpen ? 'drawer-open' : ''}`}>
      <SkipLink />
      <div className="app-topbar">
        <Logo />
        <MessageBell className="bell-phone" />
        <PhoneAvatar onOpen={() => setDrawerOpen(true)} />
        <button
          type="button"
          className="icon-button"
          aria-label={t('nav.menu')}
          aria-expanded={drawerOpen}
          onClick={() => setDrawerOpen(!drawerOpen)}
        >
          <Icon name={drawerOpen ? 'close' : 'menu'} />
        </button>
      </div>
      <aside className="sidebar" data-testid="sidebar">
        <div className="sidebar-logo">
          <Logo />
        </div>
        <Sidebar initiallyOpen={groupOfPath(pathname)} />
        <div className="sidebar-footer">
          <LanguageSwitcher />
          <MessageBell />
          <AccountControl placement="above" />
        </div>
      </aside>
      {/* biome-ignore lint/a11y: the backdrop is a mouse shortcut only; the menu button closes the drawer from the keyboard */}
      <div className="drawer-backdrop" onClick={() => setDrawerOpen(false)} />
      <main id={CONTENT_ID} tabIndex={-1} className="app-main">
        <TopBanner />
        <Outlet />
      </main>
    </div>
  );
}

function Sidebar({ initiallyOpen }: { initiallyOpen: string | undefined }) {
  const { t } = useI18n();
  const [openGroups, setOpenGroups] = useState<Set<string>>(() => new Set(initiallyOpen ? [initiallyOpen] : []));
  const toggle = (id: string) =>
    setOpenGroups((open) => {
      const next = new Set(open);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <nav className="sidebar-nav">
      {sidebarItems.map((item) => {
        const label = t(item.labelKey);
        if (item.kind === 'link') {
          return (
            <LocaleNavLink key={item.id} to={item.path} className="nav-item" title={label}>
              <Icon name={item.icon} />
              <span className="nav-label">{label}</span>
            </LocaleNavLink>
          );
        }
        return <SidebarGroup key={item.id} group={item} open={openGroups.has(item.id)} onToggle={() => toggle(item.id)} />;
      })}
    </nav>
  );
}

function SidebarGroup({ group, open, onToggle }: { group: NavGroup; open: boolean; onToggle(): void }) {
  const { t } = useI18n();
  const label = t(group.labelKey);
  return (
    <div className={`nav-group ${open ? 'open' : ''}`}>
      <button type="button" className="nav-item" aria-expanded={open} title={label} onClick={onToggle}>
        <Icon name={group.icon} />
        <span className="nav-label">{label}</span>
        <Icon name="chevronDown" size={16} className="nav-chevron" />
      </button>
      {open && (
        <ul className="nav-children">
          {group.children.map((child) => {
            const page = linkedPage(child);
            return (
              <li key={page.slug}>
                <LocaleNavLink to={pagePath(page)} className="nav-child" title={t(page.title)}>
                  <IconTile {...page.look} size={22} />
                  <span className="nav-label">{t(page.title)}</span>
                </LocaleNavLink>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
