// The plans compared, with the prices of the page's language. Quire takes no payment: a buy button
// says how to reach the operator of the server, who grants plans (QUIRE_OPERATOR_CONTACT).
import type { UserInfo } from '@quire/contracts';
import type { ReactNode } from 'react';
import { useSession } from '../account/session';
import { useI18n } from '../i18n/I18nProvider';
import { Icon } from '../ui/Icon';
import { useDocumentTitle } from '../ui/useDocumentTitle';
import { formatPrice, PLAN_FEATURES, perMonth, pricesByLocale, yearlySaving, type PlanCard } from './prices';
import { type OperatorContact, useOperatorContact } from './operatorContact';
import './pricing.css';

/** Whether the signed-in user already has the plan of a card. */
function hasPlan(user: UserInfo | null, card: PlanCard): boolean {
  if (!user) return false;
  if (card === 'premium') return user.isVip;
  if (card === 'ai') return user.isAiUser;
  return !user.isVip && !user.isAiUser;
}

export function PricingPage() {
  const { t, locale } = useI18n();
  const session = useSession();
  const contact = useOperatorContact();
  useDocumentTitle(t('pricing.title'));

  const prices = pricesByLocale[locale];
  const money = (amount: number) => formatPrice(amount, prices.currency, locale);
  const saving = yearlySaving(prices.annually, prices.proYVirtual);
  const user = session.user;

  const action = (card: PlanCard): ReactNode => {
    if (hasPlan(user, card)) {
      return (
        <span className="pricing-current" data-testid="your-plan">
          <Icon name="check" size={18} /> {t('pricing.yourPlan')}
        </span>
      );
    }
    if (card === 'free') {
      return user ? null : (
        <button type="button" className="button button-outline pricing-button" onClick={() => session.openSignIn('register')}>
          {t('pricing.startFree')}
        </button>
      );
    }
    return <OperatorContactAction contact={contact} label={card === 'premium' ? t('pricing.buyPremium') : t('pricing.buyAi')} />;
  };

  return (
    <div className="pricing-page">
      <header className="pricing-head">
        <h1>{t('pricing.title')}</h1>
        <p>{t('pricing.subtitle')}</p>
      </header>
      <div className="pricing-plans">
        <section className="card pricing-plan" data-testid="plan-free">
          <h2>{t('account.planFree')}</h2>
          <p className="pricing-price">
            <strong>{money(0)}</strong>
          </p>
          <p className="pricing-note">{t('pricing.freeNote')}</p>
          {action('free')}
          <Features card="free" />
        </section>
        <section className="card pricing-plan pricing-featured" data-testid="plan-premium">
          <h2>
            {t('account.planPremium')}
            {saving !== null && <span className="pricing-saving">{t('pricing.save', { percent: saving })}</span>}
          </h2>
          <p className="pricing-price">
            <strong data-testid="premium-yearly">{money(prices.annually)}</strong> <span>{t('pricing.perYear')}</span>
            {prices.proYVirtual !== null && <s className="pricing-virtual">{money(prices.proYVirtual)}</s>}
          </p>
          <p className="pricing-note" data-testid="premium-per-month">
            {t('pricing.aboutPerMonth', { price: money(perMonth(prices.annually)) })}
          </p>
          <p className="pricing-note" data-testid="premium-monthly">
            {t('pricing.orMonthly', { price: money(prices.monthly) })}
          </p>
          {action('premium')}
          <Features card="premium" />
        </section>
        <section className="card pricing-plan" data-testid="plan-ai">
          <h2>{t('account.planAi')}</h2>
          <p className="pricing-price">
            <strong data-testid="ai-monthly">{money(prices.monthlyPlus)}</strong> <span>{t('pricing.perMonth')}</span>
          </p>
          <p className="pricing-note" data-testid="ai-yearly">
            {prices.annuallyPlus === null ? t('pricing.aiNote') : t('pricing.orYearly', { price: money(prices.annuallyPlus) })}
          </p>
          {action('ai')}
          <Features card="ai" />
        </section>
      </div>
      <p className="pricing-foot">{t('pricing.noCheckout')}</p>
    </div>
  );
}

function Features({ card }: { card: PlanCard }) {
  const { t } = useI18n();
  return (
    <ul className="pricing-features">
      {PLAN_FEATURES[card].map((key) => (
        <li key={key}>
          <Icon name="check" size={16} />
          {t(key)}
        </li>
      ))}
    </ul>
  );
}

/** The buy button: a mail to the operator's address, their page, or a line saying whom to ask. */
function OperatorContactAction({ contact, label }: { contact: OperatorContact | undefined; label: string }) {
  const { t } = useI18n();
  if (contact === undefined) return <span className="pricing-button-pending" />;
  if (contact.kind === 'link') {
    return (
      <a
        className="button button-primary pricing-button"
        href={contact.href}
        data-testid="buy"
        {...(contact.external && { target: '_blank', rel: 'noopener noreferrer' })}
      >
        {label}
      </a>
    );
  }
  return (
    <p className="pricing-ask" data-testid="buy">
      {contact.kind === 'text' ? contact.text : t('pricing.askOperator')}
    </p>
  );
}
