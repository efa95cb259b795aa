// The price table of each language's site, in the product's fields: Premium ("base") monthly and
// yearly, the AI plan ("plus") monthly and yearly, upgrades from one to the other, the currency, and
// the crossed-out yearly prices ("virtual") the discount is measured against. A field the product
// gives no number for is null and not shown.
import { siteLanguages } from '@quire/contracts';
import type { Locale } from '../i18n/locales';
import type { MessageKey } from '../i18n/translate';

export interface Prices {
  monthly: number;
  annually: number;
  monthlyPlus: number;
  annuallyPlus: number | null;
  monthlyUpgrade: number | null;
  annuallyUpgrade: number | null;
  /** ISO 4217 */
  currency: string;
  /** The yearly Premium price before the discount. */
  proYVirtual: number | null;
  plusYVirtual: number | null;
}

/** US dollars: Premium 5.99 a month or 39.99 a year (58% off 12 × 7.99), the AI plan 9.9 a month. */
const english: Prices = {
  monthly: 5.99,
  annually: 39.99,
  monthlyPlus: 9.9,
  annuallyPlus: null,
  monthlyUpgrade: null,
  annuallyUpgrade: null,
  currency: 'USD',
  proYVirtual: 95.88,
  plusYVirtual: null,
};

/** The euro sites: Premium 6 a month or 48 a year, the AI plan 8 a month or 62 a year. */
const euro: Prices = {
  monthly: 6,
  annually: 48,
  monthlyPlus: 8,
  annuallyPlus: 62,
  monthlyUpgrade: null,
  annuallyUpgrade: null,
  currency: 'EUR',
  proYVirtual: null,
  plusYVirtual: null,
};

/** The Spanish site's prices for visitors outside Spain: 5.95 a month, 39.95 a year (about 3.33 a month). */
const spanishFallback: Prices = { ...english, monthly: 5.95, annually: 39.95, proYVirtual: null };

/** The euro sites; the others' prices (yen, real, yuan, ruble…) are not given: those sites show the English prices. */
const EURO_LOCALES: readonly Locale[] = ['de-de', 'fr-fr', 'it-it', 'nl-nl'];

export const pricesByLocale = Object.fromEntries(
  siteLanguages.map(({ locale }) => [locale, EURO_LOCALES.includes(locale) ? euro : locale === 'es-es' ? spanishFallback : english]),
) as Record<Locale, Prices>;

/** A price in the locale's way: whole amounts without decimals (6 €), others with two ($5.99). */
export function formatPrice(amount: number, currency: string, locale: Locale): string {
  const digits = Number.isInteger(amount) ? 0 : 2;
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(amount);
}

/** A yearly price per month, to the cent: 39.95 a year is about 3.33 a month. */
export const perMonth = (yearly: number) => Math.round((yearly / 12) * 100) / 100;

/** How much the yearly price saves against its crossed-out price, in whole percent; null without one. */
export function yearlySaving(annually: number, virtual: number | null): number | null {
  return virtual === null ? null : Math.round((1 - annually / virtual) * 100);
}

export type PlanCard = 'free' | 'premium' | 'ai';

/** What each plan allows, as the product states its limits. */
export const PLAN_FEATURES: Record<PlanCard, MessageKey[]> = {
  free: ['pricing.free.size', 'pricing.free.pages', 'pricing.free.files', 'pricing.free.tokens', 'pricing.free.noOcr'],
  premium: ['pricing.premium.size', 'pricing.premium.pages', 'pricing.premium.ocr', 'pricing.premium.files', 'pricing.premium.noAds'],
  ai: ['pricing.ai.tokens', 'pricing.ai.analysis', 'pricing.ai.size', 'pricing.ai.chat', 'pricing.ai.detector'],
};
