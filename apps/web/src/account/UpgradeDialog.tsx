// The upgrade dialog a limit of the plan opens: why the file or task was refused, and, for a
// visitor or a free account, what Premium (or, for the AI tools' limits, the AI plan) takes
// instead, with its prices. A visitor is offered to sign in, in case their account has more. Sharing's
// refusal has its own layout: what Premium shares, and one Buy now. Out of AI
// tokens (11003) the offer follows the role: a free account may take Premium (more tokens) or the AI
// plan, Premium the AI plan, and the AI plan is told when its monthly allowance renews. Buy buttons
// show only where the operator said how to buy (QUIRE_OPERATOR_CONTACT); the reason is the server's
// where it gave one (tokens or questions used up).
import { aiUpgradeDialogs, defaultLimits } from '@quire/contracts';
import type { ReactNode } from 'react';
import type { Upgrade } from '../api/client';
import { useRefusalMessage } from '../files/refusalMessage';
import { useI18n } from '../i18n/I18nProvider';
import { BuyLink } from '../pricing/BuyLink';
import { useOperatorContact } from '../pricing/operatorContact';
import { Icon } from '../ui/Icon';
import { useModal } from '../ui/useModal';
import { useSession } from './session';
import './account.css';

/** The product's English prices, in US dollars; checkout is the pricing page's. */
const PRICES = { yearly: '$39.99', monthly: '$5.99', ai: '$9.90' };
const premium = defaultLimits.premium;

export function UpgradeDialog({ refusal, onClose }: { refusal: Upgrade; onClose(): void }) {
  const { t, locale } = useI18n();
  const session = useSession();
  const refusalMessage = useRefusalMessage();
  const contact = useOperatorContact();
  const canBuy = contact !== undefined && contact.kind !== 'none';
  // The dialog itself takes the focus, not its close button: Tab leads on to the offer.
  const modal = useModal(onClose, 'dialog');

  const ai = aiUpgradeDialogs.includes(refusal.upgrade);
  const share = refusal.upgrade === 'shareUpgrade';
  const user = session.user;
  // A plan that already has what is offered is told the limit, and sold nothing.
  const offered = ai ? !user?.ai : !user || (!user.pay && !user.ai);
  const freeRole = !user || (!user.pay && !user.ai);
  // The AI plan's quotas are monthly, renewed on the first of each month (UTC).
  const renews =
    refusal.upgrade === 'AiUpgradeAgain'
      ? nextMonthStart(new Date()).toLocaleDateString(locale, { dateStyle: 'long', timeZone: 'UTC' })
      : null;
  const benefits = ai
    ? [t('upgrade.aiTokens'), t('upgrade.aiPages'), t('upgrade.aiQuestions'), t('upgrade.aiDetector')]
    : share
      ? [t('upgrade.shareWays'), t('upgrade.sharePermanent'), t('upgrade.shareDaily', { count: premium.sharesPerDay })]
      : [
          t('upgrade.premiumSize', { mb: premium.maxFileMb }),
          t('upgrade.premiumPages', { pages: premium.maxPages.toLocaleString('en-US') }),
          t('upgrade.premiumFiles'),
          t('upgrade.premiumOcr'),
          t('upgrade.premiumNoAds'),
        ];
  const title = ai ? t('upgrade.aiTitle') : share ? t('upgrade.shareTitle') : t('upgrade.premiumTitle');
  const signIn = () => {
    onClose();
    session.openSignIn('signIn');
  };

  return (
    <dialog
      {...modal}
      className={`upgrade-dialog ${ai ? 'upgrade-ai' : 'upgrade-premium'}${share ? ' upgrade-share' : ''}`}
      aria-labelledby="upgrade-title"
      data-testid="upgrade-dialog"
      data-upgrade={refusal.upgrade}
      tabIndex={-1}
    >
      <button type="button" className="icon-button upgrade-close" aria-label={t('account.close')} onClick={onClose}>
        <Icon name="close" />
      </button>
      <h2 id="upgrade-title">{offered ? title : t('upgrade.limitTitle')}</h2>
      <p className="upgrade-reason" data-testid="upgrade-reason">
        {refusalMessage(refusal)}
      </p>
      {renews && (
        <p className="upgrade-lead" data-testid="upgrade-renews">
          {t('upgrade.aiRenews', { date: renews })}
        </p>
      )}
      {offered && (
        <>
          <p className="upgrade-lead">{ai ? t('upgrade.aiLead') : t('upgrade.premiumLead')}</p>
          <ul className="upgrade-benefits" data-testid="upgrade-benefits">
            {benefits.map((text) => (
              <li key={text}>
                <Icon name="check" size={18} />
                {text}
              </li>
            ))}
          </ul>
          {canBuy && (
            <div className="upgrade-plans">
              {share ? (
                <PlanLink testId="upgrade-buy-now" primary onClose={onClose}>
                  {t('upgrade.buyNow')}
                </PlanLink>
              ) : ai ? (
                <>
                  <PlanLink testId="upgrade-buy-ai" primary onClose={onClose}>
                    {t('upgrade.buyAi', { price: PRICES.ai })}
                  </PlanLink>
                  {freeRole && (
                    <PlanLink testId="upgrade-buy-yearly" onClose={onClose}>
                      {t('upgrade.buyYearly', { price: PRICES.yearly })}
                      <span className="upgrade-saving">
                        {t('upgrade.premiumAiTokens', { tokens: premium.ai.tokens.toLocaleString(locale) })}
                      </span>
                    </PlanLink>
                  )}
                </>
              ) : (
                <>
                  <PlanLink testId="upgrade-buy-yearly" primary onClose={onClose}>
                    {t('upgrade.buyYearly', { price: PRICES.yearly })}
                    <span className="upgrade-saving">{t('upgrade.yearlySaving')}</span>
                  </PlanLink>
                  <PlanLink testId="upgrade-buy-monthly" onClose={onClose}>
                    {t('upgrade.buyMonthly', { price: PRICES.monthly })}
                  </PlanLink>
                </>
              )}
            </div>
          )}
        </>
      )}
      <div className="upgrade-foot">
        {session.status === 'signedOut' && (
          <span>
            {t('upgrade.haveAccount')}{' '}
            <button type="button" className="link-button" data-testid="upgrade-signin" onClick={signIn}>
              {t('account.signIn')}
            </button>
          </span>
        )}
        <button type="button" className="button button-ghost" data-testid="upgrade-cancel" onClick={onClose}>
          {!offered ? t('upgrade.ok') : share ? t('upgrade.cancel') : t('upgrade.notNow')}
        </button>
      </div>
    </dialog>
  );
}

/** A button to where plans are bought; it closes the dialog on the way. */
function PlanLink({ testId, primary, onClose, children }: { testId: string; primary?: boolean; onClose(): void; children: ReactNode }) {
  return (
    <BuyLink className={`button ${primary ? 'button-primary' : 'button-outline'} button-large`} testId={testId} onClick={onClose}>
      {children}
    </BuyLink>
  );
}

/** The first instant of the next calendar month in UTC: when monthly AI quotas renew. */
function nextMonthStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}
