import { describe, expect, it } from 'vitest';
import { exchangeRates, formatMoneyDto, formatPrice, formatStated, formatTotals, groupDigits, sumByCurrency } from '../../../../renderer/src/lib/money-display.ts';

describe('money display', () => {
  it('shows the currency code and exactly its decimals, grouped by thousands', () => {
    expect(formatMoneyDto({ currency: 'USD', amount: '1234567.5' })).toBe('USD 1,234,567.50');
    expect(formatMoneyDto({ currency: 'KRW', amount: '30000' })).toBe('KRW 30,000');
    expect(formatMoneyDto({ currency: 'KWD', amount: '1.5' })).toBe('KWD 1.500');
  });

  it('never goes through a float: an amount beyond double precision keeps its digits', () => {
    expect(groupDigits('9007199254740993.07')).toBe('9,007,199,254,740,993.07');
  });

  it('keeps totals per currency, one after the other, never summed across currencies', () => {
    expect(formatTotals([{ currency: 'EUR', amount: '25.00' }, { currency: 'USD', amount: '10.00' }])).toBe('EUR 25.00 · USD 10.00');
    expect(formatTotals([], 'nothing')).toBe('nothing');
    expect(sumByCurrency([{ currency: 'USD', amount: '0.10' }, { currency: 'USD', amount: '0.20' }, null, { currency: 'KRW', amount: '30000' }])).toEqual([
      { currency: 'KRW', amount: '30000' },
      { currency: 'USD', amount: '0.30' },
    ]);
  });

  it('shows a fixed price or a range with its currency', () => {
    expect(formatPrice({ kind: 'fixed', amount: { currency: 'USD', amount: '25' } })).toBe('USD 25.00');
    expect(formatPrice({ kind: 'range', min: { currency: 'KRW', amount: '5000' }, max: { currency: 'KRW', amount: '500000' } })).toBe('KRW 5,000 – 500,000');
  });

  it('lists each distinct exchange rate from product currency to account currency once', () => {
    const rows = [
      { amount: { currency: 'KRW', amount: '30000' }, charged: { currency: 'USD', amount: '22.50' }, exchangeRate: '0.00075' },
      { amount: { currency: 'KRW', amount: '30000' }, charged: { currency: 'USD', amount: '22.50' }, exchangeRate: '0.00075' },
      { amount: { currency: 'USD', amount: '10' }, charged: { currency: 'USD', amount: '10' }, exchangeRate: '1' },
      { amount: { currency: 'USD', amount: '10' }, charged: null, exchangeRate: null },
    ];
    expect(exchangeRates(rows)).toEqual([{ from: 'KRW', to: 'USD', rate: '0.00075' }]);
  });

  it('shows what the service stated exactly as given: extra decimals kept, never rounded', () => {
    expect(formatStated({ currency: 'USD', amount: '7.4925' })).toBe('USD 7.4925');
    expect(formatStated({ currency: 'USD', amount: '1234.5' })).toBe('USD 1,234.50');
    expect(formatStated({ currency: 'KRW', amount: '30000' })).toBe('KRW 30,000');
    expect(formatStated({ currency: 'USD', amount: 'n/a' })).toBe('USD n/a');
    expect(formatTotals([{ currency: 'USD', amount: '19.9925' }], '—', formatStated)).toBe('USD 19.9925');
  });
});
