// The header's account corner: Log in (and Free trial) while signed out, else the avatar with the
// personal centre.
import type { UserInfo } from '@quire/contracts';
import { useCallback, useRef } from 'react';
import { refreshAccount } from '../api/account';
import { AiTokensSummary } from '../ai/AiTokensSummary';
import { CloudSummary } from '../cloud/CloudSummary';
import { useI18n } from '../i18n/I18nProvider';
import { MENU_HOVER_DELAY_MS, useHoverMenu } from '../layout/useHoverMenu';
import { BuyLink } from '../pricing/BuyLink';
import { LocaleLink } from '../ui/LocaleLink';
import { useDismiss } from '../ui/useDismiss';
import { displayName, initialOf, planLabels } from './accountForms';
import { useSession } from './session';
import './account.css';

/** The personal centre stays a second after the pointer leaves it. */
const PERSONAL_CENTRE_CLOSE_MS = 1000;

/** `placement`: where the personal centre opens, below a header or above a sidebar's foot. */
export function AccountControl({ placement, withRegister = false }: { placement: 'below' | 'above'; withRegister?: boolean }) {
  const { t } = useI18n();
  const session = useSession();
  // Holds the avatar's place while the session is asked for, so the header does not jump.
  if (session.status === 'loading') return <span className="avatar-pending" />;
  if (!session.user) {
    return (
      <div className="account-buttons">
        {withRegister && (
          <button
            type="button"
            className="button button-primary header-register"
            data-testid="register-button"
            onClick={() => session.openSignIn('register')}
          >
            {t('nav.freeTrial')}
          </button>
        )}
        <button type="button" className="button button-outline" data-testid="login-button" onClick={() => session.openSignIn('signIn')}>
          {t('nav.login')}
        </button>
      </div>
    );
  }
  return <AvatarMenu user={session.user} placement={placement} />;
}

/** An address that wraps before its at-sign rather than inside a word. */
export function Address({ email }: { email: string }) {
  const at = email.indexOf('@');
  if (at < 0) return email;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}

/**
 * A Premium account's Pro badge, beside the avatar's button rather than in it: the button's name is
 * the menu's, and a name that leaves out text shown inside the button confuses voice control.
 */
function ProBadge({ user }: { user: UserInfo }) {
  const { t } = useI18n();
  return user.isVip ? <span className="pro-badge">{t('account.pro')}</span> : null;
}

/** On phones the personal centre sits in the menu's drawer: the top bar's avatar opens the drawer. */
export function PhoneAvatar({ onOpen }: { onOpen(): void }) {
  const { t } = useI18n();
  const { user } = useSession();
  if (!user) return null;
  return (
    <span className="avatar-anchor phone-avatar">
      <button
        type="button"
        className="avatar-button"
        aria-label={t('account.menu', { name: displayName(user) })}
        data-testid="phone-avatar"
        onClick={onOpen}
      >
        <Avatar user={user} />
      </button>
      <ProBadge user={user} />
    </span>
  );
}

export function Avatar({ user, large = false }: { user: UserInfo; large?: boolean }) {
  return (
    <span className={`avatar ${large ? 'avatar-large' : ''}`} aria-hidden="true">
      {initialOf(user)}
    </span>
  );
}

/** The plan's labels: Premium and AI Upgraded, either or both, or Free. */
export function PlanBadge({ user }: { user: UserInfo }) {
  const { t } = useI18n();
  const text = { premium: t('account.planPremium'), ai: t('account.planAi'), free: t('account.planFree') };
  return (
    <span className="plan-badges">
      {planLabels(user).map((plan) => (
        <span key={plan} className={`plan-badge plan-${plan}`} data-testid="plan-label">
          {text[plan]}
        </span>
      ))}
    </span>
  );
}

function AvatarMenu({ user, placement }: { user: UserInfo; placement: 'below' | 'above' }) {
  const { t } = useI18n();
  const session = useSession();
  const menu = useHoverMenu(MENU_HOVER_DELAY_MS, PERSONAL_CENTRE_CLOSE_MS);
  const name = displayName(user);
  const anchor = useRef<HTMLDivElement>(null);
  const { open, setOpen } = menu;
  // The plans the user does not have yet, Premium first.
  const buyable = [
    { has: user.isVip, testId: 'buy-premium', label: t('account.buyPremium') },
    { has: user.isAiUser, testId: 'buy-ai', label: t('account.buyAi') },
  ].filter((offer) => !offer.has);
  // A click or focus elsewhere, or Escape, closes the open menu.
  useDismiss(
    anchor,
    open,
    useCallback(() => setOpen(false), [setOpen]),
  );

  return (
    <div ref={anchor} className={`menu-anchor account-anchor account-${placement}`} {...menu.hoverProps}>
      <span className="avatar-anchor">
        <button
          type="button"
          className="avatar-button"
          aria-label={t('account.menu', { name })}
          aria-expanded={menu.open}
          data-testid="avatar-button"
          onClick={() => menu.setOpen(!menu.open)}
        >
          <Avatar user={user} />
        </button>
        <ProBadge user={user} />
      </span>
      {menu.open && (
        <div className="account-menu" data-testid="account-menu">
          <div className="account-menu-head">
            <Avatar user={user} large />
            <div className="account-menu-who">
              <strong>{name === user.email ? <Address email={user.email} /> : name}</strong>
              {name !== user.email && (
                <span>
                  <Address email={user.email} />
                </span>
              )}
            </div>
          </div>
          <span className="account-id">{t('account.id', { id: user.ws_id })}</span>
          <PlanBadge user={user} />
          <AiTokensSummary />
          <CloudSummary onNavigate={() => menu.setOpen(false)} />
          {buyable.length > 0 && (
            <div className="account-menu-buy">
              {buyable.map((offer, i) => (
                <BuyLink
                  key={offer.testId}
                  className={`button button-small ${i === 0 ? 'button-primary' : 'button-outline'}`}
                  testId={offer.testId}
                  onClick={() => menu.setOpen(false)}
                >
                  {offer.label}
                </BuyLink>
              ))}
            </div>
          )}
          <div className="account-menu-actions">
            <LocaleLink to="/app/account" className="account-menu-item" data-testid="account-settings" onClick={() => menu.setOpen(false)}>
              {t('account.settings')}
            </LocaleLink>
            {user.operator && (
              <LocaleLink to="/admin" className="account-menu-item" data-testid="admin-link" onClick={() => menu.setOpen(false)}>
                {t('account.operatorPage')}
              </LocaleLink>
            )}
            <button
              type="button"
              className="account-menu-item"
              data-testid="refresh-button"
              onClick={() => void refreshAccount().then(session.signedIn, () => undefined)}
            >
              {t('account.refresh')}
            </button>
            <button
              type="button"
              className="account-menu-item"
              data-testid="logout-button"
              onClick={() => {
                menu.setOpen(false);
                void session.signOut();
              }}
            >
              {t('account.logOut')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
