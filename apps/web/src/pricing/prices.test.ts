import { describe, expect, it } from 'vitest';
import { formatPrice, perMonth, pricesByLocale, yearlySaving } from './prices';

describe('the price table', () => {
  it("gives English visitors the product's dollar prices, the yearly one 58% off", () => {
    const en = pricesByLocale['en-us'];
    expect([en.monthly, en.annually, en.monthlyPlus, en.currency]).toEqual([5.99, 39.99, 9.9, 'USD']);
    expect(yearlySaving(en.annually, en.proYVirtual)).toBe(58);
    expect(formatPrice(en.monthly, en.currency, 'en-us')).toBe('$5.99');
    expect(formatPrice(en.monthlyPlus, en.currency, 'en-us')).toBe('$9.90');
    expect(formatPrice(perMonth(en.annually), en.currency, 'en-us')).toBe('$3.33');
  });

  it('gives the Spanish site the fallback prices: 39.95 a year, 5.95 a month, about 3.33 a month', () => {
    const es = pricesByLocale['es-es'];
    expect([es.annually, es.monthly, perMonth(es.annually)]).toEqual([39.95, 5.95, 3.33]);
    expect(formatPrice(es.annually, es.currency, 'es-es')).toBe('39,95\u00a0US$');
    // No crossed-out price is given for it, so no saving is claimed.
    expect(yearlySaving(es.annually, es.proYVirtual)).toBeNull();
  });

  it('gives the euro sites 6 and 48 for Premium, 8 and 62 for the AI plan, without decimals', () => {
    for (const locale of ['de-de', 'fr-fr'] as const) {
      const eu = pricesByLocale[locale];
      expect([eu.monthly, eu.annually, eu.monthlyPlus, eu.annuallyPlus, eu.currency]).toEqual([6, 48, 8, 62, 'EUR']);
    }
    expect(formatPrice(6, 'EUR', 'de-de')).toBe('6\u00a0€');
    expect(formatPrice(perMonth(62), 'EUR', 'de-de')).toBe('5,17\u00a0€');
  });

  it('shows the English prices where no local ones are given', () => {
    expect(pricesByLocale['ja-jp']).toBe(pricesByLocale['en-us']);
    expect(pricesByLocale['pt-br']).toBe(pricesByLocale['en-us']);
  });
});
